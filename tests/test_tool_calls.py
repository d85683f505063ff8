"""Bad input from a model becomes a structured tool error and changes nothing."""

from __future__ import annotations

import pytest


def _unchanged(world, name, arguments):
    before = world.state.canonical_bytes()
    record = world.call(name, arguments)
    assert world.state.canonical_bytes() == before
    assert record.outcome == "rejected"
    assert set(record.result) == {"error"} and set(record.result["error"]) == {
        "code",
        "message",
        "field",
    }
    return record.result["error"]


def test_unknown_tool(world):
    error = _unchanged(world, "delete_everything", {})
    assert error["code"] == "unknown_tool" and "book_appointment" in error["message"]


@pytest.mark.parametrize(
    "raw", ['{"customer_id": "CUS-1001", "body": ', "[1, 2]", "null x", '"text"']
)
def test_arguments_that_are_not_a_json_object(world, raw):
    assert _unchanged(world, "add_note", raw)["code"] == "invalid_json"


def test_missing_field_names_the_field(world):
    error = _unchanged(world, "add_note", {"customer_id": "CUS-1001"})
    assert error == {"code": "invalid_arguments", "field": "body", "message": error["message"]}


def test_extra_field_names_the_field(world):
    assert (
        _unchanged(world, "add_note", {"customer_id": "CUS-1001", "body": "x", "urgent": True})[
            "field"
        ]
        == "urgent"
    )


def test_mistyped_field_names_the_field(world):
    assert (
        _unchanged(
            world, "refund", {"payment_id": "PAY-1001", "amount_cents": "10.00", "reason": "x"}
        )["field"]
        == "amount_cents"
    )


def test_unknown_id_is_not_found(world):
    error = _unchanged(world, "cancel_appointment", {"appointment_id": "APT-9999"})
    assert error["code"] == "not_found" and error["field"] == "appointment_id"


def test_impossible_date_is_invalid(world):
    error = _unchanged(world, "list_availability", {"service_id": "SRV-1001", "date": "2026-02-30"})
    assert error["code"] == "invalid_arguments" and error["field"] == "date"


def test_double_booking_is_refused(world):
    error = _unchanged(
        world,
        "book_appointment",
        {
            "customer_id": "CUS-1002",
            "service_id": "SRV-1001",
            "start": "2026-03-03T10:00",
            "staff_id": "STF-1002",
        },
    )
    assert error["code"] == "conflict" and "already booked" in error["message"]


def test_refund_above_amount_paid_is_refused(world):
    error = _unchanged(
        world, "refund", {"payment_id": "PAY-1001", "amount_cents": 5000, "reason": "x"}
    )
    assert error["code"] == "conflict" and error["field"] == "amount_cents"


def test_booking_in_the_past_is_refused(world):
    error = _unchanged(
        world,
        "book_appointment",
        {"customer_id": "CUS-1002", "service_id": "SRV-1001", "start": "2026-03-02T09:00"},
    )
    assert error["code"] == "conflict" and "in the past" in error["message"]


def test_a_handler_refusal_rolls_back_earlier_writes_of_the_same_call(world):
    # The first item takes stock, the second is over the limit: nothing of the call may remain.
    error = _unchanged(
        world,
        "place_order",
        {
            "customer_id": "CUS-1001",
            "items": [
                {"product_id": "PRD-1002", "quantity": 3},
                {"product_id": "PRD-1001", "quantity": 6},
            ],
        },
    )
    assert error["field"] == "items[1].quantity"


def test_rejected_write_calls_are_ledgered_as_rejected(world):
    world.call("cancel_appointment", {"appointment_id": "APT-9999"})
    entry = world.ledger.entries[0]
    assert entry.outcome == "rejected" and entry.changes == ()


def test_service_ids_are_listed_in_the_specialised_schema(world):
    registry = world.tools.specialise({"services": ["SRV-1001", "SRV-1002"]})
    schema = registry.public_schema("book_appointment")
    assert schema["properties"]["service_id"]["enum"] == ["SRV-1001", "SRV-1002"]
    assert "x-table" not in schema["properties"]["service_id"]


TRANSFER = {"reason": "needs a person", "summary": "caller wants a manager"}


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("add_note", {"customer_id": "CUS-1001", "body": "after the transfer"}),
        ("find_customer", {"name": "Maria"}),
        ("transfer_to_human", TRANSFER),
        ("delete_everything", {}),
    ],
)
def test_after_a_transfer_every_call_is_refused_and_changes_nothing(world, name, arguments):
    assert world.call("transfer_to_human", TRANSFER).ok
    error = _unchanged(world, name, arguments)
    assert error["code"] == "call_ended"
    assert len([e for e in world.ledger.entries if e.ok]) == 1


def test_a_failed_transfer_does_not_end_the_call(world):
    refused = world.call("transfer_to_human", {"reason": "x", "summary": "y", "customer_id": "NO"})
    assert not refused.ok and not world.call_ended
    assert world.call("add_note", {"customer_id": "CUS-1001", "body": "still here"}).ok


def test_the_next_session_is_a_new_call(world):
    assert world.call("transfer_to_human", TRANSFER).ok
    world.start_session()
    assert world.call("add_note", {"customer_id": "CUS-1001", "body": "days later"}).ok
