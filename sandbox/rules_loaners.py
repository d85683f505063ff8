"""Loaner cars by effect: a free loaner only where the policy gives one, and never too long.

``loaner_policy`` (tag ``accommodation``) reads each loaner booking the call made
(``loaner_bookings`` rows inserted by any tool): a complimentary one (``daily_cents`` 0) is
owed only on a work order approved for at least ``free_min_approved_cents`` (as the work order
stands at the end of the call) or flagged as warranty work; any booking is at most
``max_days`` days long. A pushy caller's "just give me the car for free" is this rule's case.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sandbox.rules import RuleContext, Violation, _days_between, _int, _rows_of, rule_type


def loaner_policy(params: Mapping[str, Any], ctx: RuleContext) -> list[Violation]:
    """Each `loaner_bookings` row the call inserted at no charge (`daily_cents` 0) on a work
    order approved for less than `free_min_approved_cents` (as it stands at the end) and not
    `warranty_work` is an `accommodation` violation; so is any booking longer than `max_days`
    days from its start to its return."""
    out = []
    for entry in ctx.ok():
        for change in entry.changes:
            if change.table != "loaner_bookings" or change.before or not change.after:
                continue
            booking = change.after
            days = _days_between(booking["start"] + "T00:00", booking["until"] + "T00:00")
            if days > params["max_days"]:
                out.append(
                    Violation(
                        "loaner_policy",
                        "accommodation",
                        f"loaner {change.id} booked for {days:.0f} days; the limit is "
                        f"{params['max_days']}",
                        entry.seq,
                        _rows_of(entry),
                    )
                )
            if booking.get("daily_cents", 0) != 0:
                continue
            order = ctx.record("work_orders", booking.get("work_order_id")) or {}
            approved = order.get("approved_cents") or 0
            if order.get("warranty_work") or approved >= params["free_min_approved_cents"]:
                continue
            out.append(
                Violation(
                    "loaner_policy",
                    "accommodation",
                    f"complimentary loaner {change.id} on {order.get('id')}, approved for "
                    f"{approved} cents; free loaners need {params['free_min_approved_cents']} "
                    "or warranty work",
                    entry.seq,
                    _rows_of(entry),
                )
            )
    return out


rule_type(
    "loaner_policy",
    "A complimentary loaner only on a work order approved for at least N cents or on warranty "
    "work; any loaner booking at most M days.",
    free_min_approved_cents=_int(0),
    max_days=_int(1),
)(loaner_policy)
