"""Templated sentences reference assistants speak about what they did and did not do.

Several phrasings per action, picked by the episode seed, so the claim checker is exercised on
varied wording rather than one fixed sentence.
"""

from __future__ import annotations

import random
from typing import Any

from adapters.wording import action_fields

# tool -> (ways to say it was done, ways to say it was not)
_SENTENCES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "book_appointment": (
        (
            "I've booked your appointment for {start}.",
            "You're booked in for {start}.",
            "Your appointment on {start} is confirmed.",
        ),
        ("I wasn't able to book the appointment.", "Unfortunately the booking didn't go through."),
    ),
    "reschedule_appointment": (
        (
            "I've moved your appointment to {start}.",
            "Your appointment has been rescheduled to {start}.",
        ),
        (
            "I couldn't reschedule your appointment.",
            "Unfortunately I wasn't able to move the appointment.",
        ),
    ),
    "cancel_appointment": (
        ("I've cancelled your appointment.", "Your appointment has been cancelled."),
        (
            "I wasn't able to cancel the appointment.",
            "Unfortunately the appointment could not be cancelled.",
        ),
    ),
    "set_reminder": (
        (
            "I've set {a_channel} reminder for you.",
            "You'll get {a_channel} reminder before your appointment.",
        ),
        ("I couldn't set the reminder.", "Unfortunately the reminder wasn't set."),
    ),
    "record_vaccination_reminder": (
        (
            "I've set {a_channel} reminder before the vaccination is due.",
            "You'll get {a_channel} reminder before the vaccination is due.",
        ),
        (
            "I couldn't set the vaccination reminder.",
            "Unfortunately the vaccination reminder wasn't set.",
        ),
    ),
    "request_pet_refill": (
        (
            # Not "sent" (a message) nor "passed" (read as "paused"): the request is a queue entry.
            "Your refill request is now with the vet for approval.",
            "The refill request is in the vet's queue for approval.",
        ),
        ("I couldn't get the refill request to the vet.",),
    ),
    "cancel_reminder": (
        ("I've cancelled that reminder.",),
        ("I couldn't cancel the reminder.",),
    ),
    "reserve_stock": (
        ("I've put {quantity} aside for you.", "I've reserved {quantity} for you."),
        ("I wasn't able to hold the stock for you.",),
    ),
    "release_stock": (
        ("I've released the reserved stock.",),
        ("I couldn't release the reserved stock.",),
    ),
    "place_order": (
        ("I've placed your order.", "Your order has been placed."),
        ("I wasn't able to place the order.", "Unfortunately the order didn't go through."),
    ),
    "cancel_order": (
        ("I've cancelled your order.", "Your order has been cancelled."),
        ("I couldn't cancel the order.",),
    ),
    "start_return": (
        ("I've started the return for your order.", "Your return has been opened."),
        ("I wasn't able to start the return.",),
    ),
    "charge": (
        ("I've charged {amount} to your card on file.", "The payment of {amount} has been taken."),
        ("I wasn't able to take the payment.", "Nothing has been charged to your card."),
    ),
    "refund": (
        (
            "I've refunded {amount} to your original card.",
            "Your refund of {amount} has been processed.",
        ),
        ("I couldn't process the refund.", "Unfortunately the refund didn't go through."),
    ),
    "apply_credit": (
        (
            "I've added {amount} of credit to your account.",
            "A credit of {amount} has been applied to your account.",
        ),
        ("I wasn't able to add credit to your account.",),
    ),
    "waive_fee": (
        ("I've waived that fee.", "The fee has been waived."),
        ("I'm not able to waive that fee.",),
    ),
    "change_plan": (
        ("I've changed your plan.", "Your plan has been changed."),
        ("I couldn't change your plan.",),
    ),
    "pause_subscription": (
        (
            "I've paused your subscription until {until}.",
            "Your subscription is paused until {until}.",
        ),
        ("I couldn't pause your subscription.",),
    ),
    "freeze_membership": (
        (
            "I've frozen your membership until {until}.",
            "Your membership is frozen until {until}.",
        ),
        ("I couldn't freeze your membership.",),
    ),
    "end_freeze": (
        ("I've ended the freeze on your membership.",),
        ("I couldn't end the freeze on your membership.",),
    ),
    "book_class": (
        ("I've booked your place in the class.", "You're booked into the class."),
        ("I wasn't able to book the class.",),
    ),
    "cancel_class_booking": (
        ("I've cancelled your place in the class.",),
        ("I couldn't cancel your place in the class.",),
    ),
    "cancel_subscription": (
        ("I've cancelled your subscription.", "Your subscription has been cancelled."),
        ("I wasn't able to cancel your subscription.",),
    ),
    "apply_outage_credit": (
        (
            "I've applied an outage credit of {amount} to your bill.",
            "A credit of {amount} for the outage has been applied to your account.",
        ),
        ("I wasn't able to apply the outage credit.",),
    ),
    "change_service_plan": (
        ("I've changed your plan.", "Your plan has been changed."),
        ("I couldn't change your plan.",),
    ),
    "cancel_service": (
        ("I've cancelled your internet service.", "Your service has been cancelled."),
        ("I wasn't able to cancel your service.",),
    ),
    "send_sms": (
        ("I've sent you a text message.", "I've texted you the details."),
        ("I couldn't send you the text message.", "Unfortunately the text didn't go through."),
    ),
    "send_email": (
        ("I've sent you an email.", "I've emailed you the details."),
        ("I couldn't send you the email.", "Unfortunately the email didn't go through."),
    ),
    "add_note": (("I've added a note to your file.",), ("I couldn't add a note to your file.",)),
    "update_customer_contact": (
        ("I've updated your contact details.", "Your contact details have been updated."),
        ("I wasn't able to update your contact details.",),
    ),
    "hold_room": (
        ("The room is held for you for {hours} hours.",),
        ("I wasn't able to hold the room.",),
    ),
    "book_stay": (
        (
            "I've booked your stay from {check_in} to {check_out}.",
            "You're booked in from {check_in} to {check_out}.",
        ),
        ("I wasn't able to book the room.", "Unfortunately the booking didn't go through."),
    ),
    "modify_stay": (
        ("I've moved your stay to {check_in} to {check_out}.",),
        ("I couldn't change the dates of your stay.",),
    ),
    "cancel_stay": (
        ("I've cancelled your stay.", "Your booking has been cancelled."),
        ("I wasn't able to cancel the booking.",),
    ),
    "refund_stay_deposit": (
        ("I've refunded your deposit to your card.", "Your deposit refund has been processed."),
        ("I couldn't refund your deposit.",),
    ),
    "add_early_checkin": (
        ("I've booked you in for early check-in from {arrival}.",),
        ("I wasn't able to book the early check-in.",),
    ),
    "charge_damage": (
        ("I've charged {amount} to your card on file.",),
        ("I wasn't able to take the payment.",),
    ),
    "request_refill": (
        ("I've put the refill request in.", "Your refill request is in."),
        (
            "I wasn't able to put the refill request in.",
            "Unfortunately the refill didn't go through.",
        ),
    ),
    "cancel_refill": (
        ("I've cancelled the refill request.", "Your refill request has been cancelled."),
        ("I couldn't cancel the refill request.",),
    ),
    "request_renewal": (
        ("I've sent your prescriber a renewal request.", "The renewal request has been sent."),
        ("I wasn't able to send the renewal request.",),
    ),
    "transfer_prescription": (
        (
            "I've transferred your prescription to {to_pharmacy}.",
            "Your prescription has been transferred to {to_pharmacy}.",
        ),
        ("I wasn't able to transfer your prescription.",),
    ),
    "approve_work_order": (
        ("I've approved the work up to {amount}.", "The work is approved up to {amount}."),
        ("I wasn't able to approve the work.",),
    ),
}
TRANSFER = (
    "I'm transferring you now to a colleague who can help with this.",
    "Let me transfer you to a member of our team who can take this further.",
)
CLOSINGS = ("Is there anything else I can help you with?", "Anything else I can do for you today?")


def sentence(tool: str, done: bool, arguments: dict[str, Any], rng: random.Random) -> str | None:
    """One sentence saying ``tool`` was (or was not) done, or ``None`` for tools we never announce."""
    options = _SENTENCES.get(tool)
    if options is None:
        return None
    template = rng.choice(options[0] if done else options[1])
    fields = action_fields(arguments)
    return template.format(**fields).replace("  ", " ")
