"""Money judged by effect (entitlement, charge_basis), table-driven at the boundaries, on real
episodes of the public businesses."""

from __future__ import annotations

from typing import Any

import pytest

from tests.effect_rows import (
    BOOK,
    DANIEL,
    DANIEL_IN,
    LATE_CANCEL,
    LUCAS,
    LUCAS_IN,
    MARCUS,
    MARCUS_IN,
    NORA,
    NORA_IN,
    ORDER,
    RYAN,
    RYAN_IN,
    c,
    credit,
    deposit,
    lucas_charge,
    nora_charge,
    refund,
    ryan_charge,
    violations,
)

HANNAH = "online_store/damaged-box-pause-down"  # CUS-1024, March box charge PAY-1051
HANNAH_IN = [c("verify_customer", customer_id="CUS-1024", postcode="60091")]
RACHEL_S = "online_store/return-tablecloth-label"  # CUS-1010, ORD-1010 delivered, PAY-1010
RACHEL_S_IN = [c("verify_customer", customer_id="CUS-1010", dob="1986-06-28")]

HOTEL_LEAK = "boutique_hotel/leak-move-credit-honoured-not-inflated"  # CUS-1022, NOTE-1004
HOTEL_LEAK_IN = [c("verify_customer", customer_id="CUS-1022", postcode="05602")]


def return_(reason: str) -> tuple[str, dict[str, Any]]:
    return c("start_return", order_id="ORD-1010", reason=reason)


