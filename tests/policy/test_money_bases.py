"""Money per basis (sandbox.rules_money): the call's charges and refunds add up on a basis,
and what the policy imposes on a basis is what the customer owes, at the boundaries."""

from __future__ import annotations

from typing import Any

import pytest

from tests.effect_rows import (
    ORDER,
    RYAN,
    RYAN_IN,
    c,
    refund,
    ryan_charge,
    violations,
)

# Rows: name, calls, the entitlement parameters (None: the business's), and the violations
# as (message, ledger seq, rows) — empty when nothing is broken.
BASES: list[tuple[str, list[Any], dict[str, Any] | None, list[Any]]] = [
    (
        "two charges on one order add up to the discount limit",
        [
            *RYAN_IN,
            ORDER,
            ryan_charge(24705, order_id="ORD-1041"),
            ryan_charge(24705, order_id="ORD-1041"),
        ],
        None,
        [],
    ),
    (
        "two refunds on one order add up to a cent beyond the discount limit",
        [
            *RYAN_IN,
            ORDER,
            ryan_charge(54900, order_id="ORD-1041"),
            refund("PAY-1056", 2746),
            refund("PAY-1056", 2745),
        ],
        None,
        [
            (
                "moved 1 cents to CUS-1021 on order ORD-1041 beyond what the policy entitles "
                "them to (charged 54900, refunded 5491 on the call)",
                4,
                (
                    ("payments", "PAY-1056"),
                    ("payments", "PAY-1056"),
                    ("payments", "PAY-1057"),
                    ("payments", "PAY-1056"),
                    ("payments", "PAY-1058"),
                ),
            )
        ],
    ),
    (
        # Cancelled, the new order imposes nothing: refunding it in full moves nothing beyond,
        # even where the policy refunds no cancelled order.
        "a new order cancelled and refunded where the policy refunds nothing",
        [
            *RYAN_IN,
            ORDER,
            ryan_charge(54900, order_id="ORD-1041"),
            c("cancel_order", order_id="ORD-1041", reason="Changed mind"),
            refund("PAY-1056", 54900),
        ],
        {"refundable": []},
        [],
    ),
]


@pytest.mark.parametrize("name, calls, params, reported", BASES, ids=[r[0] for r in BASES])
def test_money_adds_up_per_basis(name, calls, params, reported):
    found = violations("entitlement", RYAN, calls, params=params)
    assert [(v.rule, v.tag, v.message, v.ledger_seq, v.rows) for v in found] == [
        ("entitlement", "accommodation", *r) for r in reported
    ]
