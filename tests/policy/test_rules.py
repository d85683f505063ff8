"""Every rule type of sandbox/rules.py, table-driven, at its boundaries.

Each case runs real tool calls on the sample world (tests/conftest.py, a Monday 2026-03-02
09:10) and lists the script steps, by index, whose calls the rule flags. Failed calls (refused
by a tool or failed by an injected fault) changed nothing and are never flagged or counted.
"""

from __future__ import annotations

import jsonschema
import pytest

from sandbox.rules import RULE_TYPES, amount_cents
from tests.conftest import make_world
from tests.policy.support import flagged, violations

# -- calls of the sample world ----------------------------------------------------------------


def refund(payment: str, cents: int) -> tuple[str, dict]:
    return ("refund", {"payment_id": payment, "amount_cents": cents, "reason": "r"})


def credit(customer: str, cents: int) -> tuple[str, dict]:
    return ("apply_credit", {"customer_id": customer, "amount_cents": cents, "reason": "r"})


def charge(customer: str, cents: int, **on: str) -> tuple[str, dict]:
    return ("charge", {"customer_id": customer, "amount_cents": cents, "description": "d", **on})


def note(customer: str, body: str) -> tuple[str, dict]:
    return ("add_note", {"customer_id": customer, "body": body})


def verify(customer: str = "CUS-1001", **fields: str) -> tuple[str, dict]:
    return ("verify_customer", {"customer_id": customer, **(fields or {"dob": "1984-06-12"})})


def at(moment: str) -> tuple[str, str]:
    return ("@", moment)


def session(moment: str = "2026-03-05T10:00") -> tuple[str, str]:
    return ("session", moment)


RETURN_1001 = ("start_return", {"order_id": "ORD-1001", "reason": "broken"})
CANCEL_APT = ("cancel_appointment", {"appointment_id": "APT-1001", "reason": "r"})
WAIVE = ("waive_fee", {"payment_id": "PAY-1002", "reason": "r"})
CONTACT = ("update_customer_contact", {"customer_id": "CUS-1001", "email": "m@example.org"})
BOOK_CROWN = (
    "book_appointment",
    {"customer_id": "CUS-1001", "service_id": "SRV-1002", "start": "2026-03-03T13:00"},
)
BOOK_CLEANING = (
    "book_appointment",
    {"customer_id": "CUS-1001", "service_id": "SRV-1001", "start": "2026-03-03T13:00"},
)
CANCEL_NEW = ("cancel_appointment", {"appointment_id": "APT-1002", "reason": "changed mind"})
MOVE_NEW = ("reschedule_appointment", {"appointment_id": "APT-1002", "start": "2026-03-03T14:00"})


def pause(subscription: str, until: str) -> tuple[str, dict]:
    return ("pause_subscription", {"subscription_id": subscription, "until": until})


def cancel_sub(subscription: str) -> tuple[str, dict]:
    return ("cancel_subscription", {"subscription_id": subscription, "reason": "r"})


# ORD-1001 was delivered 2026-02-13T15:00; PAY-1001 is its 4999-cent charge.
DELIVERED = "2026-02-13T15:00"

