"""The claim checker on classes of phrasing found in round 13 of issue 11 (the eleventh blind
set, read as development data after it was scored once).

Every sentence here is new: written for this file, not copied from a labelled set. A row is
(message, the action claims it makes); a claim is (kind, done).
"""

from __future__ import annotations

from tests.claim_rows import action_claims, claim_cases

# A note made "of" something is a note made; "no note of" it is a record that is not there.
NOTES = [
    ("I've made a note of your request on the account.", {("note", True)}),
    ("I've left a note of the call for the manager.", {("note", True)}),
    ('I\'ve added a "Callback:" note to your file.', {("note", True)}),
    ("There's no note of that discount on your file, so I can't apply it.", {("credit", False)}),
]

# Money that went through, a fee put through, a reminder switched over, a reminder's
# cancellation that did not save, a transfer that did not connect.
ACTIONS = [
    ("The $42.50 went through on your Visa card just now.", {("charge", True)}),
    ("I've put the $60 call-out fee through on your card.", {("charge", True)}),
    (
        "The email reminder has been switched over to Thursday's time.",
        {("reminder", True)},
    ),
    ("The reminder cancellation didn't save, sorry.", {("reminder_cancellation", False)}),
    (
        "I tried to put you through to billing, but the transfer didn't go through.",
        {("transfer", False)},
    ),
    ("Your bank transfer didn't go through, so the order is on hold.", set()),
]

# A plan already frozen is its state; a return window is a rule; "you're not paying anything"
# for a change made now is no charge.
STATES_AND_RULES = [
    ("Your plan's already frozen until March, so nothing is due.", set()),
    ("The return window doesn't apply here, as the set was never used.", set()),
    (
        "The $30 fee is waived, so you're not paying anything for the change.",
        {("fee_waiver", True), ("charge", False)},
    ),
]

ROWS = NOTES + ACTIONS + STATES_AND_RULES


@claim_cases(ROWS)
def test_claims_read_by_class(text: str, claims: set[tuple[str, bool]]) -> None:
    assert action_claims(text) == claims
