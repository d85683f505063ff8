"""The customer's history: everything on file for one customer, across tables, oldest first.

A caller who returns days later is served by a fresh assistant that remembers nothing of the
earlier call: what was done then is visible only in the records. This read tool gathers them in
one place -- appointments and their reminders, hotel stays, reservations, orders, payments, subscriptions,
messages sent, notes on file and hand-offs to a person -- so an assistant can reconcile what it
is told now with what the business did before.
"""

from __future__ import annotations

from typing import Any

from tools.common import public, require
from tools.contract import Effect, Tool, WorldTx
from tools.params import obj, ref

# Tables whose records name their customer, in the order a history lists ties.
HISTORY_TABLES = (
    "appointments",
    "stays",
    "reservations",
    "orders",
    "payments",
    "subscriptions",
    "messages",
    "notes",
    "escalations",
)
# The first of these a record has is when it happened (for ordering the history).
TIME_FIELDS = (
    "at",
    "sent_at",
    "created_at",
    "placed_at",
    "cancelled_at",
    "start",
    "send_at",
    "booked_at",
)


def _when(record: dict[str, Any]) -> str | None:
    for name in TIME_FIELDS:
        value = record.get(name)
        if isinstance(value, str) and value:
            return value
    return None


def get_customer_history(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    entries: list[dict[str, Any]] = []
    appointment_ids: set[str] = set()
    for table in HISTORY_TABLES:
        if not tx.has_table(table):
            continue
        for record in tx.find(table, customer_id=customer["id"]):
            if table == "appointments":
                appointment_ids.add(record["id"])
            entries.append({"table": table, "at": _when(record), "record": public(record)})
    if tx.has_table("reminders"):
        for record in tx.rows("reminders"):
            if record.get("appointment_id") in appointment_ids:
                entries.append({"table": "reminders", "at": _when(record), "record": record})
    order = {t: i for i, t in enumerate((*HISTORY_TABLES, "reminders"))}
    # Undated records last; ties in table order, then by id: the same state, the same history.
    entries.sort(
        key=lambda e: (e["at"] is None, e["at"] or "", order[e["table"]], e["record"]["id"])
    )
    return {"customer_id": customer["id"], "history": entries, "count": len(entries)}


TOOLS = [
    Tool(
        "get_customer_history",
        "Everything on file for a customer, oldest first: appointments and reminders, "
        "reservations, orders, payments, subscriptions, messages sent, notes and transfers to "
        "a person. Use it when a caller refers to an earlier call.",
        obj(["customer_id"], customer_id=ref("customers", "The customer's id, e.g. CUS-1001.")),
        Effect.READ,
        get_customer_history,
        tables=HISTORY_TABLES,
    ),
]