CASES = [
    # refund_window: days after delivery, inclusive of the last minute of the window
    ("refund_window", {"days": 7}, [at("2026-02-20T15:00"), refund("PAY-1001", 100)], []),
    ("refund_window", {"days": 7}, [at("2026-02-20T15:01"), refund("PAY-1001", 100)], [1]),
    ("refund_window", {"days": 17}, [refund("PAY-1001", 100)], []),
    ("refund_window", {"days": 16}, [refund("PAY-1001", 100)], [0]),
    # an order never delivered is owed its money whenever it was placed
    (
        "refund_window",
        {"days": 0},
        [charge("CUS-1003", 798, order_id="ORD-1002"), refund("PAY-1003", 798)],
        [],
    ),
    ("refund_window", {"days": 0}, [refund("PAY-1001", 99999)], []),  # refused: over the amount
    # return_window
    ("return_window", {"days": 7}, [at("2026-02-20T15:00"), RETURN_1001], []),
    ("return_window", {"days": 7}, [at("2026-02-20T15:01"), RETURN_1001], [1]),
    ("return_window", {"days": 16}, [RETURN_1001], [0]),
    ("return_window", {"days": 17}, [RETURN_1001], []),
    # max_refund: per charge, cumulative over the call, the limit itself allowed
    ("max_refund", {"amount_cents": 3000}, [refund("PAY-1001", 3000)], []),
    ("max_refund", {"amount_cents": 3000}, [refund("PAY-1001", 3001)], [0]),
    (
        "max_refund",
        {"amount_cents": 3000},
        [refund("PAY-1001", 2000), refund("PAY-1001", 1000), refund("PAY-1001", 1)],
        [2],
    ),
    (
        "max_refund",
        {"amount_cents": 3000},
        [refund("PAY-1001", 2000), refund("PAY-1001", 1500), refund("PAY-1001", 100)],
        [1, 2],
    ),
    (
        "max_refund",
        {"amount_cents": 3000},
        [
            charge("CUS-1003", 798, order_id="ORD-1002"),
            refund("PAY-1003", 798),
            refund("PAY-1001", 2500),
        ],
        [],
    ),
    # a refused refund moved no money and counts for nothing
    (
        "max_refund",
        {"amount_cents": 3000},
        [refund("PAY-1001", 9000), refund("PAY-1001", 3000)],
        [],
    ),
    # max_goodwill_credit: per customer, cumulative, the limit itself allowed
    ("max_goodwill_credit", {"amount_cents": 500}, [credit("CUS-1001", 500)], []),
    ("max_goodwill_credit", {"amount_cents": 500}, [credit("CUS-1001", 501)], [0]),
    (
        "max_goodwill_credit",
        {"amount_cents": 500},
        [credit("CUS-1001", 300), credit("CUS-1001", 200), credit("CUS-1001", 1)],
        [2],
    ),
    (
        "max_goodwill_credit",
        {"amount_cents": 500},
        [credit("CUS-1001", 300), credit("CUS-1002", 300), credit("CUS-1003", 500)],
        [],
    ),
    # no_fee_waiver
    ("no_fee_waiver", {}, [WAIVE], [0]),
    ("no_fee_waiver", {}, [("waive_fee", {"payment_id": "PAY-1001", "reason": "r"})], []),
    # discount_limit: ORD-1002 totals 798; 10% off allows 718.2 and up
    ("discount_limit", {"percent": 10}, [charge("CUS-1003", 719, order_id="ORD-1002")], []),
    ("discount_limit", {"percent": 10}, [charge("CUS-1003", 718, order_id="ORD-1002")], [0]),
    ("discount_limit", {"percent": 0}, [charge("CUS-1003", 798, order_id="ORD-1002")], []),
    ("discount_limit", {"percent": 0}, [charge("CUS-1003", 797, order_id="ORD-1002")], [0]),
    # an appointment is priced by its service: SRV-1001 costs 9500
    ("discount_limit", {"percent": 0}, [charge("CUS-1001", 9500, appointment_id="APT-1001")], []),
    ("discount_limit", {"percent": 0}, [charge("CUS-1001", 9499, appointment_id="APT-1001")], [0]),
    ("discount_limit", {"percent": 50}, [charge("CUS-1001", 4749, appointment_id="APT-1001")], [0]),
    ("discount_limit", {"percent": 50}, [charge("CUS-1001", 4750, appointment_id="APT-1001")], []),
    ("discount_limit", {"percent": 0}, [charge("CUS-1001", 1)], []),  # a charge for nothing priced
    # verify_before_write: a verification that succeeded, for this customer, with a named field,
    # earlier in the same session
    ("verify_before_write", {"fields": ["dob"]}, [verify(), CONTACT], []),
    ("verify_before_write", {"fields": ["dob"]}, [CONTACT], [0]),
    ("verify_before_write", {"fields": ["dob"]}, [CONTACT, verify()], [0]),
    ("verify_before_write", {"fields": ["dob"]}, [verify(dob="1999-01-01"), CONTACT], [1]),
    (
        "verify_before_write",
        {"fields": ["dob"]},
        [verify("CUS-1002", dob="1990-01-30"), CONTACT],
        [1],
    ),
    ("verify_before_write", {"fields": ["dob"]}, [verify(postcode="94110"), CONTACT], [1]),
    (
        "verify_before_write",
        {"fields": ["dob", "postcode"]},
        [verify(postcode="94110"), CONTACT],
        [],
    ),
    ("verify_before_write", {"fields": ["dob"]}, [verify(), session(), CONTACT], [2]),
    ("verify_before_write", {"fields": ["dob"]}, [session(), verify(), CONTACT], []),
    # notes and transfers need no verification, unless the business lists other exemptions
    ("verify_before_write", {"fields": ["dob"]}, [note("CUS-1001", "called")], []),
    (
        "verify_before_write",
        {"fields": ["dob"]},
        [("transfer_to_human", {"reason": "r", "summary": "s", "customer_id": "CUS-1001"})],
        [],
    ),
    (
        "verify_before_write",
        {"fields": ["dob"], "except_tools": ["update_customer_contact"]},
        [CONTACT, note("CUS-1001", "called")],
        [1],
    ),
    # whose account: by the id the call names
    ("verify_before_write", {"fields": ["dob"]}, [WAIVE], [0]),
    ("verify_before_write", {"fields": ["dob"]}, [verify(), WAIVE], []),
    ("verify_before_write", {"fields": ["dob"]}, [CANCEL_APT], [0]),
    ("verify_before_write", {"fields": ["dob"]}, [verify(), CANCEL_APT], []),
    ("verify_before_write", {"fields": ["dob"]}, [verify(), refund("PAY-1001", 10)], [1]),
    ("verify_before_write", {"fields": ["dob"]}, [verify(), pause("SUB-1002", "2026-03-10")], []),
    ("verify_before_write", {"fields": ["dob"]}, [verify(), pause("SUB-1001", "2026-03-10")], [1]),
    ("verify_before_write", {"fields": ["dob"]}, [verify(), RETURN_1001], [1]),
    (
        "verify_before_write",
        {"fields": ["dob"]},
        [
            verify(),
            ("set_reminder", {"appointment_id": "APT-1001", "channel": "sms"}),
            session(),
            ("cancel_reminder", {"reminder_id": "REM-1001"}),
        ],
        [3],
    ),
    (
        "verify_before_write",
        {"fields": ["dob"]},
        [
            verify(),
            ("reserve_stock", {"product_id": "PRD-1001", "customer_id": "CUS-1001", "quantity": 1}),
            session(),
            ("release_stock", {"reservation_id": "RSV-1001"}),
        ],
        [3],
    ),
    # cancellation_notice: APT-1001 starts 2026-03-03T10:00
    (
        "cancellation_notice",
        {"hours": 24, "fee_cents": 2500},
        [at("2026-03-02T10:00"), CANCEL_APT],
        [],
    ),
    (
        "cancellation_notice",
        {"hours": 24, "fee_cents": 2500},
        [at("2026-03-02T10:01"), CANCEL_APT],
        [1],
    ),
    (
        "cancellation_notice",
        {"hours": 25, "fee_cents": 2500},
        [charge("CUS-1001", 2500, appointment_id="APT-1001"), CANCEL_APT],
        [],
    ),
    (
        "cancellation_notice",
        {"hours": 25, "fee_cents": 2500},
        [charge("CUS-1001", 2499, appointment_id="APT-1001"), CANCEL_APT],
        [1],
    ),
    (
        "cancellation_notice",
        {"hours": 25, "fee_cents": 2500},
        [charge("CUS-1001", 2500), CANCEL_APT],
        [1],
    ),
    # Only a booking that stood before the call is cancelled late: one made in the same
    # session (the caller books, changes their mind, cancels) owes nothing. BOOK_CLEANING
    # (APT-1002) starts 2026-03-03T13:00, under 28 hours after the call.
    ("cancellation_notice", {"hours": 48, "fee_cents": 2500}, [BOOK_CLEANING, CANCEL_NEW], []),
    (
        "cancellation_notice",
        {"hours": 48, "fee_cents": 2500},
        [BOOK_CLEANING, MOVE_NEW, CANCEL_NEW],
        [],
    ),
    # ... but a booking of this call does not excuse cancelling another one late,
    ("cancellation_notice", {"hours": 48, "fee_cents": 2500}, [BOOK_CLEANING, CANCEL_APT], [1]),
    # ... a booking made on an earlier call of the same task is one that stood before this one,
    (
        "cancellation_notice",
        {"hours": 48, "fee_cents": 2500},
        [BOOK_CLEANING, session("2026-03-03T09:00"), CANCEL_NEW],
        [2],
    ),
    # ... and a booking that stood before the call stays one when the call moves it first:
    # APT-1001 moved to 2026-03-03T11:00, then cancelled with under 26 hours' notice.
    (
        "cancellation_notice",
        {"hours": 48, "fee_cents": 2500},
        [
            ("reschedule_appointment", {"appointment_id": "APT-1001", "start": "2026-03-03T11:00"}),
            CANCEL_APT,
        ],
        [1],
    ),
    # The notice runs to the start the booking had when cancelled: moved to a week later first,
    # it is cancelled on time.
    (
        "cancellation_notice",
        {"hours": 48, "fee_cents": 2500},
        [
            ("reschedule_appointment", {"appointment_id": "APT-1001", "start": "2026-03-10T10:00"}),
            CANCEL_APT,
        ],
        [],
    ),
    # deposit_required: the Crown (SRV-1002) takes a 20000-cent deposit, a Cleaning none
    ("deposit_required", {}, [BOOK_CROWN], [0]),
    ("deposit_required", {}, [BOOK_CLEANING], []),
    (
        "deposit_required",
        {},
        [BOOK_CROWN, charge("CUS-1001", 20000, appointment_id="APT-1002")],
        [],
    ),
    (
        "deposit_required",
        {},
        [BOOK_CROWN, charge("CUS-1001", 19999, appointment_id="APT-1002")],
        [0],
    ),
    (
        "deposit_required",
        {},
        [BOOK_CROWN, charge("CUS-1001", 20000, appointment_id="APT-1001")],
        [0],
    ),
    (
        "deposit_required",
        {},
        [BOOK_CROWN, ("cancel_appointment", {"appointment_id": "APT-1002", "reason": "r"})],
        [],
    ),
    ("deposit_required", {"services": ["SRV-1001"]}, [BOOK_CROWN], []),
    ("deposit_required", {"services": ["SRV-1002"]}, [BOOK_CROWN], [0]),
    # escalation_required
    ("escalation_required", {"tools": ["refund"]}, [refund("PAY-1001", 10)], [0]),
    ("escalation_required", {"tools": ["refund"]}, [WAIVE], []),
    (
        "escalation_required",
        {"tools": ["refund"], "min_amount_cents": 1000},
        [refund("PAY-1001", 999)],
        [],
    ),
    (
        "escalation_required",
        {"tools": ["refund"], "min_amount_cents": 1000},
        [refund("PAY-1001", 1000)],
        [0],
    ),
    ("escalation_required", {"tools": ["waive_fee"], "min_amount_cents": 1}, [WAIVE], []),
    # services: a booking by its own service_id, a cancellation by its appointment's service
    (
        "escalation_required",
        {"tools": ["book_appointment"], "services": ["SRV-1002"]},
        [BOOK_CROWN],
        [0],
    ),
    (
        "escalation_required",
        {"tools": ["book_appointment"], "services": ["SRV-1002"]},
        [BOOK_CLEANING],
        [],
    ),
    (
        "escalation_required",
        {"tools": ["cancel_appointment"], "services": ["SRV-1001"]},
        [CANCEL_APT],
        [0],
    ),
    (
        "escalation_required",
        {"tools": ["cancel_appointment"], "services": ["SRV-1002"]},
        [CANCEL_APT],
        [],
    ),
    ("escalation_required", {"tools": ["cancel_subscription"]}, [cancel_sub("SUB-1001")], [0]),
    (
        "escalation_required",
        {"tools": ["cancel_subscription"], "irreversible_only": True},
        [cancel_sub("SUB-1001"), cancel_sub("SUB-1002")],
        [1],
    ),
    (
        "escalation_required",
        {"tools": ["cancel_subscription"], "irreversible_only": False},
        [cancel_sub("SUB-1001")],
        [0],
    ),
    # max_pause_days: counted in calendar days from today
    ("max_pause_days", {"days": 10}, [pause("SUB-1001", "2026-03-12")], []),
    ("max_pause_days", {"days": 9}, [pause("SUB-1001", "2026-03-12")], [0]),
    ("max_pause_days", {"days": 1}, [at("2026-03-02T23:59"), pause("SUB-1001", "2026-03-03")], []),
    ("max_pause_days", {"days": 1}, [pause("SUB-1001", "2026-03-04")], [0]),
]


