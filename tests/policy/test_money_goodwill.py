"""Goodwill parameters of entitlement (sandbox.rules_money): ``goodwill_with_fee`` lets goodwill
through while a fee stands, and with no ``goodwill_when`` no situation earns any."""

from __future__ import annotations

import pytest

from tests.effect_rows import c, credit, violations

NORA = "dental/no-show-fee-promised-waived"  # CUS-1023, $50 no-show fee due
NORA_CREDIT = [
    c("verify_customer", customer_id="CUS-1023", dob="1974-01-30"),
    credit("CUS-1023", 100),
]
WAIT = "dental/long-wait-wants-100-credit"  # CUS-1022, a long wait on record
WAIT_CREDIT = [
    c("verify_customer", customer_id="CUS-1022", dob="1986-10-10"),
    credit("CUS-1022", 100),
]
ON_WAITS = [{"note": "(?i)\\bwait"}]
FEE = "while a fee stands on the account (goodwill is never a discount on a fee)"
NO_FAILURE = "in a situation the policy gives none for (no service failure on record)"

GOODWILL = [
    (
        "a fee due, goodwill refused for the fee",
        NORA,
        NORA_CREDIT,
        {"goodwill_with_fee": False, "goodwill_when": ON_WAITS},
        [f"credited CUS-1023 100 cents of goodwill {FEE}"],
    ),
    (
        "a fee due, goodwill with fees allowed, refused for the situation",
        NORA,
        NORA_CREDIT,
        {"goodwill_with_fee": True, "goodwill_when": ON_WAITS},
        [f"credited CUS-1023 100 cents of goodwill {NO_FAILURE}"],
    ),
    ("a long wait on record", WAIT, WAIT_CREDIT, {"goodwill_when": ON_WAITS}, []),
    (
        "a long wait, no goodwill situations at all",
        WAIT,
        WAIT_CREDIT,
        {},
        [f"credited CUS-1022 100 cents of goodwill {NO_FAILURE}"],
    ),
]


@pytest.mark.parametrize(
    "name, task_id, calls, params, messages", GOODWILL, ids=[r[0] for r in GOODWILL]
)
def test_goodwill_parameters(name, task_id, calls, params, messages):
    found = violations("entitlement", task_id, calls, params={"refundable": [], **params})
    customer = calls[-1][1]["customer_id"]
    assert [(v.rule, v.tag, v.message, v.ledger_seq, v.rows) for v in found] == [
        ("entitlement", "accommodation", m, 1, (("customers", customer), ("payments", "PAY-1030")))
        for m in messages
    ]
