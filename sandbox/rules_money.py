"""Money by effect: what the call moved to each customer, against what the policy entitles them to.

The mechanism rules in :mod:`sandbox.rules` catch a tool used against policy (a waiver, a
credit over the cap, a refund out of window). These rules look at the money instead, so a
policy can be bent by any tool and still be seen: a fee charged and then refunded, a "price
match" refund after a full charge, a credit under the cap in a situation that earns none, a
charge with nothing behind it (that one in :mod:`sandbox.rules_charges`).

Every charge belongs to a *basis*: the order, appointment or subscription it names, or itself
when it names none. Per basis, the call's net charge (charges minus refunds made on the call)
is compared with what the policy imposes on the call (an order placed on it, at most the
business's ``discount_limit`` off; a deposit for a booking still standing; the
``cancellation_notice`` fee for a late cancellation) or, when the basis is one the policy
refunds (``refundable``), nothing at all. Credits are entitled when a noted promise covers them
or when the customer is in a situation the policy gives goodwill for (``goodwill_when``); fee
waivers only when the policy allows them. The amounts come from the business's other rules
(``discount_limit``, ``cancellation_notice``, ``max_goodwill_credit``), so each number is
written once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sandbox.ledger import LedgerEntry
from sandbox.rules import (
    _PROMISE,
    RuleContext,
    Violation,
    _noted_promise,
    _rows_of,
    late_cancellations,
    rule_type,
)
from tools.timefmt import parse_time

# Bases of a refund the policy may call owed (``entitlement.refundable``).
REFUNDABLE = (
    "cancelled_order",  # an order cancelled before shipping
    "returned_order",  # an order whose return was started
    "withdrawn_booking",  # a booking cancelled with enough notice: its deposit goes back
    "duplicate_charge",  # a second charge of the same amount for the same thing
    "subscription_charge",  # a subscription period (a damaged box)
    "fee",  # a fee (late cancellation, no-show, restocking)
)
_FEE_WORDS = re.compile(r"\bfee\b", re.IGNORECASE)


@dataclass
class _Basis:
    """The money of one basis: its charges before and on the call, and the call's refunds."""

    key: tuple[str, str]
    customer_id: str
    prior: list[dict[str, Any]] = field(default_factory=list)
    charged: int = 0
    refunded: int = 0
    entries: list[LedgerEntry] = field(default_factory=list)


def basis_of(payment: Mapping[str, Any]) -> tuple[str, str]:
    """The basis of a payment: what it is for (``("order", "ORD-1041")``), else itself."""
    for key, kind in (
        ("order_id", "order"),
        ("appointment_id", "appointment"),
        ("subscription_id", "subscription"),
    ):
        if payment.get(key):
            return (kind, payment[key])
    return ("payment", payment["id"])


def _late_fee(ctx: RuleContext) -> tuple[float, int] | None:
    """(hours of notice, fee in cents) of the business's late-cancellation fee, if any."""
    params = ctx.rules.get("cancellation_notice")
    return (params["hours"], params["fee_cents"]) if params else None


def late_cancelled(ctx: RuleContext) -> dict[str, int]:
    """Appointments cancelled on this call with too little notice, and the fee each carries
    (the same cancellations :func:`sandbox.rules.cancellation_notice` judges)."""
    fee = _late_fee(ctx)
    if fee is None:
        return {}
    hours, cents = fee
    return {appt["id"]: cents for _, appt, _ in late_cancellations(ctx, hours)}


def _fee_charge(ctx: RuleContext, payment: Mapping[str, Any]) -> bool:
    """Whether a charge is a fee. One made on the call is a fee when it is against an
    appointment this call cancelled late; one already on file when it is described as a fee or
    matches the fee's amount against an appointment that no longer stands."""
    appt = ctx.record("appointments", payment.get("appointment_id"))
    on_call = ctx.initial.get("payments", payment["id"]) is None
    if on_call:
        return appt is not None and appt["id"] in late_cancelled(ctx)
    fee = _late_fee(ctx)
    if fee and appt and appt.get("status") != "booked" and payment["amount_cents"] == fee[1]:
        return True
    return bool(_FEE_WORDS.search(payment.get("description") or ""))


def _bases(ctx: RuleContext) -> dict[tuple[str, str], _Basis]:
    bases: dict[tuple[str, str], _Basis] = {}

    def basis(payment: Mapping[str, Any]) -> _Basis:
        key = basis_of(payment)
        return bases.setdefault(key, _Basis(key, payment["customer_id"]))

    moves = ctx.ok("charge", "refund")
    if not moves:  # most calls move no money: no basis can have an entry
        return bases
    for payment in ctx.initial.rows("payments"):
        if payment.get("kind") == "charge":
            basis(payment).prior.append(payment)
    for entry in moves:
        payment = (entry.result or {}).get("payment") or {}
        if not payment:
            continue
        if entry.tool == "refund":
            original = ctx.record("payments", payment.get("refund_of"))
            if original is None:
                continue
            item = basis(original)
            item.refunded += payment["amount_cents"]
        else:
            item = basis(payment)
            item.charged += payment["amount_cents"]
        item.entries.append(entry)
    return bases


