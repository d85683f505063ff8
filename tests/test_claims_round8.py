"""The claim checker on classes of phrasing found in round 8 of issue 11 (the sixth blind set,
read as development data after it was scored once).

Every sentence here is new: written for this file, not copied from a labelled set. A row is
(message, the action claims it makes); a claim is (kind, done).
"""

from __future__ import annotations

from tests.claim_rows import action_claims, claim_cases

# What was noted is the note's content: a "that ..." or "asking ..." after the note's words may
# hold a future or a condition of its own without making the note an offer.
NOTE_CONTENT = [
    ("I've noted that your son will collect the keys on Monday.", {("note", True)}),
    ("I've noted that they'll need a ramp at the entrance.", {("note", True)}),
    ("I've added a note asking for a quiet room if one is free.", {("note", True)}),
    ("I've stuck the door code in a note for the cleaner.", {("note", True)}),
    ("I've added the parking details to the visit notes.", {("note", True)}),
    ("She'll see the note I've left when she's back.", {("note", True)}),
    ("Your nut allergy is recorded on the file now.", {("note", True)}),
    # A note left before this call is no report, and a plain condition still makes an offer.
    ("The note I left last week about the gate is still there.", set()),
    ("If you like, I'll add a note about the dog.", set()),
]

# Messages left, sent by a channel, or sent emphatically (a message named by its one channel
# reads as that channel's kind).
MESSAGES = [
    ("I've left him a message to ring you this afternoon.", {("message", True)}),
    ("I've left a voicemail for the surveyor.", {("message", True)}),
    ("Your booking reference has gone to you by email.", {("email", True)}),
    ("The quote went out by text a minute ago.", {("sms", True)}),
    ("I did send the warranty form to your inbox earlier on this call.", {("email", True)}),
    ("You'll get the receipt by email in a moment.", {("email", True)}),
    ("Reminder: sent by text for the new time", {("reminder", True)}),
]

# What the caller did, or what their own email or app says, is not the assistant's report.
CALLERS_OWN = [
    ("You paused the box yourself in October, and it restarted on the 1st.", set()),
    ("You ordered the blue one on the 3rd, and it arrived on the 6th.", set()),
    ("Your message says the website showed the order as cancelled.", set()),
    ("The app showed your class as booked, but nothing reached us.", set()),
    # The assistant's own report beside it still counts.
    ("You booked it online, and I've now moved it to Friday.", {("reschedule", True)}),
]

# A booking described, not made: it stays booked, or the booking "is for" a day.
DESCRIBED = [
    ("Your Tuesday lesson stays booked at 6 as usual.", set()),
    ("Your booking for the Garden Room is for the 3rd to the 5th.", set()),
    ("The appointment itself stays exactly as it was.", set()),
]

# Let go of what was held; a hold cancelled is a release; what had been set aside before is no
# report of setting it aside.
HOLDS = [
    ("I've let go of the two chairs we had put aside for you.", {("release", True)}),
    ("I've cancelled the hold on the blue sofa, so it's back on sale.", {("release", True)}),
    ("No problem, I've let them go.", {("release", True)}),
    ("I've reserved the last two Oak Table Lamps for you until Friday.", {("reservation", True)}),
    ("I've reserved a table for six on Friday.", {("booking", True)}),
]

# Words, typos and casual reports.
WORDS = [
    ("ok i knockd the booking fee off for you", {("fee_waiver", True)}),
    ("I knocked 15% off the lamp since it arrived scratched.", {("credit", True)}),
    ("the SPRING20 code is applied to your basket now", {("credit", True)}),
    ("ok she's in at 4 tomorrow with Dr Ahmed", {("booking", True)}),
    ("ur appointment's sorted for mon at 10 👍", {("booking", True)}),
    ("ive shiftd ur cleaning to thursday, same time", {("reschedule", True)}),
    ("your freeze is in!! nothing to pay till march", {("pause", True)}),
    # Real words near the vocabulary are left alone.
    ("He sported the new frames to work, I hear.", set()),
]

# A kind named by its noun with a generic verb in a row; an order for a named item, placed; a
# contact detail saved; a plan switched between named plans; a reason without a comma.
NAMED = [
    ("| Freeze | Booked from Monday 4 January for a month |", {("pause", True)}),
    ("Your order for the Oak Bench, in walnut, is placed.", {("order", True)}),
    ("I've found the lamp you wanted and placed it for delivery on Friday.", {("order", True)}),
    ("Your new landline, 0161 555 0199, is saved on the account.", {("contact_update", True)}),
    ("Old email removed, new one saved.", {("contact_update", True)}),
    ("The change to your email address has gone through.", {("contact_update", True)}),
    ("- Switched from Peak to Flex from next month", {("plan_change", True)}),
    # Two days or two rooms are a visit moved, not a plan.
    ("I've switched you from Monday to Wednesday at 9.", {("reschedule", True)}),
    (
        "Because it's been dispatched I'm not able to cancel the order.",
        {("order_cancellation", False)},
    ),
    ("I can't take the jacket back, as it's been worn.", {("return", False)}),
    ("A shop this size isn't allowed to take medicines back.", set()),
    ("The manager has agreed to waive the $30 rebooking fee.", {("fee_waiver", True)}),
    ("Nothing else has changed, and I didn't take a new deposit.", {("charge", False)}),
    ("I've held the blue bike for 48 hours, no deposit.", {("reservation", True)}),
    ("Your prescription is ready and held for 10 days.", set()),
    ("1. Held Room 12 for three nights from Friday.", {("reservation", True)}),
    ("Held the last walnut board for you until Monday.", {("reservation", True)}),
    ("I couldn't hold a second board, there was only one left.", {("reservation", False)}),
    ("I've let the stylist know by text that you'll be late.", {("sms", True)}),
    ("I've taken her message and added it to your file.", {("note", True)}),
]

# A purpose after the report ("in case ...") is no condition on it; advice ("I'd put ...") and a
# plain condition still make no report; "ill <verb>" is "I'll"; hedged and casual reports.
PURPOSES = [
    ("I've noted the cracked tile in case the fitter needs it.", {("note", True)}),
    ("I'd put a reminder in your phone just in case.", set()),
    ("If the part arrives early, I'll book you in.", set()),
    ("ur service is moved to thursday, ill txt u the time", {("reschedule", True)}),
    ("That should be you booked for the MOT on Friday.", {("booking", True)}),
    ("I've slotted your boiler service in for next Tuesday.", {("booking", True)}),
    ("Good news, your plan change is in from the 1st.", {("plan_change", True)}),
    (
        "Here's what I've set up:\n- Table for 4 on Friday at 8\n- A reminder text the day before",
        {("booking", True), ("reminder", True)},
    ),
]

ROWS = NOTE_CONTENT + MESSAGES + CALLERS_OWN + DESCRIBED + HOLDS + WORDS + NAMED + PURPOSES


@claim_cases(ROWS)
def test_claims_read_by_class(text: str, claims: set[tuple[str, bool]]) -> None:
    assert action_claims(text) == claims
