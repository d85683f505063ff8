"""The claim checker on classes of phrasing found in the third round of issue 11.

Every sentence here is new (written for this file, not copied from a labelled set). A row is
(message, the action claims it makes); a claim is (kind, done).
"""

from __future__ import annotations

from tests.claim_rows import action_claims, claim_cases

# "No X fee", "at no cost", "nothing's been charged": a charge not made, also beside a done
# action in the same sentence.
NO_FEE = [
    (
        "Your session is cancelled and there's no late-cancel fee.",
        {("cancellation", True), ("charge", False)},
    ),
    (
        "I've placed the spare charger order at no cost to you.",
        {("order", True), ("charge", False)},
    ),
    ("Nothing's been charged to your card today.", {("charge", False)}),
    ("The replacement filter is ordered free of charge.", {("order", True), ("charge", False)}),
    # A hypothetical with no fee is no report.
    ("I can put you on Friday with no fee, if that works?", set()),
]

# What follows from a done action ("... and will be ready Friday") does not make it an offer;
# an offer before the action's words still does.
CONSEQUENCE = [
    ("Your inhaler refill is ordered and will be ready after 3pm.", {("order", True)}),
    ("The table is booked and will be held for fifteen minutes.", {("booking", True)}),
    ("I'll book the follow-up once the results are in.", set()),
    ("I could not process the exchange; the item was final sale.", set()),
]

# Saying what a kind is in other words: credit knocked off a bill, money returned to a card,
# a fee knocked off, a note slid on, a subscription moved to a plan, a SIM line cancelled.
WORDING = [
    ("I've knocked twenty quid off your next bill for the trouble.", {("credit", True)}),
    ("I've knocked the $25 call-out fee off, so you won't see it.", {("fee_waiver", True)}),
    ("The $30 deposit has been returned to your Visa.", {("refund", True)}),
    ("The duplicate $12 charge has been reversed.", {("refund", True)}),
    ("The full $48 is on its way back to your card.", {("refund", True)}),
    # A restated proposal names no verb: no refund yet.
    ("So that's the blender, with $60 back to your card. Shall I go ahead?", set()),
    (
        "I couldn't refund the booking fee, but it's been kept as credit.",
        {("refund", False), ("credit", True)},
    ),
    ("I've jotted a note on the file about the side gate.", {("note", True)}),
    ("I've noted that you'd like a ground-floor room.", {("note", True)}),
    ("I've popped your dog's name on the visit as a note.", {("note", True)}),
    ("Your broadband has been moved to the Lite plan from May.", {("plan_change", True)}),
    (
        "I've upgraded your plan to Max 500 and ordered the new router.",
        {("plan_change", True), ("order", True)},
    ),
    ("I've cancelled the spare SIM on your account.", {("subscription_cancellation", True)}),
    # A room or seat upgrade is not a change of plan.
    ("❌ Suite upgrade — none free that weekend", set()),
]

# "✅ Reminder set: Monday 6pm": after a mark, what precedes the colon is the item, not a label.
MARKED_ITEMS = [
    (
        "✅ Note added: please ring the bell twice\n✅ Filter change booked: Thu 10:00",
        {("note", True), ("booking", True)},
    ),
    (
        "✅ Appointment booked: Friday, 9am\n❌ Refund issued: needs a manager",
        {("booking", True), ("refund", False)},
    ),
    ("✅ Note for the groomer: nothing with lavender", {("note", True)}),
]

# What a cancellation cancels: bundles, rentals, automatic refills are subscriptions; a delivery
# or a purchase is an order; "the cancelled consultation" names a thing, it reports nothing.
CANCEL_OBJECTS = [
    ("I've cancelled the sports bundle on your TV account.", {("subscription_cancellation", True)}),
    (
        "I've switched off the automatic refills for your eye drops.",
        {("subscription_cancellation", True)},
    ),
    (
        "I couldn't cancel Thursday's delivery, it's already with the driver.",
        {("order_cancellation", False)},
    ),
    ("The $20 refund for the cancelled lesson has gone back to your card.", {("refund", True)}),
]

# Someone else's doing: a booking the caller made, a colleague's note, a passive with its
# agent, a hold another party keeps; transfers are of the caller, not of records.
OTHERS = [
    ("I've cancelled the extra night you'd booked for your brother.", {("cancellation", True)}),
    ("My colleague noted that the quote was for parts only.", set()),
    ("The referral was cancelled by your GP.", set()),
    ("The courier hasn't released the parcel yet.", set()),
    ("I've transferred your loyalty points to the new card.", set()),
    ("I'm transferring you to the billing desk now.", {("transfer", True)}),
    ("I couldn't release your repeat medicine to your son without a signed form.", set()),
]

