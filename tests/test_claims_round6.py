"""The claim checker on classes of phrasing found in round 6 of issue 11 (the third and fourth
blind sets, read as development data after they were scored once).

Every sentence here is new: written for this file, not copied from a labelled set. A row is
(message, the action claims it makes); a claim is (kind, done).
"""

from __future__ import annotations

from tests.claim_rows import CHECKER, action_claims, claim_cases

# A hyphenated modifier is one word before the action's noun.
HYPHENATED = [
    ("I've added a follow-up note for the manager.", {("note", True)}),
    ("I've applied a one-off credit of $10.", {("credit", True)}),
    ("I've left a hand-over note on the work order.", {("note", True)}),
]

# This call's action cost nothing: a charge not made. A cost policy with a bound is no report.
COST_NOTHING = [
    ("Changing it was free.", {("charge", False)}),
    ("There was no charge for rescheduling.", {("charge", False)}),
    ("It didn't cost you anything to switch the day.", {("charge", False)}),
    ("There's no fee for cancelling up to 48 hours ahead.", set()),
    # The kind whose own words carry the negation is the one negated, not the one named.
    ("The freeze didn't cost anything.", {("charge", False)}),
    (
        "Neither the refund nor the credit has gone through, I'm sorry.",
        {("refund", False), ("credit", False)},
    ),
]

# An emoji between two words ends a statement.
EMOJI_STOPS = [
    (
        "The visit is cancelled 🙂 there's no fee for it.",
        {("cancellation", True), ("charge", False)},
    ),
    ("Your oil change is booked 😊 see you Tuesday.", {("booking", True)}),
]

# A booking made again is a booking; not made again, a booking not made.
REBOOKED = [
    ("I've rebooked the boiler service with Sam for Tuesday.", {("booking", True)}),
    ("Rebooked the grooming for Friday at 10.", {("booking", True)}),
    ("I haven't rebooked it yet.", {("booking", False)}),
]

# Past the item a not-done label or mark scopes, the assistant's own first-person report of
# another action is a report of its own.
OWN_REPORT_AFTER_NOT_DONE = [
    (
        "❌ Refund of the annual fee — over my limit, so I've passed you to a manager",
        {("refund", False), ("transfer", True)},
    ),
    (
        "**Not done**\n- Removing the late fee; I can't, but I've noted that you asked.",
        {("fee_waiver", False), ("note", True)},
    ),
    # The reason after the item is still no claim of its own.
    ("❌ Text reminder — your number isn't taking texts", {("reminder", False)}),
]

# A transfer to a team, a desk, a role or a named person, in a table row or a line.
TRANSFERS = [
    ("| Request | Result |\n|---|---|\n| Transfer to billing team | Done |", {("transfer", True)}),
    ("Transferred to the night manager.", {("transfer", True)}),
    ("| Call-back request | Transferred to Omar Haddad |", {("transfer", True)}),
    # An airport transfer is a booking; records sent on are no transfer of the call.
    ("The airport transfer to the hotel is booked.", {("booking", True)}),
]

# The action named by its own noun, then a verb of success (or, negated, of failure).
RESULTS = [
    ("Your plan downgrade went through.", {("plan_change", True)}),
    ("The time change went through fine.", {("reschedule", True)}),
    ("Your table for six went through for Saturday at 8.", {("booking", True)}),
    ("The goodwill credit has gone onto your bill.", {("credit", True)}),
    ("The deposit's gone on your card.", {("charge", True)}),
    ("The freeze went through this morning.", {("pause", True)}),
    ("The time change didn't save, I'm afraid.", {("reschedule", False)}),
    # What will happen later is not a failure.
    ("Your membership is paused and the next charge won't go out until July.", {("pause", True)}),
]

# "before I booked" is when it happened, not an offer.
PAST_TIME_CLAUSES = [
    (
        "The $80 deposit was taken, as agreed before I booked the slot.",
        {("charge", True), ("booking", True)},
    ),
    ("Before I book it, shall I take the deposit?", set()),
]

# A heading that is one verb, or a thing and its verb, scopes the items below it; "Not booked"
# makes each a booking not made.
VERB_HEADINGS = [
    (
        "**Not booked**\n- The gum treatment — Dr. Ito is away that week.",
        {("booking", False)},
    ),
    (
        "**Max's grooming — booked**\n- Bath and nail trim with Sara, Friday 14 August at 10:00",
        {("booking", True)},
    ),
]