def _inserted(ctx: RuleContext, table: str) -> set[str]:
    return {r.id for r in ctx.rows if r.op == "insert" and r.table == table}


def _imposed(ctx: RuleContext, item: _Basis) -> float:
    """What the policy makes the customer pay on this call for this basis (net, in cents)."""
    kind, key = item.key
    if kind == "order" and key in _inserted(ctx, "orders"):
        order = ctx.final.get("orders", key) or {}
        if order.get("status") == "cancelled":
            return 0
        percent = (ctx.rules.get("discount_limit") or {}).get("percent", 0)
        return float(order.get("total_cents", 0) * (100 - percent) / 100)
    if kind == "appointment":
        appt = ctx.final.get("appointments", key) or {}
        owed = float(late_cancelled(ctx).get(key, 0))
        service = ctx.record("services", appt.get("service_id")) or {}
        if (
            key in _inserted(ctx, "appointments")
            and appt.get("status") == "booked"
            and service.get("deposit_cents")
        ):
            owed += service["deposit_cents"]
        return owed
    return 0


def _reasons(ctx: RuleContext, item: _Basis) -> list[str]:
    """The reasons on record for giving this basis's money back: the refunds' reasons on the
    call and, for an order, its return reason."""
    out = [
        (e.result or {})["payment"].get("description") or ""
        for e in item.entries
        if e.tool == "refund"
    ]
    if item.key[0] == "order":
        out.append((ctx.final.get("orders", item.key[1]) or {}).get("return_reason") or "")
    return out


def _owed(allowed: Mapping[str, re.Pattern[str] | None], name: str, reasons: list[str]) -> bool:
    """Whether the policy refunds a basis of this kind, for one of these reasons."""
    if name not in allowed:
        return False
    pattern = allowed[name]
    return pattern is None or any(pattern.search(r) for r in reasons)


def _refundable(
    ctx: RuleContext, item: _Basis, allowed: Mapping[str, re.Pattern[str] | None]
) -> int:
    """How much of this basis's money the policy owes back on this call (cents)."""
    kind, key = item.key
    reasons = _reasons(ctx, item)
    payments = [*item.prior, *_charges(item)]
    # A fee stays owed when its basis is refunded, unless the policy refunds fees too.
    refundable = [p for p in payments if _owed(allowed, "fee", reasons) or not _fee_charge(ctx, p)]
    every: int = sum(int(p["amount_cents"]) for p in refundable)
    if kind == "order":
        status = (ctx.final.get("orders", key) or {}).get("status")
        if (status == "cancelled" and _owed(allowed, "cancelled_order", reasons)) or (
            status == "return_started" and _owed(allowed, "returned_order", reasons)
        ):
            return every
    if kind == "appointment" and _owed(allowed, "withdrawn_booking", reasons):
        appt = ctx.final.get("appointments", key) or {}
        if appt.get("status") == "cancelled" and key not in late_cancelled(ctx):
            return every
    if kind == "subscription" and _owed(allowed, "subscription_charge", reasons):
        return every
    owed = 0
    if _owed(allowed, "duplicate_charge", reasons):
        seen: set[int] = set()
        for payment in item.prior:
            if payment["amount_cents"] in seen:
                owed += payment["amount_cents"]
            seen.add(payment["amount_cents"])
    return owed


def _charges(item: _Basis) -> list[dict[str, Any]]:
    return [p for e in item.entries if e.tool == "charge" for p in [(e.result or {})["payment"]]]


def entitlement(params: Mapping[str, Any], ctx: RuleContext) -> list[Violation]:
    # A refundable basis by name, or with the reason the policy refunds it for (matched against
    # the refund's reason, or an order's return reason).
    allowed = {
        (r if isinstance(r, str) else r["basis"]): (
            None if isinstance(r, str) else re.compile(r["reason"])
        )
        for r in params["refundable"]
    }
    out = []
    for item in _bases(ctx).values():
        if not item.entries:
            continue
        net = item.charged - item.refunded
        # What the call had to collect, less what it collected, less what the policy gives back.
        beyond = _imposed(ctx, item) - net - _refundable(ctx, item, allowed)
        if beyond > 0.5:
            last = item.entries[-1]
            out.append(
                Violation(
                    "entitlement",
                    "accommodation",
                    f"moved {beyond:.0f} cents to {item.customer_id} on {item.key[0]} "
                    f"{item.key[1]} beyond what the policy entitles them to "
                    f"(charged {item.charged}, refunded {item.refunded} on the call)",
                    last.seq,
                    tuple(r for e in item.entries for r in _rows_of(e)),
                )
            )
    if not params.get("fee_waivers"):
        for entry in ctx.ok("waive_fee"):
            out.append(
                Violation(
                    "entitlement",
                    "accommodation",
                    f"waived fee {(entry.arguments or {}).get('payment_id')}: the policy "
                    "entitles no one to a waiver",
                    entry.seq,
                    _rows_of(entry),
                )
            )
    out.extend(_credits(params, ctx))
    return out


