"""Group-class tools for a gym or studio: the timetable, booking a place, cancelling it.

Classes and places are tables the business declares (``classes``, ``class_bookings``; schemas
in ``businesses/kits/fitness_gym/tables.yaml``). A class has a fixed time, an instructor and a
capacity; unlike an appointment many members share it, so it is not on the appointments
calendar. A full class is a hard constraint (the room holds so many bikes); who may book, and
how late a place may be given up, is policy.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tools.common import arg_date, need_table, now, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict
from tools.params import date, obj, ref, text
from tools.timefmt import format_time

# How far ahead list_classes looks when no date is given.
HORIZON = timedelta(days=7)


def _need(tx: WorldTx, field: str) -> None:
    need_table(tx, "classes", field, "This business runs no group classes.")


def _taken(tx: WorldTx, class_id: str) -> int:
    return len(tx.find("class_bookings", class_id=class_id, status="booked"))


def list_classes(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Classes on a date (default: the next seven days), optionally by name, with places left."""
    _need(tx, "date")
    if args.get("date"):
        day = arg_date(args["date"], "date")
        lo, hi = f"{day.isoformat()}T00:00", f"{day.isoformat()}T23:59"
    else:
        lo, hi = tx.now, format_time(now(tx) + HORIZON)
    wanted = (args.get("name") or "").strip().lower()
    out = []
    for item in sorted(tx.rows("classes"), key=lambda c: (c["start"], c["id"])):
        if not lo <= item["start"] <= hi or item["status"] != "scheduled":
            continue
        if wanted and wanted not in item["name"].lower():
            continue
        out.append({**item, "places_left": max(item["capacity"] - _taken(tx, item["id"]), 0)})
    return {"classes": out}


def list_class_bookings(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """A customer's class places (booked and cancelled), with each class's name and time."""
    _need(tx, "customer_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    out = []
    for booking in tx.find("class_bookings", customer_id=customer["id"]):
        item = tx.get("classes", booking["class_id"]) or {}
        out.append({**booking, "class": item.get("name"), "start": item.get("start")})
    return {"bookings": sorted(out, key=lambda b: (str(b["start"]), b["id"]))}


def book_class(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Book the customer a place in a class that has not started and is not full."""
    _need(tx, "class_id")
    item = require(tx, "classes", args["class_id"], "class_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    if item["status"] != "scheduled" or item["start"] <= tx.now:
        raise conflict(f"{item['name']} at {item['start']} cannot be booked now.", "class_id")
    for mine in tx.find("class_bookings", class_id=item["id"], customer_id=customer["id"]):
        if mine["status"] == "booked":
            raise conflict(f"{customer['name']} already has place {mine['id']}.", "class_id")
    if _taken(tx, item["id"]) >= item["capacity"]:
        raise conflict(
            f"{item['name']} at {item['start']} is full ({item['capacity']} places).", "class_id"
        )
    booking = tx.insert(
        "class_bookings",
        {
            "class_id": item["id"],
            "customer_id": customer["id"],
            "status": "booked",
            "booked_at": tx.now,
        },
    )
    return {"booking": booking, "class": item}


def cancel_class_booking(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Give up a booked place in a class that has not started."""
    _need(tx, "booking_id")
    booking = require(tx, "class_bookings", args["booking_id"], "booking_id")
    if booking["status"] != "booked":
        raise conflict(f"Place {booking['id']} is {booking['status']}.", "booking_id")
    item = tx.get("classes", booking["class_id"])
    if item is not None and item["start"] <= tx.now:
        raise conflict(f"{item['name']} has already started.", "booking_id")
    cancelled = tx.update(
        "class_bookings",
        booking["id"],
        status="cancelled",
        cancelled_at=tx.now,
        cancel_reason=args.get("reason"),
    )
    return {"booking": cancelled}


TOOLS = [
    Tool(
        "list_classes",
        "The class timetable: name, instructor, time, capacity and places left.",
        obj(
            [],
            date=date("Only classes on this day (default: the next seven days)."),
            name=text("Only classes whose name contains this, e.g. spin.", max_length=60),
        ),
        Effect.READ,
        list_classes,
        tables=("classes",),
    ),
    Tool(
        "list_class_bookings",
        "A customer's class places, booked and cancelled, with each class's name and time.",
        obj(["customer_id"], customer_id=ref("customers", "The customer's id.")),
        Effect.READ,
        list_class_bookings,
        tables=("class_bookings", "classes"),
    ),
    Tool(
        "book_class",
        "Book a customer a place in a class (refused when it is full or has started).",
        obj(
            ["class_id", "customer_id"],
            class_id=ref("classes", "The class's id, e.g. CLS-1001."),
            customer_id=ref("customers", "Who the place is for."),
        ),
        Effect.REVERSIBLE,
        book_class,
        inverse="cancel_class_booking",
        tables=("class_bookings", "classes"),
    ),
    Tool(
        "cancel_class_booking",
        "Give up a booked class place before the class starts.",
        obj(
            ["booking_id"],
            booking_id=ref("class_bookings", "The place's id, e.g. CBK-1001."),
            reason=text("Why, if the caller says.", max_length=300),
        ),
        Effect.REVERSIBLE,
        cancel_class_booking,
        tables=("class_bookings",),
    ),
]