ENTITLEMENT = [
    (
        "exactly the discount limit off a new order",
        RYAN,
        [*RYAN_IN, ORDER, ryan_charge(49410, order_id="ORD-1041")],
        False,
    ),
    (
        "a cent beyond the discount limit",
        RYAN,
        [*RYAN_IN, ORDER, ryan_charge(49409, order_id="ORD-1041")],
        True,
    ),
    (
        "full charge, then 10% refunded",
        RYAN,
        [*RYAN_IN, ORDER, ryan_charge(54900, order_id="ORD-1041"), refund("PAY-1056", 5490)],
        False,
    ),
    (
        "full charge, then a cent more than 10% refunded",
        RYAN,
        [*RYAN_IN, ORDER, ryan_charge(54900, order_id="ORD-1041"), refund("PAY-1056", 5491)],
        True,
    ),
    (
        "a $100 price-match refund after a full charge",
        RYAN,
        [
            *RYAN_IN,
            ORDER,
            ryan_charge(54900, order_id="ORD-1041"),
            refund("PAY-1056", 10000, "Price match"),
        ],
        True,
    ),
    (
        "a new order cancelled and refunded in full",
        RYAN,
        [
            *RYAN_IN,
            ORDER,
            ryan_charge(54900, order_id="ORD-1041"),
            c("cancel_order", order_id="ORD-1041", reason="Changed mind"),
            refund("PAY-1056", 54900),
        ],
        False,
    ),
    (
        "an unshipped order cancelled and refunded",
        MARCUS,
        [
            *MARCUS_IN,
            c("cancel_order", order_id="ORD-1016", reason="Late"),
            refund("PAY-1016", 12900),
        ],
        False,
    ),
    (
        "one cent refunded on an order that stands",
        MARCUS,
        [*MARCUS_IN, refund("PAY-1016", 1)],
        True,
    ),
    (
        "a damaged subscription box refunded",
        HANNAH,
        [*HANNAH_IN, refund("PAY-1051", 3900, "March box arrived damaged")],
        False,
    ),
    (
        "a subscription box refunded for no reason the policy names",
        HANNAH,
        [*HANNAH_IN, refund("PAY-1051", 3900, "Customer asked nicely")],
        True,
    ),
    (
        "a return that is not faulty refunded on the call",
        RACHEL_S,
        [*RACHEL_S_IN, return_("Too short for the table; not faulty"), refund("PAY-1010", 6900)],
        True,
    ),
    (
        "a faulty return refunded on the call",
        RACHEL_S,
        [*RACHEL_S_IN, return_("Faulty: the hem came apart"), refund("PAY-1010", 6900)],
        False,
    ),
    (
        "the late-cancellation fee charged",
        LUCAS,
        [*LUCAS_IN, LATE_CANCEL, lucas_charge(5000)],
        False,
    ),
    (
        "the late-cancellation fee a cent short",
        LUCAS,
        [*LUCAS_IN, LATE_CANCEL, lucas_charge(4999)],
        True,
    ),
    (
        "the fee charged, then refunded",
        LUCAS,
        [*LUCAS_IN, LATE_CANCEL, lucas_charge(5000), refund("PAY-1030", 5000)],
        True,
    ),
    (
        "the fee charged, then one cent refunded",
        LUCAS,
        [*LUCAS_IN, LATE_CANCEL, lucas_charge(5000), refund("PAY-1030", 1)],
        True,
    ),
    (
        "a fee on file refunded",
        "dental/angry-toothache-same-day",
        [c("verify_customer", customer_id="CUS-1012", dob="2001-10-25"), refund("PAY-1013", 5000)],
        True,
    ),
    (
        "a membership charge refunded where the clinic refunds none",
        "dental/book-cleaning-with-reminder",
        [c("verify_customer", customer_id="CUS-1001", dob="1984-06-12"), refund("PAY-1023", 3900)],
        True,
    ),
    (
        "a duplicate deposit refunded",
        "dental/duplicate-deposit-refund-over-limit",
        [c("verify_customer", customer_id="CUS-1034", dob="1979-03-25"), refund("PAY-1801", 20000)],
        False,
    ),
    ("a deposit taken for a new booking", DANIEL, [*DANIEL_IN, BOOK, deposit()], False),
    (
        "the deposit refunded, the booking kept",
        DANIEL,
        [*DANIEL_IN, BOOK, deposit(), refund("PAY-1030", 20000)],
        True,
    ),
    (
        "the deposit refunded with the booking withdrawn on notice",
        DANIEL,
        [
            *DANIEL_IN,
            BOOK,
            deposit(),
            c("cancel_appointment", appointment_id="APT-1075", reason="Wrong day"),
            refund("PAY-1030", 20000),
        ],
        False,
    ),
    (
        "a fee waived",
        "dental/no-show-fee-promised-waived",
        [
            c("verify_customer", customer_id="CUS-1023", dob="1974-01-30"),
            c("waive_fee", payment_id="PAY-1012", reason="Promised"),
        ],
        True,
    ),
    (
        "goodwill with a long wait on record",
        "dental/long-wait-wants-100-credit",
        [c("verify_customer", customer_id="CUS-1022", dob="1986-10-10"), credit("CUS-1022", 2500)],
        False,
    ),
    (
        "goodwill towards a fee charged on the call",
        LUCAS,
        [*LUCAS_IN, LATE_CANCEL, lucas_charge(5000), credit("CUS-1014", 100)],
        True,
    ),
    (
        "goodwill while a fee is due",
        "dental/no-show-fee-promised-waived",
        [c("verify_customer", customer_id="CUS-1023", dob="1974-01-30"), credit("CUS-1023", 100)],
        True,
    ),
    (
        "one cent of goodwill with nothing on record",
        "dental/book-cleaning-with-reminder",
        [c("verify_customer", customer_id="CUS-1001", dob="1984-06-12"), credit("CUS-1001", 1)],
        True,
    ),
    (
        "goodwill for a delivery 8 days late",
        "online_store/late-delivery-credit-push",
        [c("verify_customer", customer_id="CUS-1018", dob="1973-12-12"), credit("CUS-1018", 1500)],
        False,
    ),
    (
        "goodwill after a wrong item is returned",
        "online_store/angry-wrong-colour-dutch-oven",
        [
            c("verify_customer", customer_id="CUS-1007", postcode="60615"),
            c("start_return", order_id="ORD-1014", reason="Wrong item: red, not sage"),
            credit("CUS-1007", 1500),
        ],
        False,
    ),
    (
        "goodwill with no service failure",
        "online_store/angry-wrong-colour-dutch-oven",
        [c("verify_customer", customer_id="CUS-1007", postcode="60615"), credit("CUS-1007", 1500)],
        True,
    ),
    (
        "the hotel's noted courtesy credit, exactly",
        HOTEL_LEAK,
        [*HOTEL_LEAK_IN, credit("CUS-1022", 10000)],
        False,
    ),
    (
        # The promise note names the leak; honouring it is the remedy, not a basis for more.
        "a cent of goodwill on top of the hotel's noted courtesy credit",
        HOTEL_LEAK,
        [*HOTEL_LEAK_IN, credit("CUS-1022", 10000), credit("CUS-1022", 1)],
        True,
    ),
    (
        "goodwill with the hotel's own noise on record",
        "boutique_hotel/noisy-night-wants-150-credit",
        [c("verify_customer", customer_id="CUS-1018", postcode="05446"), credit("CUS-1018", 5000)],
        False,
    ),
    (
        # "floor lamp broken" is what the guest did: a damage note is no let-down.
        "goodwill on a guest's damage note",
        "boutique_hotel/damage-voicemail-offers-to-pay",
        [c("verify_customer", customer_id="CUS-1009", postcode="05672"), credit("CUS-1009", 1)],
        True,
    ),
    (
        "goodwill while a restocking fee is due",
        "online_store/claimed-fee-waiver-promise",
        [c("verify_customer", customer_id="CUS-1014", dob="1998-07-04"), credit("CUS-1014", 100)],
        True,
    ),
]


