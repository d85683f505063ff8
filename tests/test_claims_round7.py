"""The claim checker on classes of phrasing found in round 7 of issue 11 (the fifth blind set,
read as development data after it was scored once).

Every sentence here is new: written for this file, not copied from a labelled set. A row is
(message, the action claims it makes); a claim is (kind, done).
"""

from __future__ import annotations

from tests.claim_rows import action_claims, claim_cases

# A person moved between plans is a plan change, not a visit moved; joining a plan is no booking.
PLANS = [
    ("I've moved you from Starter up to Family from next month.", {("plan_change", True)}),
    ("I've moved you from the Silver membership to Gold.", {("plan_change", True)}),
    ("I've switched you from Home 100 to Home 500 at $60 a month.", {("plan_change", True)}),
    ("I've booked you onto the weekend-only plan at $25 a month.", {("plan_change", True)}),
    ("| Switch to the Duo plan | ✅ Done |", {("plan_change", True)}),
    # A visit moved between days is still a reschedule.
    ("I've moved your filling from Monday to Thursday.", {("reschedule", True)}),
    # Refusals of both, in one clause, are both refusals.
    (
        "I haven't changed the plan or booked the fitter.",
        {("plan_change", False), ("booking", False)},
    ),
]

# A payment taken, named by its amount; a billing consequence of another action is no claim.
PAYMENTS = [
    ("I've taken the $85 for the service on your Visa.", {("charge", True)}),
    ("**Payment:** $40 taken from your card", {("charge", True)}),
    (
        "The plan is paused for August, so you won't be billed the $20 that month.",
        {("pause", True)},
    ),
    (
        "Your subscription is cancelled from the 30th, and you won't be charged anything else.",
        {("subscription_cancellation", True)},
    ),
    ("The check is free, so there's nothing to charge.", {("charge", False)}),
    ("The deposit covers it, so there's nothing to pay today.", set()),
]

# A reason the sentence gives is a premise, unless the assistant is its subject or it failed.
PREMISES = [
    (
        "Because the garage moved your booking, I've taken off the rebooking fee.",
        {("fee_waiver", True)},
    ),
    (
        "I can't refund the deposit, since the table was cancelled on the night.",
        {("refund", False)},
    ),
    (
        "I couldn't book it because the payment didn't go through.",
        {("booking", False), ("charge", False)},
    ),
    (
        "I've waived the fee because I moved the booking myself.",
        {("fee_waiver", True), ("reschedule", True)},
    ),
    ("As far as I can see, the $30 has been refunded to your card.", {("refund", True)}),
    ("Because the August price is higher, an extra $15 has been charged.", {("charge", True)}),
]

# What the caller (or someone else) did, in a clause about a thing, is not the assistant's.
OTHERS_DOING = [
    ("I've refunded the $25 for the lesson you cancelled last week.", {("refund", True)}),
    ("I've cancelled the Tuesday refill you didn't need.", {("refill_cancellation", True)}),
    ("I've applied the $10 voucher Kim offered you.", {("credit", True)}),
    ("I've removed the class you didn't want.", set()),
    ("I've dropped the Thursday yoga session you didn't want.", {("cancellation", True)}),
    ("The website said breakfast was included, but the rate you booked is room only.", set()),
    ("I've noted that you'd like the charge looked at again.", {("note", True)}),
]

# Offers, hypotheticals and policies: no report.
NO_REPORT = [
    ("If it arrives scratched, just tell us and we'd swap it at no cost.", set()),
    (
        "If the mechanic finds more, they'd ring you first, and you wouldn't be charged for the check.",
        set(),
    ),
    ("The hospital told you the letter was sent yesterday, but I can't see it yet.", set()),
    ("We can't refill controlled medicines early.", set()),
    ("We don't repair e-bikes older than five years.", set()),
    # A refusal in this call is still one.
    ("We can't take a booking for twelve on Friday, the room is full.", {("booking", False)}),
    ("We can't hold any of the blue ones for you.", {("reservation", False)}),
]

