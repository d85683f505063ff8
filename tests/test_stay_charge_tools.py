"""Money on a hotel stay (tools/stay_charges.py) on the boutique hotel's seed: each refund, fee
and charge written whole, each refusal with its field and words, and the boundaries.

Today is 2026-03-10T10:00 (``tests/test_stays.py``). STY-1019 (CUS-1024, flexible, deposit
PAY-1019 of $389.00, free cancellation until 2026-03-17T15:00) is booked; STY-1009 is
non-refundable; STY-1006 (Junior Suite RM-1009, check-in 15:00, early check-in $40.00) arrives
tomorrow; STY-1007 (CUS-1009) has checked out.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sandbox import World
from tests.helpers import next_payment_id, tool_error, tool_refusal, tool_result
from tests.test_stays import _world, hotel  # noqa: F401  (the fixture)
from tools import Effect

NOW = "2026-03-10T10:00"
NO_LINKS = {"order_id": None, "appointment_id": None, "subscription_id": None}


def _cancel(world: World, stay_id: str, at: Any) -> dict[str, Any]:
    stay = world.state.tables["stays"][stay_id]
    stay.update(status="cancelled", cancelled_at=at)
    return stay


def test_a_deposit_refund_is_written_whole_and_settles_the_charge(hotel):  # noqa: F811
    _cancel(hotel, "STY-1019", "2026-03-10T10:00")
    charge = copy.deepcopy(hotel.state.tables["payments"]["PAY-1019"])
    new = next_payment_id(hotel)
    refund = {
        "id": new,
        "customer_id": "CUS-1024",
        "kind": "refund",
        "amount_cents": 38900,
        "status": "completed",
        "refunded_cents": 0,
        "description": "Deposit refund: STY-1019 cancelled in time",
        "at": NOW,
        **NO_LINKS,
        "refund_of": "PAY-1019",
    }
    settled = {**charge, "refunded_cents": 38900, "status": "refunded"}
    assert tool_result(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"}) == {
        "payment": refund,
        "refunded": "$389.00",
    }
    assert hotel.state.tables["payments"]["PAY-1019"] == settled
    assert hotel.state.tables["payments"][new] == refund
    entry = hotel.ledger.entries[-1]
    assert entry.effect == Effect.COMPENSABLE
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("payments", charge, settled),
        ("payments", None, refund),
    ]


@pytest.mark.parametrize(
    "refunded, left",
    [(None, 38900), (0, 38900), (100, 38800), (38899, 1)],
    ids=["none-on-file", "none", "some", "all-but-a-cent"],
)
def test_a_deposit_refund_returns_what_is_left_of_the_charge(hotel, refunded, left):  # noqa: F811
    _cancel(hotel, "STY-1019", "2026-03-12T09:00")
    charge = hotel.state.tables["payments"]["PAY-1019"]
    if refunded is None:
        charge.pop("refunded_cents")
    else:
        charge["refunded_cents"] = refunded
    result = tool_result(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"})
    assert result["payment"]["amount_cents"] == left
    charge = hotel.state.tables["payments"]["PAY-1019"]
    assert (charge["refunded_cents"], charge["status"]) == (38900, "refunded")


def test_a_deposit_is_refunded_once(hotel):  # noqa: F811
    _cancel(hotel, "STY-1019", "2026-03-12T09:00")
    tool_result(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"})
    assert tool_refusal(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"}) == tool_error(
        "conflict", "The deposit PAY-1019 was already refunded.", "stay_id"
    )


@pytest.mark.parametrize(
    "cancelled_at, in_time",
    [
        ("2026-03-17T15:00", True),  # at the deadline
        ("2026-03-17T14:59", True),
        ("2026-03-17T15:01", False),
        (None, False),
    ],
)
def test_a_deposit_is_refunded_only_for_a_cancellation_by_the_deadline(
    hotel,  # noqa: F811
    cancelled_at,
    in_time,
):
    _cancel(hotel, "STY-1019", cancelled_at)
    if in_time:
        assert (
            tool_result(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"})["refunded"]
            == "$389.00"
        )
    else:
        assert tool_refusal(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"}) == tool_error(
            "conflict",
            "Stay STY-1019 was cancelled after its free-cancellation deadline "
            "(2026-03-17T15:00); the deposit is kept.",
            "stay_id",
        )


def test_a_flexible_stay_with_no_deadline_or_no_cancellation_time_keeps_its_deposit(hotel):  # noqa: F811
    stay = _cancel(hotel, "STY-1019", "2026-03-12T09:00")
    stay["free_cancel_until"] = None
    assert tool_refusal(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"}) == tool_error(
        "conflict",
        "Stay STY-1019 was cancelled after its free-cancellation deadline (None); "
        "the deposit is kept.",
        "stay_id",
    )
    stay["free_cancel_until"] = "2026-03-17T15:00"
    stay.pop("cancelled_at")
    assert tool_refusal(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"})["message"] == (
        "Stay STY-1019 was cancelled after its free-cancellation deadline "
        "(2026-03-17T15:00); the deposit is kept."
    )
    stay.pop("free_cancel_until")
    stay["cancelled_at"] = "2026-03-12T09:00"
    assert (
        "(None)" in tool_refusal(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"})["message"]
    )


@pytest.mark.parametrize("deposit", [None, "", "PAY-9999"], ids=["none", "empty", "unknown"])
def test_a_stay_whose_deposit_is_not_on_file_is_refused(hotel, deposit):  # noqa: F811
    stay = _cancel(hotel, "STY-1019", "2026-03-12T09:00")
    stay["deposit_payment_id"] = deposit
    assert tool_refusal(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"}) == tool_error(
        "not_found", f"No payment with id {(deposit or '')!r}.", "stay_id"
    )


def test_a_deposit_refund_is_refused_for_a_live_or_non_refundable_stay(hotel):  # noqa: F811
    assert tool_refusal(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"}) == tool_error(
        "conflict", "Stay STY-1019 is booked.", "stay_id"
    )
    _cancel(hotel, "STY-1009", "2026-03-10T09:00")
    assert tool_refusal(hotel, "refund_stay_deposit", {"stay_id": "STY-1009"}) == tool_error(
        "conflict", "A non-refundable prepayment is not refunded.", "stay_id"
    )
    assert tool_refusal(hotel, "refund_stay_deposit", {"stay_id": "STY-9999"}) == tool_error(
        "not_found", "No stay with id 'STY-9999'.", "stay_id"
    )


def test_early_check_in_is_written_whole_with_its_fee_due(hotel):  # noqa: F811
    stay = copy.deepcopy(hotel.state.tables["stays"]["STY-1006"])
    new = next_payment_id(hotel)
    fee = {
        "id": new,
        "customer_id": "CUS-1008",
        "kind": "fee",
        "amount_cents": 4000,
        "status": "due",
        "refunded_cents": 0,
        "description": "Early check-in fee: STY-1006 from 10:00",
        "at": NOW,
        **NO_LINKS,
        "refund_of": None,
    }
    arranged = {**stay, "early_checkin": "10:00"}
    assert tool_result(hotel, "add_early_checkin", {"stay_id": "STY-1006", "arrival": "10:00"}) == {
        "stay": arranged,
        "fee": fee,
        "fee_due": "$40.00",
    }
    assert hotel.state.tables["stays"]["STY-1006"] == arranged
    assert hotel.state.tables["payments"][new] == fee
    entry = hotel.ledger.entries[-1]
    assert entry.effect == Effect.COMPENSABLE
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("stays", stay, arranged),
        ("payments", None, fee),
    ]
    assert tool_refusal(
        hotel, "add_early_checkin", {"stay_id": "STY-1006", "arrival": "11:00"}
    ) == (tool_error("conflict", "Early check-in at 10:00 is already arranged.", "stay_id"))


@pytest.mark.parametrize(
    "arrival, allowed",
    [("09:00", True), ("08:59", False), ("14:59", True), ("15:00", False)],
)
def test_early_check_in_is_from_nine_to_before_the_rooms_check_in_time(hotel, arrival, allowed):  # noqa: F811
    args = {"stay_id": "STY-1006", "arrival": arrival}
    if allowed:
        assert tool_result(hotel, "add_early_checkin", args)["stay"]["early_checkin"] == arrival
    else:
        assert tool_refusal(hotel, "add_early_checkin", args) == tool_error(
            "invalid_arguments", "Early check-in is from 09:00 to before 15:00.", "arrival"
        )


def _put_stay(world: World, sid: str, room: str, check_in: str, check_out: str) -> None:
    stay = copy.deepcopy(world.state.tables["stays"]["STY-1006"])
    stay.update(
        id=sid, room_id=room, check_in=check_in, check_out=check_out, deposit_payment_id=None
    )
    world.state.tables["stays"][sid] = stay


@pytest.mark.parametrize(
    "check_in, check_out, occupied",
    [
        ("2026-03-10", "2026-03-11", True),  # the night before
        ("2026-03-09", "2026-03-11", True),
        ("2026-03-09", "2026-03-10", False),  # leaves the morning of the day before
    ],
)
def test_early_check_in_needs_the_room_empty_the_night_before(hotel, check_in, check_out, occupied):  # noqa: F811
    _put_stay(hotel, "STY-1099", "RM-1009", check_in, check_out)
    args = {"stay_id": "STY-1006", "arrival": "12:00"}
    if occupied:
        assert tool_refusal(hotel, "add_early_checkin", args) == tool_error(
            "conflict",
            "Junior Suite is occupied the night before; early check-in cannot be promised.",
            "stay_id",
        )
    else:
        assert tool_result(hotel, "add_early_checkin", args)["fee_due"] == "$40.00"


def test_early_check_in_is_refused_for_a_stay_not_booked_or_a_room_not_on_file(hotel):  # noqa: F811
    assert tool_refusal(
        hotel, "add_early_checkin", {"stay_id": "STY-1007", "arrival": "10:00"}
    ) == (tool_error("conflict", "Stay STY-1007 is checked_out.", "stay_id"))
    hotel.state.tables["stays"]["STY-1006"]["room_id"] = "RM-9999"
    assert tool_refusal(
        hotel, "add_early_checkin", {"stay_id": "STY-1006", "arrival": "10:00"}
    ) == (tool_error("not_found", "No room with id 'RM-9999'.", "stay_id"))


def test_a_bad_check_in_date_on_file_is_named_on_the_stay(hotel):  # noqa: F811
    hotel.state.tables["stays"]["STY-1006"]["check_in"] = "2026-02-30"
    assert tool_refusal(
        hotel, "add_early_checkin", {"stay_id": "STY-1006", "arrival": "10:00"}
    ) == (
        tool_error(
            "invalid_arguments",
            "'2026-02-30' is not a valid date; expected YYYY-MM-DD.",
            "stay_id",
        )
    )


def test_damage_after_checkout_is_charged_whole_and_irreversibly(hotel):  # noqa: F811
    new = next_payment_id(hotel)
    args = {"stay_id": "STY-1007", "amount_cents": 18050, "description": "Broken lamp"}
    payment = {
        "id": new,
        "customer_id": "CUS-1009",
        "kind": "charge",
        "amount_cents": 18050,
        "status": "completed",
        "refunded_cents": 0,
        "description": "Damage: Broken lamp (STY-1007)",
        "at": NOW,
        **NO_LINKS,
        "refund_of": None,
    }
    assert tool_result(hotel, "charge_damage", args) == {"payment": payment, "charged": "$180.50"}
    assert hotel.state.tables["payments"][new] == payment
    entry = hotel.ledger.entries[-1]
    assert entry.effect == Effect.IRREVERSIBLE and entry.effect_note is None  # the tool's own
    assert [(c.table, c.before, c.after) for c in entry.changes] == [("payments", None, payment)]
    assert tool_refusal(hotel, "charge_damage", {**args, "stay_id": "STY-1006"}) == tool_error(
        "conflict", "Stay STY-1006 is booked.", "stay_id"
    )


@pytest.mark.parametrize(
    "name, args",
    [
        ("refund_stay_deposit", {"stay_id": "STY-1001"}),
        ("add_early_checkin", {"stay_id": "STY-1001", "arrival": "10:00"}),
        ("charge_damage", {"stay_id": "STY-1001", "amount_cents": 100, "description": "x"}),
    ],
)
def test_a_business_without_rooms_refuses_the_stay_money_tools(world, name, args):
    assert tool_refusal(world, name, args) == tool_error(
        "invalid_arguments", "This business keeps no room bookings.", "stay_id"
    )


def test_a_fresh_hotel_is_used_by_each_test():
    assert "cancelled_at" not in _world().state.tables["stays"]["STY-1019"]