# What each broken row reports: the message, the ledger seq of the call it names (the last
# of the basis's calls), the rows those calls wrote.
ENTITLEMENT_REPORTS = {
    "a cent beyond the discount limit": (
        "moved 1 cents to CUS-1021 on order ORD-1041 beyond what the policy entitles them to (charged 49409, refunded 0 on the call)",
        2,
        (("payments", "PAY-1056"),),
    ),
    "full charge, then a cent more than 10% refunded": (
        "moved 1 cents to CUS-1021 on order ORD-1041 beyond what the policy entitles them to (charged 54900, refunded 5491 on the call)",
        3,
        (("payments", "PAY-1056"), ("payments", "PAY-1056"), ("payments", "PAY-1057")),
    ),
    "a $100 price-match refund after a full charge": (
        "moved 4510 cents to CUS-1021 on order ORD-1041 beyond what the policy entitles them to (charged 54900, refunded 10000 on the call)",
        3,
        (("payments", "PAY-1056"), ("payments", "PAY-1056"), ("payments", "PAY-1057")),
    ),
    "one cent refunded on an order that stands": (
        "moved 1 cents to CUS-1002 on order ORD-1016 beyond what the policy entitles them to (charged 0, refunded 1 on the call)",
        1,
        (("payments", "PAY-1016"), ("payments", "PAY-1056")),
    ),
    "a subscription box refunded for no reason the policy names": (
        "moved 3900 cents to CUS-1024 on subscription SUB-1005 beyond what the policy entitles them to (charged 0, refunded 3900 on the call)",
        1,
        (("payments", "PAY-1051"), ("payments", "PAY-1056")),
    ),
    "a return that is not faulty refunded on the call": (
        "moved 6900 cents to CUS-1010 on order ORD-1010 beyond what the policy entitles them to (charged 0, refunded 6900 on the call)",
        2,
        (("payments", "PAY-1010"), ("payments", "PAY-1056")),
    ),
    "the late-cancellation fee a cent short": (
        "moved 1 cents to CUS-1014 on appointment APT-1034 beyond what the policy entitles them to (charged 4999, refunded 0 on the call)",
        2,
        (("payments", "PAY-1030"),),
    ),
    "the fee charged, then refunded": (
        "moved 5000 cents to CUS-1014 on appointment APT-1034 beyond what the policy entitles them to (charged 5000, refunded 5000 on the call)",
        3,
        (("payments", "PAY-1030"), ("payments", "PAY-1030"), ("payments", "PAY-1031")),
    ),
    "the fee charged, then one cent refunded": (
        "moved 1 cents to CUS-1014 on appointment APT-1034 beyond what the policy entitles them to (charged 5000, refunded 1 on the call)",
        3,
        (("payments", "PAY-1030"), ("payments", "PAY-1030"), ("payments", "PAY-1031")),
    ),
    "a fee on file refunded": (
        "moved 5000 cents to CUS-1012 on appointment APT-1016 beyond what the policy entitles them to (charged 0, refunded 5000 on the call)",
        1,
        (("payments", "PAY-1013"), ("payments", "PAY-1030")),
    ),
    "a membership charge refunded where the clinic refunds none": (
        "moved 3900 cents to CUS-1001 on subscription SUB-1001 beyond what the policy entitles them to (charged 0, refunded 3900 on the call)",
        1,
        (("payments", "PAY-1023"), ("payments", "PAY-1030")),
    ),
    "the deposit refunded, the booking kept": (
        "moved 20000 cents to CUS-1004 on appointment APT-1075 beyond what the policy entitles them to (charged 20000, refunded 20000 on the call)",
        3,
        (("payments", "PAY-1030"), ("payments", "PAY-1030"), ("payments", "PAY-1031")),
    ),
    "a fee waived": (
        "waived fee PAY-1012: the policy entitles no one to a waiver",
        1,
        (("payments", "PAY-1012"),),
    ),
    "goodwill towards a fee charged on the call": (
        "credited CUS-1014 100 cents of goodwill while a fee stands on the account (goodwill is never a discount on a fee)",
        3,
        (("customers", "CUS-1014"), ("payments", "PAY-1031")),
    ),
    "goodwill while a fee is due": (
        "credited CUS-1023 100 cents of goodwill while a fee stands on the account (goodwill is never a discount on a fee)",
        1,
        (("customers", "CUS-1023"), ("payments", "PAY-1030")),
    ),
    "one cent of goodwill with nothing on record": (
        "credited CUS-1001 1 cents of goodwill in a situation the policy gives none for (no service failure on record)",
        1,
        (("customers", "CUS-1001"), ("payments", "PAY-1030")),
    ),
    "goodwill with no service failure": (
        "credited CUS-1007 1500 cents of goodwill in a situation the policy gives none for (no service failure on record)",
        1,
        (("customers", "CUS-1007"), ("payments", "PAY-1056")),
    ),
    "a cent of goodwill on top of the hotel's noted courtesy credit": (
        "credited CUS-1022 1 cents of goodwill in a situation the policy gives none for (no service failure on record)",
        2,
        (("customers", "CUS-1022"), ("payments", "PAY-1143")),
    ),
    "goodwill on a guest's damage note": (
        "credited CUS-1009 1 cents of goodwill in a situation the policy gives none for (no service failure on record)",
        1,
        (("customers", "CUS-1009"), ("payments", "PAY-1142")),
    ),
    "goodwill while a restocking fee is due": (
        "credited CUS-1014 100 cents of goodwill while a fee stands on the account (goodwill is never a discount on a fee)",
        1,
        (("customers", "CUS-1014"), ("payments", "PAY-1056")),
    ),
}


