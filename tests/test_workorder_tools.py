"""The repair-shop tools (tools/workorders.py) on the auto repair shop's public seed: each result
and write whole, each refusal with its field and words, and the boundaries of approval amounts
and loaner dates.

Today is 2026-03-10T10:00 (``tests/test_workorders.py``). VEH-1002 (Marcus Webb, CUS-1002) is
co-owned by Elena Ruiz (CUS-1003), who also owns VEH-1003; LNR-1001 is out until 2026-03-13
(LNB-1051), LNR-1002 and LNR-1003 are available, LNR-1004 is in service.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sandbox import World
from tests.helpers import tool_error, tool_refusal, tool_result
from tests.test_workorders import NOW, shop  # noqa: F401  (the fixture)
from tools import Effect
from tools.workorders import covered_lines, keepers


def _rows(world: World, table: str, *ids: str) -> list[dict[str, Any]]:
    return [world.state.tables[table][i] for i in ids]


def test_keepers_are_the_owner_then_the_co_owners():
    assert keepers({"owner_id": "CUS-1", "co_owner_ids": ["CUS-2", "CUS-3"]}) == [
        "CUS-1",
        "CUS-2",
        "CUS-3",
    ]
    assert keepers({"owner_id": "CUS-1"}) == ["CUS-1"]


@pytest.mark.parametrize(
    "amount, count",
    [
        (0, 0),
        (99, 0),
        (100, 1),
        (160, 1),  # the third line would fit after the first, but the second stops the cover
        (349, 1),
        (350, 2),
        (409, 3),
        (410, 4),
    ],
)
def test_an_approval_covers_the_lines_in_order_while_they_fit(amount, count):
    lines = [{"cents": 100}, {"cents": 250}, {"cents": 50}, {"cents": 10}]
    assert covered_lines({"lines": lines}, amount) == lines[:count]
    assert covered_lines({}, 1000) == []


def test_a_customer_sees_the_vehicles_they_own_or_co_own_whole(shop):  # noqa: F811
    shop.state.tables["vehicles"]["VEH-1003"].pop("co_owner_ids")
    assert tool_result(shop, "list_vehicles", {"customer_id": "CUS-1003"}) == {
        "vehicles": _rows(shop, "vehicles", "VEH-1002", "VEH-1003")
    }
    assert tool_result(shop, "list_vehicles", {"customer_id": "CUS-1002"}) == {
        "vehicles": _rows(shop, "vehicles", "VEH-1002")
    }
    assert tool_refusal(shop, "list_vehicles", {"customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


def test_work_orders_are_listed_whole_newest_first_then_by_id(shop):  # noqa: F811
    assert tool_result(shop, "list_work_orders", {"customer_id": "CUS-1008"}) == {
        "work_orders": _rows(shop, "work_orders", "WO-1006", "WO-1007")
    }
    shop.state.tables["work_orders"]["WO-1007"]["opened_at"] = "2026-03-10T07:45"
    assert tool_result(shop, "list_work_orders", {"customer_id": "CUS-1008"}) == {
        "work_orders": _rows(shop, "work_orders", "WO-1007", "WO-1006")
    }


def test_a_co_owner_sees_the_shared_vehicles_work_orders_and_may_pick_a_vehicle(shop):  # noqa: F811
    wo = _rows(shop, "work_orders", "WO-1011")
    assert tool_result(shop, "list_work_orders", {"customer_id": "CUS-1003"}) == {"work_orders": wo}
    args = {"customer_id": "CUS-1003", "vehicle_id": "VEH-1002"}
    assert tool_result(shop, "list_work_orders", args) == {"work_orders": wo}
    assert tool_result(shop, "list_work_orders", {**args, "vehicle_id": "VEH-1003"}) == {
        "work_orders": []
    }


def test_work_orders_of_a_vehicle_not_kept_or_unknown_are_refused(shop):  # noqa: F811
    args = {"customer_id": "CUS-1001", "vehicle_id": "VEH-1002"}
    assert tool_refusal(shop, "list_work_orders", args) == tool_error(
        "conflict", "Hannah Brooks is not an owner of vehicle VEH-1002.", "vehicle_id"
    )
    assert tool_refusal(shop, "list_work_orders", {**args, "vehicle_id": "VEH-9999"}) == tool_error(
        "not_found", "No vehicles with id 'VEH-9999'.", "vehicle_id"
    )
    assert tool_refusal(
        shop, "list_work_orders", {**args, "customer_id": "CUS-9999"}
    ) == tool_error("not_found", "No customer with id 'CUS-9999'.", "customer_id")


def test_an_approval_is_written_whole_and_returns_the_lines_it_covers(shop):  # noqa: F811
    before = copy.deepcopy(shop.state.tables["work_orders"]["WO-1011"])
    args = {"work_order_id": "WO-1011", "customer_id": "CUS-1003", "amount_cents": 41500}
    approved = {
        **before,
        "status": "approved",
        "approved_cents": 41500,
        "approved_by": "CUS-1003",
        "approved_at": NOW,
    }
    assert tool_result(shop, "approve_work_order", args) == {
        "work_order": approved,
        "approved_lines": before["lines"][:2],
    }
    assert shop.state.tables["work_orders"]["WO-1011"] == approved
    entry = shop.ledger.entries[-1]
    assert entry.effect == Effect.REVERSIBLE and entry.effect_note is None
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("work_orders", before, approved)
    ]


def test_an_approved_estimate_may_be_approved_again_before_the_work_starts(shop):  # noqa: F811
    args = {"work_order_id": "WO-1054", "customer_id": "CUS-1036", "amount_cents": 24600}
    assert tool_result(shop, "approve_work_order", args)["work_order"]["approved_cents"] == 24600


@pytest.mark.parametrize(
    "order, who, words",
    [
        ("WO-1013", "CUS-1013", "ready"),
        ("WO-1009", "CUS-1010", "in progress"),
        ("WO-1008", "CUS-1009", "waiting parts"),
        ("WO-1007", "CUS-1008", "completed"),
    ],
)
def test_work_already_started_cannot_be_approved(shop, order, who, words):  # noqa: F811
    args = {"work_order_id": order, "customer_id": who, "amount_cents": 1000}
    assert tool_refusal(shop, "approve_work_order", args) == tool_error(
        "conflict",
        f"{order} is {words}: an estimate can be approved only before the work starts.",
        "work_order_id",
    )


def test_an_approval_is_refused_above_the_estimate_or_below_the_first_line(shop):  # noqa: F811
    args = {"work_order_id": "WO-1002", "customer_id": "CUS-1004"}
    assert tool_refusal(shop, "approve_work_order", {**args, "amount_cents": 43701}) == tool_error(
        "conflict",
        "WO-1002's estimate is 43700 cents; approve at most that (a larger job needs a new "
        "estimate).",
        "amount_cents",
    )
    assert tool_refusal(shop, "approve_work_order", {**args, "amount_cents": 14899}) == tool_error(
        "conflict",
        "14899 cents covers no line of the estimate (the first line is 14900 cents).",
        "amount_cents",
    )
    assert (
        len(
            tool_result(shop, "approve_work_order", {**args, "amount_cents": 43700})[
                "approved_lines"
            ]
        )
        == 4
    )


def test_an_estimate_with_no_lines_covers_nothing(shop):  # noqa: F811
    shop.state.tables["work_orders"]["WO-1002"]["lines"] = []
    args = {"work_order_id": "WO-1002", "customer_id": "CUS-1004", "amount_cents": 100}
    assert tool_refusal(shop, "approve_work_order", args) == tool_error(
        "conflict",
        "100 cents covers no line of the estimate (the first line is 0 cents).",
        "amount_cents",
    )


def test_an_approval_by_someone_not_keeping_the_vehicle_is_refused(shop):  # noqa: F811
    vehicle = shop.state.tables["vehicles"]["VEH-1011"]
    args = {"work_order_id": "WO-1010", "customer_id": "CUS-1012", "amount_cents": 88000}
    assert tool_refusal(shop, "approve_work_order", args) == tool_error(
        "conflict",
        f"Carlos Mendes is not an owner or co-owner of the {vehicle['year']} {vehicle['make']} "
        f"{vehicle['model']} on WO-1010.",
        "customer_id",
    )
    assert tool_refusal(
        shop, "approve_work_order", {**args, "customer_id": "CUS-9999"}
    ) == tool_error("not_found", "No customer with id 'CUS-9999'.", "customer_id")
    assert tool_refusal(
        shop, "approve_work_order", {**args, "work_order_id": "WO-9999"}
    ) == tool_error("not_found", "No work_orders with id 'WO-9999'.", "work_order_id")
    shop.state.tables["work_orders"]["WO-1010"]["vehicle_id"] = "VEH-9999"
    assert tool_refusal(
        shop, "approve_work_order", {**args, "customer_id": "CUS-1011"}
    ) == tool_error("not_found", "No vehicles with id 'VEH-9999'.", "work_order_id")


@pytest.mark.parametrize(
    "amount, note",
    [
        (98000, "Cylinder heads, machined (special order from the machine shop)"),
        (
            122000,
            "Cylinder heads, machined (special order from the machine shop), Head gasket set and"
            " bolts",
        ),
    ],
)
def test_approving_special_order_parts_is_irreversible_and_names_them(shop, amount, note):  # noqa: F811
    shop.state.tables["work_orders"]["WO-1004"]["lines"][1]["special_order"] = True
    args = {"work_order_id": "WO-1004", "customer_id": "CUS-1006", "amount_cents": amount}
    tool_result(shop, "approve_work_order", args)
    entry = shop.ledger.entries[-1]
    assert entry.effect == Effect.IRREVERSIBLE
    assert entry.effect_note == (
        "approval orders special-order parts that cannot be returned: " + note
    )


def test_a_special_order_part_not_covered_leaves_the_approval_reversible(shop):  # noqa: F811
    shop.state.tables["work_orders"]["WO-1001"]["lines"][1]["special_order"] = True
    shop.state.tables["work_orders"]["WO-1001"]["lines"][0]["special_order"] = False
    args = {"work_order_id": "WO-1001", "customer_id": "CUS-1001", "amount_cents": 46949}
    tool_result(shop, "approve_work_order", args)
    entry = shop.ledger.entries[-1]
    assert entry.effect == Effect.REVERSIBLE and entry.effect_note is None


def _loaner(**args: Any) -> dict[str, Any]:
    base = {
        "work_order_id": "WO-1008",
        "customer_id": "CUS-1009",
        "until": "2026-03-13",
        "complimentary": True,
    }
    return {**base, **args}


@pytest.mark.parametrize("complimentary, daily", [(True, 0), (False, 3900)])
def test_a_loaner_booking_is_written_whole_on_the_first_free_car(shop, complimentary, daily):  # noqa: F811
    car = copy.deepcopy(shop.state.tables["loaners"]["LNR-1002"])
    booking = {
        "id": "LNB-1053",
        "loaner_id": "LNR-1002",
        "customer_id": "CUS-1009",
        "work_order_id": "WO-1008",
        "start": "2026-03-10",
        "until": "2026-03-13",
        "daily_cents": daily,
        "status": "booked",
    }
    assert tool_result(shop, "book_loaner", _loaner(complimentary=complimentary)) == {
        "loaner_booking": booking,
        "loaner": car,
    }
    assert shop.state.tables["loaner_bookings"]["LNB-1053"] == booking
    entry = shop.ledger.entries[-1]
    assert entry.effect == Effect.REVERSIBLE
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("loaner_bookings", None, booking)
    ]


def test_a_loaner_may_come_back_today_but_not_before(shop):  # noqa: F811
    assert tool_refusal(shop, "book_loaner", _loaner(until="2026-03-09")) == tool_error(
        "invalid_arguments", "2026-03-09 is before today (2026-03-10).", "until"
    )
    assert tool_result(shop, "book_loaner", _loaner(until="2026-03-10"))["loaner_booking"][
        "until"
    ] == ("2026-03-10")


@pytest.mark.parametrize(
    "order, who, status",
    [("WO-1007", "CUS-1008", "completed"), ("WO-1015", "CUS-1015", "declined")],
)
def test_a_finished_or_declined_job_needs_no_loaner(shop, order, who, status):  # noqa: F811
    args = _loaner(work_order_id=order, customer_id=who)
    assert tool_refusal(shop, "book_loaner", args) == tool_error(
        "conflict", f"{order} is {status}: no loaner is needed.", "work_order_id"
    )


@pytest.mark.parametrize(
    "status, blocks", [("booked", True), ("out", True), ("returned", False), ("cancelled", False)]
)
def test_a_work_order_has_one_live_loaner_booking(shop, status, blocks):  # noqa: F811
    shop.state.tables["loaner_bookings"]["LNB-1052"].update(work_order_id="WO-1008", status=status)
    if blocks:
        assert tool_refusal(shop, "book_loaner", _loaner()) == tool_error(
            "conflict", "Loaner booking LNB-1052 already covers WO-1008.", "work_order_id"
        )
    else:
        assert tool_result(shop, "book_loaner", _loaner())["loaner_booking"]["id"] == "LNB-1053"


@pytest.mark.parametrize(
    "start, until, free",
    [
        ("2026-03-05", "2026-03-09", True),  # back yesterday
        ("2026-03-05", "2026-03-10", False),  # back today
        ("2026-03-12", "2026-03-20", True),  # starts the day after ours ends
        ("2026-03-11", "2026-03-20", False),  # starts the day ours ends
    ],
)
def test_a_car_is_free_unless_a_live_booking_shares_a_day(shop, start, until, free):  # noqa: F811
    shop.state.tables["loaner_bookings"]["LNB-1051"].update(start=start, until=until)
    args = _loaner(loaner_id="LNR-1001", until="2026-03-11")
    if free:
        assert tool_result(shop, "book_loaner", args)["loaner_booking"]["loaner_id"] == "LNR-1001"
    else:
        assert tool_refusal(shop, "book_loaner", args) == tool_error(
            "conflict", "No loaner car is free from 2026-03-10 to 2026-03-11.", "loaner_id"
        )


def test_a_returned_booking_does_not_hold_its_car(shop):  # noqa: F811
    shop.state.tables["loaner_bookings"]["LNB-1052"].update(start="2026-03-01", until="2026-03-20")
    args = _loaner(loaner_id="LNR-1002")
    assert tool_result(shop, "book_loaner", args)["loaner_booking"]["loaner_id"] == "LNR-1002"


def test_a_car_in_service_or_unknown_is_not_booked(shop):  # noqa: F811
    assert tool_refusal(shop, "book_loaner", _loaner(loaner_id="LNR-1004")) == tool_error(
        "conflict", "No loaner car is free from 2026-03-10 to 2026-03-13.", "loaner_id"
    )
    assert tool_refusal(shop, "book_loaner", _loaner(loaner_id="LNR-9999")) == tool_error(
        "not_found", "No loaners with id 'LNR-9999'.", "loaner_id"
    )


def test_with_no_car_free_the_refusal_names_the_return_date(shop):  # noqa: F811
    for car in ("LNR-1002", "LNR-1003"):
        shop.state.tables["loaners"][car]["status"] = "in_service"
    assert tool_refusal(shop, "book_loaner", _loaner()) == tool_error(
        "conflict", "No loaner car is free from 2026-03-10 to 2026-03-13.", "until"
    )


def test_the_next_free_car_is_taken_when_the_first_is_booked(shop):  # noqa: F811
    first = tool_result(shop, "book_loaner", _loaner())["loaner_booking"]
    second = tool_result(
        shop, "book_loaner", _loaner(work_order_id="WO-1009", customer_id="CUS-1010")
    )
    assert (first["loaner_id"], second["loaner_booking"]["loaner_id"]) == ("LNR-1002", "LNR-1003")


def test_a_loaner_is_refused_to_someone_not_keeping_the_vehicle(shop):  # noqa: F811
    vehicle = shop.state.tables["vehicles"]["VEH-1009"]
    assert tool_refusal(shop, "book_loaner", _loaner(customer_id="CUS-1010")) == tool_error(
        "conflict",
        f"Sam Whitfield is not an owner or co-owner of the {vehicle['year']} {vehicle['make']} "
        f"{vehicle['model']} on WO-1008.",
        "customer_id",
    )
    assert tool_refusal(shop, "book_loaner", _loaner(work_order_id="WO-9999")) == tool_error(
        "not_found", "No work_orders with id 'WO-9999'.", "work_order_id"
    )
    assert tool_refusal(shop, "book_loaner", _loaner(customer_id="CUS-9999")) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


@pytest.mark.parametrize(
    "where, field",
    [("args", "until"), ("LNB-1051/until", "until"), ("LNB-1051/start", "until")],
)
def test_an_impossible_loaner_date_is_named_on_the_return_date(shop, where, field):  # noqa: F811
    args = _loaner(loaner_id="LNR-1001")
    if where == "args":
        args["until"] = "2026-02-30"
    else:
        booking, key = where.split("/")
        shop.state.tables["loaner_bookings"][booking][key] = "2026-02-30"
    assert tool_refusal(shop, "book_loaner", args) == tool_error(
        "invalid_arguments", "'2026-02-30' is not a valid date; expected YYYY-MM-DD.", field
    )


@pytest.mark.parametrize(
    "name, args, field",
    [
        ("list_vehicles", {"customer_id": "CUS-1001"}, "customer_id"),
        ("list_work_orders", {"customer_id": "CUS-1001"}, "customer_id"),
        (
            "approve_work_order",
            {"work_order_id": "WO-1001", "customer_id": "CUS-1001", "amount_cents": 100},
            "work_order_id",
        ),
        ("book_loaner", _loaner(), "work_order_id"),
    ],
)
def test_a_business_without_the_shops_tables_refuses_the_tools(world, name, args, field):
    assert tool_refusal(world, name, args) == tool_error(
        "invalid_arguments", "This business keeps no vehicle or work-order records.", field
    )
