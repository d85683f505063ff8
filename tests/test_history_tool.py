"""get_customer_history: everything on file for one customer, oldest first, read only."""

from __future__ import annotations

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
    assert not record.ok and record.error_code == "not_found"
    assert world.state.to_dict() == before


def test_the_same_state_gives_the_same_history(world):
    first = world.call("get_customer_history", {"customer_id": "CUS-1003"}).result
    second = world.call("get_customer_history", {"customer_id": "CUS-1003"}).result
    assert first == second
