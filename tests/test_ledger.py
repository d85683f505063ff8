from __future__ import annotations

import pytest

from sandbox import IrreversibleEffectError, RevertError, State, revert
from tests.conftest import sample_tables


def test_a_write_is_ledgered_with_before_and_after_images(world):
    record = world.call("add_note", {"customer_id": "CUS-1001", "body": "prefers mornings"})
    entry = world.ledger.entries[0]
    assert record.ledger_seq == entry.seq == 1
    assert entry.outcome == "ok"
    assert entry.effect == "reversible"
    assert entry.time == "2026-03-02T09:10"
    assert entry.arguments == {"customer_id": "CUS-1001", "body": "prefers mornings"}
    assert [(c.table, c.id, c.before) for c in entry.changes] == [("notes", "NOTE-1001", None)]
    assert entry.changes[0].after["body"] == "prefers mornings"


def test_reads_are_traced_but_not_ledgered(world):
    world.call("get_customer", {"customer_id": "CUS-1001"})
    assert len(world.trace) == 1 and len(world.ledger) == 0


def test_revert_restores_the_initial_state_exactly(world):
    initial = world.state.canonical_bytes()
    world.call(
        "book_appointment",
        {"customer_id": "CUS-1002", "service_id": "SRV-1001", "start": "2026-03-04T11:00"},
    )
    world.call(
        "reschedule_appointment", {"appointment_id": "APT-1001", "start": "2026-03-05T14:00"}
    )
    world.call("set_reminder", {"appointment_id": "APT-1001", "channel": "sms"})
    assert world.state.canonical_bytes() != initial
    report = revert(world.state, world.ledger.entries)
    assert world.state.canonical_bytes() == initial
    assert report.reverted == (3, 2, 1)


def test_revert_refuses_to_pretend_an_irreversible_effect_was_undone(world):
    world.call("add_note", {"customer_id": "CUS-1001", "body": "x"})
    world.call("send_sms", {"customer_id": "CUS-1001", "body": "Your crown is ready"})
    before = world.state.canonical_bytes()
    with pytest.raises(IrreversibleEffectError, match="send_sms"):
        revert(world.state, world.ledger.entries)
    assert world.state.canonical_bytes() == before


def test_revert_can_skip_irreversible_entries_and_says_which(world):
    world.call("add_note", {"customer_id": "CUS-1001", "body": "x"})
    world.call("send_sms", {"customer_id": "CUS-1001", "body": "hello"})
    report = revert(world.state, world.ledger.entries, skip_irreversible=True)
    assert report.reverted == (1,) and report.irreversible == (2,)
    assert world.state.get("notes", "NOTE-1001") is None
    assert world.state.get("messages", "MSG-1001") is not None


def test_compensable_entries_are_reverted_but_reported_as_compensated(world):
    world.call("refund", {"payment_id": "PAY-1001", "amount_cents": 1000, "reason": "scratched"})
    report = revert(world.state, world.ledger.entries)
    assert report.compensated == (1,) and report.reverted == ()
    assert world.state == State(sample_tables())


def test_cancel_on_final_billing_date_is_ledgered_irreversible(world):
    world.call("cancel_subscription", {"subscription_id": "SUB-1002", "reason": "moving"})
    entry = world.ledger.entries[0]
    assert entry.effect == "irreversible"
    assert "final billing date" in entry.effect_note


def test_cancel_before_final_billing_date_stays_reversible(world):
    world.call("cancel_subscription", {"subscription_id": "SUB-1001", "reason": "moving"})
    assert world.ledger.entries[0].effect == "reversible"


def test_revert_detects_a_state_that_moved_on_without_the_ledger(world):
    world.call("add_note", {"customer_id": "CUS-1001", "body": "x"})
    note = world.state.get("notes", "NOTE-1001")
    world.state._put("notes", {**note, "body": "tampered"})
    with pytest.raises(RevertError, match="no longer what that call left"):
        revert(world.state, world.ledger.entries)


def _irreversible_service_world():
    from sandbox import World
    from sandbox.clock import SimClock
    from tests.conftest import NOW
    from tools import default_registry

    tables = sample_tables()
    tables["services"]["SRV-1001"]["irreversible"] = True
    return World(State(tables), default_registry(), SimClock(NOW))


def test_every_change_to_a_booking_of_an_irreversible_service_is_ledgered_irreversible():
    world = _irreversible_service_world()
    world.call(
        "book_appointment",
        {"customer_id": "CUS-1002", "service_id": "SRV-1001", "start": "2026-03-04T11:00"},
    )
    world.call(
        "reschedule_appointment", {"appointment_id": "APT-1001", "start": "2026-03-05T14:00"}
    )
    world.call("cancel_appointment", {"appointment_id": "APT-1001", "reason": "r"})
    entries = world.ledger.entries
    assert [e.effect for e in entries] == ["irreversible"] * 3
    assert all("marks irreversible" in e.effect_note for e in entries)
    with pytest.raises(IrreversibleEffectError):
        revert(world.state, entries)


def test_a_service_not_marked_irreversible_stays_reversible(world):
    world.call("cancel_appointment", {"appointment_id": "APT-1001", "reason": "r"})
    assert world.ledger.entries[0].effect == "reversible"