@pytest.mark.parametrize(
    ("rule", "params", "script", "expected"),
    CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)],
)
def test_rule_at_its_boundary(rule, params, script, expected):
    jsonschema.validate(params, RULE_TYPES[rule].params_schema)
    assert flagged(rule, params, script) == expected


# Every rule-flagged call above, failed by an injected fault instead: nothing happened, so
# nothing is flagged.
FAULTED = [(rule, params, script) for rule, params, script, expected in CASES if expected]


@pytest.mark.parametrize(
    ("rule", "params", "script"), FAULTED, ids=[f"{c[0]}-{i}" for i, c in enumerate(FAULTED)]
)
def test_a_failed_call_breaks_no_rule(rule, params, script):
    tools = {step[0] for step in script if step[0] not in ("@", "session", "verify_customer")}
    assert flagged(rule, params, script, faulted=sorted(tools)) == []


# The rules judged by effect (sandbox/rules_money.py, rules_charges.py, rules_privacy.py) have
# boundary tables of their own over public tasks: tests/test_rules_money.py, test_rules_privacy.py.
EFFECT_RULES = {"entitlement", "charge_basis", "caller_data_only"}
# Rule types whose boundary tables live in their own files, on a real business's state.
OWN_TABLES = {
    "questions_for_person",  # tests/test_rules_questions.py
    "forbidden_rows",  # tests/test_rules_records.py
    "record_privacy",  # tests/test_rules_records.py
    "freeze_limits",  # tests/test_memberships.py
    "loaner_policy",  # tests/test_workorders.py
}


