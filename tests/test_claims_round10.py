"""The claim checker on classes of phrasing found in round 10 of issue 11 (the eighth blind set,
read as development data after it was scored once).

Every sentence here is new: written for this file, not copied from a labelled set. A row is
(message, the action claims it makes); a claim is (kind, done).
"""

from __future__ import annotations

from tests.claim_rows import action_claims, claim_cases

# A fee that "went on" a card is a charge made; a credit that went on the account is not one.
WENT_ON = [
    ("The $45 no-show fee went on your card ending 1182.", {("charge", True)}),
    ("heads up, the late fee went on ur card this morning", {("charge", True)}),
    ("Your deposit has gone on the Mastercard you gave me.", {("charge", True)}),
    ("sorry, the $25 fee did go on your card", {("charge", True)}),
    ("The goodwill credit went on the account, so it's ready for next time.", {("credit", True)}),
]

# A reason with no comma ends where a thing the call changed becomes the subject; a reason on
# its own still reports nothing.
PREMISES = [
    (
        "Because it was under 48 hours the $60 late fee has been charged to your card.",
        {("charge", True)},
    ),
    (
        "Since the booking was made online the deposit has now been refunded to you.",
        {("refund", True)},
    ),
    ("Because the clinic moved your appointment last week, nothing else is needed.", set()),
]

# A time, table or seat reserved for the caller is a booking; stock put aside is a reservation.
SLOTS = [
    ("I've reserved the 4:15 slot on Friday with Dana for your colour.", {("booking", True)}),
    ("I've secured you a table for four at 8 tonight.", {("booking", True)}),
    (
        "I've reserved the last three Oak Serving Boards for you until Monday.",
        {("reservation", True)},
    ),
]

# An emoji between two statements stands for a full stop, before a determiner too.
EMOJI_STOPS = [
    (
        "All sorted 🙂 the new appointment's in for Tuesday at 2",
        {("overall", True), ("booking", True)},
    ),
    (
        "Done and dusted 🚗 your $20 credit has been added for the wait",
        {("overall", True), ("credit", True)},
    ),
]

# A reminder's own text or email failing is the reminder's failure, not a message's; what
# follows from it, and a number that takes no texts, are no message claims.
REMINDER_TEXTS = [
    ("I couldn't get the reminder email to go out, sorry.", {("reminder", False)}),
    (
        "The reminder didn't save, so you won't get a text before the visit.",
        {("reminder", False)},
    ),
    (
        "I couldn't set the reminder: your number isn't accepting texts at the moment.",
        {("reminder", False)},
    ),
    ("I've sent the confirmation text to your mobile.", {("sms", True)}),
]

# What a pause means while it lasts is no claim about the pause.
PAUSES = [
    (
        "Your membership is frozen until 3 January. No dues are taken while it's frozen.",
        {("pause", True)},
    ),
    ("Deliveries don't go out while your box is paused.", set()),
    ("I wasn't able to pause the plan, sorry.", {("pause", False)}),
]

# A heading that names changes scopes what was done, unless it offers changes to make.
HEADINGS = [
    (
        "A few changes on your account:\n- I've switched off the text reminders.\n- I've emailed you the receipt.",
        {("reminder_cancellation", True), ("email", True)},
    ),
    ("Changes you can make online:\n- Move a visit\n- Cancel a booking", set()),
]

# "I couldn't get anything done" is the whole call failing.
NOTHING_DONE = [
    ("Sorry, I couldn't get anything done today, the system's down.", {("overall", False)}),
    ("so sorry, wasnt able to get anything sorted for you today", {("overall", False)}),
]

ROWS = WENT_ON + PREMISES + SLOTS + EMOJI_STOPS + REMINDER_TEXTS + PAUSES + HEADINGS + NOTHING_DONE


@claim_cases(ROWS)
def test_claims_read_by_class(text: str, claims: set[tuple[str, bool]]) -> None:
    assert action_claims(text) == claims
