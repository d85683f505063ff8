"""Every matcher of the diff-assertion language (sandbox/assertions.py), at its boundaries."""

from __future__ import annotations

import pytest

from sandbox.assertions import (
    _ABSENT,
    MATCHER_KEYS,
    claim_rows,
    inserted_ids,
    match_value,
    matches,
)
from sandbox.diff import DiffRow, field_changes
from sandbox.task import Assertion

ABSENT = _ABSENT

CASES = [
    # literals: equal, and True is never 1 (nor False 0), either way round
    (5, 5, True),
    (5, 6, False),
    (5.0, 5, True),
    (True, True, True),
    (True, 1, False),
    (1, True, False),
    (False, 0, False),
    (0, False, False),
    (None, None, True),
    (None, ABSENT, False),
    ("x", ABSENT, False),
    ({}, {}, True),  # an empty mapping is a literal
    ({"a": 1}, {"a": 1}, True),  # so is one whose keys are not matchers
    ({"a": 1}, {"a": 2}, False),
    ({"min": 1, "a": 1}, {"min": 1, "a": 1}, True),
    ({"min": 1, "a": 1}, 5, False),
    # one_of
    ({"one_of": [1, 2]}, 2, True),
    ({"one_of": [1, 2]}, 3, False),
    ({"one_of": [1, 2]}, True, False),
    ({"one_of": [True]}, 1, False),
    ({"one_of": [None]}, ABSENT, False),
    # min / max: inclusive, numbers only (a bool is not a number)
    ({"min": 10}, 10, True),
    ({"min": 10}, 9, False),
    ({"min": 10}, 9.99, False),
    ({"min": 0}, False, False),
    ({"min": 0}, "5", False),
    ({"max": 10}, 10, True),
    ({"max": 10}, 11, False),
    ({"max": 10}, 10.01, False),
    ({"max": 1}, True, False),
    ({"max": 10}, None, False),
    ({"min": 10, "max": 20}, 15, True),
    ({"min": 10, "max": 20}, 21, False),
    ({"min": 10, "max": 20}, 9, False),
    ({"min": 0}, ABSENT, False),
    # between / after / before: inclusive, strings only
    ({"between": ["2026-03-02", "2026-03-04"]}, "2026-03-02", True),
    ({"between": ["2026-03-02", "2026-03-04"]}, "2026-03-04", True),
    ({"between": ["2026-03-02", "2026-03-04"]}, "2026-03-01", False),
    ({"between": ["2026-03-02", "2026-03-04"]}, "2026-03-05", False),
    ({"between": [1, 3]}, 2, False),
    ({"after": "2026-03-02T10:00"}, "2026-03-02T10:00", True),
    ({"after": "2026-03-02T10:00"}, "2026-03-02T09:59", False),
    ({"after": "2026-03-02T10:00"}, "2026-03-09T00:00", True),
    ({"before": "2026-03-02T10:00"}, "2026-03-02T10:00", True),
    ({"before": "2026-03-02T10:00"}, "2026-03-02T10:01", False),
    ({"before": "2026-03-02T10:00"}, "2026-01-01T00:00", True),
    ({"after": "a"}, None, False),
    ({"before": "z"}, ABSENT, False),
    ({"after": "2026-03-02", "before": "2026-03-04"}, "2026-03-03", True),
    ({"after": "2026-03-02", "before": "2026-03-04"}, "2026-03-05", False),
    # regex: searched, strings only
    ({"regex": "^Thu"}, "Thursday", True),
    ({"regex": "^Thu"}, "A Thursday", False),
    ({"regex": "day$"}, "Thursday", True),
    ({"regex": "1"}, 1, False),
    ({"regex": ".*"}, ABSENT, False),
    # not: negates a literal or a matcher; an absent value matches nothing, not even a not
    ({"not": "cancelled"}, "booked", True),
    ({"not": "cancelled"}, "cancelled", False),
    ({"not": {"one_of": ["a", "b"]}}, "c", True),
    ({"not": {"one_of": ["a", "b"]}}, "a", False),
    ({"not": 1}, True, True),
    ({"not": "x"}, ABSENT, False),
    # present
    ({"present": True}, None, True),
    ({"present": True}, ABSENT, False),
    ({"present": False}, ABSENT, True),
    ({"present": False}, 0, False),
    ({"present": False, "min": 1}, ABSENT, False),
    ({"present": True, "min": 1}, 2, True),
    ({"present": True, "min": 1}, 0, False),
    # contains: a substring or a list member
    ({"contains": "vip"}, "vip customer", True),
    ({"contains": "vip"}, "customer", False),
    ({"contains": "vip"}, ["vip", "new"], True),
    ({"contains": "vip"}, ["new"], False),
    ({"contains": 1}, {"1": 1}, False),
    ({"contains": "x"}, None, False),
    ({"contains": "x"}, ABSENT, False),
]


