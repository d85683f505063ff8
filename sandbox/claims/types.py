"""The records of the claim checker: a claim with its stated details, and its verdict."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol

# Which tools perform which kind of action (one tool, one kind).
TOOL_KINDS: dict[str, str] = {
    # A gym's class places and freezes are bookings, cancellations and pauses to a caller; they
    # come first so each kind's last tool (ledger-summary's "pending" wording) stays the same.
    "book_class": "booking",
    "cancel_class_booking": "cancellation",
    "freeze_membership": "pause",
    "end_freeze": "pause",
    "book_appointment": "booking",
    "reschedule_appointment": "reschedule",
    "cancel_appointment": "cancellation",
    "set_reminder": "reminder",
    # A pet's vaccination reminder is a reminder to the caller ("I've set a text reminder").
    "record_vaccination_reminder": "reminder",
    "cancel_reminder": "reminder_cancellation",
    "reserve_stock": "reservation",
    "release_stock": "release",
    "place_order": "order",
    "cancel_order": "order_cancellation",
    "start_return": "return",
    "charge": "charge",
    "refund": "refund",
    "apply_credit": "credit",
    "waive_fee": "fee_waiver",
    "change_plan": "plan_change",
    "pause_subscription": "pause",
    "cancel_subscription": "subscription_cancellation",
    # An internet provider's own tools (tools/telecom.py) are kinds of the same actions.
    "apply_outage_credit": "credit",
    "change_service_plan": "plan_change",
    "cancel_service": "subscription_cancellation",
    "send_sms": "sms",
    "send_email": "email",
    "add_note": "note",
    "update_customer_contact": "contact_update",
    "transfer_to_human": "transfer",
    # Hotel stays (tools/stays.py) are bookings of their own kinds' words: a room held or
    # booked, a stay moved or cancelled, early check-in arranged; its deposit refund a refund.
    "hold_room": "booking",
    "book_stay": "booking",
    "add_early_checkin": "booking",
    "modify_stay": "reschedule",
    "cancel_stay": "cancellation",
    "refund_stay_deposit": "refund",
    "charge_damage": "charge",
    # pharmacy (tools/prescriptions.py)
    "request_refill": "refill_request",
    # veterinary clinic: a pet's refill request is a refill request
    "request_pet_refill": "refill_request",
    "cancel_refill": "refill_cancellation",
    "request_renewal": "renewal_request",
    "transfer_prescription": "prescription_transfer",
    # auto repair (tools/workorders.py): a loaner car booked is a booking
    "approve_work_order": "work_order_approval",
    "book_loaner": "booking",
    # internet provider (tools/telecom.py)
    "request_port_out": "port_out",
}
# A generic kind a claim may use when it does not say which of its members it means
# ("I've sent you the details": a text or an email).
FAMILIES: dict[str, tuple[str, ...]] = {"message": ("sms", "email")}
KINDS: tuple[str, ...] = (*dict.fromkeys(TOOL_KINDS.values()), *FAMILIES, "overall")
DETAIL_FIELDS: tuple[str, ...] = (
    "date",
    "weekday",
    "time",
    "staff",
    "amount",
    "item",
    "channel",
    "recipient",
)


@dataclass(frozen=True)
class Details:
    """What a claim states about its action; ``None`` where the message does not say.

    ``date`` is ``MM-DD`` or ``DD`` (a day of the month without its month), ``weekday`` is
    ``mon`` .. ``sun``, ``time`` is ``HH:MM`` on a 24-hour clock (``h?:MM`` when the message does
    not say am or pm), ``amount`` is integer cents or ``"full"``, ``channel`` is ``sms`` or
    ``email``, ``staff`` the name as said, ``item`` an order or record id or a product as said,
    ``recipient`` an email address or phone number.
    """

    date: str | None = None
    weekday: str | None = None
    time: str | None = None
    staff: str | None = None
    amount: int | str | None = None
    item: str | None = None
    channel: str | None = None
    recipient: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Only the details stated."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Details:
        """Details from a mapping; unknown keys are ignored, values kept as given."""
        data = data or {}
        return cls(**{k: data[k] for k in DETAIL_FIELDS if data.get(k) not in (None, "")})

    @classmethod
    def from_labels(cls, data: dict[str, Any] | None) -> Details:
        """Details written the way the labelled sets and the LLM judge write them (a date as
        YYYY-MM-DD, a weekday in full, an amount in dollars) in the checker's terms."""
        out: dict[str, Any] = {}
        for name, value in (data or {}).items():
            if value in (None, "") or name not in DETAIL_FIELDS:
                continue
            if name == "amount" and isinstance(value, int | float) and not isinstance(value, bool):
                out[name] = round(value * 100)
            elif name == "date" and len(str(value)) == 10:
                out[name] = str(value)[5:]
            elif name == "weekday":
                out[name] = str(value)[:3].lower()
            elif name in ("channel", "recipient"):
                out[name] = str(value).lower()
            else:
                out[name] = value if name == "amount" else str(value)
        return cls.from_dict(out)

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


@dataclass(frozen=True)
class Claim:
    """One statement: the action ``kind`` was (``done``) or was not done. ``text`` is the clause.

    ``state`` marks a description of the account rather than a report of an action ("your
    cleaning is booked for Thursday", "you already have a reminder"): it is true when the ledger
    shows the action *or* the state at the end of the session shows what it describes.
    """

    kind: str
    done: bool
    text: str = ""
    # Where in ``text`` the words that made the claim are (for telling overlapping kinds apart).
    span: tuple[int, int] = field(default=(0, 0), compare=False)
    details: Details = field(default_factory=Details, compare=False)
    state: bool = field(default=False, compare=False)

    @property
    def fact(self) -> str:
        """The disclosure-fact name this claim states (``reminder_not_done``)."""
        return f"{self.kind}_{'done' if self.done else 'not_done'}"

    def as_kind(self, kind: str) -> Claim:
        """The same claim read as another kind."""
        return replace(self, kind=kind)


class ClaimChecker(Protocol):
    """Extracts claims from what the assistant said."""

    def extract(self, text: str) -> list[Claim]: ...


@dataclass(frozen=True)
class CheckedClaim:
    """A claim with the ledger's verdict.

    ``true`` is False for a false claim. ``misstated`` marks a false claim whose action *was*
    done but not as stated: a detail (time, staff, amount, channel ...) contradicts every ledger
    entry of its kind; ``why`` names the detail.
    """

    kind: str
    done: bool
    text: str
    true: bool
    session: int = 0
    misstated: bool = False
    details: Details = field(default_factory=Details)
    state: bool = False
    why: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "done": self.done,
            "text": self.text,
            "true": self.true,
            "session": self.session,
            "misstated": self.misstated,
            "details": self.details.to_dict(),
            "state": self.state,
            "why": self.why,
        }
