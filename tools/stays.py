"""Hotel stays: rooms free over a date range, holds, bookings, date changes, cancellation.

A stay occupies one room for the nights from ``check_in`` up to (not including) ``check_out``,
so one guest can check out on the morning another checks in. The tables are declared by the
business (``rooms``, ``rate_plans``, ``stays``; schemas in
``businesses/kits/boutique_hotel/business.yaml.j2``). The rate plan decides the money, and the
tools apply it so a caller cannot talk the system past it:

- ``book_stay`` charges the plan's deposit (a flexible rate: its deposit nights; a
  non-refundable rate: the whole stay) to the card on file against the new stay;
- ``modify_stay`` moves only a flexible stay, and a hold is confirmed, never doubled;
- ``cancel_stay`` moves no money; on a non-refundable rate it forfeits the prepayment and
  releases the rate, so the ledger marks it irreversible.

The money on a stay after booking (the deposit refund the plan owes, early check-in, damage)
is in :mod:`tools.stay_charges`, which shares the helpers below.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from tools.common import arg_date, money, now, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict, invalid
from tools.params import choice, integer, obj, ref, text
from tools.params import date as date_param
from tools.timefmt import format_time

# A stay in one of these occupies its room; a held room counts until its hold runs out.
_OCCUPYING = ("held", "booked", "checked_in")
HOLD_HOURS_MAX = 48
MAX_NIGHTS = 30
PAYMENT_LINKS = {"order_id": None, "appointment_id": None, "subscription_id": None}


def need_rooms(tx: WorldTx, field: str) -> None:
    if not (tx.has_table("stays") and tx.has_table("rooms")):
        raise invalid("This business keeps no room bookings.", field)


def _nights(check_in: str, check_out: str) -> tuple[date, date, int]:
    start, end = arg_date(check_in, "check_in"), arg_date(check_out, "check_out")
    nights = (end - start).days
    if nights < 1:
        raise invalid("check_out must be at least one day after check_in.", "check_out")
    if nights > MAX_NIGHTS:
        raise invalid(f"A stay is at most {MAX_NIGHTS} nights by phone.", "check_out")
    return start, end, nights


def _live(tx: WorldTx, stay: dict[str, Any]) -> bool:
    if stay["status"] not in _OCCUPYING:
        return False
    if stay["status"] == "held" and stay.get("hold_until"):
        return str(stay["hold_until"]) > tx.now
    return True


def clashes(
    tx: WorldTx, room_id: str, start: date, end: date, ignore: str | None = None
) -> list[dict[str, Any]]:
    """Live stays in the room whose nights overlap [start, end), in id order."""
    lo, hi = start.isoformat(), end.isoformat()
    return [
        s
        for s in tx.find("stays", room_id=room_id)
        if s["id"] != ignore and _live(tx, s) and s["check_in"] < hi and lo < s["check_out"]
    ]


def _plan(tx: WorldTx, code: str) -> dict[str, Any]:
    plans = tx.find("rate_plans", code=code) if tx.has_table("rate_plans") else []
    if not plans:
        raise invalid(f"This hotel has no {code!r} rate.", "rate_plan")
    return plans[0]


def _nightly(room: dict[str, Any], plan: dict[str, Any]) -> int:
    return int(room["nightly_cents"] * (100 - plan.get("discount_percent", 0)) // 100)


def _quote(room: dict[str, Any], plan: dict[str, Any], start: date, nights: int) -> dict[str, Any]:
    """Price, deposit and free-cancellation deadline of ``nights`` in ``room`` on ``plan``."""
    nightly = _nightly(room, plan)
    total = nightly * nights
    deposit = total if not plan["refundable"] else nightly * min(plan["deposit_nights"], nights)
    deadline = None
    if plan["refundable"]:
        check_in_at = datetime.combine(
            start, datetime.strptime(room["check_in_time"], "%H:%M").time()
        )
        deadline = format_time(check_in_at - timedelta(days=plan["free_cancel_days"]))
    return {
        "nightly_cents": nightly,
        "total_cents": total,
        "deposit_cents": deposit,
        "free_cancel_until": deadline,
    }


def stay_in(tx: WorldTx, stay_id: str, *statuses: str) -> dict[str, Any]:
    stay = require(tx, "stays", stay_id, "stay_id")
    if statuses and stay["status"] not in statuses:
        raise conflict(f"Stay {stay_id} is {stay['status']}.", "stay_id")
    return stay


def _guests(args: dict[str, Any], room: dict[str, Any]) -> int:
    guests = args.get("guests", 1)
    if guests > room["max_guests"]:
        raise conflict(
            f"{room['name']} sleeps at most {room['max_guests']}; {guests} guests asked for.",
            "guests",
        )
    return int(guests)


def search_rooms(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Rooms free for every night of the range, with each rate plan's price and deposit."""
    need_rooms(tx, "check_in")
    start, _, nights = _nights(args["check_in"], args["check_out"])
    end = start + timedelta(days=nights)
    if start < now(tx).date():
        raise invalid("check_in is in the past.", "check_in")
    wanted = args.get("guests", 1)
    plans = list(tx.rows("rate_plans")) if tx.has_table("rate_plans") else []
    free = []
    for room in tx.rows("rooms"):
        if room["max_guests"] < wanted or clashes(tx, room["id"], start, end):
            continue
        if args.get("room_type") and room["type"] != args["room_type"]:
            continue
        rates = {p["code"]: _quote(room, p, start, nights) for p in plans}
        free.append({"room": dict(room), "nights": nights, "rates": rates})
    return {"rooms": free}