# Squeezed, slotted or pencilled in: a booking.
FITTED_IN = [
    ("I've slotted Biscuit in for a 4:10 check with Dr. Amos.", {("booking", True)}),
    ("You're squeezed in with Marta at half nine tomorrow.", {("booking", True)}),
]

# A refill not done, said with the refill itself; refills left are the prescription's state.
REFILLS = [
    ("❌ Refill of the antihistamine — the prescription has run out", {("refill_request", False)}),
    ("Nothing's been refilled yet, sorry.", {("refill_request", False)}),
    ("You have no refills left on the cream.", set()),
]

# A class place given up is a cancellation.
PLACES = [
    ("I've given up your Tuesday rowing place.", {("cancellation", True)}),
    ("Your Sunday yoga spot has been given up.", {("cancellation", True)}),
    ("I couldn't give up your place; the class has started.", {("cancellation", False)}),
]

# What follows in the future from a pause or a cancellation is no claim; the cost of this call's
# action is. A negation in those words negates nothing else.
CONSEQUENCES = [
    (
        "Your gym membership is cancelled, so you won't be billed again.",
        {("subscription_cancellation", True)},
    ),
    ("I've paused the box for June, no more charges until July.", {("pause", True)}),
    (
        "I've frozen your membership from the 3rd, and you won't be charged during the freeze.",
        {("pause", True)},
    ),
    (
        "The class is cancelled and you won't be charged for it.",
        {("cancellation", True), ("charge", False)},
    ),
    (
        "I couldn't move you to the Family tier, so your plan hasn't changed.",
        {("plan_change", False)},
    ),
]

# "Good to go" and a bare "all good," opener are no statement about the whole call; a booking
# "itself is fine" was left alone, not made.
NOT_OVERALL = [
    ("You're good to go for Friday.", set()),
    ("Your booking itself is fine; only the email bounced.", {("email", False)}),
]

# The assistant's own refusal with a pronoun for its object: the last thing named that the verb
# can act on ("applied it" is the credit's, not the note's named after it).
PRONOUN_REFUSALS = [
    (
        "You were promised a $15 credit, but there's no note of that, so I haven't applied it.",
        {("credit", False)},
    ),
    ("The parking fee is on the folio and I can't remove it.", {("fee_waiver", False)}),
    ("That refund is above my limit, so I couldn't process it.", {("refund", False)}),
    ("I've added a note about it.", {("note", True)}),
]

# The fee that stands was not waived; an offer that stands is no fee.
FEE_STANDS = [
    ("Nothing on the account says otherwise, so the $25 fee stands.", {("fee_waiver", False)}),
    ("The offer still stands if you'd like it.", set()),
]

# One negation over actions joined by "or".
OR_JOINED = [
    ("I can't move it or cancel it from here.", {("reschedule", False), ("cancellation", False)}),
    (
        "So I haven't switched the plan or booked the engineer.",
        {("plan_change", False), ("booking", False)},
    ),
]

# "check-up to 11:30" is no "up to" limit; "movd" is "moved"; a stay extended is a change of
# its dates; notes left, recorded or in the notes.
WORDS = [
    ("I've moved your check-up to 11:30.", {("reschedule", True)}),
    ("You can claim up to 3 refunds a year.", set()),
    ("ok ur cleaning is movd to fri", {("reschedule", True)}),
    ("He moves house on Friday.", set()),
    ("Your booking has been extended to Sunday night.", {("reschedule", True)}),
    ("I've left Priya a note to ring you.", {("note", True)}),
    ("I've written it down in a note for the pharmacist.", {("note", True)}),
    ("Your dietary request is in the notes.", {("note", True)}),
]

# An item under a done or not-done label or mark that names a visit or service and no action:
# a booking made (saying when or with whom) or not made. An item that opens with a verb, or a
# bare service with no when under "Done", is not one.
VISIT_ITEMS = [
    ("**Done:**\n- Flu jab with Nurse Adams on Tuesday at 9:15.", {("booking", True)}),
    ("✅ Brake inspection with Carlos — Friday 8:00", {("booking", True)}),
    ("❌ Gel manicure — nobody free on Saturday", {("booking", False)}),
    (
        "**What I couldn't do**\n- The filling — Dr. Park's diary is full that week.",
        {("booking", False)},
    ),
    ("**What I couldn't do**\n- Quote the repair price; the engineer does that on site.", set()),
    ("**Done**\n- Cleaning.", set()),
]

