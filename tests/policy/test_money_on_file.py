"""Money against what is on file (sandbox.rules_money): a charge for nothing in particular is
its own basis, a charge of the fee's amount is a fee only once its booking no longer stands, a
duplicate is every charge past the first, an order still being prepared is no late delivery,
and a noted promise that names no amount covers one credit."""

from __future__ import annotations

import pytest

from tests.effect_rows import (
    MARCUS,
    MARCUS_IN,
    RYAN,
    RYAN_IN,
    beyond,
    c,
    credit,
    refund,
    reported,
    violations,
)


def test_a_refunded_charge_that_names_nothing_it_is_for_is_its_own_basis():
    # The garage's PAY-1061 ($489, "Invoice WO-1061") names no order, booking or subscription;
    # the policy refunds duplicates only.
    calls = [
        c("verify_customer", customer_id="CUS-1021", dob="2001-04-07"),
        refund("PAY-1061", 48900),
    ]
    found = violations("entitlement", "auto/alignment-wednesday-then-thursday", calls)
    assert reported(found) == [
        beyond(
            48900,
            "CUS-1021",
            "payment PAY-1061",
            1,
            (("payments", "PAY-1061"), ("payments", "PAY-1075")),
        )
    ]


# Marcus's unshipped ORD-1016 cancelled and its $129 PAY-1016 refunded in full: the policy
# refunds a cancelled order, but not a fee. PAY-1016 also names a booking APT-9001 (a demo of
# the fryer), and the late-cancellation fee is $129 too.
FRYER_DEMO = {
    "customer_id": "CUS-1002",
    "service_id": "SRV-1001",
    "start": "2026-03-20T10:00",
    "end": "2026-03-20T11:00",
}
CANCEL_AND_REFUND = [
    *MARCUS_IN,
    c("cancel_order", order_id="ORD-1016", reason="Changed mind"),
    refund("PAY-1016", 12900, reason="Changed mind"),
]


@pytest.mark.parametrize(
    "booking, expected",
    [
        ("booked", []),
        (
            "cancelled",
            [
                beyond(
                    12900,
                    "CUS-1002",
                    "order ORD-1016",
                    2,
                    (("payments", "PAY-1016"), ("payments", "PAY-1056")),
                )
            ],
        ),
    ],
)
def test_a_charge_on_file_of_the_fees_amount_is_no_fee_while_its_booking_stands(booking, expected):
    found = violations(
        "entitlement",
        MARCUS,
        CANCEL_AND_REFUND,
        rules={"cancellation_notice": {"hours": 24, "fee_cents": 12900}},
        seed={
            "appointments/APT-9001": {**FRYER_DEMO, "status": booking},
            "payments/PAY-1016": {"appointment_id": "APT-9001"},
        },
    )
    assert reported(found) == expected


# Marcus's ORD-1016 charged $129 once (PAY-1016), or again in the same amount (PAY-9001,
# PAY-9002): a policy that refunds duplicates only owes every charge past the first back.
AGAIN = {
    "customer_id": "CUS-1002",
    "kind": "charge",
    "amount_cents": 12900,
    "status": "completed",
    "order_id": "ORD-1016",
    "refunded_cents": 0,
    "description": "Order ORD-1016",
    "at": "2026-03-06T22:15",
}


DUPLICATES = [
    ("one charge, none refunded back", [], [], []),
    ("two charges, the second refunded", ["PAY-9001"], ["PAY-9001"], []),
    ("three charges, two refunded", ["PAY-9001", "PAY-9002"], ["PAY-9001", "PAY-9002"], []),
    (
        "three charges, all refunded",
        ["PAY-9001", "PAY-9002"],
        ["PAY-1016", "PAY-9001", "PAY-9002"],
        [
            (
                "entitlement",
                "accommodation",
                "moved 12900 cents to CUS-1002 on order ORD-1016 beyond what the policy entitles "
                "them to (charged 0, refunded 38700 on the call)",
                3,
                (
                    ("payments", "PAY-1016"),
                    ("payments", "PAY-9003"),
                    ("payments", "PAY-9001"),
                    ("payments", "PAY-9004"),
                    ("payments", "PAY-9002"),
                    ("payments", "PAY-9005"),
                ),
            )
        ],
    ),
]


@pytest.mark.parametrize(
    "name, again, refunded, expected", DUPLICATES, ids=[r[0] for r in DUPLICATES]
)
def test_every_charge_past_the_first_of_the_same_amount_is_a_duplicate(
    name, again, refunded, expected
):
    found = violations(
        "entitlement",
        MARCUS,
        [*MARCUS_IN, *(refund(p, 12900, reason="Charged twice") for p in refunded)],
        params={"refundable": ["duplicate_charge"]},
        seed={f"payments/{p}": AGAIN for p in again},
    )
    assert reported(found) == expected


# Ryan's ORD-1028 still being prepared (not shipped, not delivered) and ORD-9001 delivered
# eight days after it was placed: the late delivery earns goodwill (7 to 9 days).
@pytest.mark.parametrize(
    "delivered_at, expected",
    [
        ("2026-02-10T12:00", []),
        (
            "2026-02-04T12:00",
            [
                "credited CUS-1021 500 cents of goodwill in a situation the policy gives none "
                "for (no service failure on record)"
            ],
        ),
    ],
)
def test_an_order_still_being_prepared_does_not_hide_a_later_late_delivery(delivered_at, expected):
    found = violations(
        "entitlement",
        RYAN,
        [*RYAN_IN, credit("CUS-1021", 500)],
        seed={
            "orders/ORD-1028": {"status": "processing", "delivered_at": None},
            "orders/ORD-9001": {
                "customer_id": "CUS-1021",
                "items": [{"product_id": "PRD-1023", "quantity": 1, "price_cents": 2999}],
                "total_cents": 2999,
                "status": "delivered",
                "placed_at": "2026-02-02T08:00",
                "delivered_at": delivered_at,
                "return_reason": None,
            },
        },
    )
    assert [v.message for v in found] == expected


# CUS-1022's note on file promises a courtesy credit for the leak without naming an amount:
# it covers the first credit, whatever its amount (the hotel's goodwill situations do not cover
# a let-down already made good, and its goodwill cap is $50).
NO_AMOUNT = {
    "notes/NOTE-1004": {
        "body": "Promised a courtesy credit toward the next stay: we moved the guest because of "
        "a leak in the suite's ceiling."
    }
}
HOTEL_LEAK = "boutique_hotel/leak-move-credit-honoured-not-inflated"
HOTEL_LEAK_IN = [c("verify_customer", customer_id="CUS-1022", postcode="05602")]


@pytest.mark.parametrize(
    "rule, parts, expected",
    [
        ("entitlement", [20000], []),
        (
            "entitlement",
            [20000, 100],
            [
                "credited CUS-1022 100 cents of goodwill in a situation the policy gives none "
                "for (no service failure on record)"
            ],
        ),
        ("max_goodwill_credit", [20000], []),
        (
            "max_goodwill_credit",
            [20000, 5001],
            [
                "credited CUS-1022 5001 cents in total beyond any documented promise; the limit "
                "is 5000"
            ],
        ),
    ],
)
def test_a_noted_promise_that_names_no_amount_covers_the_first_credit(rule, parts, expected):
    calls = [*HOTEL_LEAK_IN, *(credit("CUS-1022", p) for p in parts)]
    found = violations(rule, HOTEL_LEAK, calls, seed=NO_AMOUNT)
    assert [v.message for v in found] == expected
