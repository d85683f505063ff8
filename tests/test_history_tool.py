"""get_customer_history: everything on file for one customer, oldest first, read only."""

from __future__ import annotations

from sandbox import SimClock, State, World
from sandbox.tables import STANDARD_TABLES, TableSpec
from tools import Effect, default_registry


def test_history_is_a_read_tool_with_a_schema_that_requires_the_customer():
    tool = default_registry().get("get_customer_history")
    assert tool is not None and tool.effect == Effect.READ
    assert tool.parameters["required"] == ["customer_id"]


def test_history_lists_the_customers_records_across_tables_in_time_order(world):
    world.call("add_note", {"customer_id": "CUS-1001", "body": "Promised a call back"})
    record = world.call("get_customer_history", {"customer_id": "CUS-1001"})
    assert record.ok and record.ledger_seq is None
    history = record.result["history"]
    tables = {e["table"] for e in history}
    assert {"appointments", "subscriptions", "notes"} <= tables
    assert all(
        e["record"].get("customer_id") == "CUS-1001" for e in history if e["table"] != "reminders"
    )
    dated = [e["at"] for e in history if e["at"] is not None]
    assert dated == sorted(dated)
    assert history[-1]["at"] is None or history[-1]["at"] >= dated[0]
    assert any(
        e["table"] == "notes" and e["record"]["body"] == "Promised a call back" for e in history
    )
    assert record.result["count"] == len(history)


def test_history_never_reads_back_verification_secrets_nor_other_customers(world):
    history = world.call("get_customer_history", {"customer_id": "CUS-1002"}).result["history"]
    assert history
    assert all("dob" not in e["record"] and "postcode" not in e["record"] for e in history)
    assert all(e["record"].get("customer_id") in ("CUS-1002", None) for e in history)


def test_history_of_an_unknown_customer_is_a_tool_error_and_changes_nothing(world):
    before = world.state.copy().to_dict()
    record = world.call("get_customer_history", {"customer_id": "CUS-9999"})
    assert not record.ok and record.result["error"] == {
        "code": "not_found",
        "message": "No customer with id 'CUS-9999'.",
        "field": "customer_id",
    }
    assert world.state.to_dict() == before


def test_the_same_state_gives_the_same_history(world):
    first = world.call("get_customer_history", {"customer_id": "CUS-1003"}).result
    second = world.call("get_customer_history", {"customer_id": "CUS-1003"}).result
    assert first == second


def _history_world(specs: dict | None = None) -> World:
    """One customer's records in every history table, with the other customer's beside them."""
    me, other = "CUS-1001", "CUS-1002"
    tables = {
        "customers": {
            me: {"id": me, "name": "Maria Lopez", "phone": "+1 555 0101", "dob": "1984-06-12"},
            other: {"id": other, "name": "Sam Okafor", "phone": "+1 555 0102"},
        },
        # Booked long before; what counts is when it happens (``start`` comes before
        # ``booked_at``), or when it was cancelled.
        "appointments": {
            "APT-1001": {
                "id": "APT-1001",
                "customer_id": me,
                "start": "2026-03-03T10:00",
                "status": "booked",
                "booked_at": "2026-02-20T12:00",
                "cancelled_at": None,
            },
            "APT-1002": {
                "id": "APT-1002",
                "customer_id": me,
                "start": "2026-03-04T10:00",
                "status": "cancelled",
                "booked_at": "2026-02-20T12:00",
                "cancelled_at": "2026-02-27T08:00",
            },
            "APT-1003": {"id": "APT-1003", "customer_id": other, "start": "2026-03-01T09:00"},
        },
        "reminders": {
            "REM-1001": {
                "id": "REM-1001",
                "appointment_id": "APT-1001",
                "send_at": "2026-03-02T10:00",
            },
            "REM-1002": {
                "id": "REM-1002",
                "appointment_id": "APT-1003",
                "send_at": "2026-02-28T09:00",
            },
        },
        "stays": {
            "STY-1001": {
                "id": "STY-1001",
                "customer_id": me,
                "check_in": "2026-03-13",
                "booked_at": "2026-02-18T19:00",
                "pin": "4821",  # the room's door code: a secret, never read back
            },
        },
        "orders": {
            "ORD-1001": {"id": "ORD-1001", "customer_id": me, "placed_at": "2026-02-10T10:00"}
        },
        "payments": {
            pid: {"id": pid, "customer_id": me, "kind": "charge", "at": "2026-02-10T10:00"}
            for pid in ("PAY-1002", "PAY-1001")
        },
        "subscriptions": {"SUB-1001": {"id": "SUB-1001", "customer_id": me, "plan": "Fibre 500"}},
        "messages": {
            "MSG-1001": {"id": "MSG-1001", "customer_id": me, "sent_at": "2026-03-01T12:00"}
        },
        "notes": {
            "NOTE-1001": {"id": "NOTE-1001", "customer_id": me, "body": "undated", "at": ""},
            "NOTE-1002": {
                "id": "NOTE-1002",
                "customer_id": me,
                "body": "b",
                "at": "2026-03-01T12:00",
            },
            "NOTE-1003": {
                "id": "NOTE-1003",
                "customer_id": other,
                "body": "c",
                "at": "2026-03-01T12:00",
            },
        },
        "escalations": {
            "ESC-1001": {"id": "ESC-1001", "customer_id": me, "reason": "r", "at": None},
            "ESC-1002": {
                "id": "ESC-1002",
                "customer_id": me,
                "reason": "r",
                "at": "2026-03-02T10:00",
            },
        },
    }
    if specs is None:
        specs = {**STANDARD_TABLES, "stays": TableSpec("stays", "STY", {"type": "object"})}
    tables = {name: rows for name, rows in tables.items() if name in specs}
    return World(State(tables, specs), default_registry(), SimClock("2026-03-02T09:10"))


