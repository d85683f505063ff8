"""Goodwill credits (``entitlement.goodwill_when``) on the sample world: a refund on the call
whose reason names a service failure, and an order still on its way for too long, earn goodwill
for their own customer only."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox.rules import Violation
from tests.policy.support import violations
from tests.policy.test_charges import _world

# Lena (CUS-1003) owes no fee; ORD-1002 is hers, PAY-1001 her charge for ORD-1001.
NONE_FOR = "in a situation the policy gives none for (no service failure on record)"


def _credit(customer: str = "CUS-1003") -> tuple[str, dict[str, Any]]:
    return ("apply_credit", {"customer_id": customer, "amount_cents": 100, "reason": "Sorry"})


def _refund(reason: str) -> tuple[str, dict[str, Any]]:
    return ("refund", {"payment_id": "PAY-1001", "amount_cents": 100, "reason": reason})


def _refused(seq: int, payment: str, customer: str = "CUS-1003") -> Violation:
    return Violation(
        "entitlement",
        "accommodation",
        f"credited {customer} 100 cents of goodwill {NONE_FOR}",
        seq,
        (("customers", customer), ("payments", payment)),
    )


BROKEN = {"refundable": ["fee"], "goodwill_when": [{"reason": "(?i)arrived broken"}]}
REASONS = [
    ("a refund on the call for a broken item", [_refund("Arrived broken"), _credit()], []),
    ("a refund for another reason", [_refund("Changed mind"), _credit()],
     [_refused(2, "PAY-1004")]),
    ("no refund at all", [_credit()], [_refused(1, "PAY-1003")]),
    ("another customer's failure is not hers", [_refund("Arrived broken"), _credit("CUS-1002")],
     [_refused(2, "PAY-1004", "CUS-1002")]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "script", "found"), REASONS, ids=[r[0] for r in REASONS])
def test_goodwill_for_a_refund_reason_on_the_call(name, script, found):
    # The refund itself is owed back only as a fee would be; it is the credit that is judged.
    assert [v for v in violations("entitlement", BROKEN, script) if "goodwill" in v.message] == (
        found
    )


# ORD-1002 placed 2026-02-20, ten days before the call (2026-03-02); ORD-1001 made Maria's
# (CUS-1001) and delivered late, so the first order read is someone else's.
def _late(status: str) -> Any:
    return _world(
        ORD_1001={"customer_id": "CUS-1001", "delivered_at": "2026-03-01T10:00"},
        ORD_1002={"status": status, "placed_at": "2026-02-20T09:00"},
        PAY_1001={"customer_id": "CUS-1001"},
    )


ON_ITS_WAY = [
    ("shipped ten days ago, ten days earn it", "shipped", {"min": 10}, []),
    ("shipped ten days ago, eleven needed", "shipped", {"min": 11}, [_refused(1, "PAY-1003")]),
    ("placed but never shipped is not late delivery", "placed", {"min": 1},
     [_refused(1, "PAY-1003")]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "status", "days", "found"), ON_ITS_WAY, ids=[r[0] for r in ON_ITS_WAY]
)
def test_goodwill_for_an_order_still_on_its_way(name, status, days, found):
    params = {"refundable": [], "goodwill_when": [{"late_delivery_days": days}]}
    assert violations("entitlement", params, [_credit()], _late(status)) == found
