"""The group-class tools on the gym's seed: the timetable's window and filters, places left,
booking and giving up a place, each result and refusal whole.

The gym's day is 2026-03-04T10:00 (``tests/test_memberships.py``): CLS-1001 (Spin, tomorrow
07:00, 2 places) has Ben's place CBK-1001; CLS-1002 (Yoga, today 09:00) has started.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sandbox import World
from tests.helpers import tool_error, tool_refusal, tool_result
from tests.test_memberships import NOW, gym  # noqa: F401  (the fixture)
from tools import Effect


def _put_class(world: World, cid: str, start: str, name: str = "Pilates", **extra: Any) -> dict:
    row = {
        "id": cid,
        "name": name,
        "staff_id": "STF-1001",
        "start": start,
        "end": start,
        "capacity": 3,
        "status": "scheduled",
        **extra,
    }
    world.state.tables["classes"][cid] = row
    return row


def _put_place(world: World, bid: str, cid: str, customer: str, status: str = "booked") -> dict:
    row = {"id": bid, "class_id": cid, "customer_id": customer, "status": status}
    world.state.tables["class_bookings"][bid] = row
    return row


def _ids(result: dict) -> list[str]:
    return [c["id"] for c in result["classes"]]


def test_the_timetable_lists_each_class_whole_with_its_places_left(gym):  # noqa: F811
    spin = gym.state.tables["classes"]["CLS-1001"]
    assert tool_result(gym, "list_classes", {}) == {"classes": [{**spin, "places_left": 1}]}


@pytest.mark.parametrize(
    "start, listed",
    [
        ("2026-03-04T10:00", True),  # starts now
        ("2026-03-04T09:59", False),
        ("2026-03-11T10:00", True),  # seven days from now
        ("2026-03-11T10:01", False),
    ],
)
def test_without_a_date_the_timetable_covers_the_next_seven_days(gym, start, listed):  # noqa: F811
    _put_class(gym, "CLS-1009", start)
    assert ("CLS-1009" in _ids(tool_result(gym, "list_classes", {}))) is listed


@pytest.mark.parametrize(
    "start, listed",
    [
        ("2026-03-06T00:00", True),
        ("2026-03-06T23:59", True),
        ("2026-03-05T23:59", False),
        ("2026-03-07T00:00", False),
    ],
)
def test_a_date_lists_that_whole_day_only(gym, start, listed):  # noqa: F811
    _put_class(gym, "CLS-1009", start)
    assert _ids(tool_result(gym, "list_classes", {"date": "2026-03-06"})) == (
        ["CLS-1009"] if listed else []
    )


def test_a_date_in_the_past_lists_that_days_classes(gym):  # noqa: F811
    assert _ids(tool_result(gym, "list_classes", {"date": "2026-03-04"})) == ["CLS-1002"]
    assert tool_refusal(gym, "list_classes", {"date": "2026-02-30"}) == tool_error(
        "invalid_arguments", "'2026-02-30' is not a valid date; expected YYYY-MM-DD.", "date"
    )


def test_the_timetable_is_in_start_order_then_by_id_and_leaves_out_cancelled_classes(gym):  # noqa: F811
    _put_class(gym, "CLS-1012", "2026-03-05T07:00")
    _put_class(gym, "CLS-1011", "2026-03-05T07:00")
    _put_class(gym, "CLS-1010", "2026-03-04T18:00")
    _put_class(gym, "CLS-1009", "2026-03-04T17:00", status="cancelled")
    assert _ids(tool_result(gym, "list_classes", {})) == [
        "CLS-1010",
        "CLS-1001",
        "CLS-1011",
        "CLS-1012",
    ]


@pytest.mark.parametrize(
    "name, listed",
    [
        ("spin", ["CLS-1001"]),
        ("  SPIN ", ["CLS-1001"]),
        ("in", ["CLS-1001", "CLS-1009"]),
        ("   ", ["CLS-1001", "CLS-1009"]),
        ("yoga", []),
        ("rowing", ["CLS-1009"]),  # found after a class that does not match
    ],
)
def test_a_name_filters_by_what_the_class_name_contains(gym, name, listed):  # noqa: F811
    _put_class(gym, "CLS-1009", "2026-03-06T08:00", name="Indoor Rowing")
    assert _ids(tool_result(gym, "list_classes", {"name": name})) == listed


def test_places_left_count_booked_places_only_and_never_go_below_none(gym):  # noqa: F811
    _put_class(gym, "CLS-1009", "2026-03-06T08:00", capacity=1)
    _put_place(gym, "CBK-1007", "CLS-1009", "CUS-1001")
    _put_place(gym, "CBK-1008", "CLS-1009", "CUS-1002")
    _put_place(gym, "CBK-1009", "CLS-1001", "CUS-1003", "cancelled")
    left = {c["id"]: c["places_left"] for c in tool_result(gym, "list_classes", {})["classes"]}
    assert left == {"CLS-1001": 1, "CLS-1009": 0}


def test_a_customers_places_are_listed_whole_with_the_class_name_and_start(gym):  # noqa: F811
    _put_class(gym, "CLS-1009", "2026-03-04T18:00", name="Boxing")
    _put_class(gym, "CLS-1010", "2026-03-04T18:00", name="Core")
    late = _put_place(gym, "CBK-1002", "CLS-1001", "CUS-1001", "cancelled")
    gone = _put_place(gym, "CBK-1003", "CLS-1099", "CUS-1001")
    second = _put_place(gym, "CBK-1005", "CLS-1010", "CUS-1001")
    first = _put_place(gym, "CBK-1006", "CLS-1009", "CUS-1001")
    _put_place(gym, "CBK-1004", "CLS-1009", "CUS-1002")
    assert tool_result(gym, "list_class_bookings", {"customer_id": "CUS-1001"}) == {
        "bookings": [
            {**second, "class": "Core", "start": "2026-03-04T18:00"},
            {**first, "class": "Boxing", "start": "2026-03-04T18:00"},
            {**late, "class": "Spin", "start": "2026-03-05T07:00"},
            {**gone, "class": None, "start": None},  # its class is no longer on file
        ]
    }
    assert tool_result(gym, "list_class_bookings", {"customer_id": "CUS-1003"}) == {"bookings": []}
    assert tool_refusal(gym, "list_class_bookings", {"customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


def test_a_booked_place_is_written_whole_and_returned_with_its_class(gym):  # noqa: F811
    spin = gym.state.tables["classes"]["CLS-1001"]
    place = {
        "id": "CBK-1002",
        "class_id": "CLS-1001",
        "customer_id": "CUS-1001",
        "status": "booked",
        "booked_at": NOW,
    }
    assert tool_result(gym, "book_class", {"class_id": "CLS-1001", "customer_id": "CUS-1001"}) == {
        "booking": place,
        "class": spin,
    }
    assert gym.state.tables["class_bookings"]["CBK-1002"] == place
    entry = gym.ledger.entries[-1]
    assert entry.effect == Effect.REVERSIBLE
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("class_bookings", None, place)
    ]


@pytest.mark.parametrize(
    "start, bookable",
    [("2026-03-04T10:00", False), ("2026-03-04T09:59", False), ("2026-03-04T10:01", True)],
)
def test_a_class_is_booked_only_before_it_starts(gym, start, bookable):  # noqa: F811
    _put_class(gym, "CLS-1009", start)
    args = {"class_id": "CLS-1009", "customer_id": "CUS-1001"}
    if bookable:
        assert tool_result(gym, "book_class", args)["booking"]["class_id"] == "CLS-1009"
    else:
        assert tool_refusal(gym, "book_class", args) == tool_error(
            "conflict", f"Pilates at {start} cannot be booked now.", "class_id"
        )


def test_a_cancelled_class_is_not_booked(gym):  # noqa: F811
    _put_class(gym, "CLS-1009", "2026-03-06T08:00", status="cancelled")
    args = {"class_id": "CLS-1009", "customer_id": "CUS-1001"}
    assert tool_refusal(gym, "book_class", args) == tool_error(
        "conflict", "Pilates at 2026-03-06T08:00 cannot be booked now.", "class_id"
    )


def test_a_customer_holds_one_place_a_class_but_may_book_again_after_giving_it_up(gym):  # noqa: F811
    args = {"class_id": "CLS-1001", "customer_id": "CUS-1002"}
    assert tool_refusal(gym, "book_class", args) == tool_error(
        "conflict", "Ben Cole already has place CBK-1001.", "class_id"
    )
    gym.state.tables["class_bookings"]["CBK-1001"]["status"] = "cancelled"
    assert tool_result(gym, "book_class", args)["booking"]["id"] == "CBK-1002"


def test_a_place_in_another_class_does_not_stop_a_booking(gym):  # noqa: F811
    _put_class(gym, "CLS-1009", "2026-03-06T08:00")
    args = {"class_id": "CLS-1009", "customer_id": "CUS-1002"}  # Ben has CBK-1001 in Spin
    assert tool_result(gym, "book_class", args)["booking"]["id"] == "CBK-1002"


def test_the_last_place_is_booked_and_then_the_class_is_full(gym):  # noqa: F811
    _put_place(gym, "CBK-1009", "CLS-1001", "CUS-1003", "cancelled")
    assert tool_result(gym, "book_class", {"class_id": "CLS-1001", "customer_id": "CUS-1001"})
    assert tool_refusal(gym, "book_class", {"class_id": "CLS-1001", "customer_id": "CUS-1003"}) == (
        tool_error("conflict", "Spin at 2026-03-05T07:00 is full (2 places).", "class_id")
    )


def test_booking_an_unknown_class_or_customer_is_refused(gym):  # noqa: F811
    assert tool_refusal(gym, "book_class", {"class_id": "CLS-9999", "customer_id": "CUS-1001"}) == (
        tool_error("not_found", "No class with id 'CLS-9999'.", "class_id")
    )
    assert tool_refusal(gym, "book_class", {"class_id": "CLS-1001", "customer_id": "CUS-9999"}) == (
        tool_error("not_found", "No customer with id 'CUS-9999'.", "customer_id")
    )


@pytest.mark.parametrize("reason", [None, "work trip"])
def test_a_given_up_place_is_written_whole_with_the_reason_if_any(gym, reason):  # noqa: F811
    place = copy.deepcopy(gym.state.tables["class_bookings"]["CBK-1001"])
    args = {"booking_id": "CBK-1001", **({"reason": reason} if reason else {})}
    cancelled = {**place, "status": "cancelled", "cancelled_at": NOW, "cancel_reason": reason}
    assert tool_result(gym, "cancel_class_booking", args) == {"booking": cancelled}
    assert gym.state.tables["class_bookings"]["CBK-1001"] == cancelled
    entry = gym.ledger.entries[-1]
    assert entry.effect == Effect.REVERSIBLE
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("class_bookings", place, cancelled)
    ]


@pytest.mark.parametrize(
    "start, allowed",
    [("2026-03-04T10:00", False), ("2026-03-04T09:00", False), ("2026-03-04T10:01", True)],
)
def test_a_place_is_given_up_only_before_the_class_starts(gym, start, allowed):  # noqa: F811
    _put_class(gym, "CLS-1009", start)
    _put_place(gym, "CBK-1009", "CLS-1009", "CUS-1001")
    args = {"booking_id": "CBK-1009"}
    if allowed:
        assert tool_result(gym, "cancel_class_booking", args)["booking"]["status"] == "cancelled"
    else:
        assert tool_refusal(gym, "cancel_class_booking", args) == tool_error(
            "conflict", "Pilates has already started.", "booking_id"
        )


def test_a_place_whose_class_is_gone_may_be_given_up(gym):  # noqa: F811
    _put_place(gym, "CBK-1009", "CLS-1099", "CUS-1001")
    assert tool_result(gym, "cancel_class_booking", {"booking_id": "CBK-1009"})["booking"][
        "status"
    ] == ("cancelled")


def test_only_a_booked_place_is_given_up(gym):  # noqa: F811
    _put_place(gym, "CBK-1009", "CLS-1001", "CUS-1001", "attended")
    assert tool_refusal(gym, "cancel_class_booking", {"booking_id": "CBK-1009"}) == tool_error(
        "conflict", "Place CBK-1009 is attended.", "booking_id"
    )
    assert tool_refusal(gym, "cancel_class_booking", {"booking_id": "CBK-9999"}) == tool_error(
        "not_found", "No class place with id 'CBK-9999'.", "booking_id"
    )


@pytest.mark.parametrize(
    "name, args, field",
    [
        ("list_classes", {}, "date"),
        ("list_class_bookings", {"customer_id": "CUS-1001"}, "customer_id"),
        ("book_class", {"class_id": "CLS-1001", "customer_id": "CUS-1001"}, "class_id"),
        ("cancel_class_booking", {"booking_id": "CBK-1001"}, "booking_id"),
    ],
)
def test_a_business_without_classes_refuses_the_tools(world, name, args, field):
    assert tool_refusal(world, name, args) == tool_error(
        "invalid_arguments", "This business runs no group classes.", field
    )
