"""Business-wide allowances that say what they allow.

A business's ``allowed:`` entries are changes any task of the business may make on top of its
own. Each may carry conditions, checked against the call that made the change:

    who: caller             the row is about the account the caller claimed on that call
    who: verified_caller    ... and the caller was verified as that account before the write
    when: confirms_action   the call had already changed that account (other than by a note,
                            a message or a hand-off): a confirmation of what was done, not an
                            unrequested recap

A row is about the customer in its ``customer_id`` (a ``customers`` row: that customer).
"""

from __future__ import annotations

from sandbox.assertions import Inserted, matches
from sandbox.diff import DiffRow
from sandbox.identity import session_callers, trace_position
from sandbox.ledger import LedgerEntry
from sandbox.rules import RuleContext
from sandbox.task import Assertion

WHO = ("caller", "verified_caller")
WHEN = ("confirms_action",)
# Writes that do not count as an action a confirmation could confirm.
_NOT_ACTIONS = frozenset({"add_note", "send_sms", "send_email", "transfer_to_human"})


def _about(row: DiffRow) -> str | None:
    if row.table == "customers":
        return row.id
    image = row.after or row.before or {}
    return image.get("customer_id")


def _writer(row: DiffRow, ledger: list[LedgerEntry]) -> LedgerEntry | None:
    """The last successful entry that touched the row."""
    found = None
    for entry in ledger:
        if entry.ok and any((c.table, c.id) == (row.table, row.id) for c in entry.changes):
            found = entry
    return found


def _touches(entry: LedgerEntry, customer_id: str) -> bool:
    if (entry.arguments or {}).get("customer_id") == customer_id:
        return True
    for change in entry.changes:
        if change.table == "customers" and change.id == customer_id:
            return True
        for image in (change.after, change.before):
            if image and image.get("customer_id") == customer_id:
                return True
    return False


def holds(allowance: Assertion, row: DiffRow, inserted: Inserted, ctx: RuleContext) -> bool:
    """Whether ``allowance`` covers ``row``: it matches, and its conditions held on the call."""
    if not matches(allowance, row, inserted):
        return False
    if allowance.who is None and allowance.when is None:
        return True
    customer_id = _about(row)
    writer = _writer(row, ctx.ledger)
    if customer_id is None or writer is None:
        return False
    callers = session_callers(ctx.trace, writer.session)
    position = trace_position(ctx.trace, writer.seq)
    if allowance.who == "caller" and customer_id not in callers.claimed:
        return False
    if allowance.who == "verified_caller" and not (
        position is not None and callers.verified_before(customer_id, position, ctx.trace)
    ):
        return False
    return allowance.when != "confirms_action" or any(
        e.ok
        and e.session == writer.session
        and e.seq < writer.seq
        and e.tool not in _NOT_ACTIONS
        and _touches(e, customer_id)
        for e in ctx.ledger
    )
