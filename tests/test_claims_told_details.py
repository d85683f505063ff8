"""The claim checker's readings, detail by detail and frame by frame (issue 10: its mutation
survivors). Every message here was written for this file.

A details row is (message, the kind of the claim, the details it states): the time on a 24-hour
clock (``~`` when the message says neither am nor pm), the date (``MM-DD``, or ``DD`` alone),
the weekday, staff, amount in cents (or ``"full"``), item, channel and recipient.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from sandbox.claims import LexiconClaimChecker
from sandbox.claims.clauses import negated_kinds
from sandbox.claims.frames import frame_patterns

CHECKER = LexiconClaimChecker()


def _claims(text: str) -> list[tuple[str, bool, dict[str, object]]]:
    return [(c.kind, c.done, c.details.to_dict()) for c in CHECKER.extract(text) if not c.state]


def _details(rows):
    return pytest.mark.parametrize("text, kind, details", rows, ids=[r[0][:60] for r in rows])


TIMES = [
    # No am or pm: either half of the day; past 12 or at 0 it is the 24-hour clock.
    ("I've booked you in for 12:30 on Friday.", "booking", {"time": "~00:30", "weekday": "fri"}),
    ("I've booked you for 13:05.", "booking", {"time": "13:05"}),
    ("I've set a reminder at 23:59.", "reminder", {"time": "23:59"}),
    ("I've set a reminder at 00:20.", "reminder", {"time": "00:20"}),
    ("I've booked you at 13.", "booking", {"time": "13:00"}),
    ("I've booked you at twelve.", "booking", {"time": "~00:00"}),
    # No such time.
    ("I've set a reminder at 9:60.", "reminder", {}),
    ("I've booked you for 25:00.", "booking", {}),
    ("I've booked you for 13pm.", "booking", {}),
    # am and pm, with or without a space and dots.
    ("I've booked you for 0:15 am.", "booking", {"time": "00:15"}),
    (
        "I've booked you for 9.45am on the 3rd of May.",
        "booking",
        {"time": "09:45", "date": "05-03"},
    ),
    ("I've booked you in for 3.15 p.m.", "booking", {"time": "15:15"}),
    ("I've booked you in for 3 PM.", "booking", {"time": "15:00"}),
    ("I've booked you in at 12am.", "booking", {"time": "00:00"}),
    ("I've booked you for 12pm.", "booking", {"time": "12:00"}),
    ("I've booked you for 0am.", "booking", {"time": "00:00"}),
    # In words.
    ("I've booked you at quarter to one.", "booking", {"time": "~00:45"}),
    ("I've booked you at quarter to 3.", "booking", {"time": "~02:45"}),
    ("I've booked you at quarter past two.", "booking", {"time": "~02:15"}),
    # On a 24-hour clock, quarter to 14 is 13:45: a quarter to 2 either side of noon.
    ("I've booked you at quarter to 14.", "booking", {"time": "~01:45"}),
    ("I've booked you at half 2.", "booking", {"time": "~02:30"}),
    ("I've booked you at half 13.", "booking", {"time": "13:30"}),
    ("I've booked you at noon on 2026-07-04.", "booking", {"time": "12:00", "date": "07-04"}),
    ("I've booked you for midday.", "booking", {"time": "12:00"}),
    ("I've booked you for midnight.", "booking", {"time": "00:00"}),
    ("I've booked you at nine in the morning.", "booking", {"time": "09:00"}),
    ("I've booked you at 7 tonight.", "booking", {"time": "19:00"}),
    ("I've booked you at 11 in the evening.", "booking", {"time": "23:00"}),
    ("I've booked you at five in the afternoon.", "booking", {"time": "17:00"}),
    ("I've booked you at five o'clock.", "booking", {"time": "~05:00"}),
    ("I've booked you at 10 o'clock on Sat.", "booking", {"time": "~10:00", "weekday": "sat"}),
    # "at 3 pm" is three in the afternoon, not "at 3" on either half of the day.
    ("I've booked you in at 3 pm with Jenna.", "booking", {"time": "15:00", "staff": "Jenna"}),
    ("I've booked you in at 11 a.m.", "booking", {"time": "11:00"}),
    ("I've booked you at 9am.", "booking", {"time": "09:00"}),
]

DATES = [
    # A stay or window of days is dated from its first day.
    ("I've booked your stay for 9–11 October.", "booking", {"date": "10-09"}),
    ("I've booked your stay for the 9th to 11th of Oct.", "booking", {"date": "10-09"}),
    ("I've booked you for March the 5th.", "booking", {"date": "03-05"}),
    ("I've booked you for Sept 30.", "booking", {"date": "09-30"}),
    ("I've booked you for the 3rd of December.", "booking", {"date": "12-03"}),
    ("I've booked you for Feb 30th.", "booking", {"date": "02-30"}),
    # A day of the month without its month.
    ("I've booked you for the 31st.", "booking", {"date": "31"}),
    # No such day or month.
    ("I've booked you for the 32nd.", "booking", {}),
    ("I've booked you for the 0th.", "booking", {}),
    ("I've booked you for 40 Jan.", "booking", {}),
    ("I've booked you for 2026-13-05.", "booking", {}),
    ("I've booked you for 2026-00-05.", "booking", {}),
    ("I've booked you for 2026-05-32.", "booking", {}),
    ("I've booked you for 2026-05-00.", "booking", {}),
    ("I've booked you on Weds.", "booking", {"weekday": "wed"}),
    ("I've booked you on Thursday.", "booking", {"weekday": "thu"}),
    ("I've booked you on sun.", "booking", {"weekday": "sun"}),
    # A pause from a day starts on it (only a move says what was before with "from").
    ("I've paused your box from 1 July.", "pause", {"date": "07-01"}),
]

AMOUNTS = [
    ("I've refunded £1,250.5 to your card.", "refund", {"amount": 125050}),
    ("I've refunded $1,000,000.", "refund", {"amount": 100000000}),
    ("I've refunded $7.05.", "refund", {"amount": 705}),
    ("I've refunded €3.", "refund", {"amount": 300}),
    ("I've refunded 30 dollars.", "refund", {"amount": 3000}),
    # An amount with its currency after it is no time ("12.50 euros" is not ten to one).
    ("I've refunded 12.50 euros to your card.", "refund", {"amount": 1250}),
    ("I've refunded 4.30 pounds.", "refund", {"amount": 430}),
    ("I've refunded everything back to you.", "refund", {"amount": "full"}),
]

PEOPLE_AND_THINGS = [
    ("I've booked you with our hygienist Maria Lopez.", "booking", {"staff": "Maria Lopez"}),
    ("I've booked you with Dr Patel.", "booking", {"staff": "Dr Patel"}),
    ("I've booked you to see Doctor Singh.", "booking", {"staff": "Doctor Singh"}),
    ("I booked Anna for 10am.", "booking", {"staff": "Anna", "time": "10:00"}),
    # A numbered resource keeps its number.
    ("I've booked you with Table 7.", "booking", {"staff": "Table 7"}),
    # A day or a channel is nobody's name.
    ("I've booked you with Monday.", "booking", {"weekday": "mon"}),
    ("I've booked you with Maria Monday.", "booking", {"weekday": "mon"}),
    ("I've booked you by email.", "booking", {"channel": "email"}),
    # Nor is a card, whatever follows it.
    ("I've charged the $20 deposit by Visa Debit.", "charge", {"amount": 2000}),
    ("I've cancelled order #12345.", "order_cancellation", {"item": "12345"}),
    ("I've cancelled order ORD-1234.", "order_cancellation", {"item": "ORD-1234"}),
    ("I've cancelled order number 55555.", "order_cancellation", {"item": "55555"}),
    ("I've cancelled apt1234.", "cancellation", {"item": "APT1234"}),
    (
        "I've texted the code to +1 (555) 123-4567.",
        "sms",
        {"channel": "sms", "recipient": "15551234567"},
    ),
    # Too few digits for a phone number.
    ("I've texted the code to 555-1234.", "sms", {"channel": "sms"}),
    (
        "I've emailed it to Dana@Example.COM.",
        "email",
        {"channel": "email", "recipient": "dana@example.com"},
    ),
    ("I've sent you an e-mail.", "email", {"channel": "email"}),
    ("I've sent it to your inbox.", "email", {"channel": "email"}),
    ("I've sent you a txt.", "sms", {"channel": "sms"}),
]


@_details(TIMES + DATES + AMOUNTS + PEOPLE_AND_THINGS)
def test_a_claim_states_the_details_its_message_says(text, kind, details):
    assert [(k, d) for k, done, d in _claims(text) if done] == [(kind, details)]


def test_a_clause_that_names_who_is_fully_booked_is_about_that_staff_member():
    assert _claims("Jade's fully booked on Monday, so I couldn't book you in.") == [
        ("booking", False, {"weekday": "mon", "staff": "Jade"})
    ]


TWO_CLAIMS = [
    # Each claim owns the details after its own words.
    (
        "I've booked your cleaning with Luis on Monday and set an email reminder for Sunday.",
        [
            ("booking", True, {"staff": "Luis", "weekday": "mon"}),
            ("reminder", True, {"weekday": "sun", "channel": "email"}),
        ],
    ),
    # Details before every claim go to the first.
    (
        "On Friday at 3pm I've booked your cleaning and set a text reminder.",
        [
            ("booking", True, {"weekday": "fri", "time": "15:00"}),
            ("reminder", True, {"channel": "sms"}),
        ],
    ),
    (
        "I've refunded $20 and added $5 credit.",
        [("refund", True, {"amount": 2000}), ("credit", True, {"amount": 500})],
    ),
    (
        "I've emailed the receipt and texted the code to 07700 900123.",
        [
            ("email", True, {"channel": "email"}),
            ("sms", True, {"channel": "sms", "recipient": "07700900123"}),
        ],
    ),
    (
        "I've booked your cleaning for 9:30 and set a text reminder for 8am.",
        [
            ("booking", True, {"time": "~09:30"}),
            ("reminder", True, {"time": "08:00", "channel": "sms"}),
        ],
    ),
]


@pytest.mark.parametrize("text, claims", TWO_CLAIMS, ids=[r[0][:60] for r in TWO_CLAIMS])
def test_claims_of_one_clause_each_own_the_details_after_their_words(text, claims):
    assert _claims(text) == claims


MOVES = [
    # What a move says was before is not a detail of the claim.
    (
        "I've moved your cleaning from Monday at 9 with Jenna to Wednesday at 10 with Luis.",
        {"weekday": "wed", "time": "~10:00", "staff": "Luis"},
    ),
    ("I've moved your cleaning to Wednesday instead of Monday.", {"weekday": "wed"}),
    ("I've moved it to Thursday rather than Tuesday.", {"weekday": "thu"}),
    ("I've moved your cleaning to 9:00, it was at 10:00.", {"time": "~09:00"}),
]


@pytest.mark.parametrize("text, details", MOVES, ids=[r[0][:60] for r in MOVES])
def test_a_move_states_where_it_went_not_where_it_was(text, details):
    assert _claims(text) == [("reschedule", True, details)]


# Frames (``data/frames.yaml``) read by the patterns they make: a small set of frames here.
FRAMES = {
    "frames": [
        {
            "kind": "fee_waiver",
            "verbs": ["take|took|taken off", "waive|waived|waived"],
            "objects": ["fee", "late fee"],
        },
        {
            "kind": "reminder_cancellation",
            "verbs": ["take|took|taken off"],
            "objects": ["reminder", "reminder text"],
            "cued_by": "verbs",
        },
        {"kind": "transfer", "verbs": ["put|put|put through", "pass|passed|passed"], "you": True},
    ],
    "now_frames": [{"kind": "plan_change", "objects": ["plan", "tier"]}],
    "results": ["went through", "was successful"],
    "failures": ["didn't go through", "failed"],
    "result_frames": [
        {"kind": "plan_change", "objects": ["plan change", "Upgrade"]},
        {"kind": "reschedule", "objects": ["date change"]},
    ],
}


def _frame_read(kind: str, which: str, text: str) -> str | None:
    """What the first of the kind's ``done`` or ``act`` patterns that matches reads."""
    for pattern in frame_patterns(FRAMES)[kind][which]:
        match = re.search(pattern, text, re.IGNORECASE)
        if match:
            return match.group(0)
    return None


