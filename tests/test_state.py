from __future__ import annotations

import pytest

from sandbox import SimClock, State, StateError, Transaction, diff
from tests.conftest import sample_tables
from tools import Effect


def test_next_id_follows_the_highest_existing_number():
    state = State(sample_tables())
    assert state.next_id("appointments") == "APT-1002"
    assert state.next_id("reminders") == "REM-1001"


def test_inserted_ids_are_deterministic_across_runs():
    ids = []
    for _ in range(2):
        state = State(sample_tables())
        tx = Transaction(state, "2026-03-02T09:10", Effect.REVERSIBLE)
        ids.append(
            [
                tx.insert("notes", {"customer_id": "CUS-1001", "body": str(i)})["id"]
                for i in range(3)
            ]
        )
    assert ids[0] == ids[1] == ["NOTE-1001", "NOTE-1002", "NOTE-1003"]


def test_canonical_bytes_do_not_depend_on_insertion_order():
    tables = sample_tables()
    reordered = {
        name: dict(reversed(list(recs.items()))) for name, recs in reversed(list(tables.items()))
    }
    assert State(tables).canonical_bytes() == State(reordered).canonical_bytes()


def test_copy_is_independent_of_the_original():
    state = State(sample_tables())
    clone = state.copy()
    Transaction(clone, "2026-03-02T09:10", Effect.REVERSIBLE).update(
        "customers", "CUS-1001", name="X"
    )
    assert state.get("customers", "CUS-1001")["name"] == "Maria Lopez"
    assert clone.get("customers", "CUS-1001")["name"] == "X"


def test_diff_reports_insert_update_delete_with_field_changes():
    before = State(sample_tables())
    after = before.copy()
    tx = Transaction(after, "2026-03-02T09:10", Effect.REVERSIBLE)
    tx.insert("notes", {"customer_id": "CUS-1001", "body": "hi"})
    tx.update("customers", "CUS-1002", phone="+1 555 9999")
    tx.delete("products", "PRD-1002")
    rows = {(r.op, r.table, r.id): r for r in diff(before, after)}
    assert set(rows) == {
        ("insert", "notes", "NOTE-1001"),
        ("update", "customers", "CUS-1002"),
        ("delete", "products", "PRD-1002"),
    }
    update = rows[("update", "customers", "CUS-1002")]
    assert [(c.field, c.before, c.after) for c in update.changes] == [
        ("phone", "+1 555 0102", "+1 555 9999")
    ]


def test_diff_of_equal_states_is_empty():
    state = State(sample_tables())
    assert diff(state, State(sample_tables())) == []


def test_diff_tells_true_from_one():
    before = State(sample_tables())
    after = before.copy()
    Transaction(after, "t", Effect.REVERSIBLE).update("customers", "CUS-1001", credit_cents=True)
    before2 = before.copy()
    Transaction(before2, "t", Effect.REVERSIBLE).update("customers", "CUS-1001", credit_cents=1)
    assert diff(before2, after)


def test_validate_names_table_record_and_field():
    tables = sample_tables()
    tables["appointments"]["APT-1001"]["status"] = "maybe"
    problems = State(tables).validate()
    assert len(problems) == 1
    assert problems[0].startswith("appointments/APT-1001.status:")


def test_unknown_table_is_a_clear_error():
    with pytest.raises(StateError, match="unknown table 'pets'"):
        State({"pets": {}})


def test_clock_only_moves_forward():
    clock = SimClock("2026-03-02T09:10")
    clock.set("2026-03-05T14:00")
    assert clock.iso() == "2026-03-05T14:00"
    with pytest.raises(ValueError, match="only moves forward"):
        clock.set("2026-03-01T00:00")


def test_sample_state_fits_the_table_schemas():
    assert State(sample_tables()).validate() == []