# A plain past after a clause about before this call is about then too; the assistant's own
# words about this call are not.
HISTORY_CARRIES = [
    ("Your last service was on 3 May, and you were charged $120 for it.", set()),
    ("Last time we came out, on the 4th, the $60 call-out was refunded.", set()),
    (
        "Your sister rang yesterday about the colour, but I haven't cancelled it yet.",
        {("cancellation", False)},
    ),
    (
        "I went to cancel the parcel you'd ordered for Monday, but the cancellation didn't go "
        "through.",
        {("order_cancellation", False)},
    ),
]

# Paying: nothing new to pay, a deposit taken or put through, a charge declined, nothing charged
# after a failed attempt; a reason after ", as" is its own clause.
PAYMENTS = [
    ("Your deposit carried over, so there's nothing more to pay.", {("charge", False)}),
    ("Took the $30 booking deposit on your card.", {("charge", True)}),
    ("I've put the $75 call-out payment through on your card.", {("charge", True)}),
    ("I've placed the order, but the payment was declined.", {("order", True), ("charge", False)}),
    (
        "I tried to book the table, but your card was declined, so nothing was charged.",
        {("booking", False), ("charge", False)},
    ),
    (
        "I've released the held blender back into stock, as you've decided not to buy it.",
        {("release", True)},
    ),
    ("I've released the reserved lamp back to the shelf.", {("release", True)}),
]

# A change written with an arrow in a line; "I did update" is "I updated"; a contact detail
# that is now a new value was changed.
CHANGES = [
    ("**Done**\n- Tier: Standard → Premium, from the 1st", {("plan_change", True)}),
    ("I did update the phone number on your file.", {("contact_update", True)}),
    ("Your mobile number is now the one ending 4410.", {("contact_update", True)}),
    ("Your number is now showing on the file.", set()),
]

# Looking for a note that is not on the file is no note, made or not.
NO_RECORD = [
    ("I can't find any note of that promise, so the $30 fee stays.", {("fee_waiver", False)}),
    (
        "You said a $10 credit was promised. There isn't a note of it, so I haven't added it.",
        {("credit", False)},
    ),
]

# Found by a review of round 6: what its new readings must not take in.
REVIEWED = [
    ("**Noted**\n- Your wheelchair access request", {("note", True)}),
    ("Your appointment went fine on the day, the vet said.", set()),
    ("The class is complete, sorry, no spaces left.", set()),
    ("Your address is now outside our delivery area.", set()),
    ("The switch is through the door.", set()),
    (
        "Your previous booking was cancelled last week, and the refund was processed today.",
        {("refund", True)},
    ),
    ("The slot was given up by someone else, so I booked you in.", {("booking", True)}),
    ("You asked about the $20 credit. I'm unable to apply it, sorry.", {("credit", False)}),
]


def test_an_emoji_inside_a_statement_keeps_its_details():
    (claim,) = CHECKER.extract("Your cut is booked 😊 with Priya on Friday at 3pm.")
    assert (claim.kind, claim.details.staff, claim.details.time) == ("booking", "Priya", "15:00")


ROWS = (
    REVIEWED
    + NO_RECORD
    + CHANGES
    + PAYMENTS
    + HISTORY_CARRIES
    + VISIT_ITEMS
    + WORDS
    + PRONOUN_REFUSALS
    + FEE_STANDS
    + OR_JOINED
    + CONSEQUENCES
    + NOT_OVERALL
    + VERB_HEADINGS
    + FITTED_IN
    + REFILLS
    + PLACES
    + HYPHENATED
    + COST_NOTHING
    + EMOJI_STOPS
    + REBOOKED
    + OWN_REPORT_AFTER_NOT_DONE
    + TRANSFERS
    + RESULTS
    + PAST_TIME_CLAUSES
)


@claim_cases(ROWS)
def test_claims_read_by_class(text: str, claims: set[tuple[str, bool]]) -> None:
    assert action_claims(text) == claims
