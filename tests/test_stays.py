"""The stay tools (tools/stays.py) against the boutique hotel's own declared tables and seed.

The public draw's "today" is Tuesday 2026-03-10; each stay named here is described where the
kit's business template lays it out (businesses/kits/boutique_hotel/business.yaml.j2).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from businesses.loader import load_business
from sandbox import SimClock, State, World
from sandbox.tables import STANDARD_TABLES
from tools import Effect, default_registry

HOTEL = Path(__file__).resolve().parents[1] / "businesses" / "public" / "boutique_hotel"
TODAY = "2026-03-10"


def _world(now: str = f"{TODAY}T10:00", state: State | None = None) -> World:
    business, _ = load_business(HOTEL)
    if state is None:
        specs = {**STANDARD_TABLES, **business.extra_tables}
        state = State(copy.deepcopy(business.seed), specs)
    return World(state, default_registry(), SimClock(now))


@pytest.fixture
def hotel() -> World:
    return _world()


def _ok(world: World, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    record = world.call(tool, args)
    assert record.outcome == "ok", record.result
    return record.result


def _refused(world: World, tool: str, args: dict[str, Any], code: str) -> dict[str, Any]:
    before = copy.deepcopy(world.state.tables)
    record = world.call(tool, args)
    assert record.outcome == "rejected" and record.error_code == code, record.result
    assert world.state.tables == before, "a refused call changed the state"
    return record.result["error"]


def _stays(world: World) -> dict[str, dict[str, Any]]:
    return world.state.tables["stays"]


def _payments(world: World, customer_id: str) -> list[dict[str, Any]]:
    return [p for p in world.state.tables["payments"].values() if p["customer_id"] == customer_id]


def test_search_lists_only_rooms_free_every_night_and_back_to_back_stays_do_not_clash(hotel):
    # Room 203 (RM-1006) is booked for the 13th and 14th nights (STY-1001, out on the 15th).
    rooms = _ok(hotel, "search_rooms", {"check_in": "2026-03-14", "check_out": "2026-03-16"})
    free = {r["room"]["id"] for r in rooms["rooms"]}
    assert "RM-1006" not in free
    after = _ok(hotel, "search_rooms", {"check_in": "2026-03-15", "check_out": "2026-03-16"})
    assert "RM-1006" in {r["room"]["id"] for r in after["rooms"]}


def test_search_quotes_each_rate_plan_and_filters_by_type_and_party(hotel):
    result = _ok(
        hotel,
        "search_rooms",
        {"check_in": "2026-03-17", "check_out": "2026-03-19", "room_type": "queen", "guests": 2},
    )
    assert result["rooms"] and all(r["room"]["type"] == "queen" for r in result["rooms"])
    rates = result["rooms"][0]["rates"]
    assert rates["flexible"]["total_cents"] == 2 * 17900
    assert rates["flexible"]["deposit_cents"] == 17900
    assert rates["flexible"]["free_cancel_until"] == "2026-03-15T15:00"
    assert rates["non_refundable"]["deposit_cents"] == rates["non_refundable"]["total_cents"]
    assert rates["non_refundable"]["nightly_cents"] == 17900 * 85 // 100
    assert rates["non_refundable"]["free_cancel_until"] is None
    four = _ok(
        hotel, "search_rooms", {"check_in": "2026-03-24", "check_out": "2026-03-25", "guests": 4}
    )
    assert {r["room"]["type"] for r in four["rooms"]} <= {"garden_suite"}


def test_booking_on_the_flexible_rate_charges_one_night_against_the_new_stay(hotel):
    result = _ok(
        hotel,
        "book_stay",
        {
            "customer_id": "CUS-1001",
            "room_id": "RM-1005",
            "check_in": "2026-03-13",
            "check_out": "2026-03-15",
            "rate_plan": "flexible",
            "guests": 2,
        },
    )
    stay, payment = result["stay"], result["payment"]
    assert stay["status"] == "booked" and stay["deposit_payment_id"] == payment["id"]
    assert stay["free_cancel_until"] == "2026-03-11T15:00"
    assert payment["kind"] == "charge" and payment["amount_cents"] == stay["nightly_cents"]
    assert stay["id"] in payment["description"]


def test_booking_on_the_non_refundable_rate_charges_the_whole_discounted_stay(hotel):
    result = _ok(
        hotel,
        "book_stay",
        {
            "customer_id": "CUS-1002",
            "room_id": "RM-1001",
            "check_in": "2026-03-17",
            "check_out": "2026-03-19",
            "rate_plan": "non_refundable",
        },
    )
    assert result["payment"]["amount_cents"] == 2 * (17900 * 85 // 100)
    assert result["stay"]["free_cancel_until"] is None


@pytest.mark.parametrize(
    ("args", "code", "field"),
    [
        (
            {"room_id": "RM-1006", "check_in": "2026-03-14", "check_out": "2026-03-16"},
            "conflict",
            "room_id",
        ),
        (
            {"room_id": "RM-1005", "check_in": "2026-03-14", "check_out": "2026-03-14"},
            "invalid_arguments",
            "check_out",
        ),
        (
            {"room_id": "RM-1005", "check_in": "2026-03-01", "check_out": "2026-03-03"},
            "invalid_arguments",
            "check_in",
        ),
        (
            {
                "room_id": "RM-1005",
                "check_in": "2026-03-14",
                "check_out": "2026-03-16",
                "guests": 3,
            },
            "conflict",
            "guests",
        ),
        (
            {"room_id": "RM-1005", "check_in": "2026-02-30", "check_out": "2026-03-02"},
            "invalid_arguments",
            "check_in",
        ),
        (
            {"room_id": "RM-9999", "check_in": "2026-03-14", "check_out": "2026-03-16"},
            "not_found",
            "room_id",
        ),
        (
            {
                "room_id": "RM-1005",
                "check_in": "2026-03-14",
                "check_out": "2026-03-16",
                "rate_plan": "cheap",
            },
            "invalid_arguments",
            "rate_plan",
        ),
    ],
)
def test_a_booking_that_cannot_be_made_is_refused_naming_the_argument(hotel, args, code, field):
    full = {"customer_id": "CUS-1001", "rate_plan": "flexible", **args}
    error = _refused(hotel, "book_stay", full, code)
    assert error["field"] == field


def test_a_hold_becomes_the_booking_when_its_booker_confirms_and_blocks_anyone_else(hotel):
    held = _ok(
        hotel,
        "hold_room",
        {
            "customer_id": "CUS-1025",
            "room_id": "RM-1007",
            "check_in": "2026-03-15",
            "check_out": "2026-03-17",
            "rate_plan": "flexible",
            "hours": 24,
        },
    )["stay"]
    assert held["status"] == "held" and held["hold_until"] == "2026-03-11T10:00"
    assert not [p for p in _payments(hotel, "CUS-1025") if p["kind"] == "charge"]
    other = {
        "customer_id": "CUS-1001",
        "room_id": "RM-1007",
        "check_in": "2026-03-16",
        "check_out": "2026-03-17",
        "rate_plan": "flexible",
    }
    _refused(hotel, "book_stay", other, "conflict")
    count = len(_stays(hotel))
    booked = _ok(hotel, "book_stay", {**other, "customer_id": "CUS-1025", "check_in": "2026-03-15"})
    assert booked["stay"]["id"] == held["id"] and booked["stay"]["status"] == "booked"
    assert len(_stays(hotel)) == count, "confirming a hold must not add a second stay"


def test_an_expired_hold_no_longer_blocks_the_room():
    first = _world()
    _ok(
        first,
        "hold_room",
        {
            "customer_id": "CUS-1025",
            "room_id": "RM-1007",
            "check_in": "2026-03-15",
            "check_out": "2026-03-17",
            "rate_plan": "flexible",
            "hours": 2,
        },
    )
    later = _world("2026-03-10T13:00", state=first.state)
    rooms = _ok(later, "search_rooms", {"check_in": "2026-03-15", "check_out": "2026-03-17"})
    assert "RM-1007" in {r["room"]["id"] for r in rooms["rooms"]}


def test_a_flexible_stay_moves_and_keeps_its_deposit_but_a_non_refundable_one_cannot(hotel):
    moved = _ok(
        hotel,
        "modify_stay",
        {"stay_id": "STY-1005", "check_in": "2026-03-13", "check_out": "2026-03-15"},
    )["stay"]
    assert (moved["check_in"], moved["check_out"], moved["status"]) == (
        "2026-03-13",
        "2026-03-15",
        "booked",
    )
    assert moved["deposit_payment_id"] == "PAY-1005"
    assert moved["free_cancel_until"] == "2026-03-11T15:00"
    _refused(
        hotel,
        "modify_stay",
        {"stay_id": "STY-1008", "check_in": "2026-03-17", "check_out": "2026-03-19"},
        "conflict",
    )
    # Room 203 is taken on the 14th night by STY-1001.
    _refused(
        hotel,
        "modify_stay",
        {"stay_id": "STY-1014", "check_in": "2026-03-14", "check_out": "2026-03-16"},
        "conflict",
    )


def test_a_flexible_stay_cancelled_in_time_gets_its_deposit_back_once(hotel):
    cancel = hotel.call("cancel_stay", {"stay_id": "STY-1019", "reason": "Reunion moved"})
    assert cancel.outcome == "ok" and cancel.effect == Effect.COMPENSABLE
    assert cancel.result["deposit_refundable"] is True
    refund = _ok(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"})["payment"]
    charge = hotel.state.tables["payments"]["PAY-1019"]
    assert refund["kind"] == "refund" and refund["refund_of"] == "PAY-1019"
    assert refund["amount_cents"] == charge["amount_cents"] == 38900
    assert charge["status"] == "refunded" and charge["refunded_cents"] == 38900
    _refused(hotel, "refund_stay_deposit", {"stay_id": "STY-1019"}, "conflict")


def test_a_late_flexible_cancellation_keeps_the_deposit(hotel):
    # STY-1013 arrives tomorrow: its free-cancellation deadline was two days before.
    cancel = _ok(hotel, "cancel_stay", {"stay_id": "STY-1013", "reason": "Meeting online"})
    assert cancel["deposit_refundable"] is False and cancel["forfeited"] == "$179.00"
    error = _refused(hotel, "refund_stay_deposit", {"stay_id": "STY-1013"}, "conflict")
    assert "deadline" in error["message"]


def test_cancelling_a_non_refundable_stay_is_irreversible_and_never_refunded(hotel):
    record = hotel.call("cancel_stay", {"stay_id": "STY-1009", "reason": "Conference off"})
    assert record.outcome == "ok" and record.effect == Effect.IRREVERSIBLE
    assert _stays(hotel)["STY-1009"]["status"] == "cancelled"
    _refused(hotel, "refund_stay_deposit", {"stay_id": "STY-1009"}, "conflict")
    _refused(hotel, "cancel_stay", {"stay_id": "STY-1009", "reason": "again"}, "conflict")


def test_releasing_a_hold_is_not_irreversible(hotel):
    record = hotel.call("cancel_stay", {"stay_id": "STY-1003", "reason": "Sister not coming"})
    assert record.outcome == "ok" and record.effect == Effect.COMPENSABLE
    assert record.result["deposit_refundable"] is False and record.result["forfeited"] == "$0.00"


def test_early_check_in_posts_the_rooms_fee_due_on_arrival(hotel):
    result = _ok(hotel, "add_early_checkin", {"stay_id": "STY-1006", "arrival": "10:00"})
    assert result["stay"]["early_checkin"] == "10:00"
    fee = result["fee"]
    room = hotel.state.tables["rooms"]["RM-1009"]
    assert (fee["kind"], fee["status"], fee["amount_cents"]) == (
        "fee",
        "due",
        room["early_checkin_cents"],
    )
    _refused(hotel, "add_early_checkin", {"stay_id": "STY-1006", "arrival": "11:00"}, "conflict")


@pytest.mark.parametrize("arrival", ["08:30", "15:00", "16:00"])
def test_early_check_in_is_only_before_the_rooms_check_in_time(hotel, arrival):
    _refused(
        hotel, "add_early_checkin", {"stay_id": "STY-1006", "arrival": arrival}, "invalid_arguments"
    )


def test_early_check_in_is_refused_when_the_room_is_occupied_the_night_before(hotel):
    # STY-1004 arrives in Room 102 on the 14th; the room is empty the night of the 13th (STY-1013
    # leaves that morning) until someone else books that night.
    assert _world().call("add_early_checkin", {"stay_id": "STY-1004", "arrival": "12:00"}).ok
    _ok(
        hotel,
        "book_stay",
        {
            "customer_id": "CUS-1001",
            "room_id": "RM-1002",
            "check_in": "2026-03-13",
            "check_out": "2026-03-14",
            "rate_plan": "flexible",
        },
    )
    error = _refused(
        hotel, "add_early_checkin", {"stay_id": "STY-1004", "arrival": "12:00"}, "conflict"
    )
    assert "night before" in error["message"]


def test_damage_is_charged_only_after_checkout_and_is_irreversible(hotel):
    _refused(
        hotel,
        "charge_damage",
        {"stay_id": "STY-1006", "amount_cents": 5000, "description": "Lamp"},
        "conflict",
    )
    record = hotel.call(
        "charge_damage", {"stay_id": "STY-1007", "amount_cents": 18000, "description": "Lamp"}
    )
    assert record.outcome == "ok" and record.effect == Effect.IRREVERSIBLE
    payment = record.result["payment"]
    assert (payment["customer_id"], payment["kind"], payment["amount_cents"]) == (
        "CUS-1009",
        "charge",
        18000,
    )


def test_list_stays_returns_only_the_bookers_stays_in_date_order(hotel):
    stays = _ok(hotel, "list_stays", {"customer_id": "CUS-1004"})["stays"]
    assert [s["id"] for s in stays] == ["STY-1002", "STY-1003"]
    assert _ok(hotel, "list_stays", {"customer_id": "CUS-1015"})["stays"] == []


def test_a_business_without_rooms_says_so(world):
    record = world.call("search_rooms", {"check_in": "2026-03-14", "check_out": "2026-03-16"})
    assert record.error_code == "invalid_arguments" and "room" in str(record.result)


def test_the_stay_tools_declare_their_effects():
    registry = default_registry()
    effects = {
        name: registry.get(name).effect
        for name in (
            "search_rooms",
            "list_stays",
            "hold_room",
            "book_stay",
            "modify_stay",
            "cancel_stay",
            "refund_stay_deposit",
            "add_early_checkin",
            "charge_damage",
        )
    }
    assert effects["search_rooms"] == effects["list_stays"] == Effect.READ
    assert effects["hold_room"] == effects["modify_stay"] == Effect.REVERSIBLE
    assert effects["charge_damage"] == Effect.IRREVERSIBLE
    assert effects["book_stay"] == effects["cancel_stay"] == Effect.COMPENSABLE
