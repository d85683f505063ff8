"""Credits against a noted promise (sandbox.rules_money): the promise is honoured once, in as
many parts as the call likes; what goes beyond it must be goodwill the situation earns."""

from __future__ import annotations

import pytest

from tests.effect_rows import c, credit, violations

# CUS-1022's note promises a $100 courtesy credit for the leak (NOTE-1004); the hotel's
# goodwill situations do not cover a let-down already made good.
HOTEL_LEAK = "boutique_hotel/leak-move-credit-honoured-not-inflated"
HOTEL_LEAK_IN = [c("verify_customer", customer_id="CUS-1022", postcode="05602")]


def beyond(cents: int, seq: int, payment: str) -> tuple[str, int, tuple[tuple[str, str], ...]]:
    return (
        f"credited CUS-1022 {cents} cents of goodwill in a situation the policy gives none for "
        "(no service failure on record)",
        seq,
        (("customers", "CUS-1022"), ("payments", payment)),
    )


PARTS = [
    ("the promise in three parts", [4000, 4000, 2000], []),
    (
        "a cent beyond the promise in the third part",
        [4000, 4000, 2001],
        [beyond(2001, 3, "PAY-1144")],
    ),
    ("a cent beyond the promise in the second part", [4000, 6001], [beyond(6001, 2, "PAY-1143")]),
    ("a cent beyond the promise at once", [10001], [beyond(10001, 1, "PAY-1142")]),
]


@pytest.mark.parametrize("name, parts, reported", PARTS, ids=[r[0] for r in PARTS])
def test_a_noted_promise_is_honoured_once_in_parts(name, parts, reported):
    calls = [*HOTEL_LEAK_IN, *(credit("CUS-1022", p) for p in parts)]
    found = violations("entitlement", HOTEL_LEAK, calls)
    assert [(v.rule, v.tag, v.message, v.ledger_seq, v.rows) for v in found] == [
        ("entitlement", "accommodation", *r) for r in reported
    ]