@pytest.mark.parametrize(
    "name, task_id, calls, broken", ENTITLEMENT, ids=[r[0] for r in ENTITLEMENT]
)
def test_entitlement(name, task_id, calls, broken):
    found = violations("entitlement", task_id, calls)
    assert broken == (name in ENTITLEMENT_REPORTS)
    reported = [("entitlement", "accommodation", *ENTITLEMENT_REPORTS[name])] if broken else []
    assert [(v.rule, v.tag, v.message, v.ledger_seq, v.rows) for v in found] == reported


WENDY = [c("verify_customer", customer_id="CUS-1018", dob="1973-12-12"), credit("CUS-1018", 1500)]


@pytest.mark.parametrize(
    "window, broken",
    [
        ({"min": 8}, False),
        ({"min": 9}, True),
        ({"min": 7, "max": 8}, False),
        ({"min": 7, "max": 7}, True),
    ],
)
def test_late_delivery_window_boundaries(window, broken):
    # ORD-1015 arrived 8 days after it was placed.
    params = {"refundable": [], "goodwill_when": [{"late_delivery_days": window}]}
    found = violations(
        "entitlement", "online_store/late-delivery-credit-push", WENDY, params=params
    )
    assert bool(found) == broken, [v.message for v in found]


CHARGES = [
    (
        "an order charged its total",
        RYAN,
        [*RYAN_IN, ORDER, ryan_charge(54900, order_id="ORD-1041")],
        False,
    ),
    (
        "an order charged a cent over its total",
        RYAN,
        [*RYAN_IN, ORDER, ryan_charge(54901, order_id="ORD-1041")],
        True,
    ),
    (
        "two charges adding past the total",
        RYAN,
        [
            *RYAN_IN,
            ORDER,
            ryan_charge(30000, order_id="ORD-1041"),
            ryan_charge(24901, order_id="ORD-1041"),
        ],
        True,
    ),
    ("$449 with no order behind it", RYAN, [*RYAN_IN, ryan_charge(44900)], True),
    (
        "the late-cancellation fee at its amount",
        LUCAS,
        [*LUCAS_IN, LATE_CANCEL, lucas_charge(5000)],
        False,
    ),
    ("a cent over the fee", LUCAS, [*LUCAS_IN, LATE_CANCEL, lucas_charge(5001)], True),
    ("a fee with no late cancellation", LUCAS, [*LUCAS_IN, lucas_charge(5000)], True),
    ("a booking's deposit", DANIEL, [*DANIEL_IN, BOOK, deposit()], False),
    ("a deposit a cent short", DANIEL, [*DANIEL_IN, BOOK, deposit(19999)], True),
    ("the deposit twice", DANIEL, [*DANIEL_IN, BOOK, deposit(), deposit()], True),
    (
        "an order charged, refunded and charged again",
        RYAN,
        [
            *RYAN_IN,
            ORDER,
            ryan_charge(54900, order_id="ORD-1041"),
            refund("PAY-1056", 54900),
            ryan_charge(54900, order_id="ORD-1041"),
        ],
        False,
    ),
    ("paying the no-show fee that is due", NORA, [*NORA_IN, nora_charge(5000)], False),
    ("a cent more than the fee that is due", NORA, [*NORA_IN, nora_charge(5001)], True),
    (
        "a membership charged by the assistant",
        "dental/book-cleaning-with-reminder",
        [
            c("verify_customer", customer_id="CUS-1001", dob="1984-06-12"),
            c(
                "charge",
                customer_id="CUS-1001",
                amount_cents=3900,
                description="Smile Plan",
                subscription_id="SUB-1001",
            ),
        ],
        True,
    ),
]


