"""Charges by effect: every charge on the call pays for something the policy names, at its amount.

A charge pays for an order the customer bought, a booking's deposit, a fee the rules impose
(the ``cancellation_notice`` fee of a late cancellation on the call) or a fee already due on
file; a charge with nothing behind it (a "$449 at the matched price" with no order) or at the
wrong amount is a ``policy`` violation, whatever the description says.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sandbox.rules import RuleContext, Violation, _rows_of, rule_type
from sandbox.rules_money import basis_of, late_cancelled

# What a charge on the call may be for (``charge_basis.allowed``).
CHARGE_BASES = (
    "order",  # an order, up to its total
    "deposit",  # a booking's deposit, exactly, once
    "late_cancellation_fee",  # the cancellation_notice fee of a late cancellation on the call
    "due_fee",  # a fee already due on file (paying a no-show or restocking fee), up to it
    "subscription",  # a subscription period, at its price
)


def charge_basis(params: Mapping[str, Any], ctx: RuleContext) -> list[Violation]:
    allowed = set(params["allowed"])
    out = []
    # Net charged per basis so far: what was on file, then the call's charges and refunds in
    # order (a charge taken again after a refund is not a second charge).
    net: dict[tuple[str, str], int] = {}
    for payment in ctx.initial.rows("payments"):
        if payment.get("kind") == "charge":
            key = basis_of(payment)
            net[key] = net.get(key, 0) + payment["amount_cents"] - payment.get("refunded_cents", 0)
    for entry in ctx.ok("charge", "refund"):
        payment = (entry.result or {}).get("payment") or {}
        if not payment:
            continue
        if entry.tool == "refund":
            original = ctx.record("payments", payment.get("refund_of")) or payment
            key = basis_of(original)
            net[key] = net.get(key, 0) - payment["amount_cents"]
            continue
        key = basis_of(payment)
        net[key] = net.get(key, 0) + payment["amount_cents"]
        why = _charge_problem(ctx, payment, allowed, net[key])
        if why:
            out.append(
                Violation(
                    "charge_basis",
                    "policy",
                    f"charged {payment['customer_id']} {payment['amount_cents']} cents {why}",
                    entry.seq,
                    _rows_of(entry),
                )
            )
    return out


rule_type(
    "charge_basis",
    "A charge on the call pays for something the customer bought or the policy imposes (an "
    "order, a booking's deposit, a fee the rules name), at its amount.",
    allowed={"type": "array", "items": {"enum": list(CHARGE_BASES)}, "uniqueItems": True},
)(charge_basis)


def _charge_problem(
    ctx: RuleContext, payment: Mapping[str, Any], allowed: set[str], net: int
) -> str | None:
    """Why a charge has no basis the policy names at its amount (``net``: the basis's net
    charge including this one), or None."""
    key = basis_of(payment)
    amount = payment["amount_cents"]
    if "due_fee" in allowed:
        due = [
            f
            for f in ctx.initial.rows("payments")
            if f.get("kind") == "fee" and f.get("status") == "due" and basis_of(f) == key
        ]
        if due and amount <= sum(f["amount_cents"] for f in due):
            return None
    if key[0] == "order" and "order" in allowed:
        total = (ctx.final.get("orders", key[1]) or {}).get("total_cents", 0)
        return f"for order {key[1]}: more than its total of {total}" if net > total else None
    if key[0] == "appointment":
        late = late_cancelled(ctx)
        if key[1] in late and "late_cancellation_fee" in allowed:
            if amount > late[key[1]]:
                return f"as the late-cancellation fee of {key[1]}: more than {late[key[1]]}"
            return None
        appt = ctx.record("appointments", key[1]) or {}
        deposit = (ctx.record("services", appt.get("service_id")) or {}).get("deposit_cents", 0)
        if deposit and "deposit" in allowed:
            if amount != deposit or net > deposit:
                return f"against {key[1]}: its deposit is {deposit}, charged once"
            return None
        return f"against {key[1]}, which owes neither a deposit nor a fee the rules name"
    if key[0] == "subscription" and "subscription" in allowed:
        price = (ctx.record("subscriptions", key[1]) or {}).get("price_cents")
        return None if amount == price else f"for {key[1]}: its price is {price}"
    return "with nothing behind it: no order, deposit or fee the policy names"