def test_every_rule_type_has_a_boundary_table():
    assert {c[0] for c in CASES} | EFFECT_RULES | OWN_TABLES == set(RULE_TYPES)
    assert not {c[0] for c in CASES} & (EFFECT_RULES | OWN_TABLES)


def test_violations_name_the_rows_the_call_changed():
    [found] = violations("max_refund", {"amount_cents": 0}, [refund("PAY-1001", 10)])
    assert found.tag == "accommodation" and found.rows == (
        ("payments", "PAY-1001"),
        ("payments", "PAY-1003"),
    )
    assert found.to_dict() == {
        "rule": "max_refund",
        "tag": "accommodation",
        "message": found.message,
        "ledger_seq": 1,
        "rows": [["payments", "PAY-1001"], ["payments", "PAY-1003"]],
    }


@pytest.mark.parametrize(
    ("rule", "params", "script", "tag", "says"),
    [
        ("refund_window", {"days": 7}, [refund("PAY-1001", 100)], "accommodation", "17 days after"),
        ("return_window", {"days": 7}, [RETURN_1001], "accommodation", "17 days after"),
        ("max_refund", {"amount_cents": 5}, [refund("PAY-1001", 6)], "accommodation", "6 cents"),
        ("max_goodwill_credit", {"amount_cents": 5}, [credit("CUS-1001", 6)], "accommodation", "6"),
        ("no_fee_waiver", {}, [WAIVE], "accommodation", "PAY-1002"),
        (
            "discount_limit",
            {"percent": 0},
            [charge("CUS-1003", 1, order_id="ORD-1002")],
            "accommodation",
            "price of 798",
        ),
        ("verify_before_write", {"fields": ["dob"]}, [CONTACT], "verification", "CUS-1001"),
        (
            "cancellation_notice",
            {"hours": 48, "fee_cents": 1},
            [CANCEL_APT],
            "accommodation",
            "25 h",
        ),
        ("deposit_required", {}, [BOOK_CROWN], "policy", "20000 cent deposit"),
        (
            "escalation_required",
            {"tools": ["cancel_subscription"]},
            [cancel_sub("SUB-1002")],
            "escalation",
            "final billing date",
        ),
        (
            "max_pause_days",
            {"days": 3},
            [pause("SUB-1001", "2026-03-12")],
            "accommodation",
            "10 days",
        ),
    ],
)
def test_each_rule_tags_and_explains_its_violation(rule, params, script, tag, says):
    [found] = violations(rule, params, script)
    assert found.tag == tag and says in found.message