@pytest.mark.parametrize(("matcher", "value", "expected"), CASES)
def test_matcher_at_its_boundary(matcher, value, expected):
    assert match_value(matcher, value) is expected


def test_every_matcher_key_is_in_the_table():
    used = {k for m, _, _ in CASES if isinstance(m, dict) for k in m}
    assert used | {"new_in"} >= MATCHER_KEYS


@pytest.mark.parametrize(
    ("value", "inserted", "expected"),
    [
        ("ORD-1003", {"orders": {"ORD-1003"}}, True),
        ("ORD-1001", {"orders": {"ORD-1003"}}, False),
        ("ORD-1003", {"payments": {"ORD-1003"}}, False),
        ("ORD-1003", {}, False),
        ("ORD-1003", None, False),
        (ABSENT, {"orders": {"ORD-1003"}}, False),
    ],
)
def test_new_in_holds_only_for_a_record_this_call_inserted(value, inserted, expected):
    assert match_value({"new_in": "orders"}, value, inserted) is expected


def test_a_not_passes_the_inserted_ids_on():
    assert match_value({"not": {"new_in": "orders"}}, "ORD-1", {"orders": {"ORD-2"}})
    assert not match_value({"not": {"new_in": "orders"}}, "ORD-2", {"orders": {"ORD-2"}})


# -- rows ---------------------------------------------------------------------------------------

BEFORE = {"id": "APT-1", "status": "booked", "start": "T10", "items": [{"sku": "A"}], "n": {"k": 1}}
AFTER = {**BEFORE, "status": "booked", "start": "T11"}


def _update(before=BEFORE, after=AFTER, table="appointments", record_id="APT-1"):
    return DiffRow("update", table, record_id, before, after, field_changes(before, after))


INSERT = DiffRow("insert", "notes", "NOTE-1", None, {"id": "NOTE-1", "body": "hi"})
DELETE = DiffRow("delete", "reminders", "REM-1", {"id": "REM-1", "status": "pending"}, None)


