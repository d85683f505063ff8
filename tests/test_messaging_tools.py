"""Messages, notes and the hand-off to a person, on the sample state: the rows each tool writes,
what it returns and what it refuses (Maria, CUS-1001, has a phone and an email; Sam, CUS-1002,
has no email)."""

from __future__ import annotations

import pytest

from sandbox import World
from tests.helpers import tool_refusal
from tools import Effect, default_registry

NOW = "2026-03-02T09:10"


def _written(world: World, name: str, args: dict) -> tuple[dict, list[tuple]]:
    record = world.call(name, args)
    assert record.outcome == "ok", record.result
    entry = world.ledger.entries[-1]
    assert entry.seq == record.ledger_seq
    return record.result, [(c.table, c.before, c.after) for c in entry.changes]


def test_a_text_goes_to_the_phone_on_file_with_no_subject(world):
    result, changes = _written(world, "send_sms", {"customer_id": "CUS-1001", "body": "See you"})
    message = {
        "id": "MSG-1001",
        "customer_id": "CUS-1001",
        "channel": "sms",
        "to": "+1 555 0101",
        "subject": None,
        "body": "See you",
        "sent_at": NOW,
    }
    assert result == {"message": message} and changes == [("messages", None, message)]


def test_an_email_goes_to_the_address_on_file_with_its_subject(world):
    args = {"customer_id": "CUS-1003", "subject": "Your return", "body": "Label attached"}
    result, changes = _written(world, "send_email", args)
    message = {
        "id": "MSG-1001",
        "customer_id": "CUS-1003",
        "channel": "email",
        "to": "lena@example.com",
        "subject": "Your return",
        "body": "Label attached",
        "sent_at": NOW,
    }
    assert result == {"message": message} and changes == [("messages", None, message)]


@pytest.mark.parametrize(
    "name, args, message",
    [
        (
            "send_sms",
            {"customer_id": "CUS-1001", "body": "hi"},
            "The customer has no phone number on file.",
        ),
        (
            "send_email",
            {"customer_id": "CUS-1002", "subject": "s", "body": "b"},
            "The customer has no email address on file.",
        ),
    ],
)
def test_a_message_needs_the_contact_it_goes_to(world, name, args, message):
    world.state.tables["customers"]["CUS-1001"]["phone"] = ""
    assert tool_refusal(world, name, args) == {
        "code": "conflict",
        "message": message,
        "field": "customer_id",
    }


@pytest.mark.parametrize(
    "name, args",
    [
        ("send_sms", {"body": "hi"}),
        ("send_email", {"subject": "s", "body": "b"}),
        ("add_note", {"body": "b"}),
        ("list_notes", {}),
        ("transfer_to_human", {"reason": "r", "summary": "s"}),
    ],
)
def test_an_unknown_customer_is_refused_by_every_messaging_tool(world, name, args):
    assert tool_refusal(world, name, {"customer_id": "CUS-9999", **args}) == {
        "code": "not_found",
        "message": "No customer with id 'CUS-9999'.",
        "field": "customer_id",
    }
    assert not world.call_ended


def test_notes_are_added_at_the_time_of_the_call_and_listed_per_customer(world):
    result, changes = _written(world, "add_note", {"customer_id": "CUS-1001", "body": "Call back"})
    note = {"id": "NOTE-1001", "customer_id": "CUS-1001", "body": "Call back", "at": NOW}
    assert result == {"note": note} and changes == [("notes", None, note)]
    _written(world, "add_note", {"customer_id": "CUS-1003", "body": "Other"})
    listed = world.call("list_notes", {"customer_id": "CUS-1001"})
    assert listed.result == {"notes": [note]} and listed.ledger_seq is None
    assert world.call("list_notes", {"customer_id": "CUS-1002"}).result == {"notes": []}


@pytest.mark.parametrize("customer", [{"customer_id": "CUS-1001"}, {}], ids=["known", "anonymous"])
def test_a_transfer_records_the_reason_and_summary_and_ends_the_call(world, customer):
    args = {"reason": "refund dispute", "summary": "wants a manager", **customer}
    result, changes = _written(world, "transfer_to_human", args)
    escalation = {
        "id": "ESC-1001",
        "customer_id": customer.get("customer_id"),
        "reason": "refund dispute",
        "summary": "wants a manager",
        "at": NOW,
    }
    assert result == {
        "escalation": escalation,
        "note": "The caller is being transferred; the call ends now.",
    }
    assert changes == [("escalations", None, escalation)] and world.call_ended


def test_messages_cannot_be_unsent_notes_and_transfers_can():
    registry = default_registry()
    effects = {
        n: registry.get(n).effect
        for n in ("send_sms", "send_email", "add_note", "list_notes", "transfer_to_human")
    }
    assert effects == {
        "send_sms": Effect.IRREVERSIBLE,
        "send_email": Effect.IRREVERSIBLE,
        "add_note": Effect.REVERSIBLE,
        "list_notes": Effect.READ,
        "transfer_to_human": Effect.REVERSIBLE,
    }