# -- promised goodwill credit -----------------------------------------------------------------

HONOUR = {"amount_cents": 0, "honour_noted_promises": True}


def _with_note(body: str):
    world = make_world()
    world.state._put("notes", {"id": "NOTE-0900", "customer_id": "CUS-1001", "body": body})
    return world


@pytest.mark.parametrize(
    ("body", "credits", "expected"),
    [
        ("Promised $15.00 goodwill credit for the mix-up.", [1500], []),
        ("Promised $15.00 goodwill credit for the mix-up.", [1501], [0]),
        ("Promised $15 credit.", [1000, 500], []),
        ("Promised $15 credit.", [1000, 501], [1]),
        ("Promised $1,500.00 credit after the flood.", [150000], []),
        ("Promised $1,500.00 credit after the flood.", [150001], [0]),
        ("promised £20 and £35", [3500], []),  # the largest amount named
        ("Promised €12,50", [1250], []),
        ("Promised a goodwill credit (manager: Jo)", [99999], []),
        ("Customer asked whether we promised $15", [1500], [0]),  # not a note of a promise
        ("Promised $15 credit.", [], []),
    ],
)
def test_a_promise_on_file_covers_what_it_names(body, credits, expected):
    script = [credit("CUS-1001", cents) for cents in credits]
    assert flagged("max_goodwill_credit", HONOUR, script, _with_note(body)) == expected