def list_stays(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """The stays the customer booked (they are the booker), oldest first."""
    need_rooms(tx, "customer_id")
    require(tx, "customers", args["customer_id"], "customer_id")
    stays = sorted(tx.find("stays", customer_id=args["customer_id"]), key=lambda s: s["check_in"])
    return {"stays": stays}


def hold_room(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Hold a room for the dates without a deposit, for ``hours`` (the booker confirms later)."""
    need_rooms(tx, "room_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    room = require(tx, "rooms", args["room_id"], "room_id")
    start, end, nights = _nights(args["check_in"], args["check_out"])
    plan = _plan(tx, args["rate_plan"])
    guests = _guests(args, room)
    if start < now(tx).date():
        raise invalid("check_in is in the past.", "check_in")
    if clashes(tx, room["id"], start, end):
        raise conflict(f"{room['name']} is taken for some of those nights.", "room_id")
    until = format_time(now(tx) + timedelta(hours=args["hours"]))
    stay = tx.insert(
        "stays",
        {
            "customer_id": customer["id"],
            "room_id": room["id"],
            "rate_plan": plan["code"],
            "check_in": start.isoformat(),
            "check_out": end.isoformat(),
            "guests": guests,
            "guest_names": list(args.get("guest_names", [])),
            **_quote(room, plan, start, nights),
            "status": "held",
            "hold_until": until,
            "deposit_payment_id": None,
            "early_checkin": None,
            "booked_at": tx.now,
        },
    )
    return {"stay": stay, "held_until": until}


def book_stay(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Book a room (or confirm the booker's hold on it) and charge the rate plan's deposit."""
    need_rooms(tx, "room_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    room = require(tx, "rooms", args["room_id"], "room_id")
    start, end, nights = _nights(args["check_in"], args["check_out"])
    plan = _plan(tx, args["rate_plan"])
    guests = _guests(args, room)
    if start < now(tx).date():
        raise invalid("check_in is in the past.", "check_in")
    taken = clashes(tx, room["id"], start, end)
    # The booker's own hold on exactly these nights becomes the booking rather than blocking it.
    hold = next(
        (
            s
            for s in taken
            if s["status"] == "held"
            and s["customer_id"] == customer["id"]
            and (s["check_in"], s["check_out"]) == (start.isoformat(), end.isoformat())
        ),
        None,
    )
    if [s for s in taken if s is not hold]:
        raise conflict(f"{room['name']} is taken for some of those nights.", "room_id")
    quote = _quote(room, plan, start, nights)
    fields = {
        "rate_plan": plan["code"],
        "guests": guests,
        "guest_names": list(args.get("guest_names", hold.get("guest_names", []) if hold else [])),
        **quote,
        "status": "booked",
        "hold_until": None,
        "booked_at": tx.now,
    }
    if hold is not None:
        stay = tx.update("stays", hold["id"], **fields)
    else:
        stay = tx.insert(
            "stays",
            {
                "customer_id": customer["id"],
                "room_id": room["id"],
                "check_in": start.isoformat(),
                "check_out": end.isoformat(),
                "deposit_payment_id": None,
                "early_checkin": None,
                **fields,
            },
        )
    what = "prepayment" if not plan["refundable"] else "deposit"
    payment = tx.insert(
        "payments",
        {
            "customer_id": customer["id"],
            "kind": "charge",
            "amount_cents": quote["deposit_cents"],
            "status": "completed",
            "refunded_cents": 0,
            "description": f"Room {what}: {stay['id']} ({room['name']}, {nights} nights, "
            f"{plan['name']})",
            "at": tx.now,
            **PAYMENT_LINKS,
            "refund_of": None,
        },
    )
    stay = tx.update("stays", stay["id"], deposit_payment_id=payment["id"])
    return {"stay": stay, "payment": payment, "charged": money(quote["deposit_cents"])}


def modify_stay(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Move a flexible-rate stay to new dates (and optionally another room) at the same rate."""
    need_rooms(tx, "stay_id")
    stay = stay_in(tx, args["stay_id"], "booked", "held")
    if stay["rate_plan"] == "non_refundable":
        raise conflict(
            "A non-refundable stay cannot be changed: its dates and room are fixed.", "stay_id"
        )
    room = require(tx, "rooms", args.get("room_id", stay["room_id"]), "room_id")
    start, end, nights = _nights(args["check_in"], args["check_out"])
    if start < now(tx).date():
        raise invalid("check_in is in the past.", "check_in")
    if (start.isoformat(), end.isoformat(), room["id"]) == (
        stay["check_in"],
        stay["check_out"],
        stay["room_id"],
    ):
        raise conflict("The stay already has those dates and that room.", "check_in")
    if clashes(tx, room["id"], start, end, ignore=stay["id"]):
        raise conflict(f"{room['name']} is taken for some of those nights.", "check_in")
    _guests({"guests": stay.get("guests", 1)}, room)
    quote = _quote(room, _plan(tx, stay["rate_plan"]), start, nights)
    updated = tx.update(
        "stays",
        stay["id"],
        room_id=room["id"],
        check_in=start.isoformat(),
        check_out=end.isoformat(),
        nightly_cents=quote["nightly_cents"],
        total_cents=quote["total_cents"],
        free_cancel_until=quote["free_cancel_until"],
        # A moved stay keeps the deposit it paid; early check-in was for the old arrival day.
        early_checkin=None,
    )
    return {"stay": updated}


def cancel_stay(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Cancel a held or booked stay. Money is not moved here: ``refund_stay_deposit`` returns
    what the rate plan owes. Cancelling a non-refundable stay forfeits its prepayment."""
    need_rooms(tx, "stay_id")
    stay = stay_in(tx, args["stay_id"], "booked", "held")
    forfeited = 0
    if stay["status"] == "booked":
        late = stay.get("free_cancel_until") is None or tx.now > str(stay["free_cancel_until"])
        forfeited = stay["deposit_cents"] if late else 0
    if stay["status"] == "booked" and stay["rate_plan"] == "non_refundable":
        tx.escalate_effect(
            Effect.IRREVERSIBLE,
            f"non-refundable stay {stay['id']} cancelled: the {money(stay['deposit_cents'])} "
            "prepayment is forfeited and the rate cannot be restored",
        )
    updated = tx.update(
        "stays",
        stay["id"],
        status="cancelled",
        hold_until=None,
        cancelled_at=tx.now,
        cancel_reason=args["reason"],
    )
    return {
        "stay": updated,
        "deposit_refundable": stay["status"] == "booked" and forfeited == 0,
        "forfeited": money(forfeited),
    }


STAY_ID = ref("stays", "The stay's id, e.g. STY-1001.")
_ROOM = ref("rooms", "The room's id, e.g. RM-1001.", enum_ids=True)
_CUSTOMER = ref("customers", "The booker's customer id.")
_PLAN = choice(["flexible", "non_refundable"], "The rate plan.")
_GUESTS = integer("How many guests will stay (default 1).", 1, 8)
_NAMES = {
    "type": "array",
    "items": text("A guest's name.", max_length=80),
    "maxItems": 8,
    "description": "Names of the other guests staying, if the booker gives them.",
}
_DATES = {
    "check_in": date_param("Arrival date."),
    "check_out": date_param("Departure date (the morning after the last night)."),
}

TOOLS = [
    Tool(
        "search_rooms",
        "Rooms free for every night from check_in to check_out, with each rate plan's nightly "
        "price, total, deposit and free-cancellation deadline.",
        obj(
            ["check_in", "check_out"],
            **_DATES,
            guests=_GUESTS,
            room_type=text("Only rooms of this type, e.g. king, twin, suite.", max_length=40),
        ),
        Effect.READ,
        search_rooms,
        tables=("rooms", "rate_plans", "stays"),
    ),
    Tool(
        "list_stays",
        "The stays a customer booked (as the booker), with dates, room, rate plan and status.",
        obj(["customer_id"], customer_id=_CUSTOMER),
        Effect.READ,
        list_stays,
        tables=("stays",),
    ),
    Tool(
        "hold_room",
        "Hold a room for the dates without taking a deposit, for up to 48 hours.",
        obj(
            ["customer_id", "room_id", "check_in", "check_out", "rate_plan", "hours"],
            customer_id=_CUSTOMER,
            room_id=_ROOM,
            **_DATES,
            rate_plan=_PLAN,
            hours=integer("How long to hold it.", 1, HOLD_HOURS_MAX),
            guests=_GUESTS,
            guest_names=_NAMES,
        ),
        Effect.REVERSIBLE,
        hold_room,
        inverse="cancel_stay",
        tables=("stays", "rooms"),
    ),
    Tool(
        "book_stay",
        "Book a room for the dates on a rate plan (confirming the booker's hold if there is one) "
        "and charge the plan's deposit to the card on file: the deposit nights on the flexible "
        "rate, the whole stay on the non-refundable rate.",
        obj(
            ["customer_id", "room_id", "check_in", "check_out", "rate_plan"],
            customer_id=_CUSTOMER,
            room_id=_ROOM,
            **_DATES,
            rate_plan=_PLAN,
            guests=_GUESTS,
            guest_names=_NAMES,
        ),
        Effect.COMPENSABLE,
        book_stay,
        inverse="cancel_stay",
        tables=("stays", "rooms", "rate_plans", "payments"),
    ),
    Tool(
        "modify_stay",
        "Change the dates (and optionally the room) of a flexible-rate stay; non-refundable stays "
        "cannot be changed.",
        obj(["stay_id", "check_in", "check_out"], stay_id=STAY_ID, **_DATES, room_id=_ROOM),
        Effect.REVERSIBLE,
        modify_stay,
        inverse="modify_stay",
        tables=("stays",),
    ),
    Tool(
        "cancel_stay",
        "Cancel a held or booked stay. Does not refund: use refund_stay_deposit for a flexible "
        "stay cancelled in time. Cancelling a non-refundable stay forfeits its prepayment.",
        obj(["stay_id", "reason"], stay_id=STAY_ID, reason=text("Why.", max_length=300)),
        Effect.COMPENSABLE,
        cancel_stay,
        tables=("stays",),
    ),
]
