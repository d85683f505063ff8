"""Subscription tools: look up, change plan, pause, cancel.

Cancelling is reversible until the subscription's final billing date: from that day on the
cancellation is final (the plan is retired, the line or membership released), so the handler
marks that one call irreversible.
"""

from __future__ import annotations

from typing import Any

from tools.common import arg_date, now, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict
from tools.params import date, obj, ref, text
from tools.timefmt import parse_date


def list_subscriptions(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    require(tx, "customers", args["customer_id"], "customer_id")
    return {"subscriptions": tx.find("subscriptions", customer_id=args["customer_id"])}


def get_subscription(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    return {
        "subscription": require(tx, "subscriptions", args["subscription_id"], "subscription_id")
    }


def _live(tx: WorldTx, subscription_id: str) -> dict[str, Any]:
    sub = require(tx, "subscriptions", subscription_id, "subscription_id")
    if sub["status"] == "cancelled":
        raise conflict(f"Subscription {sub['id']} is cancelled.", "subscription_id")
    return sub


def change_plan(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    sub = _live(tx, args["subscription_id"])
    plan = require(tx, "services", args["plan_id"], "plan_id")
    if sub.get("plan_id") == plan["id"]:
        raise conflict(f"Subscription {sub['id']} is already on {plan['name']}.", "plan_id")
    return {
        "subscription": tx.update(
            "subscriptions",
            sub["id"],
            plan=plan["name"],
            plan_id=plan["id"],
            price_cents=plan["price_cents"],
        )
    }


def pause_subscription(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    sub = _live(tx, args["subscription_id"])
    if sub["status"] != "active":
        raise conflict(
            f"Subscription {sub['id']} is {sub['status']}, not active.", "subscription_id"
        )
    until = arg_date(args["until"], "until")
    if until <= now(tx).date():
        raise conflict("The pause must end after today.", "until")
    return {
        "subscription": tx.update(
            "subscriptions", sub["id"], status="paused", paused_until=until.isoformat()
        )
    }


def cancel_subscription(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    sub = _live(tx, args["subscription_id"])
    final = sub.get("final_billing_date")
    if final and now(tx).date() >= parse_date(final):
        tx.escalate_effect(
            Effect.IRREVERSIBLE,
            f"cancelled on or after its final billing date {final}: the plan cannot be restored",
        )
    cancelled = tx.update(
        "subscriptions",
        sub["id"],
        status="cancelled",
        cancelled_at=tx.now,
        cancel_reason=args["reason"],
    )
    return {"subscription": cancelled}


_SUB = ref("subscriptions", "The subscription id, e.g. SUB-1001.")

TOOLS = [
    Tool(
        "list_subscriptions",
        "A customer's subscriptions with plan, price, status and billing dates.",
        obj(["customer_id"], customer_id=ref("customers", "The customer's id.")),
        Effect.READ,
        list_subscriptions,
        tables=("subscriptions",),
    ),
    Tool(
        "get_subscription",
        "One subscription with plan, price, status and billing dates.",
        obj(["subscription_id"], subscription_id=_SUB),
        Effect.READ,
        get_subscription,
        tables=("subscriptions",),
    ),
    Tool(
        "change_plan",
        "Move a subscription to another plan (plans are listed by list_services).",
        obj(
            ["subscription_id", "plan_id"],
            subscription_id=_SUB,
            plan_id=ref("services", "The new plan's id.", enum_ids=True),
        ),
        Effect.REVERSIBLE,
        change_plan,
        inverse="change_plan",
        tables=("subscriptions", "services"),
    ),
    Tool(
        "pause_subscription",
        "Pause an active subscription until a date.",
        obj(["subscription_id", "until"], subscription_id=_SUB, until=date("Resume date.")),
        Effect.REVERSIBLE,
        pause_subscription,
        tables=("subscriptions",),
    ),
    Tool(
        "cancel_subscription",
        "Cancel a subscription. On or after its final billing date this is final and cannot be undone.",
        obj(
            ["subscription_id", "reason"], subscription_id=_SUB, reason=text("Why.", max_length=500)
        ),
        Effect.REVERSIBLE,
        cancel_subscription,
        tables=("subscriptions",),
    ),
]