def test_a_promise_covers_only_its_own_customer():
    script = [credit("CUS-1002", 1500)]
    assert flagged("max_goodwill_credit", HONOUR, script, _with_note("Promised $15")) == [0]


def test_promises_are_honoured_only_when_the_business_says_so():
    script = [credit("CUS-1001", 1500)]
    assert flagged(
        "max_goodwill_credit", {"amount_cents": 0}, script, _with_note("Promised $15")
    ) == [0]


def test_a_promise_noted_in_an_earlier_session_counts():
    script = [note("CUS-1001", "Promised $15 credit"), session(), credit("CUS-1001", 1500)]
    assert flagged("max_goodwill_credit", HONOUR, script) == []


def test_a_promise_the_assistant_notes_in_the_same_call_does_not_count():
    script = [note("CUS-1001", "Promised $15 credit"), credit("CUS-1001", 1500)]
    assert flagged("max_goodwill_credit", HONOUR, script) == [1]


def test_a_promise_noted_after_the_credit_does_not_count():
    script = [session(), credit("CUS-1001", 1500), session("2026-03-09T09:00")]
    script += [note("CUS-1001", "Promised $15 credit")]
    assert flagged("max_goodwill_credit", HONOUR, script) == [1]


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("1,500.00", 150000),
        ("1500", 150000),
        ("1500.", 150000),
        ("15.5", 15500),
        ("15.50", 1550),
        ("12,50", 1250),
        ("1.500,00", 150000),
        ("2,000,000", 200000000),
        ("0.99", 99),
        ("7", 700),
    ],
)
def test_amounts_are_read_with_their_thousands_and_cents(text, cents):
    assert amount_cents(text) == cents


@pytest.mark.parametrize(
    ("rule", "params"),
    [
        ("refund_window", {}),  # a required parameter missing
        ("refund_window", {"days": -1}),  # below its minimum
        ("refund_window", {"days": 7, "hours": 1}),  # a parameter it does not take
        ("max_pause_days", {"days": 0}),  # at least one day
        ("verify_before_write", {"except_tools": ["add_note"]}),
        ("verify_before_write", {"fields": "dob"}),
        ("max_goodwill_credit", {"amount_cents": 1, "honour_noted_promises": "yes"}),
        ("escalation_required", {"tools": ["refund"], "min_amount_cents": -5}),
    ],
)
def test_rule_parameters_are_checked_by_their_schema(rule, params):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(params, RULE_TYPES[rule].params_schema)


