"""Gym membership tools: freezes, and personal-training packages.

A membership is a row of the standard ``subscriptions`` table (plan, price, status, next and
final billing dates), so changing plan and cancelling use :mod:`tools.subscriptions`. A freeze
is a row of the ``freezes`` table the business declares (schema in
``businesses/kits/fitness_gym/tables.yaml``): which membership, from when to when, why. While a
freeze runs the membership is ``paused`` until the freeze's end, so billing skips those days.

How long and how often a member may freeze is *policy* (rule ``freeze_limits`` in
``sandbox/rules_memberships.py``), not a hard constraint: the tool books any well-formed freeze
that does not overlap another one, and the scorer judges whether it should have.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from tools.common import arg_date, need_table, now, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict
from tools.params import date as date_param
from tools.params import obj, ref, text
from tools.timefmt import parse_date

# The window a member's freezes are counted over (the policy's "per year").
YEAR = timedelta(days=365)


def _need(tx: WorldTx, table: str, field: str) -> None:
    need_table(tx, table, field, f"This business keeps no {table.replace('_', ' ')}.")


def _counted(tx: WorldTx, subscription_id: str, today: date) -> list[dict[str, Any]]:
    """Freezes of the membership that count against the yearly limit: not cancelled, started
    or starting within the last 365 days (or later)."""
    return [
        f
        for f in tx.find("freezes", subscription_id=subscription_id)
        if f["status"] != "cancelled" and parse_date(f["start"]) > today - YEAR
    ]


def list_freezes(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """A membership's freezes, oldest first, and how many count in the last 12 months."""
    _need(tx, "freezes", "subscription_id")
    sub = require(tx, "subscriptions", args["subscription_id"], "subscription_id")
    counted = _counted(tx, sub["id"], now(tx).date())
    return {
        "freezes": sorted(tx.find("freezes", subscription_id=sub["id"]), key=lambda f: f["start"]),
        "freezes_last_12_months": len(counted),
        "days_frozen_last_12_months": sum(f["days"] for f in counted),
    }


def freeze_membership(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Freeze a membership from ``start`` (default today) until ``until``."""
    _need(tx, "freezes", "subscription_id")
    sub = require(tx, "subscriptions", args["subscription_id"], "subscription_id")
    if sub["status"] == "cancelled":
        raise conflict(f"Membership {sub['id']} is cancelled.", "subscription_id")
    today = now(tx).date()
    start = arg_date(args["start"], "start") if args.get("start") else today
    until = arg_date(args["until"], "until")
    if start < today:
        raise conflict("A freeze cannot start in the past.", "start")
    if until <= start:
        raise conflict("The freeze must end after it starts.", "until")
    for other in tx.find("freezes", subscription_id=sub["id"]):
        if other["status"] in ("scheduled", "active") and (
            parse_date(other["start"]) < until and start < parse_date(other["end"])
        ):
            raise conflict(
                f"Freeze {other['id']} ({other['start']} to {other['end']}) overlaps.", "start"
            )
    if start == today and sub["status"] != "active":
        raise conflict(f"Membership {sub['id']} is {sub['status']}, not active.", "subscription_id")
    freeze = tx.insert(
        "freezes",
        {
            "subscription_id": sub["id"],
            "customer_id": sub["customer_id"],
            "start": start.isoformat(),
            "end": until.isoformat(),
            "days": (until - start).days,
            "reason": args["reason"],
            "status": "active" if start == today else "scheduled",
            "created_at": tx.now,
        },
    )
    if start == today:
        sub = tx.update("subscriptions", sub["id"], status="paused", paused_until=until.isoformat())
    return {
        "freeze": freeze,
        "subscription": sub,
        "freezes_last_12_months": len(_counted(tx, sub["id"], today)),
    }


def end_freeze(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """End a running freeze today (the membership is active again) or cancel a scheduled one."""
    _need(tx, "freezes", "freeze_id")
    freeze = require(tx, "freezes", args["freeze_id"], "freeze_id")
    today = now(tx).date()
    if freeze["status"] == "scheduled":
        return {"freeze": tx.update("freezes", freeze["id"], status="cancelled")}
    if freeze["status"] != "active":
        raise conflict(f"Freeze {freeze['id']} is {freeze['status']}.", "freeze_id")
    start = parse_date(freeze["start"])
    ended = tx.update(
        "freezes",
        freeze["id"],
        status="ended",
        end=today.isoformat(),
        days=max((today - start).days, 0),
    )
    sub = tx.get("subscriptions", freeze["subscription_id"])
    if sub is not None and sub["status"] == "paused":
        sub = tx.update("subscriptions", sub["id"], status="active", paused_until=None)
    return {"freeze": ended, "subscription": sub}


def list_pt_packages(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """A customer's personal-training packages with sessions left and whether each is usable."""
    _need(tx, "pt_packages", "customer_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    today = now(tx).date()
    out = []
    for package in tx.find("pt_packages", customer_id=customer["id"]):
        left = package["sessions_total"] - package["sessions_used"]
        expired = today > parse_date(package["expires"])
        out.append(
            {
                **package,
                "sessions_left": left,
                "expired": expired,
                "usable": package["status"] == "active" and left > 0 and not expired,
            }
        )
    return {"packages": out}


_SUB = ref("subscriptions", "The membership's id, e.g. SUB-1001.")

TOOLS = [
    Tool(
        "list_freezes",
        "A membership's freezes (start, end, days, status) and how many count in the last 12 months.",
        obj(["subscription_id"], subscription_id=_SUB),
        Effect.READ,
        list_freezes,
        tables=("freezes",),
    ),
    Tool(
        "freeze_membership",
        "Freeze a membership (no billing, no access) from a start date (default today) until a"
        " date. Check the policy's limits first.",
        obj(
            ["subscription_id", "until", "reason"],
            subscription_id=_SUB,
            until=date_param("The day the freeze ends and the membership resumes."),
            start=date_param("The first frozen day (default today)."),
            reason=text("Why (injury, travel ...).", max_length=300),
        ),
        Effect.REVERSIBLE,
        freeze_membership,
        inverse="end_freeze",
        tables=("freezes", "subscriptions"),
    ),
    Tool(
        "end_freeze",
        "End a running freeze today (the membership is active again) or cancel one not yet started.",
        obj(["freeze_id"], freeze_id=ref("freezes", "The freeze's id, e.g. FRZ-1001.")),
        Effect.REVERSIBLE,
        end_freeze,
        tables=("freezes", "subscriptions"),
    ),
    Tool(
        "list_pt_packages",
        "A customer's personal-training packages: sessions bought, used and left, expiry.",
        obj(["customer_id"], customer_id=ref("customers", "The customer's id.")),
        Effect.READ,
        list_pt_packages,
        tables=("pt_packages",),
    ),
]
