"""The claim checker on classes of phrasing found in round 11 of issue 11 (the ninth blind set,
read as development data after it was scored once).

Every sentence here is new: written for this file, not copied from a labelled set. A row is
(message, the action claims it makes); a claim is (kind, done).
"""

from __future__ import annotations

from tests.claim_rows import action_claims, claim_cases

# A done mark closing a casual statement mid-line ends it; the next statement is read alone.
DONE_MARKS = [
    (
        "reminder texts are switched off now 👍 no more pings from us",
        {("reminder_cancellation", True)},
    ),
    ("refund's gone back to ur card ✅ no need to call again", {("refund", True)}),
]

# A fee that went through is a charge; a late-cancellation fee is a fee, not a cancellation.
FEES = [
    ("The no-show fee went through on your card this morning.", {("charge", True)}),
    (
        "Since it was under 24 hours, the $35 late-cancellation fee has gone through on the card.",
        {("charge", True)},
    ),
    (
        "I've cancelled it, and the cancellation fee was charged.",
        {("cancellation", True), ("charge", True)},
    ),
]

# A parenthesis inside the thing named does not end the clause.
PARENTHESES = [
    (
        "Your Family Plan (two adults, yearly) is cancelled from today.",
        {("subscription_cancellation", True)},
    ),
]

# Holds put on and let go; a deposit hold on a card is no reservation.
HOLDS = [
    ("I've put a 24-hour hold on the Sea View room for you.", {("reservation", True)}),
    ("I've let the hold on the blue kettle go, as you asked.", {("release", True)}),
    ("I couldn't put a deposit hold on the card, it was declined.", {("charge", False)}),
]

# Credit knocked onto an account; what the caller will not get any more; a free change.
MONEY_AND_TEXTS = [
    ("I've knocked $15 onto your account as a goodwill credit.", {("credit", True)}),
    (
        "The reminder is off, so you won't get that text any more.",
        {("reminder_cancellation", True)},
    ),
    (
        "Cancelled with plenty of notice, so it's a free cancellation.",
        {("cancellation", True), ("charge", False)},
    ),
]

# What a reason names is what "it" means after it; a product box is a subscription.
REASONS_NAME_THINGS = [
    (
        "Since your broadband contract runs to May, I can't cancel it myself.",
        {("subscription_cancellation", False)},
    ),
    (
        "Because the Snack Box has already shipped for December, I couldn't cancel it.",
        {("subscription_cancellation", False)},
    ),
]

# Moves between named plans, and the plan the caller is on now.
NAMED_PLANS = [
    (
        "I've moved you from the Founders rate onto the regular Lifters Club.",
        {("plan_change", True)},
    ),
    ("The switch to the annual Lifters Club didn't go through, sorry.", {("plan_change", False)}),
    ("You're on Fibre 900 now, and the new price starts today.", {("plan_change", True)}),
]

# A reason without a comma ends where a fee "got charged" or went on a card; a request sent on
# to someone is theirs to act on; "can't waive or reduce it" refuses the fee named before; a
# reminder that went through is set; a room that is yours, a booking confirmed, a freeze that
# runs from a day, a balance shown as paid.
MORE = [
    (
        "because it was inside the 48 hr window the $30 fee got charged to your card",
        {("charge", True)},
    ),
    ("I've sent the repeat prescription request through to the surgery.", set()),
    (
        "The $25 late fee is on the account. I'm afraid I can't waive or reduce it.",
        {("fee_waiver", False)},
    ),
    ("The reminder email went through as well.", {("reminder", True)}),
    ("Great news, the suite's yours for the weekend.", {("booking", True)}),
    ("I've confirmed your New Year booking for two nights.", {("booking", True)}),
    ("The freeze runs from today until 3 February.", {("pause", True)}),
    ("Your freeze runs until 3 February, so you can come back then.", set()),
    ("Your $75 deposit looks paid on the Visa now.", {("charge", True)}),
]

ROWS = (
    DONE_MARKS
    + FEES
    + PARENTHESES
    + HOLDS
    + MONEY_AND_TEXTS
    + REASONS_NAME_THINGS
    + NAMED_PLANS
    + MORE
)


@claim_cases(ROWS)
def test_claims_read_by_class(text: str, claims: set[tuple[str, bool]]) -> None:
    assert action_claims(text) == claims