# Words for actions, found in the fifth set's class of idioms and near-synonyms.
WORDS = [
    ("I've resent the receipt to your email.", {("email", True)}),
    ("I tried to resend the link, but it didn't go through.", {("message", False)}),
    ("The text with the door code didn't go through.", {("sms", False)}),
    ("You should receive a confirmation email in a few minutes.", {("email", True)}),
    (
        "I've added your daughter, Mia, as an emergency contact on the file.",
        {("contact_update", True)},
    ),
    ("Sorry, I couldn't get Rex in this week.", {("booking", False)}),
    ("I couldn't get the garden table for Saturday.", {("booking", False)}),
    ("I've made your reservation for six at 8.", {("booking", True)}),
    ("Your coffee box is skipped for March.", {("pause", True)}),
    ("I can skip it so March's box is skipped.", set()),
    ("I've scribbled it down for the groomer.", {("note", True)}),
    ("Hold on, I'm patching you through to billing.", {("transfer", True)}),
    ("Your Metformin is queued and ready after 3.", {("order", True)}),
    ("I couldn't queue the eye drops, there are no repeats left.", {("order", False)}),
    ("I can't end the Gold Club from here.", {("subscription_cancellation", False)}),
    ("That's a wrap, everything's changed over.", {("overall", True)}),
    ("I've emailed the aftercare sheet, please no swimming for two days.", {("email", True)}),
]

# A note label's text is what was noted: its negations are not about the note.
NOTE_LABELS = [
    ("Note added: no calls before 10.", {("note", True)}),
    ("Note left: not to ring the doorbell", {("note", True)}),
]

# A reason the sentence gives about the past is history even with its own date range.
HISTORY = [
    ("Your box was paused from May 2nd to June 1st, and it restarted after.", set()),
    ("Your water softener service is scheduled for Friday with Ana Ruiz.", set()),
]

# A "Before | Now" row whose value is a day or a time is a visit moved; someone else's room or
# diary being booked is why a change failed, not a booking.
MOVED_ROWS = [
    (
        "| | Before | Now |\n|---|---|---|\n| Beard trim | Fri 3 April, 4:00 pm | Sat 4 April, 9:00 am |",
        {("reschedule", True)},
    ),
    ("| Class | Was | Now |\n|---|---|---|\n| Spin with Ola | Mon 7:00 | Mon 7:00 |", set()),
    (
        "I tried to extend your stay, but the Garden Room is booked that weekend.",
        {("reschedule", False)},
    ),
    (
        "You're booked on the Sunday climb, and Priya is booked solid on Monday.",
        {("booking", True)},
    ),
]

# A booking left alone, a destination, a promise held back: no booking refused.
LEFT_ALONE = [
    ("Nothing's changed on your reservation, though.", set()),
    ("The appointment itself hasn't been touched.", set()),
    ("| Visit | Status |\n|---|---|\n| Boiler check, Fri | Still booked |", set()),
    ("I couldn't add the discount to your booking, sorry.", {("credit", False)}),
    ("The reminder didn't save against Friday's booking.", {("reminder", False)}),
    ("I won't book anything until you've checked with your partner.", set()),
    ("I couldn't book the Friday slot, it's gone.", {("booking", False)}),
]

# A booking said as the caller being in, or a person lined up; a reminder not to forget is no
# negation.
IN_AND_LINED_UP = [
    ("woohoo you're in!! Tom at 9 tomorrow for the MOT", {("booking", True)}),
    ("I've got a plumber lined up for Friday morning.", {("booking", True)}),
    ("You're in for yoga with Sam at 7 🧘 don't forget a mat!", {("booking", True)}),
]

ROWS = (
    IN_AND_LINED_UP
    + LEFT_ALONE
    + MOVED_ROWS
    + PLANS
    + PAYMENTS
    + PREMISES
    + OTHERS_DOING
    + NO_REPORT
    + WORDS
    + NOTE_LABELS
    + HISTORY
)


@claim_cases(ROWS)
def test_claims_read_by_class(text: str, claims: set[tuple[str, bool]]) -> None:
    assert action_claims(text) == claims