FRAME_READINGS = [
    # Done: the past or the participle, the particle before or after the object, or passive.
    ("fee_waiver", "done", "I took off the late fee.", "took off the late fee"),
    ("fee_waiver", "done", "I took the late fee off.", "took the late fee off"),
    ("fee_waiver", "done", "The late fee has been taken off.", "The late fee has been taken off"),
    ("fee_waiver", "done", "I've waived the fee.", "waived the fee"),
    ("fee_waiver", "done", "I waived the $45 late fee.", "waived the $45 late fee"),
    ("fee_waiver", "done", "the fee was waived", "the fee was waived"),
    ("fee_waiver", "done", "the fee is now waived", "the fee is now waived"),
    ("fee_waiver", "done", "I'll take off the fee.", None),
    ("fee_waiver", "done", "She waives the fee.", None),
    # A preposition ends the object phrase; an object after one is no subject.
    ("fee_waiver", "done", "I waived a note about the fee.", None),
    ("fee_waiver", "done", "the note for the fee was waived", None),
    # Any form, for a negation or an offer.
    ("fee_waiver", "act", "I'll take off the fee.", "take off the fee"),
    ("fee_waiver", "act", "I'm taking the fee off.", "taking the fee off"),
    ("fee_waiver", "act", "It takes off the fee.", "takes off the fee"),
    ("fee_waiver", "act", "I can't waive the fee.", "waive the fee"),
    ("fee_waiver", "act", "She waives the fee.", "waives the fee"),
    ("fee_waiver", "act", "It's waiving the fee.", "waiving the fee"),
    # The longest object is read whole.
    (
        "reminder_cancellation",
        "done",
        "I took off the reminder text.",
        "took off the reminder text",
    ),
    (
        "reminder_cancellation",
        "done",
        "I took the reminder text off.",
        "took the reminder text off",
    ),
    (
        "reminder_cancellation",
        "act",
        "I can take the reminder text off.",
        "take the reminder text off",
    ),
    # A frame of the caller (`you: true`) has no passive.
    ("transfer", "done", "I've put you through to Sam.", "put you through"),
    ("transfer", "done", "I passed you over to Sam.", "passed you"),
    ("transfer", "done", "You were put through.", None),
    ("transfer", "act", "I can pass you on.", "pass you"),
    ("transfer", "act", "I'm passing you on.", "passing you"),
    # A plan said to be in a new state now, not in a state of the plan.
    ("plan_change", "done", "Your plan is now the Basic one.", "Your plan is now"),
    ("plan_change", "done", "The family tier has now moved.", "The family tier has now moved"),
    ("plan_change", "done", "Your plan is now paused.", None),
    # The action named by its own noun, then a verb of success (done) or failure (act).
    ("plan_change", "done", "Your plan change went through.", "Your plan change went through"),
    ("plan_change", "done", "The upgrade went through.", "The upgrade went through"),
    ("plan_change", "done", "The upgrade was successful.", "The upgrade was successful"),
    ("plan_change", "act", "The upgrade failed.", "The upgrade failed"),
    ("reschedule", "done", "Your date change went through.", "Your date change went through"),
    ("plan_change", "done", "Plan change went through.", "Plan change went through"),
    ("plan_change", "done", "The note for the plan change went through.", None),
    (
        "plan_change",
        "act",
        "The plan change didn't go through.",
        "The plan change didn't go through",
    ),
]


