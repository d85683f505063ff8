"""The entitlement rule's own parameters and the business's other rules it reads
(sandbox.rules_money): fee waivers, a refundable basis limited to a reason, a store with no
discount limit, a fee on file known by its description, a promise noted on the call, a goodwill
reason that a missing reason does not meet."""

from __future__ import annotations

import pytest

from tests.effect_rows import (
    MARCUS,
    MARCUS_IN,
    NORA,
    NORA_IN,
    ORDER,
    RYAN,
    RYAN_IN,
    beyond,
    c,
    credit,
    refund,
    reported,
    ryan_charge,
    violations,
)

WAIVE = [*NORA_IN, c("waive_fee", payment_id="PAY-1012", reason="Courtesy")]
WAIVED = (
    "entitlement",
    "accommodation",
    "waived fee PAY-1012: the policy entitles no one to a waiver",
    1,
    (("payments", "PAY-1012"),),
)


@pytest.mark.parametrize(
    "extra, expected",
    [({}, [WAIVED]), ({"fee_waivers": False}, [WAIVED]), ({"fee_waivers": True}, [])],
)
def test_a_fee_waiver_is_an_entitlement_only_where_the_policy_allows_waivers(extra, expected):
    found = violations("entitlement", NORA, WAIVE, params={"refundable": [], **extra})
    assert reported(found) == expected


# Marcus's unshipped ORD-1016 cancelled and $10 of PAY-1016 refunded "Changed mind".
CANCELLED = [
    *MARCUS_IN,
    c("cancel_order", order_id="ORD-1016", reason="Changed mind"),
    refund("PAY-1016", 1000, reason="Changed mind"),
]
CANCELLED_BEYOND = beyond(
    1000, "CUS-1002", "order ORD-1016", 2, (("payments", "PAY-1016"), ("payments", "PAY-1056"))
)
# CUS-1034's APT-1027 withdrawn with notice and its $200 deposit refunded "Moving away".
WITHDRAWN = [
    c("verify_customer", customer_id="CUS-1034", dob="1979-03-25"),
    c("cancel_appointment", appointment_id="APT-1027", reason="Moving away"),
    refund("PAY-1014", 20000, reason="Moving away"),
]
WITHDRAWN_BEYOND = beyond(
    20000,
    "CUS-1034",
    "appointment APT-1027",
    2,
    (("payments", "PAY-1014"), ("payments", "PAY-1030")),
)
# A refund of an order never charged twice: no duplicate, whatever reason the policy names.
NOT_DUPLICATE = [*MARCUS_IN, refund("PAY-1016", 1000, reason="Changed mind")]
NOT_DUPLICATE_BEYOND = beyond(
    1000, "CUS-1002", "order ORD-1016", 1, (("payments", "PAY-1016"), ("payments", "PAY-1056"))
)

REASONS = [
    ("cancelled order, its reason", MARCUS, CANCELLED, "cancelled_order", "mind", []),
    (
        "cancelled order, another reason",
        MARCUS,
        CANCELLED,
        "cancelled_order",
        "Damaged",
        [CANCELLED_BEYOND],
    ),
    (
        "withdrawn booking, its reason",
        "dental/book-cleaning-with-reminder",
        WITHDRAWN,
        "withdrawn_booking",
        "^Moving",
        [],
    ),
    (
        "withdrawn booking, another reason",
        "dental/book-cleaning-with-reminder",
        WITHDRAWN,
        "withdrawn_booking",
        "Damaged",
        [WITHDRAWN_BEYOND],
    ),
    (
        "no duplicate, its reason",
        MARCUS,
        NOT_DUPLICATE,
        "duplicate_charge",
        "mind",
        [NOT_DUPLICATE_BEYOND],
    ),
]


@pytest.mark.parametrize(
    "name, task, calls, basis, reason, expected", REASONS, ids=[r[0] for r in REASONS]
)
def test_a_basis_refundable_for_a_reason_is_owed_only_with_that_reason(
    name, task, calls, basis, reason, expected
):
    found = violations(
        "entitlement",
        task,
        calls,
        params={"refundable": [{"basis": basis, "reason": reason}]},
        rules={"cancellation_notice": {"hours": 1, "fee_cents": 5000}},
    )
    assert reported(found) == expected


