"""What a ledger entry did, or what a state record shows, in the terms a claim states.

:class:`Facts` holds, per detail field, the values the record supports: the appointment's
weekday, date, time and staff member's name; a payment's amount (and whether a refund was in
full); a message's channel and recipient; the ids of the records touched. A claim's details
are compared with these (:mod:`.match`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sandbox.claims.types import TOOL_KINDS

_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_ID = re.compile(r"^[A-Z]{2,5}-\d+$")


@dataclass(frozen=True)
class Facts:
    """What one action (or one state record) shows, by detail field."""

    kind: str
    values: Mapping[str, frozenset[Any]] = field(default_factory=dict)

    def get(self, name: str) -> frozenset[Any]:
        return self.values.get(name, frozenset())


def _time_facts(start: str | None) -> dict[str, set[Any]]:
    if not start:
        return {}
    try:
        moment = datetime.fromisoformat(start)
    except ValueError:
        return {}
    return {
        "weekday": {_WEEKDAYS[moment.weekday()]},
        "date": {f"{moment.month:02d}-{moment.day:02d}", f"{moment.day:02d}"},
        "time": {f"{moment.hour:02d}:{moment.minute:02d}"},
    }


def _ids(value: Any, out: set[str]) -> None:
    if isinstance(value, str) and _ID.match(value):
        out.add(value.upper())
    elif isinstance(value, Mapping):
        for item in value.values():
            _ids(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _ids(item, out)


def record_facts(
    kind: str,
    record: Mapping[str, Any],
    staff_names: Mapping[str, str],
    customer: Mapping[str, Any] | None = None,
) -> Facts:
    """The facts one record shows (an appointment, a reminder, a payment, a message ...)."""
    values: dict[str, set[Any]] = {}
    if "start" in record:
        values.update(_time_facts(record.get("start")))
    if record.get("staff_id") in staff_names:
        values["staff"] = {staff_names[record["staff_id"]]}
    if "amount_cents" in record and isinstance(record.get("amount_cents"), int):
        values["amount"] = {record["amount_cents"]}
    if record.get("channel") in ("sms", "email"):
        values["channel"] = {record["channel"]}
    if record.get("to"):
        values["recipient"] = {_contact(str(record["to"]))}
    if record.get("paused_until"):
        values.setdefault("date", set()).update(
            _time_facts(record["paused_until"] + "T00:00").get("date", ())
        )
    ids: set[str] = set()
    _ids(record, ids)
    values["item"] = ids
    return Facts(kind, {k: frozenset(v) for k, v in values.items()})


def _contact(value: str) -> str:
    return value.lower() if "@" in value else re.sub(r"\D", "", value)


def entry_facts(entry: Any, staff_names: Mapping[str, str]) -> Facts | None:
    """The facts of one successful ledger entry, or ``None`` for a tool no claim names."""
    kind = TOOL_KINDS.get(entry.tool)
    if kind is None:
        return None
    values: dict[str, set[Any]] = {}
    for change in entry.changes:
        image = change.after or change.before or {}
        if change.table in (
            "appointments",
            "reminders",
            "vaccination_reminders",
            "messages",
            "subscriptions",
        ):
            for name, found in record_facts(kind, image, staff_names).values.items():
                if name != "amount":
                    values.setdefault(name, set()).update(found)
        if change.table == "payments" and kind == "fee_waiver":
            values.setdefault("amount", set()).add((change.before or {}).get("amount_cents"))
        if change.table == "payments" and kind == "refund" and change.before:
            after = change.after or {}
            if (
                after.get("refunded_cents") == after.get("amount_cents")
                and change.before.get("refunded_cents", 0) == 0
            ):
                values.setdefault("amount", set()).add("full")
    arguments = entry.arguments or {}
    if isinstance(arguments.get("amount_cents"), int) and kind != "fee_waiver":
        values.setdefault("amount", set()).add(arguments["amount_cents"])
    if kind in ("sms", "email"):
        values["channel"] = {kind}
    if kind == "pause" and arguments.get("until"):
        values.setdefault("date", set()).update(
            _time_facts(str(arguments["until"]) + "T00:00").get("date", ())
        )
    ids: set[str] = set()
    _ids(arguments, ids)
    for change in entry.changes:
        ids.add(change.id.upper())
    values["item"] = ids
    return Facts(kind, {k: frozenset(v - {None}) for k, v in values.items()})


def staff_names(tables: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Staff id -> name, from the staff table's records."""
    return {str(r["id"]): str(r.get("name", "")) for r in tables if r.get("id")}