@pytest.mark.parametrize(
    "kind, which, text, read", FRAME_READINGS, ids=[f"{r[0]}-{r[1]}-{r[2]}" for r in FRAME_READINGS]
)
def test_a_frame_reads_its_verb_and_object_in_every_arrangement(kind, which, text, read):
    assert _frame_read(kind, which, text) == read


def test_a_frame_is_cued_by_its_objects_or_by_its_verbs():
    cues = {kind: made["cues"] for kind, made in frame_patterns(FRAMES).items()}
    assert cues == {
        "fee_waiver": ["fee", "late fee"],
        # `cued_by: verbs` and the caller's frames: each verb's stem and past.
        "reminder_cancellation": ["tak", "took"],
        "transfer": ["pass", "passed", "put"],
        "plan_change": ["plan", "tier", "plan change", "upgrade"],
        "reschedule": ["date change"],
    }


def test_the_frames_of_one_kind_add_up():
    frames = {
        "frames": [
            {"kind": "fee_waiver", "verbs": ["waive|waived|waived"], "objects": ["fee"]},
            {"kind": "fee_waiver", "verbs": ["drop|dropped|dropped"], "objects": ["charge"]},
            {"kind": "fee_waiver", "verbs": ["wipe|wiped|wiped"], "you": True},
            {
                "kind": "fee_waiver",
                "verbs": ["scrap|scrapped|scrapped"],
                "objects": ["x"],
                "cued_by": "verbs",
            },
        ],
        "now_frames": [{"kind": "fee_waiver", "objects": ["surcharge"]}],
        "result_frames": [{"kind": "fee_waiver", "objects": ["waiver"]}],
    }
    made = frame_patterns(frames)["fee_waiver"]
    assert made["cues"] == [
        "fee",
        "charge",
        "wip",
        "wiped",
        "scrap",
        "scrapped",
        "surcharge",
        "waiver",
    ]
    # Each frame's arrangements: active and passive, the caller's frame no passive; a now frame
    # one; a result frame one done and one act.
    assert (len(made["done"]), len(made["act"])) == (2 + 2 + 1 + 2 + 1 + 1, 4 + 1)


