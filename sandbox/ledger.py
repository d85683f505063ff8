"""The action ledger: every side-effecting tool call, recorded as it happens.

A :class:`Transaction` is the one way state is written. It keeps the before-image of every
record it touches, so a failed or rejected call is rolled back exactly, and a committed call
becomes a :class:`LedgerEntry` with the before/after image of each record. ``revert`` walks
entries backwards and restores the before-images.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sandbox.errors import IrreversibleEffectError, RevertError, StateError
from sandbox.state import Record, State
from tools.contract import Effect

Outcome = Literal["ok", "rejected", "failed"]


@dataclass(frozen=True)
class RecordChange:
    """One record touched by a call: its image before and after (``None`` = absent)."""

    table: str
    id: str
    before: Record | None
    after: Record | None

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "id": self.id, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class LedgerEntry:
    """One side-effecting tool call and what it did.

    ``effect`` is the class of *this* call: a tool declares a default, and a handler may raise it
    for one call (cancelling a subscription on its final billing date is irreversible).
    """

    seq: int
    time: str
    tool: str
    call_id: str | None
    arguments: dict[str, Any] | None
    outcome: Outcome
    effect: Effect
    result: dict[str, Any]
    changes: tuple[RecordChange, ...] = ()
    session: int = 0
    effect_note: str | None = None

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "time": self.time,
            "session": self.session,
            "tool": self.tool,
            "call_id": self.call_id,
            "arguments": self.arguments,
            "outcome": self.outcome,
            "effect": str(self.effect),
            "effect_note": self.effect_note,
            "result": self.result,
            "changes": [c.to_dict() for c in self.changes],
        }


@dataclass
class Ledger:
    """The ordered entries of one episode (across all its sessions)."""

    entries: list[LedgerEntry] = field(default_factory=list)

    def next_seq(self) -> int:
        return len(self.entries) + 1

    def append(self, entry: LedgerEntry) -> None:
        if entry.seq != self.next_seq():
            raise StateError(f"ledger sequence broken: expected {self.next_seq()}, got {entry.seq}")
        self.entries.append(entry)

    def ok_entries(self) -> list[LedgerEntry]:
        """Entries whose call succeeded (the only ones that changed state)."""
        return [e for e in self.entries if e.ok]

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.entries)


class Transaction:
    """The writes of one tool call against a state.

    Writes apply to the state at once (so the handler reads its own writes) and remember the
    first before-image of each record; :meth:`rollback` restores them, :meth:`changes` lists the
    net before/after pairs for the ledger.
    """

    __slots__ = ("_before", "_order", "effect", "effect_note", "now", "state")

    def __init__(self, state: State, now: str, effect: Effect) -> None:
        self.state = state
        self.now = now
        self.effect = effect
        self.effect_note: str | None = None
        self._before: dict[tuple[str, str], Record | None] = {}
        self._order: list[tuple[str, str]] = []

    # reads pass through
    def get(self, table: str, record_id: str) -> Record | None:
        return self.state.get(table, record_id)

    def rows(self, table: str):  # type: ignore[no-untyped-def]
        return self.state.rows(table)

    def find(self, table: str, **equal: Any) -> list[Record]:
        return self.state.find(table, **equal)

    def has_table(self, table: str) -> bool:
        return self.state.has_table(table)

    # writes
    def insert(self, table: str, fields: dict[str, Any]) -> Record:
        """Insert a new record with the table's next id; returns it."""
        record_id = self.state.next_id(table)
        record = {"id": record_id, **fields}
        self._remember(table, record_id)
        self.state._put(table, record)
        return record

    def update(self, table: str, record_id: str, **fields: Any) -> Record:
        """Replace ``record_id`` with a copy that has ``fields`` changed; returns the new record."""
        current = self.state.get(table, record_id)
        if current is None:
            raise StateError(f"{table}/{record_id} does not exist")
        record = {**current, **fields}
        self._remember(table, record_id)
        self.state._put(table, record)
        return record

    def delete(self, table: str, record_id: str) -> None:
        if self.state.get(table, record_id) is None:
            raise StateError(f"{table}/{record_id} does not exist")
        self._remember(table, record_id)
        self.state._remove(table, record_id)

    def escalate_effect(self, effect: Effect, note: str) -> None:
        """Mark this call as having a stronger effect than its tool's default."""
        if effect.rank > self.effect.rank:
            self.effect = effect
            self.effect_note = note

    def _remember(self, table: str, record_id: str) -> None:
        key = (table, record_id)
        if key not in self._before:
            self._before[key] = self.state.get(table, record_id)
            self._order.append(key)

    def changes(self) -> tuple[RecordChange, ...]:
        """Net changes, in first-touch order; records written back unchanged are left out."""
        out = []
        for table, record_id in self._order:
            before = self._before[(table, record_id)]
            after = self.state.get(table, record_id)
            if before != after:
                out.append(RecordChange(table, record_id, before, after))
        return tuple(out)

    def rollback(self) -> None:
        for table, record_id in reversed(self._order):
            before = self._before[(table, record_id)]
            if before is None:
                self.state._remove(table, record_id)
            else:
                self.state._put(table, before)
        self._before.clear()
        self._order.clear()


