"""Fees on file (sandbox.rules_money): a charge already on file is a fee when it is described as
one or matches the fee's amount against an appointment that no longer stands, and a fee stays
owed when its booking is withdrawn."""

from __future__ import annotations

import pytest

from tests.effect_rows import c, refund, violations

# Any dental task: CUS-1034's crown preparation APT-1027 stands with its $200 deposit PAY-1014.
CLINIC = "dental/book-cleaning-with-reminder"
WITHDRAW_AND_REFUND = [
    c("verify_customer", customer_id="CUS-1034", dob="1979-03-25"),
    c("cancel_appointment", appointment_id="APT-1027", reason="Moving away"),
    refund("PAY-1014", 20000),
]
REFUNDED_BEYOND = (
    "moved 20000 cents to CUS-1034 on appointment APT-1027 beyond what the policy entitles "
    "them to (charged 0, refunded 20000 on the call)",
    2,
    (("payments", "PAY-1014"), ("payments", "PAY-1030")),
)


# One hour's notice, so the cancellation is on notice and its deposit goes back, unless the
# deposit's amount is the fee's: then, its appointment withdrawn, the charge on file is a fee.
@pytest.mark.parametrize(
    "fee_cents, reported",
    [(5000, []), (19999, []), (20000, [REFUNDED_BEYOND]), (20001, [])],
)
def test_a_charge_on_file_of_the_fees_amount_is_a_fee_once_its_booking_is_withdrawn(
    fee_cents, reported
):
    found = violations(
        "entitlement",
        CLINIC,
        WITHDRAW_AND_REFUND,
        rules={"cancellation_notice": {"hours": 1, "fee_cents": fee_cents}},
    )
    assert [(v.rule, v.tag, v.message, v.ledger_seq, v.rows) for v in found] == [
        ("entitlement", "accommodation", *r) for r in reported
    ]


# A policy that refunds fees too gives the fee back with its withdrawn booking.
@pytest.mark.parametrize(
    "refundable, reported",
    [
        (["withdrawn_booking"], [REFUNDED_BEYOND]),
        (["withdrawn_booking", "fee"], []),
        (["withdrawn_booking", {"basis": "fee", "reason": "^Refund$"}], []),
        (["withdrawn_booking", {"basis": "fee", "reason": "Goodwill"}], [REFUNDED_BEYOND]),
        (["fee"], [REFUNDED_BEYOND]),
    ],
)
def test_a_fee_on_file_goes_back_with_its_booking_only_where_fees_are_refunded(
    refundable, reported
):
    found = violations(
        "entitlement",
        CLINIC,
        WITHDRAW_AND_REFUND,
        params={"refundable": refundable},
        rules={"cancellation_notice": {"hours": 1, "fee_cents": 20000}},
    )
    assert [(v.rule, v.tag, v.message, v.ledger_seq, v.rows) for v in found] == [
        ("entitlement", "accommodation", *r) for r in reported
    ]


def test_a_charge_made_on_the_call_against_a_booking_not_cancelled_on_it_is_no_fee():
    # CUS-1012's APT-1016 was cancelled late before the call; its fee PAY-1013 stays owed.
    # A charge the call makes against it is no fee, whatever its description: it goes back.
    calls = [
        c("verify_customer", customer_id="CUS-1012", dob="2001-10-25"),
        c(
            "charge",
            customer_id="CUS-1012",
            amount_cents=1000,
            description="Admin fee",
            appointment_id="APT-1016",
        ),
        refund("PAY-1013", 5000),
        refund("PAY-1030", 1000),
    ]
    found = violations("entitlement", "dental/angry-toothache-same-day", calls)
    assert [(v.message, v.ledger_seq, v.rows) for v in found] == [
        (
            "moved 4000 cents to CUS-1012 on appointment APT-1016 beyond what the policy "
            "entitles them to (charged 1000, refunded 6000 on the call)",
            3,
            (
                ("payments", "PAY-1030"),
                ("payments", "PAY-1013"),
                ("payments", "PAY-1031"),
                ("payments", "PAY-1030"),
                ("payments", "PAY-1032"),
            ),
        )
    ]


def test_a_booking_that_stood_before_the_call_imposes_no_new_deposit():
    # APT-1027's deposit was taken before the call: refunding it, the booking kept, moves all
    # of it beyond the policy, and the call owes no second deposit on top.
    calls = [WITHDRAW_AND_REFUND[0], WITHDRAW_AND_REFUND[2]]
    found = violations("entitlement", CLINIC, calls)
    assert [(v.message, v.ledger_seq, v.rows) for v in found] == [
        (REFUNDED_BEYOND[0], 1, REFUNDED_BEYOND[2])
    ]
