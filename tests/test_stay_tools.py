"""The stay tools (tools/stays.py) on the boutique hotel's public seed: each result and write
whole, each refusal with its words and field, and the edges of a stay's nights and deadlines.

Today is 2026-03-10T10:00 (``tests/test_stays.py``). April is empty: every room is free from
2026-04-01 to 2026-05-01. Room 202 (RM-1005) is a king at $229.00 a night, Room 204 (RM-1007)
and Room 205 (RM-1008, three guests) twins at $199.00, the Garden Suite (RM-1010) $389.00; every
room's check-in is at 15:00. The flexible rate (RP-1001) takes one night's deposit and is free to
cancel until two days before check-in; the non-refundable rate (RP-1002) is 15% off, paid whole.
STY-1003 (CUS-1004, Room 205, 03-25 to 03-27) is held until 2026-03-11T12:00; STY-1005
(CUS-1007, Room 201, 03-12 to 03-14) and STY-1019 (CUS-1024, Garden Suite, free cancellation
until 2026-03-17T15:00) are booked flexible; STY-1009 (CUS-1011) is non-refundable; STY-1007
has checked out.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from businesses.loader import load_business
from sandbox import SimClock, State, World
from sandbox.tables import STANDARD_TABLES
from tests.helpers import next_payment_id, tool_error, tool_refusal, tool_result
from tools import Effect, default_registry

HOTEL = Path(__file__).resolve().parents[1] / "businesses" / "public" / "boutique_hotel"
NOW = "2026-03-10T10:00"
NO_LINKS = {"order_id": None, "appointment_id": None, "subscription_id": None}
APRIL = {"check_in": "2026-04-01", "check_out": "2026-04-03"}
SINGLE = {
    "id": "RM-1013",
    "number": "001",
    "name": "Room 001",
    "type": "single",
    "description": "Single room",
    "nightly_cents": 9900,
    "max_guests": 1,
    "check_in_time": "15:00",
    "early_checkin_cents": 4000,
}


def _hotel(now: str = NOW, *, change: Any = None, without: tuple[str, ...] = ()) -> World:
    business, _ = load_business(HOTEL)
    tables = copy.deepcopy(business.seed)
    if change is not None:
        change(tables)
    specs = {
        name: spec
        for name, spec in {**STANDARD_TABLES, **business.extra_tables}.items()
        if name not in without
    }
    tables = {name: rows for name, rows in tables.items() if name not in without}
    return World(State(tables, specs), default_registry(), SimClock(now))


def _with_single(tables):
    tables["rooms"]["RM-1013"] = dict(SINGLE)


@pytest.fixture
def hotel() -> World:
    return _hotel()


def _row(world: World, table: str, rid: str) -> dict[str, Any]:
    return world.state.tables[table][rid]


def _next_stay(world: World) -> str:
    return f"STY-{max(int(i.split('-')[1]) for i in world.state.tables['stays']) + 1}"


def _room(world: World, rid: str) -> dict[str, Any]:
    return dict(_row(world, "rooms", rid))


FLEX_2_TWIN = {
    "nightly_cents": 19900,
    "total_cents": 39800,
    "deposit_cents": 19900,
    "free_cancel_until": "2026-03-30T15:00",
}
NONREF_2_TWIN = {
    "nightly_cents": 16915,
    "total_cents": 33830,
    "deposit_cents": 33830,
    "free_cancel_until": None,
}


# -- searching -------------------------------------------------------------------------------


def test_a_search_lists_each_free_room_whole_with_every_rates_quote(hotel):
    result = tool_result(hotel, "search_rooms", {**APRIL, "room_type": "twin", "guests": 3})
    # Room 205 sleeps exactly three; Room 204 only two.
    assert result == {
        "rooms": [
            {
                "room": _room(hotel, "RM-1008"),
                "nights": 2,
                "rates": {"flexible": FLEX_2_TWIN, "non_refundable": NONREF_2_TWIN},
            }
        ]
    }


def test_a_search_is_for_one_guest_by_default_and_for_any_type():
    world = _hotel(change=_with_single)
    rooms = tool_result(world, "search_rooms", dict(APRIL))["rooms"]
    assert [r["room"]["id"] for r in rooms] == [f"RM-{n}" for n in range(1001, 1014)]
    assert tool_result(world, "search_rooms", {**APRIL, "guests": 2})["rooms"][-1]["room"][
        "id"
    ] == ("RM-1012")


def test_a_search_in_a_hotel_without_rate_plans_quotes_nothing():
    world = _hotel(without=("rate_plans",))
    rooms = tool_result(world, "search_rooms", {**APRIL, "room_type": "twin"})["rooms"]
    assert [(r["room"]["id"], r["rates"]) for r in rooms] == [("RM-1007", {}), ("RM-1008", {})]


@pytest.mark.parametrize(
    ("dates", "nights"),
    [({"check_in": "2026-03-10", "check_out": "2026-03-11"}, 1), (APRIL, 2)],
)
def test_a_search_may_start_today_and_counts_its_nights(hotel, dates, nights):
    rooms = tool_result(hotel, "search_rooms", {**dates, "room_type": "twin"})["rooms"]
    assert rooms and {r["nights"] for r in rooms} == {nights}


def test_a_stay_is_at_most_thirty_nights(hotel):
    month = {"check_in": "2026-04-01", "check_out": "2026-05-01"}
    assert tool_result(hotel, "search_rooms", month)["rooms"][0]["nights"] == 30
    assert tool_refusal(hotel, "search_rooms", {**month, "check_out": "2026-05-02"}) == tool_error(
        "invalid_arguments", "A stay is at most 30 nights by phone.", "check_out"
    )


@pytest.mark.parametrize(
    ("dates", "error"),
    [
        (
            {"check_in": "2026-04-03", "check_out": "2026-04-03"},
            tool_error(
                "invalid_arguments",
                "check_out must be at least one day after check_in.",
                "check_out",
            ),
        ),
        (
            {"check_in": "2026-04-03", "check_out": "2026-04-01"},
            tool_error(
                "invalid_arguments",
                "check_out must be at least one day after check_in.",
                "check_out",
            ),
        ),
        (
            {"check_in": "2026-03-09", "check_out": "2026-03-11"},
            tool_error("invalid_arguments", "check_in is in the past.", "check_in"),
        ),
        (
            {"check_in": "2026-04-31", "check_out": "2026-05-02"},
            tool_error(
                "invalid_arguments",
                "'2026-04-31' is not a valid date; expected YYYY-MM-DD.",
                "check_in",
            ),
        ),
        (
            {"check_in": "2026-04-01", "check_out": "2026-04-31"},
            tool_error(
                "invalid_arguments",
                "'2026-04-31' is not a valid date; expected YYYY-MM-DD.",
                "check_out",
            ),
        ),
    ],
)
def test_a_search_over_impossible_dates_is_refused(hotel, dates, error):
    assert tool_refusal(hotel, "search_rooms", dates) == error


def test_a_live_hold_blocks_its_room_until_the_minute_it_runs_out():
    # Room 204, the other twin, is booked that night (STY-1127).
    dates = {"check_in": "2026-03-25", "check_out": "2026-03-26", "room_type": "twin"}
    for now, free in [
        (NOW, []),
        ("2026-03-11T11:59", []),
        ("2026-03-11T12:00", ["RM-1008"]),
    ]:
        rooms = tool_result(_hotel(now), "search_rooms", dates)["rooms"]
        assert [r["room"]["id"] for r in rooms] == free, now
    # A hold with no end on file holds on.
    endless = _hotel(
        "2026-03-20T10:00", change=lambda t: t["stays"]["STY-1003"].update(hold_until=None)
    )
    assert tool_result(endless, "search_rooms", dates)["rooms"] == []


# -- a customer's stays ----------------------------------------------------------------------


def test_a_customers_stays_are_listed_whole_by_arrival_not_by_id(hotel):
    new = tool_result(
        hotel,
        "book_stay",
        {
            "customer_id": "CUS-1004",
            "room_id": "RM-1005",
            "check_in": "2026-03-11",
            "check_out": "2026-03-12",
            "rate_plan": "flexible",
        },
    )["stay"]
    stays = tool_result(hotel, "list_stays", {"customer_id": "CUS-1004"})
    assert stays == {
        "stays": [new, _row(hotel, "stays", "STY-1002"), _row(hotel, "stays", "STY-1003")]
    }


def test_the_stays_of_an_unknown_customer_are_refused(hotel):
    assert tool_refusal(hotel, "list_stays", {"customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


@pytest.mark.parametrize(
    ("name", "args", "field"),
    [
        ("search_rooms", dict(APRIL), "check_in"),
        ("list_stays", {"customer_id": "CUS-1001"}, "customer_id"),
        (
            "hold_room",
            {
                "customer_id": "CUS-1001",
                "room_id": "RM-1005",
                **APRIL,
                "rate_plan": "flexible",
                "hours": 2,
            },
            "room_id",
        ),
        (
            "book_stay",
            {"customer_id": "CUS-1001", "room_id": "RM-1005", **APRIL, "rate_plan": "flexible"},
            "room_id",
        ),
        ("modify_stay", {"stay_id": "STY-1005", **APRIL}, "stay_id"),
        ("cancel_stay", {"stay_id": "STY-1005", "reason": "x"}, "stay_id"),
    ],
)
@pytest.mark.parametrize("missing", ["rooms", "stays"])
def test_a_business_without_rooms_or_stays_refuses_every_stay_tool(name, args, field, missing):
    world = _hotel(without=(missing,))
    assert tool_refusal(world, name, args) == tool_error(
        "invalid_arguments", "This business keeps no room bookings.", field
    )


# -- holding ---------------------------------------------------------------------------------


def test_a_hold_is_written_whole_and_takes_no_deposit(hotel):
    sid = _next_stay(hotel)
    payments = copy.deepcopy(hotel.state.tables["payments"])
    result = tool_result(
        hotel,
        "hold_room",
        {
            "customer_id": "CUS-1025",
            "room_id": "RM-1007",
            **APRIL,
            "rate_plan": "non_refundable",
            "hours": 30,
            "guests": 2,
            "guest_names": ["Ada Zeller"],
        },
    )
    expected = {
        "id": sid,
        "customer_id": "CUS-1025",
        "room_id": "RM-1007",
        "rate_plan": "non_refundable",
        **APRIL,
        "guests": 2,
        "guest_names": ["Ada Zeller"],
        **NONREF_2_TWIN,
        "status": "held",
        "hold_until": "2026-03-11T16:00",
        "deposit_payment_id": None,
        "early_checkin": None,
        "booked_at": NOW,
    }
    assert result == {"stay": expected, "held_until": "2026-03-11T16:00"}
    assert _row(hotel, "stays", sid) == expected
    assert hotel.state.tables["payments"] == payments
    plain = tool_result(
        hotel,
        "hold_room",
        {
            "customer_id": "CUS-1025",
            "room_id": "RM-1008",
            **APRIL,
            "rate_plan": "flexible",
            "hours": 1,
        },
    )["stay"]
    assert (plain["guests"], plain["guest_names"], plain["hold_until"]) == (
        1,
        [],
        "2026-03-10T11:00",
    )


HOLD = {
    "customer_id": "CUS-1025",
    "room_id": "RM-1007",
    **APRIL,
    "rate_plan": "flexible",
    "hours": 4,
}


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            {"room_id": "RM-1008", "check_in": "2026-03-26", "check_out": "2026-03-28"},
            tool_error("conflict", "Room 205 is taken for some of those nights.", "room_id"),
        ),
        (
            {"guests": 3},
            tool_error("conflict", "Room 204 sleeps at most 2; 3 guests asked for.", "guests"),
        ),
        (
            {"check_in": "2026-03-09", "check_out": "2026-03-11"},
            tool_error("invalid_arguments", "check_in is in the past.", "check_in"),
        ),
        (
            {"customer_id": "CUS-9999"},
            tool_error("not_found", "No customer with id 'CUS-9999'.", "customer_id"),
        ),
        (
            {"room_id": "RM-9999"},
            tool_error("not_found", "No room with id 'RM-9999'.", "room_id"),
        ),
    ],
)
def test_a_hold_that_cannot_be_made_is_refused_with_why(hotel, args, error):
    assert tool_refusal(hotel, "hold_room", {**HOLD, **args}) == error


def test_a_hotel_without_the_rate_is_refused_it():
    world = _hotel(without=("rate_plans",))
    assert tool_refusal(world, "hold_room", HOLD) == tool_error(
        "invalid_arguments", "This hotel has no 'flexible' rate.", "rate_plan"
    )
    other = _hotel(change=lambda t: t["rate_plans"]["RP-1001"].update(code="flex"))
    assert tool_refusal(other, "hold_room", HOLD) == tool_error(
        "invalid_arguments", "This hotel has no 'flexible' rate.", "rate_plan"
    )


def test_stays_that_ended_or_were_cancelled_do_not_block_a_room(hotel):
    # STY-1002 holds Room 204 on 03-18 and 03-19; STY-1007 stayed in the Garden Suite to the 9th.
    tool_result(hotel, "cancel_stay", {"stay_id": "STY-1002", "reason": "Plans changed"})
    args = {**HOLD, "check_in": "2026-03-18", "check_out": "2026-03-20"}
    assert tool_result(hotel, "hold_room", args)["stay"]["status"] == "held"
    checked_out = _hotel(
        change=lambda t: t["stays"]["STY-1007"].update(
            check_in="2026-04-01", check_out="2026-04-03"
        )
    )
    assert tool_result(checked_out, "hold_room", {**HOLD, "room_id": "RM-1010"})


@pytest.mark.parametrize(
    ("check_in", "check_out", "cancelled"),
    [("2026-03-17", "2026-03-18", ()), ("2026-03-20", "2026-03-21", ("STY-1118",))],
)
def test_a_stay_may_end_the_morning_another_starts_or_start_the_day_it_ends(
    hotel, check_in, check_out, cancelled
):
    # Room 204: STY-1002 is there the nights of 03-18 and 03-19, STY-1118 from 03-20.
    for sid in cancelled:
        hotel.state.tables["stays"][sid]["status"] = "cancelled"
    args = {**HOLD, "check_in": check_in, "check_out": check_out}
    assert tool_result(hotel, "hold_room", args)["stay"]["check_in"] == check_in


# -- booking ---------------------------------------------------------------------------------


def test_a_flexible_booking_is_written_whole_with_its_deposit_charge(hotel):
    sid, pid = _next_stay(hotel), next_payment_id(hotel)
    result = tool_result(
        hotel,
        "book_stay",
        {
            "customer_id": "CUS-1001",
            "room_id": "RM-1005",
            **APRIL,
            "rate_plan": "flexible",
            "guests": 2,
            "guest_names": ["Tom Ashford"],
        },
    )
    payment = {
        "id": pid,
        "customer_id": "CUS-1001",
        "kind": "charge",
        "amount_cents": 22900,
        "status": "completed",
        "refunded_cents": 0,
        "description": f"Room deposit: {sid} (Room 202, 2 nights, Flexible rate)",
        "at": NOW,
        **NO_LINKS,
        "refund_of": None,
    }
    stay = {
        "id": sid,
        "customer_id": "CUS-1001",
        "room_id": "RM-1005",
        **APRIL,
        "deposit_payment_id": pid,
        "early_checkin": None,
        "rate_plan": "flexible",
        "guests": 2,
        "guest_names": ["Tom Ashford"],
        "nightly_cents": 22900,
        "total_cents": 45800,
        "deposit_cents": 22900,
        "free_cancel_until": "2026-03-30T15:00",
        "status": "booked",
        "hold_until": None,
        "booked_at": NOW,
    }
    assert result == {"stay": stay, "payment": payment, "charged": "$229.00"}
    assert _row(hotel, "stays", sid) == stay and _row(hotel, "payments", pid) == payment


def test_a_non_refundable_booking_prepays_the_whole_stay(hotel):
    sid = _next_stay(hotel)
    result = tool_result(
        hotel,
        "book_stay",
        {"customer_id": "CUS-1001", "room_id": "RM-1007", **APRIL, "rate_plan": "non_refundable"},
    )
    assert result["payment"]["description"] == (
        f"Room prepayment: {sid} (Room 204, 2 nights, Non-refundable rate)"
    )
    assert result["charged"] == "$338.30" and result["stay"]["guests"] == 1
    assert result["stay"]["guest_names"] == []


@pytest.mark.parametrize(("nights", "deposit"), [(1, 19900), (2, 39800), (3, 39800)])
def test_a_deposit_of_two_nights_is_at_most_the_stay(nights, deposit):
    world = _hotel(change=lambda t: t["rate_plans"]["RP-1001"].update(deposit_nights=2))
    result = tool_result(
        world,
        "book_stay",
        {
            "customer_id": "CUS-1001",
            "room_id": "RM-1007",
            "check_in": "2026-04-01",
            "check_out": f"2026-04-0{1 + nights}",
            "rate_plan": "flexible",
        },
    )
    assert result["payment"]["amount_cents"] == result["stay"]["deposit_cents"] == deposit


def test_a_discount_is_rounded_down_to_the_cent():
    world = _hotel(change=lambda t: t["rate_plans"]["RP-1002"].update(discount_percent=33))
    stay = tool_result(
        world,
        "book_stay",
        {"customer_id": "CUS-1001", "room_id": "RM-1007", **APRIL, "rate_plan": "non_refundable"},
    )["stay"]
    assert stay["nightly_cents"] == 19900 * 67 // 100 == 13333
    plain = _hotel(change=lambda t: t["rate_plans"]["RP-1001"].pop("discount_percent"))
    assert tool_result(plain, "search_rooms", {**APRIL, "room_type": "twin"})["rooms"][0]["rates"][
        "flexible"
    ] == (FLEX_2_TWIN)


def test_a_hold_confirmed_by_its_booker_becomes_the_booking_keeping_its_guests(hotel):
    held = tool_result(hotel, "hold_room", {**HOLD, "guest_names": ["Ada Zeller"]})["stay"]
    count = len(hotel.state.tables["stays"])
    pid = next_payment_id(hotel)
    booked = tool_result(
        hotel,
        "book_stay",
        {"customer_id": "CUS-1025", "room_id": "RM-1007", **APRIL, "rate_plan": "flexible"},
    )["stay"]
    assert booked == {
        **held,
        "status": "booked",
        "hold_until": None,
        "deposit_payment_id": pid,
        "guest_names": ["Ada Zeller"],
    }
    assert len(hotel.state.tables["stays"]) == count


def test_a_booker_confirming_a_hold_may_name_the_guests_anew_or_hold_none():
    world = _hotel()
    tool_result(world, "hold_room", {**HOLD, "guest_names": ["Ada Zeller"]})
    booked = tool_result(
        world,
        "book_stay",
        {
            "customer_id": "CUS-1025",
            "room_id": "RM-1007",
            **APRIL,
            "rate_plan": "flexible",
            "guest_names": ["Bo Zeller"],
        },
    )["stay"]
    assert booked["guest_names"] == ["Bo Zeller"]
    bare = _hotel(change=lambda t: t["stays"]["STY-1003"].pop("guest_names"))
    confirmed = tool_result(
        bare,
        "book_stay",
        {
            "customer_id": "CUS-1004",
            "room_id": "RM-1008",
            "check_in": "2026-03-25",
            "check_out": "2026-03-27",
            "rate_plan": "flexible",
        },
    )["stay"]
    assert (confirmed["id"], confirmed["guest_names"]) == ("STY-1003", [])


@pytest.mark.parametrize(
    ("args", "why"),
    [
        ({"customer_id": "CUS-1001"}, "someone else's hold"),
        ({"check_out": "2026-03-26"}, "the booker's hold on other nights"),
        ({"check_in": "2026-03-24"}, "the booker's hold on other nights"),
    ],
)
def test_a_hold_blocks_any_other_booking_of_its_room(hotel, args, why):
    full = {
        "customer_id": "CUS-1004",
        "room_id": "RM-1008",
        "check_in": "2026-03-25",
        "check_out": "2026-03-27",
        "rate_plan": "flexible",
        **args,
    }
    assert tool_refusal(hotel, "book_stay", full) == tool_error(
        "conflict", "Room 205 is taken for some of those nights.", "room_id"
    ), why


def test_a_booking_over_a_hold_and_another_stay_is_refused(hotel):
    # The booker's hold moved onto the nights of 03-22 and 03-23; STY-1119 has the 22nd.
    hotel.state.tables["stays"]["STY-1003"].update(check_in="2026-03-22", check_out="2026-03-24")
    assert tool_refusal(
        hotel,
        "book_stay",
        {
            "customer_id": "CUS-1004",
            "room_id": "RM-1008",
            "check_in": "2026-03-22",
            "check_out": "2026-03-24",
            "rate_plan": "flexible",
        },
    ) == tool_error("conflict", "Room 205 is taken for some of those nights.", "room_id")


BOOK = {"customer_id": "CUS-1001", "room_id": "RM-1005", **APRIL, "rate_plan": "flexible"}


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            {"check_in": "2026-03-18", "check_out": "2026-03-20"},
            tool_error("conflict", "Room 202 is taken for some of those nights.", "room_id"),
        ),
        (
            {"guests": 3},
            tool_error("conflict", "Room 202 sleeps at most 2; 3 guests asked for.", "guests"),
        ),
        (
            {"check_in": "2026-03-09", "check_out": "2026-03-11"},
            tool_error("invalid_arguments", "check_in is in the past.", "check_in"),
        ),
        (
            {"customer_id": "CUS-9999"},
            tool_error("not_found", "No customer with id 'CUS-9999'.", "customer_id"),
        ),
        (
            {"room_id": "RM-9999"},
            tool_error("not_found", "No room with id 'RM-9999'.", "room_id"),
        ),
        (
            {"check_out": "2026-04-01"},
            tool_error(
                "invalid_arguments",
                "check_out must be at least one day after check_in.",
                "check_out",
            ),
        ),
    ],
)
def test_a_booking_that_cannot_be_made_is_refused_with_why(hotel, args, error):
    assert tool_refusal(hotel, "book_stay", {**BOOK, **args}) == error


def test_a_hotel_without_the_rate_is_refused_a_booking():
    world = _hotel(without=("rate_plans",))
    assert tool_refusal(world, "book_stay", BOOK) == tool_error(
        "invalid_arguments", "This hotel has no 'flexible' rate.", "rate_plan"
    )


# -- changing dates --------------------------------------------------------------------------


def test_a_move_is_written_whole_at_the_new_rooms_price_keeping_the_deposit(hotel):
    hotel.state.tables["stays"]["STY-1005"]["early_checkin"] = "12:00"
    before = copy.deepcopy(_row(hotel, "stays", "STY-1005"))
    result = tool_result(
        hotel,
        "modify_stay",
        {
            "stay_id": "STY-1005",
            "check_in": "2026-04-01",
            "check_out": "2026-04-04",
            "room_id": "RM-1010",
        },
    )
    moved = {
        **before,
        "room_id": "RM-1010",
        "check_in": "2026-04-01",
        "check_out": "2026-04-04",
        "nightly_cents": 38900,
        "total_cents": 116700,
        "free_cancel_until": "2026-03-30T15:00",
        "early_checkin": None,
    }
    assert result == {"stay": moved} and _row(hotel, "stays", "STY-1005") == moved


def test_a_move_stays_in_the_room_unless_told_and_may_overlap_its_own_nights(hotel):
    moved = tool_result(
        hotel,
        "modify_stay",
        {"stay_id": "STY-1005", "check_in": "2026-03-13", "check_out": "2026-03-15"},
    )["stay"]
    assert (moved["room_id"], moved["check_in"], moved["total_cents"]) == (
        "RM-1004",
        "2026-03-13",
        45800,
    )
    same_nights = tool_result(
        hotel,
        "modify_stay",
        {
            "stay_id": "STY-1005",
            "check_in": "2026-03-13",
            "check_out": "2026-03-15",
            "room_id": "RM-1007",
        },
    )["stay"]
    assert (same_nights["room_id"], same_nights["nightly_cents"]) == ("RM-1007", 19900)


def test_a_held_stay_may_be_moved_and_stays_held(hotel):
    moved = tool_result(hotel, "modify_stay", {"stay_id": "STY-1003", **APRIL})["stay"]
    assert (moved["status"], moved["hold_until"], moved["check_in"]) == (
        "held",
        "2026-03-11T12:00",
        "2026-04-01",
    )


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            {"stay_id": "STY-1009"},
            tool_error(
                "conflict",
                "A non-refundable stay cannot be changed: its dates and room are fixed.",
                "stay_id",
            ),
        ),
        (
            {"stay_id": "STY-1007"},
            tool_error("conflict", "Stay STY-1007 is checked_out.", "stay_id"),
        ),
        (
            {"stay_id": "STY-9999"},
            tool_error("not_found", "No stay with id 'STY-9999'.", "stay_id"),
        ),
        (
            {"room_id": "RM-9999"},
            tool_error("not_found", "No room with id 'RM-9999'.", "room_id"),
        ),
        (
            {"check_in": "2026-03-12", "check_out": "2026-03-14"},
            tool_error("conflict", "The stay already has those dates and that room.", "check_in"),
        ),
        (
            {"check_in": "2026-03-12", "check_out": "2026-03-14", "room_id": "RM-1004"},
            tool_error("conflict", "The stay already has those dates and that room.", "check_in"),
        ),
        (
            {"check_in": "2026-03-09", "check_out": "2026-03-11"},
            tool_error("invalid_arguments", "check_in is in the past.", "check_in"),
        ),
        (
            {"check_in": "2026-03-18", "check_out": "2026-03-20"},
            tool_error("conflict", "Room 201 is taken for some of those nights.", "check_in"),
        ),
        (
            {"room_id": "RM-1013"},
            tool_error("conflict", "Room 001 sleeps at most 1; 2 guests asked for.", "guests"),
        ),
    ],
)
def test_a_move_that_cannot_be_made_is_refused_with_why(args, error):
    # STY-1017 is in Room 201 from 03-19.
    world = _hotel(change=_with_single)
    full = {"stay_id": "STY-1005", **APRIL, **args}
    assert tool_refusal(world, "modify_stay", full) == error


def test_a_stay_with_no_party_on_file_moves_as_one_guest():
    world = _hotel(change=lambda t: (_with_single(t), t["stays"]["STY-1005"].pop("guests")))
    moved = tool_result(
        world, "modify_stay", {"stay_id": "STY-1005", **APRIL, "room_id": "RM-1013"}
    )
    assert moved["stay"]["room_id"] == "RM-1013"


# -- cancelling ------------------------------------------------------------------------------


def test_a_cancellation_in_time_is_written_whole_and_owes_the_deposit_back(hotel):
    before = copy.deepcopy(_row(hotel, "stays", "STY-1019"))
    record = hotel.call("cancel_stay", {"stay_id": "STY-1019", "reason": "Reunion moved"})
    cancelled = {
        **before,
        "status": "cancelled",
        "hold_until": None,
        "cancelled_at": NOW,
        "cancel_reason": "Reunion moved",
    }
    assert record.outcome == "ok" and record.effect == Effect.COMPENSABLE
    assert record.result == {
        "stay": cancelled,
        "deposit_refundable": True,
        "forfeited": "$0.00",
    }
    assert _row(hotel, "stays", "STY-1019") == cancelled


@pytest.mark.parametrize(
    ("now", "refundable", "forfeited"),
    [
        ("2026-03-17T15:00", True, "$0.00"),  # at the deadline
        ("2026-03-17T15:01", False, "$389.00"),
    ],
)
def test_a_cancellation_is_free_up_to_the_deadline_minute(now, refundable, forfeited):
    result = tool_result(_hotel(now), "cancel_stay", {"stay_id": "STY-1019", "reason": "r"})
    assert (result["deposit_refundable"], result["forfeited"]) == (refundable, forfeited)


def test_a_booked_stay_with_no_deadline_on_file_forfeits_its_deposit():
    world = _hotel(change=lambda t: t["stays"]["STY-1019"].update(free_cancel_until=None))
    result = tool_result(world, "cancel_stay", {"stay_id": "STY-1019", "reason": "r"})
    assert (result["deposit_refundable"], result["forfeited"]) == (False, "$389.00")
    unset = _hotel(change=lambda t: t["stays"]["STY-1019"].pop("free_cancel_until"))
    result = tool_result(unset, "cancel_stay", {"stay_id": "STY-1019", "reason": "r"})
    assert (result["deposit_refundable"], result["forfeited"]) == (False, "$389.00")


def test_releasing_a_hold_clears_it_and_owes_nothing(hotel):
    result = tool_result(hotel, "cancel_stay", {"stay_id": "STY-1003", "reason": "Not coming"})
    assert (result["stay"]["status"], result["stay"]["hold_until"]) == ("cancelled", None)
    assert (result["deposit_refundable"], result["forfeited"]) == (False, "$0.00")


def test_cancelling_a_non_refundable_booking_is_irreversible_and_says_what_is_lost(hotel):
    record = hotel.call("cancel_stay", {"stay_id": "STY-1009", "reason": "Conference off"})
    assert record.outcome == "ok" and record.effect == Effect.IRREVERSIBLE
    assert hotel.ledger.entries[-1].effect_note == (
        "non-refundable stay STY-1009 cancelled: the $583.95 prepayment is forfeited and the"
        " rate cannot be restored"
    )
    assert (record.result["deposit_refundable"], record.result["forfeited"]) == (False, "$583.95")


def test_releasing_a_non_refundable_hold_is_not_irreversible():
    world = _hotel(change=lambda t: t["stays"]["STY-1003"].update(rate_plan="non_refundable"))
    record = world.call("cancel_stay", {"stay_id": "STY-1003", "reason": "r"})
    assert record.outcome == "ok" and record.effect == Effect.COMPENSABLE
    assert world.ledger.entries[-1].effect_note is None


def test_only_a_held_or_booked_stay_can_be_cancelled(hotel):
    assert tool_refusal(hotel, "cancel_stay", {"stay_id": "STY-1104", "reason": "r"}) == tool_error(
        "conflict", "Stay STY-1104 is checked_in.", "stay_id"
    )
    assert tool_refusal(hotel, "cancel_stay", {"stay_id": "STY-9999", "reason": "r"}) == tool_error(
        "not_found", "No stay with id 'STY-9999'.", "stay_id"
    )


TONIGHT = {"check_in": "2026-03-10", "check_out": "2026-03-11"}


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("hold_room", {**HOLD, "room_id": "RM-1005", **TONIGHT}),
        (
            "book_stay",
            {"customer_id": "CUS-1001", "room_id": "RM-1005", **TONIGHT, "rate_plan": "flexible"},
        ),
        ("modify_stay", {"stay_id": "STY-1005", **TONIGHT}),
    ],
)
def test_a_stay_may_start_today(hotel, name, args):
    assert tool_result(hotel, name, args)["stay"]["check_in"] == "2026-03-10"


def test_a_booked_stay_occupies_its_room_whatever_hold_time_is_left_on_it():
    # STY-1002, booked in Room 204 for the nights of 03-18 and 03-19, with its old hold's end.
    world = _hotel(change=lambda t: t["stays"]["STY-1002"].update(hold_until="2026-03-01T10:00"))
    rooms = tool_result(
        world,
        "search_rooms",
        {"check_in": "2026-03-18", "check_out": "2026-03-19", "room_type": "twin"},
    )["rooms"]
    assert "RM-1007" not in [r["room"]["id"] for r in rooms]