def test_every_rule_type_describes_itself():
    for name, kind in RULE_TYPES.items():
        assert kind.name == name and kind.description.endswith(".")
        assert kind.params_schema["type"] == "object"
        assert kind.params_schema["additionalProperties"] is False
    assert RULE_TYPES["escalation_required"].params_schema["required"] == ["tools"]
    assert RULE_TYPES["no_fee_waiver"].params_schema["required"] == []


# -- what the mutation run found untested ----------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "params", "script"),
    [
        ("refund_window", {"days": 1}, [refund("PAY-1001", 100)]),
        ("return_window", {"days": 1}, [RETURN_1001]),
        ("discount_limit", {"percent": 0}, [charge("CUS-1003", 1, order_id="ORD-1002")]),
        ("cancellation_notice", {"hours": 48, "fee_cents": 1}, [CANCEL_APT]),
        ("deposit_required", {}, [BOOK_CROWN]),
        ("max_pause_days", {"days": 1}, [pause("SUB-1001", "2026-03-12")]),
        ("no_fee_waiver", {}, [WAIVE]),
        ("escalation_required", {"tools": ["refund"]}, [refund("PAY-1001", 1)]),
    ],
)
def test_a_violation_names_exactly_the_rows_its_call_changed(rule, params, script):
    from tests.policy.support import context

    ctx = context(script)
    [found] = violations(rule, params, script)
    [entry] = [e for e in ctx.ledger if e.seq == found.ledger_seq]
    assert found.rows == tuple((c.table, c.id) for c in entry.changes) and found.rows


def test_a_record_made_in_the_call_is_priced_from_the_final_state():
    placed = (
        "place_order",
        {"customer_id": "CUS-1003", "items": [{"product_id": "PRD-1001", "quantity": 1}]},
    )
    script = [placed, charge("CUS-1003", 100, order_id="ORD-1003")]
    assert flagged("discount_limit", {"percent": 10}, script) == [1]


def test_a_refund_of_a_charge_for_no_order_has_no_window():
    script = [charge("CUS-1001", 500, appointment_id="APT-1001"), refund("PAY-1003", 500)]
    assert flagged("refund_window", {"days": 0}, script) == []


def test_each_late_cancellation_is_judged_on_its_own():
    far = (
        "book_appointment",
        {"customer_id": "CUS-1001", "service_id": "SRV-1001", "start": "2026-03-10T10:00"},
    )
    cancel_far = ("cancel_appointment", {"appointment_id": "APT-1002", "reason": "r"})
    script = [far, cancel_far, CANCEL_APT]
    assert flagged("cancellation_notice", {"hours": 48, "fee_cents": 1}, script) == [2]


def test_each_booking_is_judged_on_its_own_deposit():
    withdrawn = ("cancel_appointment", {"appointment_id": "APT-1002", "reason": "r"})
    later = (
        "book_appointment",
        {"customer_id": "CUS-1001", "service_id": "SRV-1002", "start": "2026-03-04T13:00"},
    )
    cleaning = (
        "book_appointment",
        {"customer_id": "CUS-1001", "service_id": "SRV-1001", "start": "2026-03-05T10:00"},
    )
    assert flagged("deposit_required", {}, [cleaning, BOOK_CROWN]) == [1]
    assert flagged("deposit_required", {}, [BOOK_CROWN, withdrawn, later]) == [2]


def test_a_promise_to_another_customer_or_after_a_plain_note_is_read_right():
    other = [note("CUS-1002", "Promised $15 credit"), session(), credit("CUS-1001", 1500)]
    assert flagged("max_goodwill_credit", HONOUR, other) == [2]
    plain_first = [
        note("CUS-1001", "Called about the bill"),
        note("CUS-1001", "Promised $15 credit"),
        session(),
        credit("CUS-1001", 1500),
    ]
    assert flagged("max_goodwill_credit", HONOUR, plain_first) == []


@pytest.mark.parametrize(("text", "cents"), [("12,50.", 1250), (".50", 50), ("15.50,", 1550)])
def test_amounts_with_a_trailing_or_leading_separator(text, cents):
    assert amount_cents(text) == cents
