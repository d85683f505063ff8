"""What the claim checker reads from the ledger and the state, and its verdicts on claims
(issue 10: the survivors of the matcher's mutation run). A claim's details are compared with
the facts of the entries of its kind in the session, and, for a description of the account or
a result said without "I've", with the records of the caller's customer at the session's end.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from sandbox.claims import (
    CheckedClaim,
    Claim,
    Details,
    Evidence,
    LexiconClaimChecker,
    check_claims,
    contradiction,
    kinds_told,
)
from sandbox.claims.facts import Facts

CHECKER = LexiconClaimChecker()


def entry(tool, arguments, *changes):
    """A successful ledger entry as the matcher reads it (tool, arguments, changes)."""
    return SimpleNamespace(tool=tool, arguments=arguments, changes=changes)


def change(table, id_, before, after):
    return SimpleNamespace(table=table, id=id_, before=before, after=after)


STAFF = {
    "STF-1": {"id": "STF-1", "name": "Jenna Whitfield"},
    "STF-2": {"id": "STF-2", "name": "Luis Carvalho"},
    "STF-3": {"id": "STF-3", "name": "Dr. A. Patel"},
    "STF-4": {"id": "STF-4", "name": "Table 7"},
    # A record without an id names nobody.
    "": {"name": "Nobody"},
}
BOOK = entry(
    "book_appointment",
    {"customer_id": "CUS-1", "start": "2026-03-05T14:30", "staff_id": "STF-2"},
    change(
        "appointments",
        "apt-7",
        None,
        {
            "id": "APT-7",
            "start": "2026-03-05T14:30",
            "staff_id": "STF-2",
            "customer_id": "CUS-1",
            "amount_cents": 5000,
        },
    ),
)
REMIND = entry(
    "set_reminder",
    {"appointment_id": "APT-7", "channel": "sms"},
    change(
        "reminders",
        "REM-1",
        None,
        {"id": "REM-1", "appointment_id": "APT-7", "channel": "sms", "to": "+1 555 123 4567"},
    ),
)
EMAIL = entry(
    "send_email",
    {"to": "Dana@Example.com", "body": "ord-12 is not an id"},
    change(
        "messages", "MSG-1", None, {"id": "MSG-1", "channel": "email", "to": "Dana@Example.com"}
    ),
)
WAIVE = entry(
    "waive_fee",
    {"payment_id": "PAY-3", "amount_cents": 999},
    change(
        "payments",
        "PAY-3",
        {"id": "PAY-3", "amount_cents": 2500, "status": "due"},
        {"id": "PAY-3", "amount_cents": 2500, "status": "waived"},
    ),
)
FULL_REFUND = entry(
    "refund",
    {"payment_id": "PAY-1", "amount_cents": 4000},
    change(
        "payments",
        "PAY-1",
        {"amount_cents": 4000, "refunded_cents": 0},
        {"amount_cents": 4000, "refunded_cents": 4000},
    ),
)
LAST_OF_A_REFUND = entry(
    "refund",
    {"payment_id": "PAY-2", "amount_cents": 1000},
    change(
        "payments",
        "PAY-2",
        {"amount_cents": 4000, "refunded_cents": 3000},
        {"amount_cents": 4000, "refunded_cents": 4000},
    ),
)
HALF_REFUND = entry(
    "refund",
    {"payment_id": "PAY-4", "amount_cents": 2000},
    change(
        "payments",
        "PAY-4",
        {"amount_cents": 4000},
        {"amount_cents": 4000, "refunded_cents": 2000},
    ),
)
PAUSE = entry(
    "pause_subscription",
    {"subscription_id": "SUB-1", "until": "2026-07-01"},
    change(
        "subscriptions",
        "SUB-1",
        {"id": "SUB-1", "status": "active"},
        {"id": "SUB-1", "status": "paused", "paused_until": "2026-08-01"},
    ),
)
EARLY = entry(
    "add_early_checkin",
    {"stay_id": "STY-1"},
    change(
        "stays",
        "STY-1",
        None,
        {
            "id": "STY-1",
            "check_in": "2026-03-13",
            "check_out": "2026-03-15",
            "early_checkin": "11:00",
        },
    ),
)
MOVE_STAY = entry(
    "modify_stay",
    {"stay_id": "STY-1", "check_in": "2026-03-14", "check_out": None},
    change("stays", "STY-1", None, {"id": "STY-1", "check_in": "2026-03-14", "check_out": None}),
)
CANCEL = entry(
    "cancel_appointment",
    {"appointment_id": "APT-9"},
    change(
        "appointments",
        "APT-9",
        {"id": "APT-9", "start": "2026-03-09T09:00", "status": "booked"},
        None,
    ),
)
CHARGE = entry("charge", {"customer_id": "CUS-1", "amount_cents": 1500, "order": ["ORD-5"]})

ENTRY_FACTS = [
    (
        BOOK,
        "booking",
        {
            "weekday": {"thu"},
            "date": {"03-05", "05"},
            "time": {"14:30"},
            "staff": {"Luis Carvalho"},
            # An appointment's own price is not the booking's amount.
            "item": {"APT-7", "CUS-1", "STF-2"},
        },
    ),
    (
        REMIND,
        "reminder",
        {"channel": {"sms"}, "recipient": {"15551234567"}, "item": {"APT-7", "REM-1"}},
    ),
    (
        EMAIL,
        "email",
        {"channel": {"email"}, "recipient": {"dana@example.com"}, "item": {"MSG-1"}},
    ),
    # A waiver's amount is the fee's, not the argument's.
    (WAIVE, "fee_waiver", {"amount": {2500}, "item": {"PAY-3"}}),
    (FULL_REFUND, "refund", {"amount": {4000, "full"}, "item": {"PAY-1"}}),
    # The last part of a payment refunded is no full refund; nor is half of one.
    (LAST_OF_A_REFUND, "refund", {"amount": {1000}, "item": {"PAY-2"}}),
    (HALF_REFUND, "refund", {"amount": {2000}, "item": {"PAY-4"}}),
    # A pause runs until the day asked and the day the subscription shows.
    (PAUSE, "pause", {"date": {"07-01", "01", "08-01"}, "item": {"SUB-1"}}),
    # A stay is spoken of by its arrival and departure days and an early arrival time.
    (
        EARLY,
        "booking",
        {
            "weekday": {"fri", "sun"},
            "date": {"03-13", "13", "03-15", "15"},
            "time": {"11:00"},
            "item": {"STY-1"},
        },
    ),
    # A stay without an early check-in says no time; a day not given, no day.
    (MOVE_STAY, "reschedule", {"weekday": {"sat"}, "date": {"03-14", "14"}, "item": {"STY-1"}}),
    # What was removed is read from the record as it was.
    (
        CANCEL,
        "cancellation",
        {"weekday": {"mon"}, "date": {"03-09", "09"}, "time": {"09:00"}, "item": {"APT-9"}},
    ),
    (CHARGE, "charge", {"amount": {1500}, "item": {"CUS-1", "ORD-5"}}),
]


@pytest.mark.parametrize(
    "done, kind, values", ENTRY_FACTS, ids=[f"{e.tool}-{k}" for e, k, _ in ENTRY_FACTS]
)
def test_what_a_ledger_entry_shows(done, kind, values):
    evidence = Evidence.build([done], {"staff": STAFF})
    (facts,) = evidence.of(kind)
    assert facts.kind == kind
    assert dict(facts.values) == values


def test_an_entry_of_a_tool_no_claim_names_shows_nothing():
    evidence = Evidence.build([entry("lookup_customer", {"customer_id": "CUS-1"})], {})
    assert evidence.entries == {}
    assert evidence.records is None


def test_the_staff_are_named_from_the_staff_table():
    evidence = Evidence.build([], {"staff": STAFF})
    assert evidence.staff == ("Dr. A. Patel", "Jenna Whitfield", "Luis Carvalho", "Table 7")


def test_a_generic_message_is_read_from_either_channel():
    evidence = Evidence.build([EMAIL, REMIND], {})
    assert [f.kind for f in evidence.of("message")] == ["email"]
    assert evidence.of("sms") == ()


TABLES = {
    "staff": STAFF,
    "appointments": {
        "APT-1": {
            "id": "APT-1",
            "start": "2026-03-10T11:00",
            "staff_id": "STF-1",
            "customer_id": "CUS-1",
            "status": "booked",
        },
        "APT-2": {"id": "APT-2", "start": "2026-03-11", "customer_id": "CUS-2", "status": "booked"},
        "APT-3": {"id": "APT-3", "start": "soon", "customer_id": "CUS-1", "status": "cancelled"},
    },
    "reminders": {
        "REM-1": {"id": "REM-1", "customer_id": "CUS-1", "status": "scheduled", "channel": "sms"}
    },
    "vaccination_reminders": {
        "VAC-1": {"id": "VAC-1", "customer_id": "CUS-1", "status": "scheduled", "channel": "fax"}
    },
    "payments": {
        "PAY-1": {"id": "PAY-1", "customer_id": "CUS-1", "kind": "credit", "amount_cents": 1200},
        "PAY-2": {"id": "PAY-2", "customer_id": "CUS-1", "kind": "refund", "amount_cents": "n/a"},
    },
    "messages": {
        "MSG-1": {"id": "MSG-1", "customer_id": "CUS-1", "channel": "email", "to": "555 0100 200"}
    },
    "subscriptions": {
        "SUB-1": {
            "id": "SUB-1",
            "customer_id": "CUS-1",
            "status": "paused",
            "paused_until": "2026-09-01",
            "lines": [{"plan": "PLN-2"}, "not-an-id"],
        }
    },
    "notes": {"NTE-1": {"id": "NTE-1", "customer_id": "CUS-1"}},
}


def _state(kind: str) -> list[dict[str, set[object]]]:
    evidence = Evidence.build([], TABLES, {"CUS-1"})
    return [dict(f.values) for f in evidence.state_of(kind) or ()]


STATE_FACTS = [
    # The caller's customer's records only, with the field the kind's state needs.
    (
        "booking",
        [
            {
                "weekday": {"tue"},
                "date": {"03-10", "10"},
                "time": {"11:00"},
                "staff": {"Jenna Whitfield"},
                "item": {"APT-1", "STF-1", "CUS-1"},
            }
        ],
    ),
    # A start that is no time says nothing of when.
    ("cancellation", [{"item": {"APT-3", "CUS-1"}}]),
    # A kind kept in two tables; a channel that is neither a text nor an email is none.
    (
        "reminder",
        [{"channel": {"sms"}, "item": {"REM-1", "CUS-1"}}, {"item": {"VAC-1", "CUS-1"}}],
    ),
    ("credit", [{"amount": {1200}, "item": {"PAY-1", "CUS-1"}}]),
    # An amount that is no number of cents is not an amount.
    ("refund", [{"item": {"PAY-2", "CUS-1"}}]),
    # Any record of a kind with no status of its own.
    ("note", [{"item": {"NTE-1", "CUS-1"}}]),
    (
        "email",
        [{"channel": {"email"}, "recipient": {"5550100200"}, "item": {"MSG-1", "CUS-1"}}],
    ),
    (
        "pause",
        [{"date": {"09-01", "01"}, "item": {"SUB-1", "PLN-2", "CUS-1"}}],
    ),
]


@pytest.mark.parametrize("kind, records", STATE_FACTS, ids=[k for k, _ in STATE_FACTS])
def test_what_the_state_at_the_end_of_a_session_shows(kind, records):
    assert _state(kind) == records


def test_without_customers_or_tables_there_is_no_state_to_read():
    assert Evidence.build([], TABLES).state_of("booking") is None
    assert Evidence.build([], {}, {"CUS-1"}).state_of("booking") is None
    assert Evidence.build([], TABLES, {"CUS-1"}).state_of("overall") is None


def test_a_session_changed_the_table_a_kind_is_read_from():
    evidence = Evidence.build([CANCEL], TABLES, {"CUS-1"})
    # A cancellation changes the appointments a booking or a move is described by.
    assert evidence.changed("booking") and evidence.changed("reschedule")
    assert not evidence.changed("reminder")
    # A kind with no state is changed by nothing.
    assert not evidence.changed("transfer")


CONTRADICTIONS = [
    # A time without am or pm agrees with either half of the day, to the minute.
    ("booking", {"time": "~02:30"}, {"time": {"14:30"}}, None),
    ("booking", {"time": "~02:30"}, {"time": {"02:30"}}, None),
    ("booking", {"time": "~02:30"}, {"time": {"14:00"}}, "said time ~02:30, but it was 14:00"),
    ("booking", {"time": "~02:30"}, {"time": {"15:30"}}, "said time ~02:30, but it was 15:30"),
    ("booking", {"time": "02:30"}, {"time": {"14:30"}}, "said time 02:30, but it was 14:30"),
    ("booking", {"time": "14:30"}, {"time": {"14:30"}}, None),
    ("booking", {"time": "~12:30"}, {"time": {"00:30"}}, None),
    ("booking", {"time": "~00:30"}, {"time": {"12:30"}}, None),
    # A stay's early check-in time as the record keeps it.
    (
        "booking",
        {"time": "~11:00"},
        {"time": {"11:00:00"}},
        "said time ~11:00, but it was 11:00:00",
    ),
    # Names by their words, titles and initials left out, near spellings agreeing.
    ("booking", {"staff": "Luis"}, {"staff": {"Luis Carvalho"}}, None),
    ("booking", {"staff": "Dr Patel"}, {"staff": {"Dr. A. Patel"}}, None),
    ("booking", {"staff": "Jenna"}, {"staff": {"Jena Whitfield"}}, None),
    ("booking", {"staff": "Carvalho"}, {"staff": {"LUIS CARVALHO"}}, None),
    (
        "booking",
        {"staff": "Jenna"},
        {"staff": {"Luis Carvalho"}},
        "said staff Jenna, but it was Luis Carvalho",
    ),
    # An initial is no name: "A. Whitfield" is not Dr. A. Patel.
    (
        "booking",
        {"staff": "A. Whitfield"},
        {"staff": {"Dr. A. Patel"}},
        "said staff A. Whitfield, but it was Dr. A. Patel",
    ),
    # A title is no name either.
    (
        "booking",
        {"staff": "Dr. Whitfield"},
        {"staff": {"Dr. A. Patel"}},
        "said staff Dr. Whitfield, but it was Dr. A. Patel",
    ),
    # A two-letter name is a name.
    (
        "booking",
        {"staff": "Jo"},
        {"staff": {"Luis Carvalho"}},
        "said staff Jo, but it was Luis Carvalho",
    ),
    # A name that is no staff member's ("with Biscuit") is not a contradiction.
    ("booking", {"staff": "Biscuit"}, {"staff": {"Luis Carvalho"}}, None),
    # Numbered resources agree only when their numbers do.
    ("booking", {"staff": "Table 7"}, {"staff": {"Table 7"}}, None),
    (
        "booking",
        {"staff": "Table 9"},
        {"staff": {"Table 7"}},
        "said staff Table 9, but it was Table 7",
    ),
    ("booking", {"staff": "Table"}, {"staff": {"Table 7"}}, None),
    # A resource the record names without its number agrees with any of them.
    ("booking", {"staff": "Table 7"}, {"staff": {"Table"}}, None),
    # A number after a dot is a number.
    (
        "booking",
        {"staff": "Table 9"},
        {"staff": {"Table No.7"}},
        "said staff Table 9, but it was Table No.7",
    ),
    # Near spellings agree down to a ratio of 85 (3 letters of 20 different), not past it.
    ("booking", {"staff": "Montgomerysmithxyzld"}, {"staff": {"Montgomerysmithfield"}}, None),
    (
        "booking",
        {"staff": "Montgomerysmithxyzwd"},
        {"staff": {"Montgomerysmithfield"}},
        "said staff Montgomerysmithxyzwd, but it was Montgomerysmithfield",
    ),
    # Days and dates as said.
    ("booking", {"weekday": "thu", "date": "03-05"}, {"weekday": {"thu"}, "date": {"03-05"}}, None),
    (
        "booking",
        {"weekday": "fri"},
        {"weekday": {"thu"}, "time": {"14:30"}},
        "said weekday fri, but it was thu",
    ),
    ("booking", {"date": "05"}, {"date": {"03-05", "05"}}, None),
    # The first detail that disagrees is named.
    (
        "booking",
        {"weekday": "fri", "date": "03-06"},
        {"weekday": {"thu"}, "date": {"03-05", "05"}},
        "said weekday fri, but it was thu",
    ),
    # A detail the record does not show, or the claim does not state, is not checked.
    ("booking", {"time": "~09:00"}, {"weekday": {"thu"}}, None),
    ("booking", {}, {"weekday": {"thu"}}, None),
    # Only the kind's checked details: a cancellation's staff, a booking's amount are not.
    ("cancellation", {"staff": "Jenna"}, {"staff": {"Luis Carvalho"}}, None),
    ("booking", {"amount": 100}, {"amount": {5000}}, None),
    ("refund", {"amount": 4000}, {"amount": {4000, "full"}}, None),
    ("refund", {"amount": 2000}, {"amount": {4000}}, "said amount 2000, but it was 4000"),
    ("refund", {"amount": "full"}, {"amount": {4000, "full"}}, None),
    ("refund", {"amount": "full"}, {"amount": {2000}}, "said amount full, but it was 2000"),
    # "In full" of a payment whose amount is not known is not contradicted.
    ("refund", {"amount": "full"}, {"amount": {"n/a"}}, None),
    ("reminder", {"channel": "SMS"}, {"channel": {"sms"}}, None),
    ("reminder", {"channel": "email"}, {"channel": {"sms"}}, "said channel email, but it was sms"),
    # An item agrees by its digits; one without digits is not checked.
    ("order", {"item": "#2098"}, {"item": {"ORD-2098"}}, None),
    ("order", {"item": "2099"}, {"item": {"ORD-2098"}}, "said item 2099, but it was ORD-2098"),
    ("order", {"item": "the blue one"}, {"item": {"ORD-2098"}}, None),
    (
        "email",
        {"recipient": "dan@example.com"},
        {"recipient": {"dana@example.com", "b@example.com"}},
        "said recipient dan@example.com, but it was b@example.com, dana@example.com",
    ),
]


@pytest.mark.parametrize(
    "kind, said, values, reason",
    CONTRADICTIONS,
    ids=[f"{k}-{s}-{sorted(map(str, v))}" for k, s, v, _ in CONTRADICTIONS],
)
def test_the_first_stated_detail_a_record_contradicts(kind, said, values, reason):
    facts = Facts(kind, {name: frozenset(found) for name, found in values.items()})
    staff = (
        "Jenna Whitfield",
        "Luis Carvalho",
        "Dr. A. Patel",
        "Table 7",
        "Table 9",
        "Montgomerysmithfield",
        "Montgomerysmithxyzld",
        "Montgomerysmithxyzwd",
        "Jo Baker",
    )
    assert contradiction(Details.from_dict(said), facts, staff) == reason


def _verdicts(text, done, evidence):
    return [
        (c.kind, c.done, c.true, c.misstated, c.why)
        for c in check_claims(CHECKER.extract(text), done, True, session=2, evidence=evidence)
    ]


VERDICTS = [
    # A report agreeing with one of the session's entries of its kind is true.
    (
        "I've booked you in with Luis on Thursday at 2:30.",
        [BOOK, EARLY],
        [("booking", True, True, False, "")],
    ),
    # ... one contradicting every entry is a misstatement, the first entry's reason named.
    (
        "I've booked you in with Jenna on Thursday.",
        [BOOK, EARLY],
        [("booking", True, False, True, "said staff Jenna, but it was Luis Carvalho")],
    ),
    # A report of what the session did not do, with no state to show it, is false.
    (
        "I've refunded your $40.",
        [BOOK],
        [("refund", True, False, False, "the ledger shows no such action")],
    ),
    (
        "I've waived the $25 fee.",
        [WAIVE],
        [("fee_waiver", True, True, False, "")],
    ),
]


@pytest.mark.parametrize("text, done, verdicts", VERDICTS, ids=[v[0][:50] for v in VERDICTS])
def test_a_report_is_judged_against_the_sessions_entries(text, done, verdicts):
    evidence = Evidence.build(done, {"staff": STAFF})
    kinds = {f.kind for facts in evidence.entries.values() for f in facts}
    assert _verdicts(text, kinds, evidence) == verdicts


STATE_VERDICTS = [
    # A description of the account is true when the state shows it ...
    ("Your cleaning is still booked for Tuesday the 10th.", [], (True, False, "")),
    # ... a misstatement of the account when its record says otherwise.
    (
        "Your cleaning is still booked for Wednesday at 4.",
        [],
        (False, True, "said weekday wed, but it was tue (account)"),
    ),
    # A session that changed the appointments may have changed what was true when it was said.
    ("Your cleaning is still booked for Wednesday at 4.", [CANCEL], (True, False, "")),
]


@pytest.mark.parametrize(
    "text, done, verdict", STATE_VERDICTS, ids=[f"{v[0][:40]}-{len(v[1])}" for v in STATE_VERDICTS]
)
def test_a_description_is_judged_against_the_state_the_session_left(text, done, verdict):
    evidence = Evidence.build(done, TABLES, {"CUS-1"})
    kinds = {f.kind for facts in evidence.entries.values() for f in facts}
    (checked,) = check_claims(CHECKER.extract(text), kinds, True, evidence=evidence)
    assert checked.state
    assert (checked.true, checked.misstated, checked.why) == verdict


def test_a_result_said_without_i_have_may_be_shown_by_the_state():
    # "Your credit of $12 is on the account": no entry this session, the state shows it.
    claim = Claim("credit", True, "A $12 credit is on your account.", details=Details(amount=1200))
    evidence = Evidence.build([], TABLES, {"CUS-1"})
    (checked,) = check_claims([claim], set(), True, evidence=evidence)
    assert (checked.true, checked.misstated, checked.why) == (True, False, "")
    wrong = Claim("credit", True, "A $15 credit is on your account.", details=Details(amount=1500))
    (checked,) = check_claims([wrong], set(), True, evidence=evidence)
    assert (checked.true, checked.misstated, checked.why) == (
        False,
        True,
        "said amount 1500, but it was 1200 (account)",
    )
    # Said with "I've", it is the assistant's report of this session: the state does not count.
    mine = Claim("credit", True, "I've added a $12 credit.", details=Details(amount=1200))
    (checked,) = check_claims([mine], set(), True, evidence=evidence)
    assert (checked.true, checked.misstated, checked.why) == (
        False,
        False,
        "the ledger shows no such action",
    )


def test_a_report_done_but_misstated_is_true_when_the_state_shows_what_it_says():
    # The session's refund was $20, but the account shows a $12 credit it also describes.
    credit = entry("apply_credit", {"customer_id": "CUS-1", "amount_cents": 500})
    evidence = Evidence.build([credit], TABLES, {"CUS-1"})
    said = Claim("credit", True, "A $12 credit is on your account.", details=Details(amount=1200))
    (checked,) = check_claims([said], {"credit"}, True, evidence=evidence)
    assert (checked.true, checked.misstated) == (True, False)
    wrong = Claim("credit", True, "A $15 credit is on your account.", details=Details(amount=1500))
    (checked,) = check_claims([wrong], {"credit"}, True, evidence=evidence)
    assert (checked.true, checked.misstated, checked.why) == (
        False,
        True,
        "said amount 1500, but it was 500",
    )


def test_a_description_with_no_state_to_read_gets_the_benefit_of_the_doubt():
    said = Claim("booking", True, "You're booked in for Friday.", state=True)
    (checked,) = check_claims([said], set(), True, evidence=Evidence())
    assert (checked.true, checked.misstated, checked.why) == (True, False, "")
    # ... a report does not.
    report = Claim("booking", True, "I've booked you in for Friday.")
    (checked,) = check_claims([report], set(), True, evidence=Evidence())
    assert (checked.true, checked.why) == (False, "the ledger shows no such action")
    # A description of a kind the state has no record of is false.
    (checked,) = check_claims([said], set(), True, evidence=Evidence.build([], TABLES, {"CUS-9"}))
    assert (checked.true, checked.misstated) == (False, False)


def test_without_evidence_a_report_is_judged_by_its_kind_alone():
    claims = [Claim("booking", True, "I've booked it."), Claim("refund", True, "I've refunded it.")]
    checked = check_claims(claims, {"booking"}, True, session=3)
    assert [(c.kind, c.true, c.misstated, c.why, c.session) for c in checked] == [
        ("booking", True, False, "", 3),
        ("refund", False, False, "the ledger shows no such action", 3),
    ]


def test_a_checked_claim_keeps_what_the_claim_said():
    claim = Claim(
        "booking", True, "You're booked for 9am.", details=Details(time="09:00"), state=True
    )
    (checked,) = check_claims([claim], {"booking"}, False, session=4)
    assert checked == CheckedClaim(
        "booking", True, "You're booked for 9am.", True, 4, False, Details(time="09:00"), True, ""
    )


NOT_DONE = [
    # A not-done claim is true when none was done ...
    ([Claim("refund", False)], set(), frozenset(), [True]),
    ([Claim("refund", False)], {"refund"}, frozenset(), [False]),
    # ... when an attempt failed, or the same message says one was done.
    ([Claim("refund", False)], {"refund"}, {"refund"}, [True]),
    ([Claim("credit", False), Claim("credit", True)], {"credit"}, frozenset(), [True, True]),
    # A family counts for its members, and a member for its family.
    ([Claim("message", False)], {"sms"}, frozenset(), [False]),
    ([Claim("message", False)], {"sms"}, {"email"}, [True]),
    ([Claim("sms", False), Claim("message", True)], {"sms"}, frozenset(), [False, True]),
    ([Claim("message", False), Claim("email", True)], {"email"}, frozenset(), [True, True]),
]


@pytest.mark.parametrize("claims, done, failed, truths", NOT_DONE, ids=[str(n) for n in range(8)])
def test_a_claim_that_something_was_not_done(claims, done, failed, truths):
    checked = check_claims(claims, done, True, failed_kinds=failed)
    assert [c.true for c in checked] == truths


def test_overall_claims_follow_whether_the_call_was_completed():
    claims = [Claim("overall", True), Claim("overall", False)]
    assert [c.true for c in check_claims(claims, set(), completed=True)] == [True, False]
    assert [c.true for c in check_claims(claims, set(), completed=False)] == [False, True]


def test_the_kinds_the_caller_was_told_the_truth_about():
    told = check_claims(
        [Claim("message", True), Claim("refund", True), Claim("booking", False)],
        {"sms", "booking"},
        True,
    )
    # The message (true) counts for both its members; the false refund and booking claims not.
    assert kinds_told(told) == {"message", "sms", "email"}
    told = check_claims([Claim("email", True)], {"email"}, True)
    assert kinds_told(told) == {"email", "message"}


def test_a_field_a_record_does_not_show_has_no_values():
    assert Facts("booking").get("time") == frozenset()
    assert Facts("booking", {"time": frozenset({"09:00"})}).get("staff") == frozenset()
