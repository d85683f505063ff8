"""What each business operation does to the state when it succeeds."""

from __future__ import annotations

from sandbox import diff
from sandbox.state import State
from tests.conftest import sample_tables


def _ok(world, name, args):
    record = world.call(name, args)
    assert record.outcome == "ok", record.result
    return record.result


def test_find_customer_by_phone_ignores_formatting(world):
    assert [m["id"] for m in _ok(world, "find_customer", {"phone": "(555) 0102"})["matches"]] == [
        "CUS-1002"
    ]


def test_verify_customer_says_match_without_revealing_the_stored_value(world):
    good = _ok(world, "verify_customer", {"customer_id": "CUS-1001", "dob": "1984-06-12"})
    bad = _ok(world, "verify_customer", {"customer_id": "CUS-1001", "dob": "1984-06-13"})
    assert good["verified"] is True and bad["verified"] is False
    assert "1984-06-12" not in str(bad)


def test_get_customer_hides_verification_secrets(world):
    customer = _ok(world, "get_customer", {"customer_id": "CUS-1001"})["customer"]
    assert "dob" not in customer and "postcode" not in customer


def test_availability_excludes_booked_and_past_slots(world):
    slots = _ok(
        world,
        "list_availability",
        {"service_id": "SRV-1001", "date": "2026-03-03", "staff_id": "STF-1002"},
    )["slots"]
    starts = [s["start"] for s in slots]
    assert "2026-03-03T10:00" not in starts and "2026-03-03T09:00" in starts
    today = _ok(world, "list_availability", {"service_id": "SRV-1001", "date": "2026-03-02"})[
        "slots"
    ]
    assert all(s["start"] >= "2026-03-02T09:10" for s in today)


def test_booking_picks_a_free_provider_when_none_is_named(world):
    appt = _ok(
        world,
        "book_appointment",
        {"customer_id": "CUS-1002", "service_id": "SRV-1001", "start": "2026-03-03T10:00"},
    )["appointment"]
    assert appt["staff_id"] == "STF-1001" and appt["end"] == "2026-03-03T10:30"


def test_reschedule_moves_pending_reminders_with_the_appointment(world):
    _ok(world, "set_reminder", {"appointment_id": "APT-1001", "channel": "sms"})
    _ok(
        world, "reschedule_appointment", {"appointment_id": "APT-1001", "start": "2026-03-05T14:00"}
    )
    assert world.state.get("reminders", "REM-1001")["send_at"] == "2026-03-04T14:00"
    assert world.state.get("appointments", "APT-1001")["staff_id"] == "STF-1002"


def test_cancel_appointment_cancels_its_reminders(world):
    _ok(world, "set_reminder", {"appointment_id": "APT-1001", "channel": "sms"})
    _ok(world, "cancel_appointment", {"appointment_id": "APT-1001", "reason": "sick"})
    assert world.state.get("reminders", "REM-1001")["status"] == "cancelled"


def test_reserve_and_release_stock(world):
    rsv = _ok(
        world, "reserve_stock", {"product_id": "PRD-1001", "customer_id": "CUS-1001", "quantity": 2}
    )["reservation"]
    assert _ok(world, "check_stock", {"product_id": "PRD-1001"})["available"] == 3
    _ok(world, "release_stock", {"reservation_id": rsv["id"]})
    assert _ok(world, "check_stock", {"product_id": "PRD-1001"})["available"] == 5


def test_place_and_cancel_order_restocks(world):
    order = _ok(
        world,
        "place_order",
        {"customer_id": "CUS-1001", "items": [{"product_id": "PRD-1002", "quantity": 3}]},
    )["order"]
    assert order["total_cents"] == 1197 and world.state.get("products", "PRD-1002")["stock"] == 37
    _ok(world, "cancel_order", {"order_id": order["id"]})
    assert world.state.get("products", "PRD-1002")["stock"] == 40


def test_shipped_orders_cannot_be_cancelled_but_delivered_ones_can_be_returned(world):
    assert (
        world.call("cancel_order", {"order_id": "ORD-1001"}).result["error"]["code"] == "conflict"
    )
    assert (
        _ok(world, "start_return", {"order_id": "ORD-1001", "reason": "broken"})["order"]["status"]
        == "return_started"
    )


def test_partial_then_full_refund_tracks_what_is_left(world):
    _ok(world, "refund", {"payment_id": "PAY-1001", "amount_cents": 999, "reason": "late"})
    assert world.state.get("payments", "PAY-1001")["status"] == "partial_refund"
    _ok(world, "refund", {"payment_id": "PAY-1001", "amount_cents": 4000, "reason": "returned"})
    assert world.state.get("payments", "PAY-1001")["status"] == "refunded"
    assert (
        world.call("refund", {"payment_id": "PAY-1001", "amount_cents": 1, "reason": "x"}).outcome
        == "rejected"
    )


def test_apply_credit_and_waive_fee(world):
    _ok(
        world,
        "apply_credit",
        {"customer_id": "CUS-1001", "amount_cents": 1500, "reason": "goodwill"},
    )
    assert world.state.get("customers", "CUS-1001")["credit_cents"] == 1500
    _ok(world, "waive_fee", {"payment_id": "PAY-1002", "reason": "first time"})
    assert world.state.get("payments", "PAY-1002")["status"] == "waived"


def test_change_pause_and_cancel_subscription(world):
    assert (
        _ok(world, "pause_subscription", {"subscription_id": "SUB-1001", "until": "2026-04-01"})[
            "subscription"
        ]["status"]
        == "paused"
    )
    assert (
        _ok(world, "change_plan", {"subscription_id": "SUB-1002", "plan_id": "SRV-1003"})[
            "subscription"
        ]["price_cents"]
        == 5500
    )
    assert (
        _ok(world, "cancel_subscription", {"subscription_id": "SUB-1001", "reason": "moving"})[
            "subscription"
        ]["status"]
        == "cancelled"
    )


def test_messages_go_to_the_contact_on_file(world):
    assert (
        _ok(world, "send_sms", {"customer_id": "CUS-1001", "body": "hi"})["message"]["to"]
        == "+1 555 0101"
    )
    assert (
        world.call("send_email", {"customer_id": "CUS-1002", "subject": "s", "body": "b"}).result[
            "error"
        ]["code"]
        == "conflict"
    )


def test_transfer_to_human_records_an_escalation_and_ends_the_call(world):
    _ok(
        world,
        "transfer_to_human",
        {"reason": "refund dispute", "summary": "wants manager", "customer_id": "CUS-1001"},
    )
    assert world.call_ended
    assert [r.table for r in diff(State(sample_tables()), world.state)] == ["escalations"]
