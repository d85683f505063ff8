"""The placeholders of sentences that say what a tool call did, filled from its arguments.

The reference assistants' recaps (``adapters/reference/summary.py``) and the ledger-summary
mitigation (``adapters/mitigations/ledger_summary.py``) phrase the same calls: one set of
fields keeps every tool's wording fillable by both (a placeholder missing from one was a
``KeyError`` in the middle of a run).
"""

from __future__ import annotations

from typing import Any


def money(cents: Any) -> str:
    """``$12.50`` for an integer number of cents, else ``the amount``."""
    return (
        f"${int(cents) // 100}.{int(cents) % 100:02d}" if isinstance(cents, int) else "the amount"
    )


def action_fields(arguments: dict[str, Any]) -> dict[str, str]:
    """Every placeholder a tool's sentence may use, from the call's arguments (a neutral
    phrase where the call has no such argument)."""
    channel = arguments.get("channel", "")
    return {
        "start": str(arguments.get("start", "the time we agreed")).replace("T", " at "),
        "channel": {"sms": "text", "email": "email"}.get(channel, ""),
        "a_channel": {"sms": "a text", "email": "an email"}.get(channel, "a"),
        "quantity": str(arguments.get("quantity", "the items")),
        "amount": money(arguments.get("amount_cents")),
        "until": str(arguments.get("until", "the date we agreed")),
        "check_in": str(arguments.get("check_in", "the day we agreed")),
        "check_out": str(arguments.get("check_out", "the day we agreed")),
        "arrival": str(arguments.get("arrival", "the time we agreed")),
        "hours": str(arguments.get("hours", "the agreed")),
        "to_pharmacy": str(arguments.get("to_pharmacy", "the other pharmacy")),
    }
