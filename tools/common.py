"""Helpers shared by the handlers: fetching records by id, reading times, hiding secrets."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from tools.contract import WorldTx
from tools.errors import invalid, not_found
from tools.timefmt import parse_date, parse_time

LABELS = {
    "customers": "customer",
    "staff": "staff member",
    "services": "service",
    "appointments": "appointment",
    "reminders": "reminder",
    "products": "product",
    "reservations": "reservation",
    "orders": "order",
    "payments": "payment",
    "subscriptions": "subscription",
    "messages": "message",
    "notes": "note",
    "escalations": "escalation",
    "freezes": "freeze",
    "pt_packages": "training package",
    "classes": "class",
    "class_bookings": "class place",
    "rooms": "room",
    "rate_plans": "rate plan",
    "stays": "stay",
}

# Verification answers are secrets: a tool never reads them back to the assistant.
SECRET_FIELDS = frozenset({"dob", "postcode", "pin", "security_answer"})


def require(tx: WorldTx, table: str, record_id: str, field: str) -> dict[str, Any]:
    """The record, or a ``not_found`` tool error naming the argument."""
    record = tx.get(table, record_id) if tx.has_table(table) else None
    if record is None:
        raise not_found(LABELS.get(table, table), record_id, field)
    return record


def need_table(tx: WorldTx, table: str, field: str, message: str) -> None:
    """Refuse (``invalid_arguments`` naming ``field``) when the business declares no ``table``:
    a domain tool offered to a business that keeps no such records."""
    if not tx.has_table(table):
        raise invalid(message, field)


def public(record: dict[str, Any]) -> dict[str, Any]:
    """A copy of a record without its secret fields."""
    return {k: v for k, v in record.items() if k not in SECRET_FIELDS}


def arg_time(value: str, field: str) -> datetime:
    try:
        return parse_time(value)
    except ValueError:
        raise invalid(f"{value!r} is not a valid time; expected YYYY-MM-DDTHH:MM.", field) from None


def arg_date(value: str, field: str) -> date:
    try:
        return parse_date(value)
    except ValueError:
        raise invalid(f"{value!r} is not a valid date; expected YYYY-MM-DD.", field) from None


def now(tx: WorldTx) -> datetime:
    return parse_time(tx.now)


def money(cents: int) -> str:
    """``12345`` → ``"$123.45"`` for messages the model reads."""
    return f"${cents // 100:,}.{cents % 100:02d}"