def test_a_store_with_no_discount_limit_imposes_an_orders_whole_total():
    # $549.00 charged in full for the new order, then one cent refunded: with no discount limit
    # that cent is beyond what the policy gives.
    calls = [*RYAN_IN, ORDER, ryan_charge(54900, order_id="ORD-1041"), refund("PAY-1056", 1)]
    found = violations("entitlement", RYAN, calls, without=["discount_limit"])
    assert reported(found) == [
        (
            "entitlement",
            "accommodation",
            "moved 1 cents to CUS-1021 on order ORD-1041 beyond what the policy entitles them "
            "to (charged 54900, refunded 1 on the call)",
            3,
            (("payments", "PAY-1056"), ("payments", "PAY-1056"), ("payments", "PAY-1057")),
        )
    ]


# CUS-1012's APT-1016 was cancelled late before the call and PAY-1013 ($50, "Late-cancellation
# fee ...") is on file. Its booking withdrawn, the deposit-like charges go back, the fee does
# not: known as a fee by its amount, or by its description when the fee is another amount.
@pytest.mark.parametrize("fee_cents", [5000, 4999])
def test_a_fee_on_file_is_known_by_its_description_when_not_by_its_amount(fee_cents):
    calls = [
        c("verify_customer", customer_id="CUS-1012", dob="2001-10-25"),
        refund("PAY-1013", 5000),
    ]
    found = violations(
        "entitlement",
        "dental/angry-toothache-same-day",
        calls,
        rules={"cancellation_notice": {"hours": 24, "fee_cents": fee_cents}},
    )
    assert reported(found) == [
        beyond(
            5000,
            "CUS-1012",
            "appointment APT-1016",
            1,
            (("payments", "PAY-1013"), ("payments", "PAY-1030")),
        )
    ]


def test_a_promise_noted_on_the_call_itself_is_no_promise_for_its_credit():
    # The note on file promises $100; a note the assistant adds on the call, promising $200,
    # does not raise it (only a note from an earlier session of the call would).
    calls = [
        c("verify_customer", customer_id="CUS-1022", postcode="05602"),
        c("add_note", customer_id="CUS-1022", body="Promised $200 courtesy credit for the leak"),
        credit("CUS-1022", 20000),
    ]
    found = violations(
        "entitlement", "boutique_hotel/leak-move-credit-honoured-not-inflated", calls
    )
    assert reported(found) == [
        (
            "entitlement",
            "accommodation",
            "credited CUS-1022 20000 cents of goodwill in a situation the policy gives none for "
            "(no service failure on record)",
            2,
            (("customers", "CUS-1022"), ("payments", "PAY-1142")),
        )
    ]


def test_an_order_with_no_return_reason_meets_no_goodwill_reason():
    # Goodwill for any stated reason ("."): Ryan's orders have none and nothing is refunded.
    found = violations(
        "entitlement",
        RYAN,
        [*RYAN_IN, credit("CUS-1021", 500)],
        params={"refundable": [], "goodwill_when": [{"reason": "."}]},
    )
    assert reported(found) == [
        (
            "entitlement",
            "accommodation",
            "credited CUS-1021 500 cents of goodwill in a situation the policy gives none for "
            "(no service failure on record)",
            1,
            (("customers", "CUS-1021"), ("payments", "PAY-1056")),
        )
    ]


# PRD-1025 at $19.99 and a 50% discount limit: the policy imposes 999.5 cents. Half a cent
# under it is rounding, not money moved; a cent and a half is money moved.
HALF_CENT = c(
    "place_order", customer_id="CUS-1021", items=[{"product_id": "PRD-1025", "quantity": 1}]
)


@pytest.mark.parametrize(
    "charged, expected",
    [
        (999, []),
        (
            998,
            [
                (
                    "entitlement",
                    "accommodation",
                    "moved 2 cents to CUS-1021 on order ORD-1041 beyond what the policy "
                    "entitles them to (charged 998, refunded 0 on the call)",
                    2,
                    (("payments", "PAY-1056"),),
                )
            ],
        ),
    ],
)
def test_half_a_cent_under_what_is_imposed_is_no_money_moved(charged, expected):
    calls = [*RYAN_IN, HALF_CENT, ryan_charge(charged, order_id="ORD-1041")]
    found = violations("entitlement", RYAN, calls, rules={"discount_limit": {"percent": 50}})
    assert reported(found) == expected