@pytest.mark.parametrize(
    ("assertion", "row", "expected"),
    [
        (Assertion("update", "appointments"), _update(), True),
        (Assertion("insert", "appointments"), _update(), False),
        (Assertion("update", "payments"), _update(), False),
        (Assertion("update", "appointments", "APT-1"), _update(), True),
        (Assertion("update", "appointments", "APT-2"), _update(), False),
        # fields limits which fields an update may change
        (Assertion("update", "appointments", fields=("start",)), _update(), True),
        (Assertion("update", "appointments", fields=("start", "status")), _update(), True),
        (Assertion("update", "appointments", fields=("status",)), _update(), False),
        (Assertion("update", "appointments", fields=()), _update(), False),
        (Assertion("insert", "notes", fields=("nothing",)), INSERT, True),  # not for inserts
        # where: against the after-image, the before-image for a delete
        (Assertion("update", "appointments", where={"start": "T11"}), _update(), True),
        (Assertion("update", "appointments", where={"start": "T10"}), _update(), False),
        (Assertion("delete", "reminders", where={"status": "pending"}), DELETE, True),
        (Assertion("delete", "reminders", where={"status": "sent"}), DELETE, False),
        (Assertion("insert", "notes", where={"body": "hi", "id": "NOTE-1"}), INSERT, True),
        (Assertion("insert", "notes", where={"body": "hi", "id": "NOTE-2"}), INSERT, False),
        # dotted paths into lists and mappings
        (Assertion("update", "appointments", where={"items.0.sku": "A"}), _update(), True),
        (Assertion("update", "appointments", where={"items.0.sku": "B"}), _update(), False),
        (
            Assertion("update", "appointments", where={"items.1.sku": {"present": False}}),
            _update(),
            True,
        ),
        (
            Assertion("update", "appointments", where={"items.x": {"present": False}}),
            _update(),
            True,
        ),
        (Assertion("update", "appointments", where={"n.k": 1}), _update(), True),
        (Assertion("update", "appointments", where={"n.k.z": {"present": False}}), _update(), True),
        (
            Assertion("update", "appointments", where={"start.0": {"present": False}}),
            _update(),
            True,
        ),
        (
            Assertion("update", "appointments", where={"missing": {"present": False}}),
            _update(),
            True,
        ),
        (Assertion("update", "appointments", where={"missing": None}), _update(), False),
    ],
)
def test_an_assertion_matches_a_row(assertion, row, expected):
    assert matches(assertion, row) is expected


def test_new_in_refers_to_the_rows_inserted_in_the_same_diff():
    order = DiffRow("insert", "orders", "ORD-9", None, {"id": "ORD-9"})
    charge = DiffRow("insert", "payments", "PAY-9", None, {"id": "PAY-9", "order_id": "ORD-9"})
    old = DiffRow("insert", "payments", "PAY-8", None, {"id": "PAY-8", "order_id": "ORD-1"})
    rows = [order, charge, old, _update()]
    inserted = inserted_ids(rows)
    assert inserted == {"orders": {"ORD-9"}, "payments": {"PAY-9", "PAY-8"}}
    assertion = Assertion("insert", "payments", where={"order_id": {"new_in": "orders"}})
    assert [matches(assertion, r, inserted) for r in (charge, old)] == [True, False]


NOTE = Assertion("insert", "notes")


def _notes(n):
    return [DiffRow("insert", "notes", f"N-{i}", None, {"id": f"N-{i}"}) for i in range(n)]


@pytest.mark.parametrize(
    ("outcome", "rows", "held", "taken"),
    [
        ((NOTE,), _notes(1), [True], {0}),
        ((NOTE,), _notes(0), [False], set()),
        ((NOTE,), _notes(2), [True], {0}),  # the duplicate is left for the collateral check
        ((Assertion("insert", "notes", count=2),), _notes(2), [True], {0, 1}),
        ((Assertion("insert", "notes", count=2),), _notes(1), [False], {0}),
        ((Assertion("insert", "notes", count=2),), _notes(3), [True], {0, 1}),
        ((Assertion("insert", "notes", count=None),), _notes(3), [True], {0, 1, 2}),
        ((Assertion("insert", "notes", count=None),), _notes(0), [False], set()),
        ((Assertion("insert", "notes", count=0),), _notes(0), [True], set()),
        # a row accounts for one assertion only
        ((NOTE, NOTE), _notes(1), [True, False], {0}),
        ((NOTE, NOTE), _notes(2), [True, True], {0, 1}),
    ],
)
def test_outcome_assertions_claim_rows(outcome, rows, held, taken):
    assert claim_rows(outcome, rows) == (held, taken)


def test_a_mapping_of_every_matcher_key_is_still_a_matcher():
    every = {
        "one_of": ["2026-03-03"],
        "min": 0,
        "max": 1,
        "between": ["a", "b"],
        "after": "a",
        "before": "b",
        "regex": "x",
        "not": 1,
        "present": True,
        "contains": "x",
        "new_in": "orders",
    }
    assert set(every) == MATCHER_KEYS
    # Were it read as a literal, it would equal itself.
    assert match_value(every, dict(every)) is False
