"""State diffs at their boundaries: which rows, which op, which fields, in which order."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox.diff import DiffRow, FieldChange, diff, field_changes
from sandbox.state import State

ANN = {"id": "CUS-1", "name": "Ann", "vip": True}
BOB = {"id": "CUS-2", "name": "Bob"}


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ({"a": 1}, {"a": 1}, []),
        ({"a": 1}, {"a": 2}, [("a", 1, 2)]),
        ({"a": 1}, {"a": True}, [("a", 1, True)]),  # equal values, different types
        ({"a": 0}, {"a": False}, [("a", 0, False)]),
        ({}, {"a": None}, [("a", None, None)]),  # absent and None differ
        ({"a": None}, {}, [("a", None, None)]),
        ({"b": 1, "a": 1}, {"b": 2, "a": 2}, [("a", 1, 2), ("b", 1, 2)]),  # name order
        ({"a": 1}, {"b": 1}, [("a", 1, None), ("b", None, 1)]),
    ],
)
def test_field_changes(before: dict[str, Any], after: dict[str, Any], expected: list[Any]) -> None:
    assert field_changes(before, after) == tuple(FieldChange(*c) for c in expected)


def _moved(state: State, put: list[dict[str, Any]], remove: list[str]) -> State:
    after = state.copy()
    for record in put:
        after._put("customers", record)
    for record_id in remove:
        after._remove("customers", record_id)
    return after


@pytest.mark.parametrize(
    ("put", "remove", "expected"),
    [
        ([], [], []),
        ([dict(ANN)], [], []),  # a new object with the same bytes changes nothing
        ([{**ANN, "vip": 1}], [], [("update", "CUS-1", [("vip", True, 1)])]),
        ([{**ANN, "name": "Anne"}], [], [("update", "CUS-1", [("name", "Ann", "Anne")])]),
        (
            [{"id": "CUS-3", "name": "Cy"}],
            [],
            [("insert", "CUS-3", [("id", None, "CUS-3"), ("name", None, "Cy")])],
        ),
        ([], ["CUS-2"], [("delete", "CUS-2", [("id", "CUS-2", None), ("name", "Bob", None)])]),
        (  # one gone and one new: the count stays, both are found
            [{"id": "CUS-3", "name": "Cy"}],
            ["CUS-1"],
            [
                (
                    "delete",
                    "CUS-1",
                    [("id", "CUS-1", None), ("name", "Ann", None), ("vip", True, None)],
                ),
                ("insert", "CUS-3", [("id", None, "CUS-3"), ("name", None, "Cy")]),
            ],
        ),
        (  # rows come in id order whatever the order of the writes
            [{**BOB, "name": "Rob"}, {**ANN, "name": "Anne"}],
            [],
            [
                ("update", "CUS-1", [("name", "Ann", "Anne")]),
                ("update", "CUS-2", [("name", "Bob", "Rob")]),
            ],
        ),
    ],
)
def test_diff_rows(put: list[dict[str, Any]], remove: list[str], expected: list[Any]) -> None:
    initial = State({"customers": {"CUS-1": ANN, "CUS-2": BOB}})
    final = _moved(initial, put, remove)
    rows = diff(initial, final)
    assert [(r.op, r.table, r.id) for r in rows] == [(op, "customers", i) for op, i, _ in expected]
    assert [r.changes for r in rows] == [tuple(FieldChange(*c) for c in ch) for *_, ch in expected]
    for row in rows:
        assert row.before == initial.tables["customers"].get(row.id)
        assert row.after == final.tables["customers"].get(row.id)
        assert row.record == (row.after if row.op != "delete" else row.before)


def test_diff_orders_tables_by_name_and_sees_a_table_only_one_state_has() -> None:
    initial = State({"customers": {"CUS-1": ANN}})
    final = initial.copy()
    final._put("notes", {"id": "NOTE-1", "customer_id": "CUS-1", "body": "hi"})
    final._put("customers", {**ANN, "name": "Anne"})
    assert [(r.op, r.table) for r in diff(initial, final)] == [
        ("update", "customers"),
        ("insert", "notes"),
    ]
    assert [(r.op, r.table) for r in diff(final, initial)] == [
        ("update", "customers"),
        ("delete", "notes"),
    ]


def test_a_diff_row_as_a_dict() -> None:
    row = DiffRow(
        "update",
        "customers",
        "CUS-1",
        ANN,
        {**ANN, "vip": False},
        (FieldChange("vip", True, False),),
    )
    assert row.to_dict() == {
        "op": "update",
        "table": "customers",
        "id": "CUS-1",
        "before": ANN,
        "after": {**ANN, "vip": False},
        "changes": {"vip": {"before": True, "after": False}},
    }
