"""The ledger's records and reverts at their edges (sandbox/ledger.py, sandbox/state.py): what an
entry serialises to, the words of a refused revert, per-record reverts that skip a stuck record
and go on, and the state's own bookkeeping (ids freed by a revert, equality, canonical form)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from sandbox import IrreversibleEffectError, State, revert
from sandbox.canonical import canonical_json
from sandbox.ledger import (
    Ledger,
    LedgerEntry,
    RecordChange,
    Transaction,
    replay,
    revert_each_record,
)
from sandbox.state import StateError
from sandbox.tables import TableSpec
from tests.conftest import sample_tables
from tools.contract import Effect


def test_an_entry_serialises_every_field_under_its_name(world) -> None:  # type: ignore[no-untyped-def]
    world.call("add_note", {"customer_id": "CUS-1001", "body": "prefers mornings"})
    entry = world.ledger.entries[0]
    note = entry.changes[0].after
    assert entry.to_dict() == {
        "seq": 1,
        "time": "2026-03-02T09:10",
        "session": 0,
        "tool": "add_note",
        "call_id": entry.call_id,
        "arguments": {"customer_id": "CUS-1001", "body": "prefers mornings"},
        "outcome": "ok",
        "effect": "reversible",
        "effect_note": None,
        "result": entry.result,
        "changes": [{"table": "notes", "id": "NOTE-1001", "before": None, "after": note}],
    }
    assert isinstance(entry.to_dict()["effect"], str) and entry.result


def test_an_irreversible_entry_refuses_a_revert_in_words_that_say_why_and_what_to_do(world):  # type: ignore[no-untyped-def]
    world.call("cancel_subscription", {"subscription_id": "SUB-1002", "reason": "moving"})
    entry = world.ledger.entries[0]
    expected = (
        f"ledger entry #1 (cancel_subscription) is irreversible and cannot be undone: "
        f"{entry.effect_note}; pass skip_irreversible=True to revert everything else"
    )
    with pytest.raises(IrreversibleEffectError, match=f"^{re.escape(expected)}$"):
        revert(world.state, world.ledger.entries)
    plain = replace(entry, effect_note=None)
    bare = (
        "ledger entry #1 (cancel_subscription) is irreversible and cannot be undone; "
        "pass skip_irreversible=True to revert everything else"
    )
    with pytest.raises(IrreversibleEffectError, match=f"^{re.escape(bare)}$"):
        revert(world.state, [plain])


def _entry(seq: int, changes: tuple[RecordChange, ...], effect: Effect, ok: bool = True):  # type: ignore[no-untyped-def]
    return LedgerEntry(
        seq=seq,
        time="2026-03-02T09:10",
        tool="edit",
        call_id=None,
        arguments={},
        outcome="ok" if ok else "failed",
        effect=effect,
        result={},
        changes=changes,
    )


def test_entries_that_changed_nothing_are_not_reported_reverted() -> None:
    state = State(sample_tables())
    assert revert(state, [_entry(1, (), Effect.REVERSIBLE)]).reverted == ()
    note = state.get("customers", "CUS-1001")
    assert note is not None
    failed = _entry(
        2, (RecordChange("customers", "CUS-1001", note, note),), Effect.REVERSIBLE, ok=False
    )
    assert revert(state, [failed]).reverted == ()


def test_a_stuck_record_does_not_stop_the_others_of_the_same_call_from_being_restored() -> None:
    state = State(sample_tables())
    maria, david = state.get("customers", "CUS-1001"), state.get("customers", "CUS-1002")
    assert maria is not None and david is not None
    maria2, david2 = {**maria, "phone": "2"}, {**david, "phone": "2"}
    maria3 = {**maria2, "phone": "3"}
    state._put("customers", maria3)
    state._put("customers", david2)
    older = _entry(
        1,
        (
            RecordChange("customers", "CUS-1002", david, david2),
            RecordChange("customers", "CUS-1001", maria, maria2),
        ),
        Effect.REVERSIBLE,
    )
    newer = _entry(2, (RecordChange("customers", "CUS-1001", maria2, maria3),), Effect.IRREVERSIBLE)
    stuck = revert_each_record(state, [older, newer])
    assert stuck == {("customers", "CUS-1001"): "irreversible effect"}
    assert state.get("customers", "CUS-1002") == david
    assert state.get("customers", "CUS-1001") == maria3


def test_deleting_a_missing_record_names_it_and_a_delete_is_ledgered_with_its_before_image() -> (
    None
):
    state = State(sample_tables())
    txn = Transaction(state, "2026-03-02T09:10", Effect.REVERSIBLE)
    with pytest.raises(StateError, match=r"^notes/NOTE-9999 does not exist$"):
        txn.delete("notes", "NOTE-9999")
    maria = state.get("customers", "CUS-1001")
    txn.delete("customers", "CUS-1001")
    assert [(c.table, c.id, c.before, c.after) for c in txn.changes()] == [
        ("customers", "CUS-1001", maria, None)
    ]


def test_a_stronger_effect_is_kept_with_its_note_and_an_equal_one_changes_nothing() -> None:
    txn = Transaction(State(sample_tables()), "2026-03-02T09:10", Effect.REVERSIBLE)
    txn.escalate_effect(Effect.IRREVERSIBLE, "final billing date")
    txn.escalate_effect(Effect.IRREVERSIBLE, "another reason")
    assert (txn.effect, txn.effect_note) == (Effect.IRREVERSIBLE, "final billing date")


def test_a_reverted_insert_frees_its_id(world) -> None:  # type: ignore[no-untyped-def]
    first = world.state.next_id("notes")
    world.call("add_note", {"customer_id": "CUS-1001", "body": "x"})
    assert world.state.next_id("notes") != first
    revert(world.state, world.ledger.entries)
    assert world.state.next_id("notes") == first


def test_states_are_equal_by_their_tables_and_canonical_by_them() -> None:
    one, two = State(sample_tables()), State(sample_tables())
    assert one == two
    two._put("customers", {**two.get("customers", "CUS-1001"), "phone": "changed"})
    assert one != two
    assert one != sample_tables()
    assert one.canonical_json() == canonical_json(one.tables)


def _broken(table: str, record_id: str, **fields: object) -> State:
    state = State(sample_tables())
    record = state.get(table, record_id)
    assert record is not None
    state.tables[table][record_id] = {**record, **fields}
    return state


VALIDATION = [
    (
        "an appointment that ends when it starts",
        _broken("appointments", "APT-1001", end="2026-03-03T10:00"),
        ["appointments/APT-1001.end: 2026-03-03T10:00 is not after start 2026-03-03T10:00"],
    ),
    (
        "a wrong type names the field",
        _broken("customers", "CUS-1002", phone=5),
        ["customers/CUS-1002.phone: 5 is not of type 'string'"],
    ),
    (
        "a schema error hides the interval check of the same record",
        _broken("appointments", "APT-1001", end="2026-03-03T09:00", status=7),
        [
            "appointments/APT-1001.status: 7 is not one of ['booked', 'cancelled', 'completed', 'no_show']"
        ],
    ),
    (
        "a field inside a list is named by its whole path",
        _broken(
            "orders",
            "ORD-1001",
            items=[{"product_id": "PRD-1001", "quantity": "one", "price_cents": 4999}],
        ),
        ["orders/ORD-1001.items/0/quantity: 'one' is not of type 'integer'"],
    ),
]


@pytest.mark.parametrize(
    "state, expected", [case[1:] for case in VALIDATION], ids=[case[0] for case in VALIDATION]
)
def test_a_broken_record_is_reported_as_table_id_field_and_why(state: State, expected) -> None:  # type: ignore[no-untyped-def]
    assert State(sample_tables()).validate() == []
    assert state.validate() == expected


def test_a_record_level_problem_and_a_key_that_is_not_the_id_are_named() -> None:
    state = State(sample_tables())
    maria = dict(state.tables["customers"]["CUS-1001"])
    del maria["name"]
    state.tables["customers"]["CUS-1001"] = maria
    state.tables["customers"]["CUS-9"] = dict(state.tables["customers"]["CUS-1002"])
    assert state.validate(["customers"]) == [
        "customers/CUS-1001.(record): 'name' is a required property",
        "customers/CUS-9: key and record id 'CUS-1002' differ",
    ]


def test_an_overlay_check_reads_only_the_records_named_that_exist() -> None:
    state = _broken("customers", "CUS-1002", phone=5)
    assert state.validate(records={"customers": ["CUS-1002", "CUS-404"]}) == [
        "customers/CUS-1002.phone: 5 is not of type 'string'"
    ]
    assert state.validate(records={"customers": ["CUS-1001"]}) == []


def test_replay_applies_the_successful_entries_in_seq_order_deletions_included(world) -> None:  # type: ignore[no-untyped-def]
    initial = world.state.copy()
    for start in ("2026-03-04T10:00", "2026-03-05T14:00"):  # the same record twice
        assert world.call(
            "reschedule_appointment", {"appointment_id": "APT-1001", "start": start}
        ).ok
    world.call("add_note", {"customer_id": "CUS-9", "body": "refused"})  # rejected: no changes
    txn = Transaction(world.state, "2026-03-02T09:10", Effect.REVERSIBLE)
    txn.delete("customers", "CUS-1003")
    deleted = LedgerEntry(
        seq=4,
        time="2026-03-02T09:10",
        tool="t",
        call_id=None,
        arguments={},
        outcome="ok",
        effect=Effect.REVERSIBLE,
        result={},
        changes=txn.changes(),
    )
    entries = [deleted, *reversed(world.ledger.entries)]  # given newest first
    replayed = replay(initial.copy(), entries)
    assert replayed.to_dict() == world.state.to_dict()
    assert replayed.get("appointments", "APT-1001")["start"] == "2026-03-05T14:00"
    assert replayed.get("customers", "CUS-1003") is None


TABLES = (
    "['appointments', 'customers', 'escalations', 'messages', 'notes', 'orders', 'payments', "
    "'products', 'reminders', 'reservations', 'services', 'staff', 'subscriptions']"
)


@pytest.mark.parametrize(
    ("act", "words"),
    [
        (lambda s: s.next_id("nope"), "unknown table 'nope'"),
        (lambda s: s.get("nope", "X"), f"unknown table 'nope': this business has {TABLES}"),
        (
            lambda s: State({"nope": {}}),
            f"unknown table 'nope': expected one of {TABLES} "
            "(declare extra tables with a schema in business.yaml)",
        ),
    ],
)
def test_an_unknown_table_is_named_with_the_tables_there_are(act, words) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(StateError) as raised:
        act(State(sample_tables()))
    assert str(raised.value) == words


def test_a_state_shows_the_size_of_each_table_it_fills() -> None:
    assert repr(State(sample_tables())) == (
        "State(customers=3, staff=2, services=3, appointments=1, products=2, orders=2, "
        "payments=2, subscriptions=2)"
    )


def test_an_extra_tables_times_and_dates_must_exist() -> None:
    # A table the business declares itself gets the format checks of the standard tables (its
    # validator is built here, for this schema).
    visits = TableSpec(
        "visits",
        "VIS",
        {
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "at": {"type": "string", "format": "local-time"},
                "on": {"type": "string", "format": "date"},
            },
        },
    )
    state = State(
        {
            "visits": {
                "VIS-1001": {"id": "VIS-1001", "at": "2026-03-02T09:10", "on": "2026-03-02"},
                "VIS-1002": {"id": "VIS-1002", "at": "2026-03-02T25:00", "on": "2026-02-30"},
            }
        },
        {"visits": visits},
    )
    assert state.validate() == [
        "visits/VIS-1002.at: '2026-03-02T25:00' is not a 'local-time'",
        "visits/VIS-1002.on: '2026-02-30' is not a 'date'",
    ]


def test_a_ledger_refuses_an_entry_out_of_sequence_and_says_which_it_expected() -> None:
    ledger = Ledger()
    ledger.append(_entry(1, (), Effect.REVERSIBLE))
    with pytest.raises(StateError) as raised:
        ledger.append(_entry(3, (), Effect.REVERSIBLE))
    assert str(raised.value) == "ledger sequence broken: expected 2, got 3"
    assert [e.seq for e in ledger] == [1]


def test_updating_a_missing_record_names_it() -> None:
    txn = Transaction(State(sample_tables()), "2026-03-02T09:10", Effect.REVERSIBLE)
    with pytest.raises(StateError) as raised:
        txn.update("customers", "CUS-9999", phone="1")
    assert str(raised.value) == "customers/CUS-9999 does not exist"
    assert txn.changes() == ()


def test_a_rollback_undoes_a_record_the_same_call_inserted_and_deleted_again() -> None:
    state = State(sample_tables())
    before = state.to_dict()
    txn = Transaction(state, "2026-03-02T09:10", Effect.REVERSIBLE)
    note = txn.insert("notes", {"customer_id": "CUS-1001", "body": "draft", "at": txn.now})
    txn.delete("notes", note["id"])
    txn.update("customers", "CUS-1001", phone="2")
    txn.rollback()
    assert state.to_dict() == before
    assert state.next_id("notes") == note["id"]
