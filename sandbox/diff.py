"""State diffs: what changed between two states, computed from the states alone.

The diff never looks at the ledger. That independence is the point: a test asserts that every
diff row is explained by a ledger entry, so a write that bypassed the ledger is caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from sandbox.state import Record, State

DiffOp = Literal["insert", "update", "delete"]


@dataclass(frozen=True)
class FieldChange:
    """One field of one record: its value before and after (``None`` where absent)."""

    field: str
    before: Any
    after: Any


@dataclass(frozen=True)
class DiffRow:
    """One record that differs between two states."""

    op: DiffOp
    table: str
    id: str
    before: Record | None
    after: Record | None
    changes: tuple[FieldChange, ...] = field(default=())

    @property
    def record(self) -> Record:
        """The record as it is after the change (before it, for a delete)."""
        return self.after if self.after is not None else self.before  # type: ignore[return-value]

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "table": self.table,
            "id": self.id,
            "before": self.before,
            "after": self.after,
            "changes": {c.field: {"before": c.before, "after": c.after} for c in self.changes},
        }


_MISSING = object()


def field_changes(before: Record, after: Record) -> tuple[FieldChange, ...]:
    """The fields that differ between two versions of a record, in name order."""
    changes = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name, _MISSING), after.get(name, _MISSING)
        if old != new or type(old) is not type(new):
            changes.append(
                FieldChange(
                    name, None if old is _MISSING else old, None if new is _MISSING else new
                )
            )
    return tuple(changes)


def diff(initial: State, final: State) -> list[DiffRow]:
    """Insert/update/delete rows from ``initial`` to ``final``, ordered by table then id."""
    rows: list[DiffRow] = []
    for table in sorted(initial.tables.keys() | final.tables.keys()):
        old_records = initial.tables.get(table, {})
        new_records = final.tables.get(table, {})
        if old_records is new_records:
            continue
        # Records are immutable and shared between copies, so identity finds the touched ones;
        # value equality is not enough (True == 1, yet they are different bytes).
        touched = {k for k, v in new_records.items() if old_records.get(k) is not v}
        inserted = sum(1 for k in touched if k not in old_records)
        if len(new_records) - inserted < len(old_records):  # some old record is gone
            touched.update(k for k in old_records if k not in new_records)
        for record_id in sorted(touched):
            old = old_records.get(record_id)
            new = new_records.get(record_id)
            if old is None:
                assert new is not None  # a touched id is in one of the two states
                rows.append(DiffRow("insert", table, record_id, None, new, field_changes({}, new)))
            elif new is None:
                rows.append(DiffRow("delete", table, record_id, old, None, field_changes(old, {})))
            else:
                changes = field_changes(old, new)
                if changes:
                    rows.append(DiffRow("update", table, record_id, old, new, changes))
    return rows