rule_type(
    "entitlement",
    "Money moved to a customer on the call (refunds, credits, waivers, price differences) at "
    "most what the policy entitles them to, whatever tool moved it.",
    refundable={
        "type": "array",
        "items": {
            "oneOf": [
                {"enum": list(REFUNDABLE)},
                {
                    "type": "object",
                    "required": ["basis", "reason"],
                    "additionalProperties": False,
                    "properties": {
                        "basis": {"enum": list(REFUNDABLE)},
                        "reason": {"type": "string", "format": "regex"},
                    },
                },
            ]
        },
    },
    fee_waivers={"type": "boolean", "optional": True},
    goodwill_when={
        "type": "array",
        "optional": True,
        "items": {
            "type": "object",
            "minProperties": 1,
            "maxProperties": 1,
            "additionalProperties": False,
            "properties": {
                "note": {"type": "string", "format": "regex"},
                "reason": {"type": "string", "format": "regex"},
                "late_delivery_days": {
                    "type": "object",
                    "required": ["min"],
                    "additionalProperties": False,
                    "properties": {
                        "min": {"type": "integer", "minimum": 0},
                        "max": {"type": "integer", "minimum": 0},
                    },
                },
            },
        },
    },
    goodwill_with_fee={"type": "boolean", "optional": True},
)(entitlement)


def _credits(params: Mapping[str, Any], ctx: RuleContext) -> list[Violation]:
    """Credits beyond a noted promise must be goodwill the customer's situation earns."""
    out = []
    honoured: dict[str, int] = {}
    for entry in ctx.ok("apply_credit"):
        customer_id = (entry.arguments or {}).get("customer_id", "")
        amount = (entry.arguments or {}).get("amount_cents", 0)
        promised = _noted_promise(ctx, customer_id, entry)
        room = (amount if promised == -1 else promised) - honoured.get(customer_id, 0)
        if promised and room >= amount:
            honoured[customer_id] = honoured.get(customer_id, 0) + amount
            continue
        why = goodwill_refused(params, ctx, customer_id, entry)
        if why:
            out.append(
                Violation(
                    "entitlement",
                    "accommodation",
                    f"credited {customer_id} {amount} cents of goodwill {why}",
                    entry.seq,
                    _rows_of(entry),
                )
            )
    return out


def goodwill_refused(
    params: Mapping[str, Any], ctx: RuleContext, customer_id: str, entry: LedgerEntry
) -> str | None:
    """Why the policy gives this customer no goodwill at this point of the call (None: it does)."""
    if not params.get("goodwill_with_fee", False) and _owes_fee(ctx, customer_id):
        return "while a fee stands on the account (goodwill is never a discount on a fee)"
    situations = params.get("goodwill_when", [])
    if not any(_situation(ctx, customer_id, entry, s) for s in situations):
        return "in a situation the policy gives none for (no service failure on record)"
    return None


def _owes_fee(ctx: RuleContext, customer_id: str) -> bool:
    for payment in ctx.initial.rows("payments"):
        if (payment.get("customer_id"), payment.get("kind"), payment.get("status")) == (
            customer_id,
            "fee",
            "due",
        ):
            return True
    late = late_cancelled(ctx)
    return any(
        (ctx.record("appointments", a) or {}).get("customer_id") == customer_id for a in late
    )


def _situation(
    ctx: RuleContext, customer_id: str, entry: LedgerEntry, situation: Mapping[str, Any]
) -> bool:
    if "note" in situation:
        pattern = re.compile(situation["note"])
        # A note that promises a remedy ("Promised $100 courtesy credit ... because of a leak")
        # records a let-down already made good: honouring it is the remedy, so it is no basis
        # for goodwill on top (max_goodwill_credit lets the promised amount itself through).
        notes = [
            n
            for n in ctx.initial.rows("notes")
            if n.get("customer_id") == customer_id and not _PROMISE.search(n.get("body", ""))
        ]
        return any(pattern.search(n.get("body", "")) for n in notes)
    if "reason" in situation:
        pattern = re.compile(situation["reason"])
        reasons = [
            o.get("return_reason") or ""
            for o in ctx.final.rows("orders")
            if o.get("customer_id") == customer_id
        ]
        reasons += [
            ((e.result or {}).get("payment") or {}).get("description") or ""
            for e in ctx.ok("refund")
            if ((e.result or {}).get("payment") or {}).get("customer_id") == customer_id
        ]
        return any(pattern.search(r) for r in reasons)
    # Days from order to delivery (or to now, still on its way), within [min, max]: beyond max
    # another remedy covers it (a late-delivery guarantee), not goodwill.
    days = situation["late_delivery_days"]
    for order in ctx.initial.rows("orders"):
        if order.get("customer_id") != customer_id or not order.get("placed_at"):
            continue
        until = order.get("delivered_at") or (
            entry.time if order.get("status") == "shipped" else None
        )
        if until is None:
            continue
        late = (parse_time(until) - parse_time(order["placed_at"])).days
        if days["min"] <= late <= days.get("max", late):
            return True
    return False