@dataclass(frozen=True)
class RevertReport:
    """What :func:`revert` did: entries undone exactly, offset (compensable), or left alone."""

    reverted: tuple[int, ...]
    compensated: tuple[int, ...]
    irreversible: tuple[int, ...]


def revert(
    state: State,
    entries: Sequence[LedgerEntry] | Iterable[LedgerEntry],
    *,
    skip_irreversible: bool = False,
) -> RevertReport:
    """Undo ``entries`` on ``state`` (in place), newest first, from their before-images.

    Reversible entries are restored exactly. Compensable entries are restored too, but are
    reported apart: in the real world the offset is a second money movement that leaves a trace.
    Irreversible entries cannot be undone: by default that raises
    :class:`IrreversibleEffectError` before anything is changed; with ``skip_irreversible`` they
    are left in place and listed in the report.

    Raises :class:`RevertError` when a record no longer matches an entry's after-image (the
    state moved on without the ledger knowing).
    """
    ordered = sorted((e for e in entries if e.ok and e.changes), key=lambda e: e.seq, reverse=True)
    blocked = [e for e in ordered if e.effect == Effect.IRREVERSIBLE]
    if blocked and not skip_irreversible:
        first = blocked[-1]
        raise IrreversibleEffectError(
            f"ledger entry #{first.seq} ({first.tool}) is irreversible and cannot be undone"
            + (f": {first.effect_note}" if first.effect_note else "")
            + "; pass skip_irreversible=True to revert everything else"
        )
    reverted: list[int] = []
    compensated: list[int] = []
    irreversible: list[int] = []
    for entry in ordered:
        if entry.effect == Effect.IRREVERSIBLE:
            irreversible.append(entry.seq)
            continue
        for change in reversed(entry.changes):
            current = state.get(change.table, change.id)
            if current != change.after:
                raise RevertError(
                    f"cannot revert ledger entry #{entry.seq} ({entry.tool}): "
                    f"{change.table}/{change.id} is no longer what that call left"
                )
            if change.before is None:
                state._remove(change.table, change.id)
            else:
                state._put(change.table, change.before)
        (compensated if entry.effect == Effect.COMPENSABLE else reverted).append(entry.seq)
    return RevertReport(tuple(reverted), tuple(compensated), tuple(irreversible))


def replay(state: State, entries: Sequence[LedgerEntry] | Iterable[LedgerEntry]) -> State:
    """Apply the after-images of ``entries`` (successful ones, oldest first) to ``state`` in place.

    Every write goes through a :class:`Transaction`, so the initial state replayed through a
    prefix of the ledger is exactly the state as it stood when that prefix ended (the end of
    one session of a multi-session call, say). Returns ``state``.
    """
    for entry in sorted((e for e in entries if e.ok and e.changes), key=lambda e: e.seq):
        for change in entry.changes:
            if change.after is None:
                state._remove(change.table, change.id)
            else:
                state._put(change.table, change.after)
    return state


def revert_each_record(
    state: State, entries: Sequence[LedgerEntry] | Iterable[LedgerEntry]
) -> dict[tuple[str, str], str]:
    """Undo ``entries`` on ``state`` (in place) one record at a time, never raising.

    Each record is walked back through the changes made to it, newest first. A record that an
    irreversible call changed stays as it is (``"irreversible effect"``), and so does one whose
    current image is not what its next change left (``"revert cannot restore it"``); every other
    record is restored, whatever happened to the rest. Returns the records left unrestored, why.
    """
    ordered = sorted((e for e in entries if e.ok and e.changes), key=lambda e: e.seq, reverse=True)
    stuck: dict[tuple[str, str], str] = {}
    for entry in ordered:
        for change in reversed(entry.changes):
            key = (change.table, change.id)
            if key in stuck:
                continue
            if entry.effect == Effect.IRREVERSIBLE:
                stuck[key] = "irreversible effect"
            elif state.get(change.table, change.id) != change.after:
                stuck[key] = "revert cannot restore it"
            elif change.before is None:
                state._remove(change.table, change.id)
            else:
                state._put(change.table, change.before)
    return stuck
