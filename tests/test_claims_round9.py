"""The claim checker on classes of phrasing found in round 9 of issue 11 (the seventh blind set,
read as development data after it was scored once).

Every sentence here is new: written for this file, not copied from a labelled set. A row is
(message, the action claims it makes); a claim is (kind, done).
"""

from __future__ import annotations

from tests.claim_rows import action_claims, claim_cases

# A person or a pet moved between named plans, a billing cycle changed, a box size changed, and
# a plan move that failed; a speed upgrade is a plan change too.
PLANS = [
    (
        "I've moved Biscuit from the Junior Care Plan onto the Senior Care Plan.",
        {("plan_change", True)},
    ),
    ("That should have moved you from Lite to the Family broadband plan.", {("plan_change", True)}),
    ("You're switched over to the weekday plan from Monday.", {("plan_change", True)}),
    ("Your box is now on annual billing rather than monthly.", {("plan_change", True)}),
    ("I've changed it to the Large size from the next delivery.", {("plan_change", True)}),
    ("The move up to the Premium plan didn't save, sorry.", {("plan_change", False)}),
    ("I couldn't switch you to the Student plan, it's closed.", {("plan_change", False)}),
    ("Your speed upgrade to 900 Mbps is live now.", {("plan_change", True)}),
]

# Contact details: the name spelt right, a corrected address saved, a detail that would not save.
CONTACTS = [
    ("I've corrected the spelling of your surname on the file.", {("contact_update", True)}),
    ("I've saved the new email on your profile.", {("contact_update", True)}),
    ("Your work email didn't update, the system rejected it.", {("contact_update", False)}),
    ("The landline number couldn't be removed from the account.", {("contact_update", False)}),
]

# A return refused in the passive; future consequences of a subscription action and rules
# stated for everyone carry no charge claim.
NO_CHARGE = [
    ("The worn boots can't be returned, I'm sorry.", {("return", False)}),
    (
        "I've paused the plan for March, so the $25 payment due on the 1st won't be taken.",
        {("pause", True)},
    ),
    (
        "I've cancelled your box, so there won't be another payment.",
        {("subscription_cancellation", True)},
    ),
    ("Cancelled as of today, so you won't be billed for February.", {("cancellation", True)}),
    ("A repair visit booked within the warranty carries no charge.", set()),
    ("During a freeze nothing is billed while it's active.", set()),
    ("And if a lesson is cancelled late, the $30 fee applies.", set()),
]

# Messages said to be in the caller's email or on their way, and a relative clause dating what a
# report describes (not the report).
MESSAGES = [
    ("The warranty form is in your email now.", {("email", True)}),
    ("Your booking link has gone to your inbox.", {("email", True)}),
    ("You should see a confirmation text come through in a minute.", {("sms", True)}),
    ("The tracking code is on its way to you by text.", {("sms", True)}),
    (
        "I've emailed you the receipt for the boiler service, which was paid on 3 May.",
        {("email", True)},
    ),
]

# A participle after a comma ("going to <address>") is no offer, nor a habit after a refund on
# its way ("usually lands in 3-5 days"); a hold "of a kind"; "put asside".
AFTER_A_COMMA = [
    ("I've placed the order for the lamp, going to 12 Park Road.", {("order", True)}),
    ("The refund of $20 is on its way, usually lands in 3-5 days.", {("refund", True)}),
    ("Refunds usually take five days to land.", set()),
    ("Your broadband is now on a summer hold from 1 July.", {("pause", True)}),
    ("ive put asside the last two for you till friday", {("reservation", True)}),
]

# What the caller did as the time of something else is history; a visit "scheduled for" as a
# description.
CALLERS_TIME = [
    ("No deposit was taken when you booked it in October.", set()),
    ("I've refunded the $20 you paid when you booked.", {("refund", True)}),
    ("The one scheduled for Friday is with Tom.", set()),
    ("I've scheduled the boiler check for Friday at 9.", {("booking", True)}),
]

# "return" as a system's verb is no return; a reminder named before and "switch it off" refused.
VERBS = [
    ("The booking system didn't return a confirmation number.", set()),
    (
        "The reminder text may still go out, as I wasn't able to switch it off.",
        {("reminder_cancellation", False)},
    ),
]

ROWS = PLANS + CONTACTS + NO_CHARGE + MESSAGES + AFTER_A_COMMA + CALLERS_TIME + VERBS


@claim_cases(ROWS)
def test_claims_read_by_class(text: str, claims: set[tuple[str, bool]]) -> None:
    assert action_claims(text) == claims
