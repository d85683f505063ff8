"""The claim checker on classes of phrasing found in round 12 of issue 11 (the tenth blind set,
read as development data after it was scored once).

Every sentence here is new: written for this file, not copied from a labelled set. A row is
(message, the action claims it makes); a claim is (kind, done).
"""

from __future__ import annotations

from tests.claim_rows import action_claims, claim_cases

# A bare cancellation whose clause names one kind of thing is that thing's cancellation.
CANCELLED_THINGS = [
    ("I've cancelled the balloons you'd ordered for the party.", {("order_cancellation", True)}),
    ("I've cancelled your Tuesday appointment.", {("cancellation", True)}),
]

# Reminders set, switched on, in, knocked out or gone; "drop-off" is no "off".
REMINDERS = [
    ("Email reminder's in as well, so you're covered.", {("reminder", True)}),
    ("The text reminder for Friday is switched on now.", {("reminder", True)}),
    ("From now on you'll get the reminder by text the evening before.", {("reminder", True)}),
    (
        "Popped a reminder in for Monday and bumped your drop-off to 9.",
        {("reminder", True), ("reschedule", True)},
    ),
    ("I've knocked out the reminder for the old time.", {("reminder_cancellation", True)}),
    ("The reminder for that visit is gone now as well.", {("reminder_cancellation", True)}),
]

# "Done!" standing first says the whole call went well; "Done —" opens the one action.
DONE = [
    ("Done! Your cleaning is booked for Friday at 10.", {("overall", True), ("booking", True)}),
    ("Done — I've moved your class to Thursday.", {("reschedule", True)}),
]

# A cancellation that "is in", "Sorted, <name>", a membership switched between named rates, and
# what a cancelled plan will not bill after it.
MORE = [
    ("Your subscription cancellation is in.", {("subscription_cancellation", True)}),
    ("Sorted, Ms Patel. Your new number is saved.", {("overall", True), ("contact_update", True)}),
    (
        "I've switched your Runners Club membership from the intro rate to the standard annual plan.",
        {("plan_change", True)},
    ),
    (
        "I've cancelled the membership, so you won't see another monthly payment.",
        {("subscription_cancellation", True)},
    ),
    (
        "Your box is cancelled, and you won't be billed for the March box.",
        {("subscription_cancellation", True)},
    ),
]

ROWS = CANCELLED_THINGS + REMINDERS + DONE + MORE


@claim_cases(ROWS)
def test_claims_read_by_class(text: str, claims: set[tuple[str, bool]]) -> None:
    assert action_claims(text) == claims