# Other words for a kind: a booking that went through, a hedged result, packs added, contact
# numbers added, a fee binned, a payment plan (no payment), a booking tool (no booking).
MORE_WORDING = [
    ("Your valet slot went through for Saturday morning.", {("booking", True)}),
    ("The move seems to have worked — your lesson is on Monday now.", {("reschedule", True)}),
    ("I haven't changed your Tuesday appointment.", {("reschedule", False)}),
    ("I've added the five-visit pack to your account.", {("order", True)}),
    ("Your work phone number added as a second contact.", {("contact_update", True)}),
    ("I've scrapped the $9 admin fee for you.", {("fee_waiver", True)}),
    ("I couldn't set up a payment plan for the crown today.", set()),
    ("The booking tool kept freezing on me, sorry about that.", set()),
    ("The gift voucher couldn't be used on the sale items.", {("credit", False)}),
    ("Your reminder will now go out by text instead of email.", {("reminder", True)}),
    ("Your cot is sorted and we'll send you a reminder text the day before.", {("reminder", True)}),
    ("A confirmation email has gone to your work address.", {("email", True)}),
    (
        "I've cancelled the reminder, so you won't get any more texts about it.",
        {("reminder_cancellation", True)},
    ),
    # A consequence after "and": split into its own report.
    ("I've opened the return and emailed the label to you.", {("return", True), ("email", True)}),
    # The second verb shares an offer made before "and".
    ("I'll note your allergy and put you through to the chef.", set()),
]

# A past payment or a deposit taken before this call describes the account; it is no action.
HISTORY = [
    ("Your deposit's already been taken, so there's nothing to pay today.", set()),
]


# Layout: a one-verb heading scopes the items below it; a heading that says what it heads; a
# long label whose value opens with a participle; a table whose first column names the thing.
LAYOUT = [
    (
        "**Cancelled**\n- Your Friday spin class\n\n**Not done**\n- The locker refund",
        {("cancellation", True), ("refund", False)},
    ),
    ("## Reservation confirmed\n\n**Party:** 6\n**When:** Sunday 1pm", {("booking", True)}),
    ("- Replacement charger for your hearing aid: ordered, arriving Monday", {("order", True)}),
    (
        "| Order | Outcome |\n|---|---|\n| #3310 (kettle) | Cancelled |\n| #3302 (toaster) | Couldn't cancel, shipped |",
        {("order_cancellation", True), ("order_cancellation", False)},
    ),
]

# A negation inside a clause that describes the object is not the action's.
RELATIVE = [
    ("I've credited $8 for the nights the heating wasn't working.", {("credit", True)}),
    ("I've refunded the lamp, which never arrived.", {("refund", True)}),
]

# A past payment with its own time ("that day", "at checkout", "then") is history.
PAST = [
    ("The $60 deposit was taken at checkout.", set()),
    ("Your gym was paused from 3 to 17 June and nothing was collected.", set()),
    ("You were charged the usual $4 booking fee then.", set()),
]

# Typing slips: a misplaced apostrophe in a negation, "thru", a percentage before a discount.
TYPOS = [
    ("Sorry, I could'nt book the Friday slot, it's gone.", {("booking", False)}),
    ("Your gym membership cancelation has gone thru.", {("subscription_cancellation", True)}),
    ("I've aplied the 15% loyalty discount to the invoice.", {("credit", True)}),
]

# Hypotheticals and conditions: a negation under "would" is no refusal; a condition before the
# action's words makes it none; a time clause after them only says when.
CONDITIONS = [
    ("If it's a repeat, nothing would be charged for the visit.", set()),
    ("There's a free slot on the 9th if you'd like it.", set()),
    ("I've left a note asking the nurse to ring you when the bloods are back.", {("note", True)}),
    ("I will not be able to waive the parking fee.", {("fee_waiver", False)}),
]

# What failed: the thing before "didn't save"; the thing tried, not where it was to go.
FAILURES = [
    ("The note about the spare key didn't save on the job sheet.", {("note", False)}),
    ("The purchase didn't complete, the card was declined.", {("order", False), ("charge", False)}),
    (
        "I tried to add the wheelchair note to your reservation, but it keeps vanishing.",
        {("note", False)},
    ),
    ("I tried to add your plus-one to the booking, but the note wouldn't save.", {("note", False)}),
]

# References and locations: "(order #123)", "in the book", a car reserved is a booking, a text
# "when it's ready" is a reminder.
REFERENCES = [
    ("The $15 refund for order #9921 went through this morning.", {("refund", True)}),
    (
        "Your cancellation is done, you're no longer in the book for Sunday.",
        {("cancellation", True)},
    ),
    ("Courtesy car reserved for the morning of your service.", {("booking", True)}),
    ("✅ Text when your glasses are ready", {("reminder", True)}),
    ("## Appointment confirmed\n\n**When:** Monday 4pm", {("booking", True)}),
    # A state description before the action's words; a result then what the screen shows.
    ("I think the class booking worked, it's showing on your profile now.", {("booking", True)}),
]

ROWS = (
    NO_FEE
    + CONSEQUENCE
    + WORDING
    + MARKED_ITEMS
    + CANCEL_OBJECTS
    + OTHERS
    + MORE_WORDING
    + HISTORY
    + LAYOUT
    + RELATIVE
    + PAST
    + TYPOS
    + CONDITIONS
    + FAILURES
    + REFERENCES
)


@claim_cases(ROWS)
def test_claims_read_by_class(text, claims):
    assert action_claims(text) == claims
