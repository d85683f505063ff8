"""Calendar tools: services, availability, booking, rescheduling, cancelling, reminders."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tools.common import arg_date, arg_time, now, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict
from tools.params import choice, date, integer, obj, ref, text, time
from tools.timefmt import format_time, parse_time, weekday_key

SLOT_STEP = timedelta(minutes=30)
MAX_SLOTS = 24


def _offers(staff: dict[str, Any], service_id: str) -> bool:
    services = staff.get("services") or []
    return not services or service_id in services


def _minutes(clock: str) -> int:
    return int(clock[:2]) * 60 + int(clock[3:5])


def _working(staff: dict[str, Any], start: datetime, end: datetime) -> bool:
    hours = (staff.get("hours") or {}).get(weekday_key(start.date()))
    if not hours or start.date() != end.date():
        return False
    first, last = start.hour * 60 + start.minute, end.hour * 60 + end.minute
    return _minutes(hours[0]) <= first and last <= _minutes(hours[1])


def _booked_between(
    tx: WorldTx, start: datetime, end: datetime, ignore: str | None = None
) -> list[dict[str, Any]]:
    """Booked appointments overlapping [start, end), in id order."""
    # Times are fixed-width ISO strings, so string order is time order: no parsing in this scan.
    lo, hi = format_time(start), format_time(end)
    return [
        a
        for a in tx.rows("appointments")
        if a["status"] == "booked" and a["id"] != ignore and a["start"] < hi and lo < a["end"]
    ]


def _busy(
    tx: WorldTx,
    start: datetime,
    end: datetime,
    *,
    staff_id: str | None = None,
    customer_id: str | None = None,
    ignore: str | None = None,
    booked: list[dict[str, Any]] | None = None,
) -> dict[str, Any] | None:
    """The first booked appointment of that staff member or customer overlapping [start, end)."""
    if booked is None:
        booked = _booked_between(tx, start, end, ignore)
    lo, hi = format_time(start), format_time(end)
    for appt in booked:
        if staff_id is not None and appt.get("staff_id") != staff_id:
            continue
        if customer_id is not None and appt["customer_id"] != customer_id:
            continue
        if appt["start"] < hi and lo < appt["end"]:
            return appt
    return None


def _free_staff(
    tx: WorldTx, service_id: str, start: datetime, end: datetime, ignore: str | None = None
) -> list[dict[str, Any]]:
    booked = _booked_between(tx, start, end, ignore)
    return [
        s
        for s in tx.rows("staff")
        if _offers(s, service_id)
        and _working(s, start, end)
        and _busy(tx, start, end, staff_id=s["id"], booked=booked) is None
    ]


def _check_slot(
    tx: WorldTx,
    service: dict[str, Any],
    start: datetime,
    staff_id: str | None,
    customer_id: str,
    ignore: str | None = None,
) -> tuple[str, datetime]:
    """Validate a slot for booking; returns (staff id, end). Raises a tool error if it is not free."""
    if start < now(tx):
        raise conflict(f"{format_time(start)} is in the past (it is now {tx.now}).", "start")
    end = start + timedelta(minutes=service["duration_min"])
    if staff_id is not None:
        staff = require(tx, "staff", staff_id, "staff_id")
        if not _offers(staff, service["id"]):
            raise conflict(f"{staff['name']} does not provide {service['name']}.", "staff_id")
        if not _working(staff, start, end):
            raise conflict(
                f"{staff['name']} is not working {format_time(start)}–{end:%H:%M}.", "start"
            )
        clash = _busy(tx, start, end, staff_id=staff_id, ignore=ignore)
        if clash is not None:
            raise conflict(f"{staff['name']} is already booked then ({clash['id']}).", "start")
    else:
        free = _free_staff(tx, service["id"], start, end, ignore=ignore)
        if not free:
            raise conflict(
                f"No one is free for {service['name']} at {format_time(start)}.", "start"
            )
        staff_id = free[0]["id"]
    mine = _busy(tx, start, end, customer_id=customer_id, ignore=ignore)
    if mine is not None:
        raise conflict(f"The customer already has appointment {mine['id']} at that time.", "start")
    return staff_id, end


def _mark_irreversible(tx: WorldTx, service: dict[str, Any], change: str) -> None:
    """A service the business marks ``irreversible`` (a private room whose release cannot be
    taken back, a crew dispatched at once): every booking, move or cancellation of it is an
    irreversible call, whatever the calendar row looks like afterwards."""
    if service.get("irreversible"):
        tx.escalate_effect(
            Effect.IRREVERSIBLE,
            f"{change} a {service['name']} booking, which the business marks irreversible",
        )


def list_services(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    return {"services": list(tx.rows("services"))}


def list_availability(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    service = require(tx, "services", args["service_id"], "service_id")
    day = arg_date(args["date"], "date")
    staff_id = args.get("staff_id")
    candidates = (
        [require(tx, "staff", staff_id, "staff_id")] if staff_id else list(tx.rows("staff"))
    )
    duration = timedelta(minutes=service["duration_min"])
    earliest = now(tx)
    day_start = datetime.combine(day, datetime.min.time())
    booked = _booked_between(tx, day_start, day_start + timedelta(days=1))
    # Who offers the service and their hours that day, read once rather than per slot (the
    # loop tries every step of the day): (staff, first minute, last minute), as _working.
    weekday = weekday_key(day)
    windows = []
    for staff in candidates:
        hours = (staff.get("hours") or {}).get(weekday)
        if hours and _offers(staff, service["id"]):
            windows.append((staff, _minutes(hours[0]), _minutes(hours[1])))
    slots: list[dict[str, Any]] = []
    moment = day_start
    while moment.date() == day and len(slots) < MAX_SLOTS:
        end = moment + duration
        if moment >= earliest and end.date() == day:
            first, last = moment.hour * 60 + moment.minute, end.hour * 60 + end.minute
            for staff, opens, closes in windows:
                if (
                    opens <= first
                    and last <= closes
                    and _busy(tx, moment, end, staff_id=staff["id"], booked=booked) is None
                ):
                    slots.append(
                        {
                            "start": format_time(moment),
                            "staff_id": staff["id"],
                            "staff_name": staff["name"],
                        }
                    )
                    if len(slots) >= MAX_SLOTS:
                        break
        moment += SLOT_STEP
    return {"service_id": service["id"], "date": args["date"], "slots": slots}


def list_appointments(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    require(tx, "customers", args["customer_id"], "customer_id")
    appts = [a for a in tx.rows("appointments") if a["customer_id"] == args["customer_id"]]
    reminders = (
        [r for r in tx.rows("reminders") if r.get("customer_id") == args["customer_id"]]
        if tx.has_table("reminders")
        else []
    )
    return {"appointments": appts, "reminders": reminders}


def book_appointment(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    service = require(tx, "services", args["service_id"], "service_id")
    start = arg_time(args["start"], "start")
    staff_id, end = _check_slot(tx, service, start, args.get("staff_id"), customer["id"])
    _mark_irreversible(tx, service, "booked")
    appt = tx.insert(
        "appointments",
        {
            "customer_id": customer["id"],
            "service_id": service["id"],
            "staff_id": staff_id,
            "start": format_time(start),
            "end": format_time(end),
            "status": "booked",
            "booked_at": tx.now,
            "cancelled_at": None,
            "cancel_reason": None,
        },
    )
    return {"appointment": appt}


def reschedule_appointment(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    appt = require(tx, "appointments", args["appointment_id"], "appointment_id")
    if appt["status"] != "booked":
        raise conflict(
            f"Appointment {appt['id']} is {appt['status']}, not booked.", "appointment_id"
        )
    service = require(tx, "services", appt["service_id"], "appointment_id")
    start = arg_time(args["start"], "start")
    staff_id = args.get("staff_id")
    if staff_id is None and appt.get("staff_id"):
        # Keep the same provider when they are free at the new time; otherwise anyone free.
        keep = tx.get("staff", appt["staff_id"])
        end_guess = start + timedelta(minutes=service["duration_min"])
        if (
            keep
            and _working(keep, start, end_guess)
            and _busy(tx, start, end_guess, staff_id=keep["id"], ignore=appt["id"]) is None
        ):
            staff_id = keep["id"]
    staff_id, end = _check_slot(
        tx, service, start, staff_id, appt["customer_id"], ignore=appt["id"]
    )
    _mark_irreversible(tx, service, "moved")
    shift = start - parse_time(appt["start"])
    moved = tx.update(
        "appointments",
        appt["id"],
        start=format_time(start),
        end=format_time(end),
        staff_id=staff_id,
    )
    # A real scheduler moves pending reminders with the appointment; do the same, in this entry.
    shifted = []
    if tx.has_table("reminders"):
        for reminder in list(tx.find("reminders", appointment_id=appt["id"], status="scheduled")):
            tx.update(
                "reminders",
                reminder["id"],
                send_at=format_time(parse_time(reminder["send_at"]) + shift),
            )
            shifted.append(reminder["id"])
    return {"appointment": moved, "reminders_moved": shifted}


def cancel_appointment(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    appt = require(tx, "appointments", args["appointment_id"], "appointment_id")
    if appt["status"] != "booked":
        raise conflict(
            f"Appointment {appt['id']} is {appt['status']}, not booked.", "appointment_id"
        )
    service = tx.get("services", appt["service_id"])
    if service:
        _mark_irreversible(tx, service, "cancelled")
    cancelled = tx.update(
        "appointments",
        appt["id"],
        status="cancelled",
        cancelled_at=tx.now,
        cancel_reason=args.get("reason"),
    )
    dropped = []
    if tx.has_table("reminders"):
        for reminder in list(tx.find("reminders", appointment_id=appt["id"], status="scheduled")):
            tx.update("reminders", reminder["id"], status="cancelled")
            dropped.append(reminder["id"])
    return {"appointment": cancelled, "reminders_cancelled": dropped}


def set_reminder(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    appt = require(tx, "appointments", args["appointment_id"], "appointment_id")
    if appt["status"] != "booked":
        raise conflict(
            f"Appointment {appt['id']} is {appt['status']}; no reminder can be set.",
            "appointment_id",
        )
    customer = require(tx, "customers", appt["customer_id"], "appointment_id")
    channel = args["channel"]
    if channel == "email" and not customer.get("email"):
        raise conflict("The customer has no email address on file.", "channel")
    hours = args.get("hours_before", 24)
    send_at = parse_time(appt["start"]) - timedelta(hours=hours)
    if send_at < now(tx):
        raise conflict(
            f"A reminder {hours} h before {appt['start']} would be in the past.", "hours_before"
        )
    for existing in tx.find("reminders", appointment_id=appt["id"], status="scheduled"):
        if existing["channel"] == channel:
            raise conflict(f"Reminder {existing['id']} by {channel} is already set.", "channel")
    reminder = tx.insert(
        "reminders",
        {
            "appointment_id": appt["id"],
            "customer_id": appt["customer_id"],
            "channel": channel,
            "send_at": format_time(send_at),
            "status": "scheduled",
        },
    )
    return {"reminder": reminder}


def cancel_reminder(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    reminder = require(tx, "reminders", args["reminder_id"], "reminder_id")
    if reminder["status"] != "scheduled":
        raise conflict(f"Reminder {reminder['id']} is {reminder['status']}.", "reminder_id")
    return {"reminder": tx.update("reminders", reminder["id"], status="cancelled")}


_APPT = ref("appointments", "The appointment id, e.g. APT-1043.")
_SERVICE = ref("services", "The service id.", enum_ids=True)
_STAFF = ref("staff", "A staff member's id (optional: anyone free).", enum_ids=True)

TOOLS = [
    Tool(
        "list_services",
        "List the services offered, with duration, price and deposit.",
        obj(),
        Effect.READ,
        list_services,
        tables=("services",),
    ),
    Tool(
        "list_availability",
        "Free start times for a service on a date, with who is free. Times are business-local.",
        obj(
            ["service_id", "date"],
            service_id=_SERVICE,
            date=date("The day to search."),
            staff_id=_STAFF,
        ),
        Effect.READ,
        list_availability,
        tables=("services", "staff", "appointments"),
    ),
    Tool(
        "list_appointments",
        "A customer's appointments (all statuses) and their reminders.",
        obj(["customer_id"], customer_id=ref("customers", "The customer's id.")),
        Effect.READ,
        list_appointments,
        tables=("appointments",),
    ),
    Tool(
        "book_appointment",
        "Book a service for a customer at a start time.",
        obj(
            ["customer_id", "service_id", "start"],
            customer_id=ref("customers", "The customer's id."),
            service_id=_SERVICE,
            start=time("Start time."),
            staff_id=_STAFF,
        ),
        Effect.REVERSIBLE,
        book_appointment,
        inverse="cancel_appointment",
        tables=("appointments", "services", "staff", "customers"),
    ),
    Tool(
        "reschedule_appointment",
        "Move a booked appointment to a new start time (pending reminders move with it).",
        obj(
            ["appointment_id", "start"],
            appointment_id=_APPT,
            start=time("New start time."),
            staff_id=_STAFF,
        ),
        Effect.REVERSIBLE,
        reschedule_appointment,
        inverse="reschedule_appointment",
        tables=("appointments",),
    ),
    Tool(
        "cancel_appointment",
        "Cancel a booked appointment (its pending reminders are cancelled).",
        obj(
            ["appointment_id"],
            appointment_id=_APPT,
            reason=text("Why it is cancelled.", max_length=500),
        ),
        Effect.REVERSIBLE,
        cancel_appointment,
        inverse="book_appointment",
        tables=("appointments",),
    ),
    Tool(
        "set_reminder",
        "Schedule a reminder for an appointment by SMS or email.",
        obj(
            ["appointment_id", "channel"],
            appointment_id=_APPT,
            channel=choice(["sms", "email"], "How to send the reminder."),
            hours_before=integer("How many hours before the start (default 24).", 1, 336),
        ),
        Effect.REVERSIBLE,
        set_reminder,
        inverse="cancel_reminder",
        tables=("reminders", "appointments"),
    ),
    Tool(
        "cancel_reminder",
        "Cancel a scheduled reminder.",
        obj(["reminder_id"], reminder_id=ref("reminders", "The reminder id.")),
        Effect.REVERSIBLE,
        cancel_reminder,
        inverse="set_reminder",
        tables=("reminders",),
    ),
]
