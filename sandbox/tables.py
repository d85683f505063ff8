"""The standard tables of a simulated business: their id prefixes and JSON Schemas.

A business uses the subset it needs and may declare extra tables (with their own schema and
prefix) in its ``business.yaml``. Money is always integer cents; times are business-local
``YYYY-MM-DDTHH:MM`` strings from the simulated clock; dates are ``YYYY-MM-DD``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tools.timefmt import DATE_PATTERN, TIME_PATTERN

# ``format`` makes the state's validator check that the date or time exists (not 2026-02-30).
_TIME = {"type": "string", "pattern": TIME_PATTERN, "format": "local-time"}
_DATE = {"type": "string", "pattern": DATE_PATTERN, "format": "date"}
_OPT_TIME = {"type": ["string", "null"], "pattern": TIME_PATTERN, "format": "local-time"}
_OPT_DATE = {"type": ["string", "null"], "pattern": DATE_PATTERN, "format": "date"}
_CENTS = {"type": "integer", "minimum": 0}
_REF = {"type": "string", "minLength": 1}
_OPT_REF = {"type": ["string", "null"]}
_TEXT = {"type": "string"}


@dataclass(frozen=True)
class TableSpec:
    """A table: its name, the prefix of its ids (``APT`` gives ``APT-1001``) and its schema."""

    name: str
    prefix: str
    schema: dict[str, Any]


def _record(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    # Closed: a misspelt field (``final_billing`` for ``final_billing_date``) would otherwise
    # load and silently change what a task measures. Domain detail beyond these fields goes in
    # a table the business declares itself.
    return {
        "type": "object",
        "required": ["id", *required],
        "properties": {"id": _REF, **properties},
        "additionalProperties": False,
    }


STANDARD_TABLES: dict[str, TableSpec] = {
    spec.name: spec
    for spec in [
        TableSpec(
            "customers",
            "CUS",
            _record(
                ["name", "phone"],
                {
                    "name": _TEXT,
                    "phone": _TEXT,
                    "email": {"type": ["string", "null"]},
                    "dob": _OPT_DATE,
                    "postcode": {"type": ["string", "null"]},
                    "address": {"type": ["string", "null"]},
                    "credit_cents": _CENTS,
                    "tags": {"type": "array", "items": _TEXT},
                },
            ),
        ),
        TableSpec(
            "staff",
            "STF",
            _record(
                ["name", "role"],
                {
                    "name": _TEXT,
                    "role": _TEXT,
                    "services": {"type": "array", "items": _REF},
                    "hours": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "array",
                            "items": {"type": "string", "pattern": r"^\d{2}:\d{2}$"},
                            "minItems": 2,
                            "maxItems": 2,
                        },
                    },
                },
            ),
        ),
        TableSpec(
            "services",
            "SRV",
            _record(
                ["name", "duration_min", "price_cents"],
                {
                    "name": _TEXT,
                    "duration_min": {"type": "integer", "minimum": 5},
                    "price_cents": _CENTS,
                    "deposit_cents": _CENTS,
                    "irreversible": {"type": "boolean"},
                    "description": _TEXT,
                },
            ),
        ),
        TableSpec(
            "appointments",
            "APT",
            _record(
                ["customer_id", "service_id", "start", "end", "status"],
                {
                    "customer_id": _REF,
                    "service_id": _REF,
                    "staff_id": _OPT_REF,
                    "start": _TIME,
                    "end": _TIME,
                    "status": {"enum": ["booked", "cancelled", "completed", "no_show"]},
                    "booked_at": _OPT_TIME,
                    "cancelled_at": _OPT_TIME,
                    "cancel_reason": {"type": ["string", "null"]},
                },
            ),
        ),
        TableSpec(
            "reminders",
            "REM",
            _record(
                ["appointment_id", "channel", "send_at", "status"],
                {
                    "appointment_id": _REF,
                    "customer_id": _OPT_REF,
                    "channel": {"enum": ["sms", "email"]},
                    "send_at": _TIME,
                    "status": {"enum": ["scheduled", "cancelled", "sent"]},
                },
            ),
        ),
        TableSpec(
            "products",
            "PRD",
            _record(
                ["name", "price_cents", "stock"],
                {
                    "name": _TEXT,
                    "sku": _TEXT,
                    "price_cents": _CENTS,
                    "stock": {"type": "integer", "minimum": 0},
                    "reserved": {"type": "integer", "minimum": 0},
                    "prescription": {"type": "boolean"},
                },
            ),
        ),
        TableSpec(
            "reservations",
            "RSV",
            _record(
                ["product_id", "customer_id", "quantity", "status"],
                {
                    "product_id": _REF,
                    "customer_id": _REF,
                    "quantity": {"type": "integer", "minimum": 1},
                    "status": {"enum": ["held", "released", "fulfilled"]},
                    "created_at": _OPT_TIME,
                },
            ),
        ),
        TableSpec(
            "orders",
            "ORD",
            _record(
                ["customer_id", "items", "total_cents", "status"],
                {
                    "customer_id": _REF,
                    "items": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["product_id", "quantity", "price_cents"],
                            "additionalProperties": False,
                            "properties": {
                                "product_id": _REF,
                                "quantity": {"type": "integer", "minimum": 1},
                                "price_cents": _CENTS,
                            },
                        },
                    },
                    "total_cents": _CENTS,
                    "status": {
                        "enum": [
                            "placed",
                            "shipped",
                            "delivered",
                            "cancelled",
                            "return_started",
                            "returned",
                        ]
                    },
                    "placed_at": _OPT_TIME,
                    "delivered_at": _OPT_TIME,
                    "return_reason": {"type": ["string", "null"]},
                },
            ),
        ),
        TableSpec(
            "payments",
            "PAY",
            _record(
                ["customer_id", "kind", "amount_cents", "status"],
                {
                    "customer_id": _REF,
                    "kind": {"enum": ["charge", "refund", "credit", "fee"]},
                    "amount_cents": _CENTS,
                    "status": {
                        "enum": ["completed", "due", "waived", "refunded", "partial_refund"]
                    },
                    "order_id": _OPT_REF,
                    "appointment_id": _OPT_REF,
                    "subscription_id": _OPT_REF,
                    "refund_of": _OPT_REF,
                    "refunded_cents": _CENTS,
                    "description": _TEXT,
                    "at": _OPT_TIME,
                },
            ),
        ),
        TableSpec(
            "subscriptions",
            "SUB",
            _record(
                ["customer_id", "plan", "price_cents", "status"],
                {
                    "customer_id": _REF,
                    "plan": _TEXT,
                    "plan_id": _OPT_REF,
                    "price_cents": _CENTS,
                    "status": {"enum": ["active", "paused", "cancelled"]},
                    "next_billing_date": _OPT_DATE,
                    "final_billing_date": _OPT_DATE,
                    "paused_until": _OPT_DATE,
                    "started": _OPT_DATE,
                    "term_ends": _OPT_DATE,
                    "cancelled_at": _OPT_TIME,
                    "cancel_reason": {"type": ["string", "null"]},
                },
            ),
        ),
        TableSpec(
            "messages",
            "MSG",
            _record(
                ["customer_id", "channel", "to", "body"],
                {
                    "customer_id": _REF,
                    "channel": {"enum": ["sms", "email"]},
                    "to": _TEXT,
                    "subject": {"type": ["string", "null"]},
                    "body": _TEXT,
                    "sent_at": _OPT_TIME,
                },
            ),
        ),
        TableSpec(
            "notes",
            "NOTE",
            _record(
                ["customer_id", "body"],
                {"customer_id": _REF, "body": _TEXT, "at": _OPT_TIME},
            ),
        ),
        TableSpec(
            "escalations",
            "ESC",
            _record(
                ["reason", "summary"],
                {
                    "customer_id": _OPT_REF,
                    "reason": _TEXT,
                    "summary": _TEXT,
                    "at": _OPT_TIME,
                },
            ),
        ),
    ]
}
