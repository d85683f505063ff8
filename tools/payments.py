"""Money tools: charges, refunds, store credit, fee waivers. All compensable: an offset leaves a trace."""

from __future__ import annotations

from typing import Any

from tools.common import money, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict
from tools.params import cents, obj, ref, text

_LINKS = ("order_id", "appointment_id", "subscription_id")
_LINK_TABLES = {
    "order_id": "orders",
    "appointment_id": "appointments",
    "subscription_id": "subscriptions",
}


def list_payments(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    require(tx, "customers", args["customer_id"], "customer_id")
    return {"payments": tx.find("payments", customer_id=args["customer_id"])}


def charge(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    links = {}
    for key in _LINKS:
        if args.get(key):
            linked = require(tx, _LINK_TABLES[key], args[key], key)
            if linked.get("customer_id") != customer["id"]:
                raise conflict(f"{args[key]} belongs to another customer.", key)
            links[key] = args[key]
    payment = tx.insert(
        "payments",
        {
            "customer_id": customer["id"],
            "kind": "charge",
            "amount_cents": args["amount_cents"],
            "status": "completed",
            "refunded_cents": 0,
            "description": args["description"],
            "at": tx.now,
            **{k: links.get(k) for k in _LINKS},
            "refund_of": None,
        },
    )
    return {"payment": payment, "charged": money(args["amount_cents"])}


def refund(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    original = require(tx, "payments", args["payment_id"], "payment_id")
    if original["kind"] != "charge":
        raise conflict(
            f"{original['id']} is a {original['kind']}, not a charge; only charges can be refunded.",
            "payment_id",
        )
    left = original["amount_cents"] - original.get("refunded_cents", 0)
    amount = args["amount_cents"]
    if amount > left:
        raise conflict(
            f"Refund of {money(amount)} exceeds the {money(left)} left to refund on "
            f"{original['id']}.",
            "amount_cents",
        )
    refunded = original.get("refunded_cents", 0) + amount
    tx.update(
        "payments",
        original["id"],
        refunded_cents=refunded,
        status="refunded" if refunded == original["amount_cents"] else "partial_refund",
    )
    payment = tx.insert(
        "payments",
        {
            "customer_id": original["customer_id"],
            "kind": "refund",
            "amount_cents": amount,
            "status": "completed",
            "refunded_cents": 0,
            "description": args["reason"],
            "at": tx.now,
            **{k: original.get(k) for k in _LINKS},
            "refund_of": original["id"],
        },
    )
    return {"payment": payment, "refunded": money(amount)}


def apply_credit(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    amount = args["amount_cents"]
    tx.update("customers", customer["id"], credit_cents=customer.get("credit_cents", 0) + amount)
    payment = tx.insert(
        "payments",
        {
            "customer_id": customer["id"],
            "kind": "credit",
            "amount_cents": amount,
            "status": "completed",
            "refunded_cents": 0,
            "description": args["reason"],
            "at": tx.now,
            **{k: None for k in _LINKS},
            "refund_of": None,
        },
    )
    return {"payment": payment, "credit_balance": money(customer.get("credit_cents", 0) + amount)}


def waive_fee(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    fee = require(tx, "payments", args["payment_id"], "payment_id")
    if fee["kind"] != "fee":
        raise conflict(f"{fee['id']} is a {fee['kind']}, not a fee.", "payment_id")
    if fee["status"] != "due":
        raise conflict(f"Fee {fee['id']} is {fee['status']}, not due.", "payment_id")
    return {
        "payment": tx.update(
            "payments",
            fee["id"],
            status="waived",
            description=f"{fee.get('description', '')} (waived: {args['reason']})",
        )
    }


_PAYMENT = ref("payments", "The payment id, e.g. PAY-1001.")
_CUSTOMER = ref("customers", "The customer's id.")

TOOLS = [
    Tool(
        "list_payments",
        "A customer's charges, refunds, credits and fees.",
        obj(["customer_id"], customer_id=_CUSTOMER),
        Effect.READ,
        list_payments,
        tables=("payments",),
    ),
    Tool(
        "charge",
        "Charge the customer's card on file.",
        obj(
            ["customer_id", "amount_cents", "description"],
            customer_id=_CUSTOMER,
            amount_cents=cents("Amount in cents."),
            description=text("What it is for.", max_length=300),
            order_id=ref("orders", "Order it pays for, if any."),
            appointment_id=ref("appointments", "Appointment it pays for, if any."),
            subscription_id=ref("subscriptions", "Subscription it pays for, if any."),
        ),
        Effect.COMPENSABLE,
        charge,
        inverse="refund",
        tables=("payments",),
    ),
    Tool(
        "refund",
        "Refund all or part of a charge to the original card.",
        obj(
            ["payment_id", "amount_cents", "reason"],
            payment_id=_PAYMENT,
            amount_cents=cents("Amount in cents."),
            reason=text("Why.", max_length=300),
        ),
        Effect.COMPENSABLE,
        refund,
        inverse="charge",
        tables=("payments",),
    ),
    Tool(
        "apply_credit",
        "Add store credit to a customer's account.",
        obj(
            ["customer_id", "amount_cents", "reason"],
            customer_id=_CUSTOMER,
            amount_cents=cents("Amount in cents."),
            reason=text("Why.", max_length=300),
        ),
        Effect.COMPENSABLE,
        apply_credit,
        tables=("payments", "customers"),
    ),
    Tool(
        "waive_fee",
        "Waive a fee that is due (late cancellation, no-show, restocking...).",
        obj(["payment_id", "reason"], payment_id=_PAYMENT, reason=text("Why.", max_length=300)),
        Effect.COMPENSABLE,
        waive_fee,
        tables=("payments",),
    ),
]
