"""The calendar tools (tools/appointments.py) on the shared sample business: each result and
write whole, each refusal with its words and field, and the edges of a working day.

It is Monday 2026-03-02, 09:10 (``tests/conftest.py``). Dr. Patel (STF-1001: Cleaning and
Crown) and Jo Kim (STF-1002: Cleaning only) both work 09:00-17:00 on weekdays. Cleaning
(SRV-1001) takes 30 minutes, Crown (SRV-1002) 90. Maria Lopez (CUS-1001) has APT-1001, a
Cleaning with Jo Kim on Tuesday 2026-03-03, 10:00-10:30. Sam Okafor (CUS-1002) has no email.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sandbox import SimClock, State, World
from sandbox.tables import STANDARD_TABLES
from tests.conftest import NOW, sample_tables
from tests.helpers import tool_error, tool_refusal, tool_result
from tools import Effect, default_registry

TUESDAY = "2026-03-03"


def _world(
    now: str = NOW,
    *,
    change: Any = None,
    without: tuple[str, ...] = (),
) -> World:
    """The sample business, with ``change(tables)`` applied and the ``without`` tables undeclared."""
    tables = sample_tables()
    for staff in tables["staff"].values():  # the sample's staff share one hours dict
        staff["hours"] = dict(staff["hours"])
    if change is not None:
        change(tables)
    specs = {name: spec for name, spec in STANDARD_TABLES.items() if name not in without}
    tables = {name: rows for name, rows in tables.items() if name not in without}
    return World(State(tables, specs), default_registry(), SimClock(now))


@pytest.fixture
def cal() -> World:
    return _world()


def _row(world: World, table: str, rid: str) -> dict[str, Any]:
    return world.state.tables[table][rid]


def _book(world: World, customer: str, service: str, start: str, staff: str | None = None):
    args = {"customer_id": customer, "service_id": service, "start": start}
    if staff is not None:
        args["staff_id"] = staff
    return tool_result(world, "book_appointment", args)["appointment"]


def _slots(world: World, service: str, day: str, staff: str | None = None) -> list[tuple]:
    args = {"service_id": service, "date": day}
    if staff is not None:
        args["staff_id"] = staff
    result = tool_result(world, "list_availability", args)
    assert (result["service_id"], result["date"]) == (service, day)
    names = {"STF-1001": "Dr. Patel", "STF-1002": "Jo Kim", "STF-1003": "Ines Roy"}
    for slot in result["slots"]:
        assert set(slot) == {"start", "staff_id", "staff_name"}
        assert slot["staff_name"] == names[slot["staff_id"]]
    return [(s["start"][11:], s["staff_id"]) for s in result["slots"]]


def _half_hours(first: str, last: str) -> list[str]:
    """Every half hour from ``first`` to ``last`` inclusive, as HH:MM."""
    h, m = int(first[:2]), int(first[3:])
    out = []
    while f"{h:02d}:{m:02d}" <= last:
        out.append(f"{h:02d}:{m:02d}")
        h, m = (h, 30) if m == 0 else (h + 1, 0)
    return out


# -- services and availability ---------------------------------------------------------------


def test_the_services_are_listed_whole(cal):
    services = sample_tables()["services"]
    assert tool_result(cal, "list_services", {}) == {"services": list(services.values())}


def test_a_named_providers_free_slots_skip_their_bookings_but_not_the_half_hours_beside_them(cal):
    # APT-1001 holds Jo Kim 10:00-10:30: 09:30 (ending at 10:00) and 10:30 are free.
    expected = [(t, "STF-1002") for t in _half_hours("09:00", "16:30") if t != "10:00"]
    assert _slots(cal, "SRV-1001", TUESDAY, "STF-1002") == expected


def test_without_a_provider_every_free_pair_is_listed_in_time_then_id_order_up_to_24(cal):
    pairs = [
        (t, s)
        for t in _half_hours("09:00", "16:30")
        for s in ("STF-1001", "STF-1002")
        if (t, s) != ("10:00", "STF-1002")
    ]
    # The 24th slot is Dr. Patel at 15:00: Jo Kim at 15:00 would be the 25th.
    assert _slots(cal, "SRV-1001", TUESDAY) == pairs[:24]
    assert pairs[23] == ("15:00", "STF-1001")


def test_a_long_service_is_offered_only_by_who_provides_it_and_must_end_by_closing(cal):
    # Crown, 90 minutes: Jo Kim does not provide it; 15:30 ends exactly at 17:00.
    expected = [(t, "STF-1001") for t in _half_hours("09:00", "15:30")]
    assert _slots(cal, "SRV-1002", TUESDAY) == expected


def test_todays_slots_start_at_the_first_half_hour_not_yet_past():
    at_nine = _world("2026-03-02T09:00")
    assert _slots(at_nine, "SRV-1001", "2026-03-02", "STF-1002")[0] == ("09:00", "STF-1002")
    assert _slots(_world(), "SRV-1001", "2026-03-02", "STF-1002")[0] == ("09:30", "STF-1002")


def test_no_slots_on_a_day_off_or_for_someone_without_hours_or_for_a_past_day():
    def unscheduled(tables):
        del tables["staff"]["STF-1002"]["hours"]

    world = _world(change=unscheduled)
    assert _slots(world, "SRV-1001", "2026-03-07") == []  # a Saturday
    assert _slots(world, "SRV-1001", TUESDAY, "STF-1002") == []
    assert _slots(world, "SRV-1001", "2026-02-27") == []  # last Friday


def _night_shift(tables):
    # Ines Roy lists no services (she does any) and works Tuesday evenings to 23:59.
    tables["staff"]["STF-1003"] = {
        "id": "STF-1003",
        "name": "Ines Roy",
        "role": "nurse",
        "hours": {"tue": ["20:00", "23:59"]},
    }
    del tables["staff"]["STF-1001"]["hours"]["tue"]
    del tables["staff"]["STF-1002"]["hours"]["tue"]


def test_a_slot_must_end_on_its_own_day_and_someone_listing_no_services_offers_all():
    world = _world(change=_night_shift)
    # 23:30 would end at midnight, on the next day.
    assert _slots(world, "SRV-1002", TUESDAY) == [
        (t, "STF-1003") for t in _half_hours("20:00", "22:00")
    ]
    assert _slots(world, "SRV-1001", TUESDAY) == [
        (t, "STF-1003") for t in _half_hours("20:00", "23:00")
    ]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            {"service_id": "SRV-9999", "date": TUESDAY},
            tool_error("not_found", "No service with id 'SRV-9999'.", "service_id"),
        ),
        (
            {"service_id": "SRV-1001", "date": TUESDAY, "staff_id": "STF-9999"},
            tool_error("not_found", "No staff member with id 'STF-9999'.", "staff_id"),
        ),
        (
            {"service_id": "SRV-1001", "date": "2026-02-30"},
            tool_error(
                "invalid_arguments",
                "'2026-02-30' is not a valid date; expected YYYY-MM-DD.",
                "date",
            ),
        ),
    ],
)
def test_availability_of_an_unknown_service_or_provider_is_refused(cal, args, error):
    assert tool_refusal(cal, "list_availability", args) == error


# -- a customer's appointments ---------------------------------------------------------------


def test_a_customers_appointments_and_only_their_reminders_are_listed(cal):
    tool_result(cal, "set_reminder", {"appointment_id": "APT-1001", "channel": "sms"})
    other = _book(cal, "CUS-1002", "SRV-1001", f"{TUESDAY}T11:00")
    tool_result(cal, "set_reminder", {"appointment_id": other["id"], "channel": "sms"})
    assert tool_result(cal, "list_appointments", {"customer_id": "CUS-1001"}) == {
        "appointments": [_row(cal, "appointments", "APT-1001")],
        "reminders": [_row(cal, "reminders", "REM-1001")],
    }
    assert tool_result(cal, "list_appointments", {"customer_id": "CUS-1003"}) == {
        "appointments": [],
        "reminders": [],
    }


def test_a_business_without_reminders_lists_appointments_alone():
    world = _world(without=("reminders",))
    assert tool_result(world, "list_appointments", {"customer_id": "CUS-1001"}) == {
        "appointments": [_row(world, "appointments", "APT-1001")],
        "reminders": [],
    }


def test_the_appointments_of_an_unknown_customer_are_refused(cal):
    assert tool_refusal(cal, "list_appointments", {"customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


# -- booking ---------------------------------------------------------------------------------


def test_a_booking_is_written_whole_with_the_first_free_provider_in_id_order(cal):
    record = cal.call(
        "book_appointment",
        {"customer_id": "CUS-1002", "service_id": "SRV-1002", "start": f"{TUESDAY}T11:00"},
    )
    expected = {
        "id": "APT-1002",
        "customer_id": "CUS-1002",
        "service_id": "SRV-1002",
        "staff_id": "STF-1001",
        "start": f"{TUESDAY}T11:00",
        "end": f"{TUESDAY}T12:30",
        "status": "booked",
        "booked_at": NOW,
        "cancelled_at": None,
        "cancel_reason": None,
    }
    assert record.outcome == "ok" and record.result == {"appointment": expected}
    assert _row(cal, "appointments", "APT-1002") == expected
    assert record.effect == Effect.REVERSIBLE
    # Both provide Cleaning at 11:00: Dr. Patel's id comes first.
    assert _book(cal, "CUS-1003", "SRV-1001", f"{TUESDAY}T13:00")["staff_id"] == "STF-1001"
    # At 10:00 Jo Kim has APT-1001, so Dr. Patel; at 11:00 Dr. Patel has the Crown, so Jo Kim.
    assert _book(cal, "CUS-1003", "SRV-1001", f"{TUESDAY}T11:30")["staff_id"] == "STF-1002"


@pytest.mark.parametrize(
    ("start", "staff"),
    [
        (f"{TUESDAY}T09:30", "STF-1002"),  # ends as APT-1001 starts
        (f"{TUESDAY}T10:30", "STF-1002"),  # starts as APT-1001 ends
        (f"{TUESDAY}T09:00", "STF-1002"),  # at opening
        (f"{TUESDAY}T16:30", "STF-1002"),  # ends at closing
        ("2026-03-02T09:10", "STF-1001"),  # now
    ],
)
def test_a_booking_may_touch_another_or_the_edges_of_the_day(cal, start, staff):
    assert _book(cal, "CUS-1002", "SRV-1001", start, staff)["staff_id"] == staff


def test_a_cancelled_appointment_no_longer_holds_its_slot(cal):
    tool_result(cal, "cancel_appointment", {"appointment_id": "APT-1001"})
    assert _book(cal, "CUS-1001", "SRV-1001", f"{TUESDAY}T10:00", "STF-1002")["id"] == "APT-1002"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            {"start": "2026-03-02T09:00"},
            tool_error(
                "conflict", "2026-03-02T09:00 is in the past (it is now 2026-03-02T09:10).", "start"
            ),
        ),
        (
            {"service_id": "SRV-1002", "staff_id": "STF-1002"},
            tool_error("conflict", "Jo Kim does not provide Crown.", "staff_id"),
        ),
        (
            {"start": "2026-03-07T10:00", "staff_id": "STF-1002"},
            tool_error("conflict", "Jo Kim is not working 2026-03-07T10:00–10:30.", "start"),
        ),
        (
            {"start": f"{TUESDAY}T08:30", "staff_id": "STF-1002"},
            tool_error("conflict", "Jo Kim is not working 2026-03-03T08:30–09:00.", "start"),
        ),
        (
            {"start": f"{TUESDAY}T08:55", "staff_id": "STF-1002"},
            tool_error("conflict", "Jo Kim is not working 2026-03-03T08:55–09:25.", "start"),
        ),
        (
            {"start": f"{TUESDAY}T16:45", "staff_id": "STF-1002"},
            tool_error("conflict", "Jo Kim is not working 2026-03-03T16:45–17:15.", "start"),
        ),
        (
            {"start": f"{TUESDAY}T10:15", "staff_id": "STF-1002"},
            tool_error("conflict", "Jo Kim is already booked then (APT-1001).", "start"),
        ),
        (
            {"start": f"{TUESDAY}T16:00", "service_id": "SRV-1002"},
            tool_error("conflict", "No one is free for Crown at 2026-03-03T16:00.", "start"),
        ),
        (
            {"customer_id": "CUS-1001", "start": f"{TUESDAY}T10:00", "staff_id": "STF-1001"},
            tool_error(
                "conflict", "The customer already has appointment APT-1001 at that time.", "start"
            ),
        ),
        (
            {"customer_id": "CUS-1001", "start": f"{TUESDAY}T09:00", "service_id": "SRV-1002"},
            tool_error(
                "conflict", "The customer already has appointment APT-1001 at that time.", "start"
            ),
        ),
        (
            {"customer_id": "CUS-9999"},
            tool_error("not_found", "No customer with id 'CUS-9999'.", "customer_id"),
        ),
        (
            {"service_id": "SRV-9999"},
            tool_error("not_found", "No service with id 'SRV-9999'.", "service_id"),
        ),
        (
            {"staff_id": "STF-9999"},
            tool_error("not_found", "No staff member with id 'STF-9999'.", "staff_id"),
        ),
        (
            {"start": "2026-02-30T11:00"},
            tool_error(
                "invalid_arguments",
                "'2026-02-30T11:00' is not a valid time; expected YYYY-MM-DDTHH:MM.",
                "start",
            ),
        ),
    ],
)
def test_a_booking_that_cannot_be_made_is_refused_with_why(cal, args, error):
    full = {
        "customer_id": "CUS-1002",
        "service_id": "SRV-1001",
        "start": f"{TUESDAY}T11:00",
        **args,
    }
    assert tool_refusal(cal, "book_appointment", full) == error


def test_a_booking_across_midnight_is_not_within_anyones_hours():
    world = _world(change=_night_shift)
    assert tool_refusal(
        world,
        "book_appointment",
        {
            "customer_id": "CUS-1002",
            "service_id": "SRV-1001",
            "start": f"{TUESDAY}T23:45",
            "staff_id": "STF-1003",
        },
    ) == tool_error("conflict", "Ines Roy is not working 2026-03-03T23:45–00:15.", "start")
    assert _book(world, "CUS-1002", "SRV-1001", f"{TUESDAY}T23:15", "STF-1003")["end"] == (
        "2026-03-03T23:45"
    )


def _irreversible(tables):
    tables["services"]["SRV-1001"]["irreversible"] = True


@pytest.mark.parametrize(
    ("name", "args", "note"),
    [
        (
            "book_appointment",
            {"customer_id": "CUS-1002", "service_id": "SRV-1001", "start": f"{TUESDAY}T11:00"},
            "booked a Cleaning booking, which the business marks irreversible",
        ),
        (
            "reschedule_appointment",
            {"appointment_id": "APT-1001", "start": f"{TUESDAY}T11:00"},
            "moved a Cleaning booking, which the business marks irreversible",
        ),
        (
            "cancel_appointment",
            {"appointment_id": "APT-1001"},
            "cancelled a Cleaning booking, which the business marks irreversible",
        ),
    ],
)
def test_every_change_to_a_service_marked_irreversible_says_so(name, args, note):
    world = _world(change=_irreversible)
    record = world.call(name, args)
    assert record.outcome == "ok" and record.effect == Effect.IRREVERSIBLE
    assert world.ledger.entries[-1].effect_note == note
    plain = _world()
    assert plain.call(name, args).effect == Effect.REVERSIBLE
    assert plain.ledger.entries[-1].effect_note is None


# -- rescheduling ----------------------------------------------------------------------------


def test_a_move_is_written_whole_and_keeps_the_provider_when_they_are_free(cal):
    # Dr. Patel's id comes first, but Jo Kim, who had APT-1001, is free at 11:00 on Wednesday.
    result = tool_result(
        cal, "reschedule_appointment", {"appointment_id": "APT-1001", "start": "2026-03-04T11:00"}
    )
    moved = {
        **sample_tables()["appointments"]["APT-1001"],
        "start": "2026-03-04T11:00",
        "end": "2026-03-04T11:30",
        "staff_id": "STF-1002",
    }
    assert result == {"appointment": moved, "reminders_moved": []}
    assert _row(cal, "appointments", "APT-1001") == moved


def test_a_move_keeps_the_provider_whoever_else_is_booked_then():
    def third(tables):
        tables["staff"]["STF-1003"] = {
            "id": "STF-1003",
            "name": "Ines Roy",
            "role": "hygienist",
            "services": ["SRV-1001"],
            "hours": {"wed": ["09:00", "17:00"]},
        }

    world = _world(change=third)
    _book(world, "CUS-1003", "SRV-1001", "2026-03-04T11:00", "STF-1003")
    result = tool_result(
        world, "reschedule_appointment", {"appointment_id": "APT-1001", "start": "2026-03-04T11:00"}
    )
    assert result["appointment"]["staff_id"] == "STF-1002"


def test_a_move_by_a_quarter_hour_overlaps_only_itself(cal):
    result = tool_result(
        cal, "reschedule_appointment", {"appointment_id": "APT-1001", "start": f"{TUESDAY}T10:15"}
    )
    assert (result["appointment"]["start"], result["appointment"]["staff_id"]) == (
        f"{TUESDAY}T10:15",
        "STF-1002",
    )


def test_a_move_goes_to_anyone_free_when_the_provider_is_busy_or_off_or_gone():
    busy = _world()
    _book(busy, "CUS-1003", "SRV-1001", "2026-03-04T11:00", "STF-1002")
    off = _world(change=lambda t: t["staff"]["STF-1002"]["hours"].pop("wed"))
    gone = _world(change=lambda t: t["appointments"]["APT-1001"].update(staff_id="STF-9999"))
    unassigned = _world(change=lambda t: t["appointments"]["APT-1001"].update(staff_id=None))
    for world in (busy, off, gone, unassigned):
        result = tool_result(
            world,
            "reschedule_appointment",
            {"appointment_id": "APT-1001", "start": "2026-03-04T11:00"},
        )
        assert result["appointment"]["staff_id"] == "STF-1001"


def test_a_move_to_a_named_provider_and_a_long_service_keeps_its_length():
    def crown(tables):
        tables["appointments"]["APT-1001"].update(
            service_id="SRV-1002", staff_id="STF-1001", end=f"{TUESDAY}T11:30"
        )

    world = _world(change=crown)
    _book(world, "CUS-1003", "SRV-1001", "2026-03-04T14:00", "STF-1001")
    result = tool_result(
        world,
        "reschedule_appointment",
        {"appointment_id": "APT-1001", "start": "2026-03-04T09:00", "staff_id": "STF-1001"},
    )
    assert (result["appointment"]["end"], result["appointment"]["staff_id"]) == (
        "2026-03-04T10:30",
        "STF-1001",
    )
    moved = tool_result(
        _world(),
        "reschedule_appointment",
        {"appointment_id": "APT-1001", "start": "2026-03-04T09:00", "staff_id": "STF-1001"},
    )
    assert moved["appointment"]["staff_id"] == "STF-1001"


def test_a_moves_scheduled_reminders_move_with_it_and_others_stay(cal):
    tool_result(cal, "set_reminder", {"appointment_id": "APT-1001", "channel": "sms"})
    tool_result(
        cal, "set_reminder", {"appointment_id": "APT-1001", "channel": "email", "hours_before": 2}
    )
    tool_result(cal, "cancel_reminder", {"reminder_id": "REM-1002"})
    other = _book(cal, "CUS-1003", "SRV-1001", f"{TUESDAY}T14:00")
    tool_result(cal, "set_reminder", {"appointment_id": other["id"], "channel": "sms"})
    before = copy.deepcopy(cal.state.tables["reminders"])
    result = tool_result(
        cal, "reschedule_appointment", {"appointment_id": "APT-1001", "start": "2026-03-05T14:30"}
    )
    assert result["reminders_moved"] == ["REM-1001"]
    assert cal.state.tables["reminders"] == {
        **before,
        "REM-1001": {**before["REM-1001"], "send_at": "2026-03-04T14:30"},
    }


def test_a_move_in_a_business_without_reminders_moves_none():
    world = _world(without=("reminders",))
    result = tool_result(
        world, "reschedule_appointment", {"appointment_id": "APT-1001", "start": "2026-03-04T11:00"}
    )
    assert result["reminders_moved"] == []


@pytest.mark.parametrize(
    ("change", "args", "error"),
    [
        (
            lambda t: t["appointments"]["APT-1001"].update(status="completed"),
            {},
            tool_error(
                "conflict", "Appointment APT-1001 is completed, not booked.", "appointment_id"
            ),
        ),
        (
            lambda t: t["appointments"]["APT-1001"].update(service_id="SRV-9999"),
            {},
            tool_error("not_found", "No service with id 'SRV-9999'.", "appointment_id"),
        ),
        (
            None,
            {"appointment_id": "APT-9999"},
            tool_error("not_found", "No appointment with id 'APT-9999'.", "appointment_id"),
        ),
        (
            None,
            {"start": "2026-03-02T09:00"},
            tool_error(
                "conflict", "2026-03-02T09:00 is in the past (it is now 2026-03-02T09:10).", "start"
            ),
        ),
        (
            None,
            {"start": "2026-02-30T11:00"},
            tool_error(
                "invalid_arguments",
                "'2026-02-30T11:00' is not a valid time; expected YYYY-MM-DDTHH:MM.",
                "start",
            ),
        ),
        (
            None,
            {"staff_id": "STF-1001", "start": f"{TUESDAY}T17:00"},
            tool_error("conflict", "Dr. Patel is not working 2026-03-03T17:00–17:30.", "start"),
        ),
    ],
)
def test_a_move_that_cannot_be_made_is_refused_with_why(change, args, error):
    world = _world(change=change)
    full = {"appointment_id": "APT-1001", "start": "2026-03-04T11:00", **args}
    assert tool_refusal(world, "reschedule_appointment", full) == error


# -- cancelling ------------------------------------------------------------------------------


def test_a_cancellation_is_written_whole_and_cancels_only_its_scheduled_reminders(cal):
    tool_result(cal, "set_reminder", {"appointment_id": "APT-1001", "channel": "sms"})
    tool_result(cal, "set_reminder", {"appointment_id": "APT-1001", "channel": "email"})
    cal.state.tables["reminders"]["REM-1002"]["status"] = "sent"
    other = _book(cal, "CUS-1003", "SRV-1001", f"{TUESDAY}T14:00")
    tool_result(cal, "set_reminder", {"appointment_id": other["id"], "channel": "sms"})
    before = copy.deepcopy(cal.state.tables["reminders"])
    result = tool_result(
        cal, "cancel_appointment", {"appointment_id": "APT-1001", "reason": "Feeling unwell"}
    )
    cancelled = {
        **sample_tables()["appointments"]["APT-1001"],
        "status": "cancelled",
        "cancelled_at": NOW,
        "cancel_reason": "Feeling unwell",
    }
    assert result == {"appointment": cancelled, "reminders_cancelled": ["REM-1001"]}
    assert _row(cal, "appointments", "APT-1001") == cancelled
    assert cal.state.tables["reminders"] == {
        **before,
        "REM-1001": {**before["REM-1001"], "status": "cancelled"},
    }


def test_a_cancellation_without_a_reason_or_reminders_or_a_service_on_file():
    world = _world(without=("reminders",))
    result = tool_result(world, "cancel_appointment", {"appointment_id": "APT-1001"})
    assert result["appointment"]["cancel_reason"] is None
    assert result["reminders_cancelled"] == []
    orphan = _world(change=lambda t: t["appointments"]["APT-1001"].update(service_id="SRV-9999"))
    record = orphan.call("cancel_appointment", {"appointment_id": "APT-1001"})
    assert record.outcome == "ok" and record.effect == Effect.REVERSIBLE
    assert _row(orphan, "appointments", "APT-1001")["status"] == "cancelled"


def test_only_a_booked_appointment_can_be_cancelled(cal):
    tool_result(cal, "cancel_appointment", {"appointment_id": "APT-1001"})
    assert tool_refusal(cal, "cancel_appointment", {"appointment_id": "APT-1001"}) == tool_error(
        "conflict", "Appointment APT-1001 is cancelled, not booked.", "appointment_id"
    )


# -- reminders -------------------------------------------------------------------------------


def test_a_reminder_is_written_whole_a_day_before_by_default(cal):
    result = tool_result(cal, "set_reminder", {"appointment_id": "APT-1001", "channel": "sms"})
    expected = {
        "id": "REM-1001",
        "appointment_id": "APT-1001",
        "customer_id": "CUS-1001",
        "channel": "sms",
        "send_at": "2026-03-02T10:00",
        "status": "scheduled",
    }
    assert result == {"reminder": expected}
    assert _row(cal, "reminders", "REM-1001") == expected
    early = tool_result(
        cal, "set_reminder", {"appointment_id": "APT-1001", "channel": "email", "hours_before": 3}
    )
    assert early["reminder"]["send_at"] == "2026-03-03T07:00"


def test_a_reminder_may_be_due_now_and_another_channel_or_a_cancelled_one_does_not_block(cal):
    appt = _book(cal, "CUS-1001", "SRV-1001", f"{TUESDAY}T09:10", "STF-1001")
    due = tool_result(cal, "set_reminder", {"appointment_id": appt["id"], "channel": "sms"})
    assert due["reminder"]["send_at"] == NOW
    tool_result(cal, "cancel_reminder", {"reminder_id": due["reminder"]["id"]})
    again = tool_result(cal, "set_reminder", {"appointment_id": appt["id"], "channel": "sms"})
    assert again["reminder"]["id"] == "REM-1002"
    assert tool_result(cal, "set_reminder", {"appointment_id": appt["id"], "channel": "email"})


@pytest.mark.parametrize(
    ("setup", "args", "error"),
    [
        (
            lambda w: tool_result(w, "cancel_appointment", {"appointment_id": "APT-1001"}),
            {},
            tool_error(
                "conflict",
                "Appointment APT-1001 is cancelled; no reminder can be set.",
                "appointment_id",
            ),
        ),
        (
            lambda w: tool_result(
                w, "set_reminder", {"appointment_id": "APT-1001", "channel": "sms"}
            ),
            {},
            tool_error("conflict", "Reminder REM-1001 by sms is already set.", "channel"),
        ),
        (
            None,
            {"hours_before": 25},
            tool_error(
                "conflict",
                "A reminder 25 h before 2026-03-03T10:00 would be in the past.",
                "hours_before",
            ),
        ),
        (
            None,
            {"appointment_id": "APT-9999"},
            tool_error("not_found", "No appointment with id 'APT-9999'.", "appointment_id"),
        ),
    ],
)
def test_a_reminder_that_cannot_be_set_is_refused_with_why(cal, setup, args, error):
    if setup is not None:
        setup(cal)
    full = {"appointment_id": "APT-1001", "channel": "sms", **args}
    assert tool_refusal(cal, "set_reminder", full) == error


def test_an_email_reminder_needs_an_email_on_file_and_the_customer_on_file(cal):
    appt = _book(cal, "CUS-1002", "SRV-1001", f"{TUESDAY}T14:00")
    assert tool_refusal(
        cal, "set_reminder", {"appointment_id": appt["id"], "channel": "email"}
    ) == tool_error("conflict", "The customer has no email address on file.", "channel")
    assert tool_result(cal, "set_reminder", {"appointment_id": appt["id"], "channel": "sms"})
    orphan = _world(change=lambda t: t["appointments"]["APT-1001"].update(customer_id="CUS-9999"))
    assert tool_refusal(
        orphan, "set_reminder", {"appointment_id": "APT-1001", "channel": "sms"}
    ) == tool_error("not_found", "No customer with id 'CUS-9999'.", "appointment_id")


def test_a_reminder_is_cancelled_once(cal):
    tool_result(cal, "set_reminder", {"appointment_id": "APT-1001", "channel": "sms"})
    result = tool_result(cal, "cancel_reminder", {"reminder_id": "REM-1001"})
    expected = {
        "id": "REM-1001",
        "appointment_id": "APT-1001",
        "customer_id": "CUS-1001",
        "channel": "sms",
        "send_at": "2026-03-02T10:00",
        "status": "cancelled",
    }
    assert result == {"reminder": expected} and _row(cal, "reminders", "REM-1001") == expected
    assert tool_refusal(cal, "cancel_reminder", {"reminder_id": "REM-1001"}) == tool_error(
        "conflict", "Reminder REM-1001 is cancelled.", "reminder_id"
    )
    assert tool_refusal(cal, "cancel_reminder", {"reminder_id": "REM-9999"}) == tool_error(
        "not_found", "No reminder with id 'REM-9999'.", "reminder_id"
    )