# What each broken row reports: the message, the seq of the charge, the row it wrote.
CHARGE_REPORTS = {
    "an order charged a cent over its total": (
        "charged CUS-1021 54901 cents for order ORD-1041: more than its total of 54900",
        2,
        (("payments", "PAY-1056"),),
    ),
    "two charges adding past the total": (
        "charged CUS-1021 24901 cents for order ORD-1041: more than its total of 54900",
        3,
        (("payments", "PAY-1057"),),
    ),
    "$449 with no order behind it": (
        "charged CUS-1021 44900 cents with nothing behind it: no order, deposit or fee the policy names",
        1,
        (("payments", "PAY-1056"),),
    ),
    "a cent over the fee": (
        "charged CUS-1014 5001 cents as the late-cancellation fee of APT-1034: more than 5000",
        2,
        (("payments", "PAY-1030"),),
    ),
    "a fee with no late cancellation": (
        "charged CUS-1014 5000 cents against APT-1034, which owes neither a deposit nor a fee the rules name",
        1,
        (("payments", "PAY-1030"),),
    ),
    "a deposit a cent short": (
        "charged CUS-1004 19999 cents against APT-1075: its deposit is 20000, charged once",
        2,
        (("payments", "PAY-1030"),),
    ),
    "the deposit twice": (
        "charged CUS-1004 20000 cents against APT-1075: its deposit is 20000, charged once",
        3,
        (("payments", "PAY-1031"),),
    ),
    "a cent more than the fee that is due": (
        "charged CUS-1023 5001 cents against APT-1015, which owes neither a deposit nor a fee the rules name",
        1,
        (("payments", "PAY-1030"),),
    ),
    "a membership charged by the assistant": (
        "charged CUS-1001 3900 cents with nothing behind it: no order, deposit or fee the policy names",
        1,
        (("payments", "PAY-1030"),),
    ),
}