OR_JOINED = [
    # One negation governs a second verb joined by "or" within 40 characters ...
    (
        "I couldn't refund your same-day-emergency-callout-fee or cancel it.",
        [("refund", False, {}), ("cancellation", False, {})],
    ),
    # ... not farther.
    (
        "I couldn't refund your same-day-emergency-call-out-fee or cancel it.",
        [("refund", False, {})],
    ),
]


@pytest.mark.parametrize("text, claims", OR_JOINED, ids=[r[0][:60] for r in OR_JOINED])
def test_a_negation_governs_a_verb_joined_to_its_own_by_or(text, claims):
    assert sorted(_claims(text)) == sorted(claims)


def _read(text: str) -> list[tuple[str, bool, bool]]:
    return [(c.kind, c.done, c.state) for c in CHECKER.extract(text)]


def test_what_the_assistant_says_of_itself_is_about_this_call():
    # After a clause about before the call, a plain past describes the account; after the
    # assistant's own words about the caller's past, it is a report of this call.
    assert _read("You rang yesterday, and the refund went through.") == [("refund", True, True)]
    assert _read("I see you rang yesterday, and the refund went through.") == [
        ("refund", True, False)
    ]
    assert _read("Last week I refunded you, and the credit went on.") == [("refund", True, True)]


