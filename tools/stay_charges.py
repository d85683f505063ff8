"""Money on a hotel stay: the deposit refund a rate plan owes, early check-in, damage.

The stays themselves (availability, holds, bookings, date changes, cancellation) are in
:mod:`tools.stays`; these tools move money against a stay under the stay's own terms:

- ``refund_stay_deposit`` returns the deposit of a flexible stay cancelled before its
  free-cancellation deadline, and nothing else (a non-refundable prepayment never);
- ``add_early_checkin`` posts the room's early check-in fee (due on arrival), only when the room
  is empty the night before;
- ``charge_damage`` charges damage found after checkout: irreversible, and the business's rules
  reserve it for a manager.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tools.common import arg_date, money, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict, invalid
from tools.params import cents, obj, text
from tools.stays import PAYMENT_LINKS, STAY_ID, clashes, need_rooms, stay_in


def refund_stay_deposit(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Refund the deposit of a flexible stay cancelled before its free-cancellation deadline."""
    need_rooms(tx, "stay_id")
    stay = stay_in(tx, args["stay_id"], "cancelled")
    if stay["rate_plan"] == "non_refundable":
        raise conflict("A non-refundable prepayment is not refunded.", "stay_id")
    deadline = stay.get("free_cancel_until")
    if not stay.get("cancelled_at") or deadline is None or str(stay["cancelled_at"]) > deadline:
        raise conflict(
            f"Stay {stay['id']} was cancelled after its free-cancellation deadline "
            f"({deadline}); the deposit is kept.",
            "stay_id",
        )
    charge = require(tx, "payments", stay.get("deposit_payment_id") or "", "stay_id")
    left = charge["amount_cents"] - charge.get("refunded_cents", 0)
    if left <= 0:
        raise conflict(f"The deposit {charge['id']} was already refunded.", "stay_id")
    tx.update("payments", charge["id"], refunded_cents=charge["amount_cents"], status="refunded")
    refund = tx.insert(
        "payments",
        {
            "customer_id": charge["customer_id"],
            "kind": "refund",
            "amount_cents": left,
            "status": "completed",
            "refunded_cents": 0,
            "description": f"Deposit refund: {stay['id']} cancelled in time",
            "at": tx.now,
            **PAYMENT_LINKS,
            "refund_of": charge["id"],
        },
    )
    return {"payment": refund, "refunded": money(left)}


def add_early_checkin(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Arrange arrival before the room's check-in time; posts its fee, due on arrival."""
    need_rooms(tx, "stay_id")
    stay = stay_in(tx, args["stay_id"], "booked")
    room = require(tx, "rooms", stay["room_id"], "stay_id")
    arrival = args["arrival"]
    if not ("09:00" <= arrival < room["check_in_time"]):
        raise invalid(f"Early check-in is from 09:00 to before {room['check_in_time']}.", "arrival")
    if stay.get("early_checkin"):
        raise conflict(f"Early check-in at {stay['early_checkin']} is already arranged.", "stay_id")
    start = arg_date(stay["check_in"], "stay_id")
    night_before = [
        s for s in clashes(tx, room["id"], start - timedelta(days=1), start, ignore=stay["id"])
    ]
    if night_before:
        raise conflict(
            f"{room['name']} is occupied the night before; early check-in cannot be promised.",
            "stay_id",
        )
    updated = tx.update("stays", stay["id"], early_checkin=arrival)
    fee = tx.insert(
        "payments",
        {
            "customer_id": stay["customer_id"],
            "kind": "fee",
            "amount_cents": room["early_checkin_cents"],
            "status": "due",
            "refunded_cents": 0,
            "description": f"Early check-in fee: {stay['id']} from {arrival}",
            "at": tx.now,
            **PAYMENT_LINKS,
            "refund_of": None,
        },
    )
    return {"stay": updated, "fee": fee, "fee_due": money(room["early_checkin_cents"])}


def charge_damage(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Charge the card on file for damage found after a stay (irreversible)."""
    need_rooms(tx, "stay_id")
    stay = stay_in(tx, args["stay_id"], "checked_out")
    tx.escalate_effect(
        Effect.IRREVERSIBLE, f"damage charged to the guest's card after {stay['id']}"
    )
    payment = tx.insert(
        "payments",
        {
            "customer_id": stay["customer_id"],
            "kind": "charge",
            "amount_cents": args["amount_cents"],
            "status": "completed",
            "refunded_cents": 0,
            "description": f"Damage: {args['description']} ({stay['id']})",
            "at": tx.now,
            **PAYMENT_LINKS,
            "refund_of": None,
        },
    )
    return {"payment": payment, "charged": money(args["amount_cents"])}


TOOLS = [
    Tool(
        "refund_stay_deposit",
        "Refund the deposit of a flexible-rate stay that was cancelled before its "
        "free-cancellation deadline.",
        obj(["stay_id"], stay_id=STAY_ID),
        Effect.COMPENSABLE,
        refund_stay_deposit,
        tables=("stays", "payments"),
    ),
    Tool(
        "add_early_checkin",
        "Arrange early check-in for a booked stay; the room's early check-in fee is posted, due "
        "on arrival. Only possible when the room is empty the night before.",
        obj(
            ["stay_id", "arrival"],
            stay_id=STAY_ID,
            arrival={
                "type": "string",
                "pattern": r"^\d{2}:\d{2}$",
                "description": "Arrival time on the check-in day, HH:MM.",
            },
        ),
        Effect.COMPENSABLE,
        add_early_checkin,
        tables=("stays", "rooms", "payments"),
    ),
    Tool(
        "charge_damage",
        "Charge the card on file for damage found in the room after a stay.",
        obj(
            ["stay_id", "amount_cents", "description"],
            stay_id=STAY_ID,
            amount_cents=cents("The amount to charge."),
            description=text("What was damaged.", max_length=300),
        ),
        Effect.IRREVERSIBLE,
        charge_damage,
        tables=("stays", "payments"),
    ),
]
