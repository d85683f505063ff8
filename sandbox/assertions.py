"""The diff-assertion language: which diff rows an expectation matches.

An assertion targets ``insert|update|delete`` of ``table`` or ``table/id`` and may constrain the
record's fields with ``where`` matchers (against the after-image; the before-image for a
delete). A matcher is a literal (equal, with ``True`` never equal to ``1``) or a mapping:

    {one_of: [a, b]}        {min: 10, max: 20}          {between: [t1, t2]} (inclusive)
    {after: t} {before: t}  {regex: "^Thu"}             {not: value}
    {present: true|false}   {contains: x}             {new_in: orders}

``new_in`` holds when the value is the id of a record this call *inserted* into that table: a
charge "for the order just placed", not for any old order of the customer.

Field names may be dotted paths into nested values (``items.0.product_id``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sandbox.diff import DiffRow
from sandbox.task import Assertion

MATCHER_KEYS = frozenset(
    {
        "one_of",
        "min",
        "max",
        "between",
        "after",
        "before",
        "regex",
        "not",
        "present",
        "contains",
        "new_in",
    }
)
Inserted = Mapping[str, set[str]]
_ABSENT = object()


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _lookup(record: Mapping[str, Any], path: str) -> Any:
    value: Any = record
    for part in path.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return _ABSENT
    return value


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def inserted_ids(rows: list[DiffRow]) -> dict[str, set[str]]:
    """Ids inserted per table in a diff (what ``new_in`` refers to)."""
    out: dict[str, set[str]] = {}
    for row in rows:
        if row.op == "insert":
            out.setdefault(row.table, set()).add(row.id)
    return out


def match_value(matcher: Any, value: Any, inserted: Inserted | None = None) -> bool:
    """Whether ``value`` (``_ABSENT`` if missing) satisfies ``matcher``."""
    if isinstance(matcher, Mapping) and matcher and set(matcher) <= MATCHER_KEYS:
        for key, arg in matcher.items():
            if key == "present":
                if (value is not _ABSENT) != bool(arg):
                    return False
                continue
            if value is _ABSENT:
                return False
            if key == "one_of" and not any(_same(v, value) for v in arg):
                return False
            if key == "not" and match_value(arg, value, inserted):
                return False
            if key == "min" and not (_number(value) and value >= arg):
                return False
            if key == "max" and not (_number(value) and value <= arg):
                return False
            if key in ("after", "before", "between"):
                if not isinstance(value, str):
                    return False
                low, high = (
                    arg if key == "between" else (arg, None) if key == "after" else (None, arg)
                )
                if (low is not None and value < low) or (high is not None and value > high):
                    return False
            if key == "regex" and not (isinstance(value, str) and re.search(arg, value)):
                return False
            if key == "contains" and not (isinstance(value, str | list) and arg in value):
                return False
            if key == "new_in" and value not in (inserted or {}).get(arg, set()):
                return False
        return True
    return value is not _ABSENT and _same(matcher, value)


def matches(assertion: Assertion, row: DiffRow, inserted: Inserted | None = None) -> bool:
    """Whether one diff row satisfies one assertion."""
    if row.op != assertion.op or row.table != assertion.table:
        return False
    if assertion.id is not None and row.id != assertion.id:
        return False
    if (
        assertion.fields is not None
        and row.op == "update"
        and any(c.field not in assertion.fields for c in row.changes)
    ):
        return False
    image = row.before if row.op == "delete" else row.after
    assert image is not None
    return all(match_value(m, _lookup(image, f), inserted) for f, m in assertion.where.items())


def claim_rows(outcome: tuple[Assertion, ...], rows: list[DiffRow]) -> tuple[list[bool], set[int]]:
    """Which outcome assertions hold, and the indexes of the rows they account for.

    Each assertion accounts for up to ``count`` matching rows (all of them when ``count`` is
    ``None``) not already taken by an earlier assertion; a second matching row beyond ``count``
    (a duplicate booking) is left for the collateral check.
    """
    taken: set[int] = set()
    held: list[bool] = []
    inserted = inserted_ids(rows)
    for assertion in outcome:
        found = [
            i for i, row in enumerate(rows) if i not in taken and matches(assertion, row, inserted)
        ]
        if assertion.count is not None:
            found = found[: assertion.count]
            held.append(len(found) == assertion.count)
        else:
            held.append(bool(found))
        taken.update(found)
    return held, taken