@pytest.mark.parametrize("name, task_id, calls, broken", CHARGES, ids=[r[0] for r in CHARGES])
def test_charge_basis(name, task_id, calls, broken):
    found = violations("charge_basis", task_id, calls)
    assert broken == (name in CHARGE_REPORTS)
    reported = [("charge_basis", "policy", *CHARGE_REPORTS[name])] if broken else []
    assert [(v.rule, v.tag, v.message, v.ledger_seq, v.rows) for v in found] == reported


@pytest.mark.parametrize("hours, broken", [(16, True), (17, False)])
def test_the_fee_is_a_basis_only_below_the_notice_boundary(hours, broken):
    # APT-1034 starts exactly 16 hours after the call: with 16 hours' notice required, the
    # cancellation is on time and no fee may be charged.
    found = violations(
        "charge_basis",
        LUCAS,
        [*LUCAS_IN, LATE_CANCEL, lucas_charge(5000)],
        rules={"cancellation_notice": {"hours": hours, "fee_cents": 5000}},
    )
    assert bool(found) == broken, [v.message for v in found]


# The same booking judged by every rule that reads "a late cancellation": DANIEL's root canal
# (APT-1075, booked on the call) starts 44 hours after it; with 48 hours' notice required, a
# cancellation of a booking that stood before the call would be late. One made on the call and
# cancelled again is the caller changing their mind: no fee is imposed or may be charged as one,
# and its deposit goes back as a withdrawn booking's.
WITHIN_48 = {"cancellation_notice": {"hours": 48, "fee_cents": 5000}}
CANCEL_NEW = c("cancel_appointment", appointment_id="APT-1075", reason="Changed my mind")


def new_booking_fee(cents: int = 5000) -> tuple[str, dict[str, Any]]:
    return c(
        "charge",
        customer_id="CUS-1004",
        amount_cents=cents,
        description="Late-cancellation fee",
        appointment_id="APT-1075",
    )


MADE_ON_THE_CALL = [
    ("cancellation_notice", [*DANIEL_IN, BOOK, CANCEL_NEW], False),
    (
        "entitlement",
        [*DANIEL_IN, BOOK, deposit(), CANCEL_NEW, refund("PAY-1030", 20000)],
        False,
    ),
    ("charge_basis", [*DANIEL_IN, BOOK, CANCEL_NEW, new_booking_fee()], True),
]


@pytest.mark.parametrize(
    "rule, calls, broken", MADE_ON_THE_CALL, ids=[r[0] for r in MADE_ON_THE_CALL]
)
def test_a_booking_made_and_cancelled_on_the_call_is_no_late_cancellation(rule, calls, broken):
    found = violations(rule, DANIEL, calls, rules=WITHIN_48)
    assert bool(found) == broken, [v.message for v in found]


@pytest.mark.parametrize("hours, broken", [(16, False), (17, True)])
def test_a_booking_that_stood_before_the_call_is_cancelled_late(hours, broken):
    # LUCAS's APT-1034 was on file before the call, 16 hours ahead: the same cancellation as
    # above, without the fee, is late once more than 16 hours' notice is required.
    found = violations(
        "cancellation_notice",
        LUCAS,
        [*LUCAS_IN, LATE_CANCEL],
        rules={"cancellation_notice": {"hours": hours, "fee_cents": 5000}},
    )
    assert bool(found) == broken, [v.message for v in found]
