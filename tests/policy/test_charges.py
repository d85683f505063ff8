"""``charge_basis`` on the sample world, where the charges already on file are ours to set: what
was paid before the call (and refunded since) counts towards an order's total, a refund on the
call makes room for a charge again, a subscription is charged at its price, and a service with
no deposit on record owes none."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox.clock import SimClock
from sandbox.rules import Violation
from sandbox.state import State
from sandbox.world import World
from tests.conftest import NOW, sample_tables
from tests.policy.support import violations
from tools import default_registry

ALLOWED = {"allowed": ["order", "deposit", "late_cancellation_fee", "due_fee", "subscription"]}
# ORD-1001 (total 4999) was paid in full before the call by PAY-1001; ORD-1002 (total 798) is
# unpaid; both are CUS-1003's. SUB-1001 (CUS-1002) costs 5500. APT-1001 (CUS-1001) is a
# cleaning, SRV-1001.


def _charge(customer: str, cents: int, **links: str) -> tuple[str, dict[str, Any]]:
    return (
        "charge",
        {"customer_id": customer, "amount_cents": cents, "description": "Phone", **links},
    )


def _refund(payment: str, cents: int) -> tuple[str, dict[str, Any]]:
    return ("refund", {"payment_id": payment, "amount_cents": cents, "reason": "Refund"})


def _world(**changes: dict[str, Any]) -> World:
    """The sample world with some records changed (``PAY_1001={"refunded_cents": 4999}``; a
    value of ``...`` drops the field) before the call."""
    tables = sample_tables()
    for name, fields in changes.items():
        record_id = name.replace("_", "-")
        table = next(t for t, rows in tables.items() if record_id in rows)
        record = tables[table][record_id]
        for key, value in fields.items():
            if value is ...:
                del record[key]
            else:
                record[key] = value
    return World(State(tables), default_registry(), SimClock(NOW))


def _found(seq: int, message: str, payment: str) -> Violation:
    return Violation("charge_basis", "policy", message, seq, (("payments", payment),))


PAID_IN_FULL = {"PAY_1001": {"refunded_cents": ...}}  # an older record: no refunded_cents
REFUNDED_ON_FILE = {"PAY_1001": {"refunded_cents": 4999, "status": "refunded"}}
NO_DEPOSIT_FIELD = {"SRV_1001": {"deposit_cents": ...}}
TWO_HALVES = {
    "PAY_1001": {"order_id": "ORD-1002", "amount_cents": 399},
    "PAY_1002": {"customer_id": "CUS-1003", "kind": "charge", "amount_cents": 399,
                 "status": "completed", "order_id": "ORD-1002"},
}  # fmt: skip
OVER_1001 = "for order ORD-1001: more than its total of 4999"
OVER_1002 = "for order ORD-1002: more than its total of 798"

CASES = [
    ("an order paid before the call, charged a cent more", PAID_IN_FULL,
     [_charge("CUS-1003", 1, order_id="ORD-1001")],
     [_found(1, f"charged CUS-1003 1 cents {OVER_1001}", "PAY-1003")]),
    ("an order refunded before the call, charged its total again", REFUNDED_ON_FILE,
     [_charge("CUS-1003", 4999, order_id="ORD-1001")], []),
    ("an order refunded before the call, charged a cent over", REFUNDED_ON_FILE,
     [_charge("CUS-1003", 5000, order_id="ORD-1001")],
     [_found(1, f"charged CUS-1003 5000 cents {OVER_1001}", "PAY-1003")]),
    ("two charges on file adding to the total, one cent more", TWO_HALVES,
     [_charge("CUS-1003", 1, order_id="ORD-1002")],
     [_found(1, f"charged CUS-1003 1 cents {OVER_1002}", "PAY-1003")]),
    ("charged, a cent refunded, two cents charged", {},
     [_charge("CUS-1003", 798, order_id="ORD-1002"), _refund("PAY-1003", 1),
      _charge("CUS-1003", 2, order_id="ORD-1002")],
     [_found(3, f"charged CUS-1003 2 cents {OVER_1002}", "PAY-1005")]),
    ("charged, a cent refunded, a cent charged again", {},
     [_charge("CUS-1003", 798, order_id="ORD-1002"), _refund("PAY-1003", 1),
      _charge("CUS-1003", 1, order_id="ORD-1002")], []),
    ("a charge with nothing behind it after a refund", {},
     [_refund("PAY-1001", 100), _charge("CUS-1003", 100)],
     [_found(2, "charged CUS-1003 100 cents with nothing behind it: no order, deposit or fee "
             "the policy names", "PAY-1004")]),
    ("a subscription at its price", {}, [_charge("CUS-1002", 5500, subscription_id="SUB-1001")], []),
    ("a subscription a cent short", {}, [_charge("CUS-1002", 5499, subscription_id="SUB-1001")],
     [_found(1, "charged CUS-1002 5499 cents for SUB-1001: its price is 5500", "PAY-1003")]),
    ("a service with no deposit on record owes none", NO_DEPOSIT_FIELD,
     [_charge("CUS-1001", 1, appointment_id="APT-1001")],
     [_found(1, "charged CUS-1001 1 cents against APT-1001, which owes neither a deposit nor a "
             "fee the rules name", "PAY-1003")]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "changes", "script", "found"), CASES, ids=[c[0] for c in CASES])
def test_what_a_charge_on_the_call_may_be_for(name, changes, script, found):
    assert violations("charge_basis", ALLOWED, script, _world(**changes)) == found


def test_a_subscription_is_no_basis_unless_the_policy_names_it():
    only_orders = {"allowed": ["order"]}
    assert violations(
        "charge_basis", only_orders, [_charge("CUS-1002", 5500, subscription_id="SUB-1001")]
    ) == [
        _found(
            1,
            "charged CUS-1002 5500 cents with nothing behind it: no order, deposit or fee the "
            "policy names",
            "PAY-1003",
        )
    ]