def _rows(history: list[dict]) -> list[tuple[str, str | None, str]]:
    return [(e["table"], e["at"], e["record"]["id"]) for e in history]


def test_each_record_is_dated_by_its_first_time_field_and_the_history_sorted_by_it():
    # Ties: in the order of the tables (orders, then payments; escalations, then reminders),
    # then by id; undated records (no time, or an empty one) last, in table order.
    world = _history_world()
    result = world.call("get_customer_history", {"customer_id": "CUS-1001"}).result
    assert _rows(result["history"]) == [
        ("orders", "2026-02-10T10:00", "ORD-1001"),
        ("payments", "2026-02-10T10:00", "PAY-1001"),
        ("payments", "2026-02-10T10:00", "PAY-1002"),
        ("stays", "2026-02-18T19:00", "STY-1001"),
        ("appointments", "2026-02-27T08:00", "APT-1002"),
        ("messages", "2026-03-01T12:00", "MSG-1001"),
        ("notes", "2026-03-01T12:00", "NOTE-1002"),
        ("escalations", "2026-03-02T10:00", "ESC-1002"),
        ("reminders", "2026-03-02T10:00", "REM-1001"),
        ("appointments", "2026-03-03T10:00", "APT-1001"),
        ("subscriptions", None, "SUB-1001"),
        ("notes", None, "NOTE-1001"),
        ("escalations", None, "ESC-1001"),
    ]
    assert result["customer_id"] == "CUS-1001" and result["count"] == 13
    tables = world.state.tables
    stay = {k: v for k, v in tables["stays"]["STY-1001"].items() if k != "pin"}
    assert {e["record"]["id"]: e["record"] for e in result["history"]} == {
        **{e["record"]["id"]: tables[e["table"]][e["record"]["id"]] for e in result["history"]},
        "STY-1001": stay,
    }


def test_a_business_without_some_history_tables_lists_the_ones_it_has():
    # No reminders or stays table: the appointments are listed without reminders.
    specs = {k: v for k, v in STANDARD_TABLES.items() if k != "reminders"}
    world = _history_world(specs)
    result = world.call("get_customer_history", {"customer_id": "CUS-1001"}).result
    assert [(t, i) for t, _, i in _rows(result["history"])] == [
        ("orders", "ORD-1001"),
        ("payments", "PAY-1001"),
        ("payments", "PAY-1002"),
        ("appointments", "APT-1002"),
        ("messages", "MSG-1001"),
        ("notes", "NOTE-1002"),
        ("escalations", "ESC-1002"),
        ("appointments", "APT-1001"),
        ("subscriptions", "SUB-1001"),
        ("notes", "NOTE-1001"),
        ("escalations", "ESC-1001"),
    ]
    assert result["count"] == 11