def test_a_verb_given_with_and_without_its_particle_reads_the_particle_as_its_own():
    # The particle is the verb's, so the object phrase and its three modifiers follow it.
    frames = {
        "frames": [
            {
                "kind": "fee_waiver",
                "verbs": ["take|took|taken off", "take|took|taken"],
                "objects": ["fee"],
            }
        ]
    }
    made = frame_patterns(frames)["fee_waiver"]
    for which in ("done", "act"):
        match = re.search(made[which][0], "I took off old fee new fee.", re.IGNORECASE)
        assert match is not None and match.group(0) == "took off old fee new fee"


def test_each_section_of_the_frames_is_optional():
    assert frame_patterns({}) == {}
    only_now = frame_patterns({"now_frames": [{"kind": "plan_change", "objects": ["plan"]}]})
    assert list(only_now) == ["plan_change"] and len(only_now["plan_change"]["done"]) == 1
    only_verbs = frame_patterns({"frames": FRAMES["frames"][:1]})
    assert list(only_verbs) == ["fee_waiver"]
    assert (len(only_verbs["fee_waiver"]["done"]), len(only_verbs["fee_waiver"]["act"])) == (3, 2)


def _negated(text: str, words: list[str], own: tuple[str, ...] = ()) -> list[str]:
    """Of the kinds named by ``words`` in ``text`` (a kind's words; in ``own`` when they are the
    kind's report, not its name), those the clause's "not"s negate."""
    matches = [
        (SimpleNamespace(kind=w), re.search(re.escape(w), text), w in own)
        for w in words  # each word once, in order
    ]
    negation = tuple(m.start() for m in re.finditer("not", text)) or None
    return [m[0].kind for m in negated_kinds(matches, negation, {})]


NEGATED = [
    # Every kind named before the negation (up to it): the first is what it negates.
    ("refund, credit not possible", ["refund", "credit"], ["refund"]),
    ("refund, creditnot possible", ["refund", "credit"], ["refund"]),
    # A kind whose words take in the negation is what it negates.
    ("a did-not-refund, a credit", ["did-not-refund", "credit"], ["did-not-refund"]),
    ("a not-refund and a credit", ["not-refund", "credit"], ["not-refund"]),
    # Otherwise the kinds nearest it (by their nearer end), within 12 characters of the nearest.
    ("refund, and then notcredit", ["refund", "credit"], ["refund", "credit"]),
    ("refund, and then it is not xcredit", ["refund", "credit"], ["refund", "credit"]),
    ("refund, and then it is, not xcredit", ["refund", "credit"], ["credit"]),
]


@pytest.mark.parametrize("text, words, negated", NEGATED, ids=[r[0] for r in NEGATED])
def test_a_negation_is_about_the_kinds_nearest_it(text, words, negated):
    assert _negated(text, words) == negated


# "No." before a number is the number's abbreviation, not a negation.
ORDER_NUMBERS = [
    ("I've cancelled order no. 55555.", True),
    ("I've cancelled order No. 55555 for you.", True),
    ("I've cancelled order no.55555.", True),
    ("I've cancelled order no #55555.", True),
    ("I couldn't cancel order no. 55555.", False),
    ("No, I haven't cancelled order 55555.", False),
]


@pytest.mark.parametrize("text, done", ORDER_NUMBERS, ids=[r[0] for r in ORDER_NUMBERS])
def test_no_before_a_number_abbreviates_number(text, done):
    assert [(k, d) for k, d, _ in _claims(text)] == [("order_cancellation", done)]
