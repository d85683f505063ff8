from __future__ import annotations

import pytest

from sandbox import Fault, FaultInjector, FaultSpecError
from tests.conftest import make_world

REMINDER = {"appointment_id": "APT-1001", "channel": "sms"}


def test_an_always_fault_fails_the_call_and_changes_nothing():
    world = make_world(FaultInjector([Fault("set_reminder", error="Reminder service unavailable")]))
    before = world.state.canonical_bytes()
    record = world.call("set_reminder", REMINDER)
    assert record.outcome == "failed"
    assert record.result == {
        "error": {"code": "unavailable", "message": "Reminder service unavailable", "field": None}
    }
    assert world.state.canonical_bytes() == before
    assert world.ledger.entries[0].outcome == "failed" and world.ledger.entries[0].changes == ()


def test_an_nth_fault_fails_only_that_call():
    world = make_world(FaultInjector([Fault.from_dict({"tool": "add_note", "when": {"nth": 2}})]))
    outcomes = [
        world.call("add_note", {"customer_id": "CUS-1001", "body": str(i)}).outcome
        for i in range(3)
    ]
    assert outcomes == ["ok", "failed", "ok"]


def test_a_malformed_call_is_rejected_before_the_fault_counts():
    world = make_world(FaultInjector([Fault.from_dict({"tool": "add_note", "when": {"nth": 1}})]))
    assert world.call("add_note", {"customer_id": "CUS-1001"}).outcome == "rejected"
    assert world.call("add_note", {"customer_id": "CUS-1001", "body": "x"}).outcome == "failed"


def test_probability_faults_repeat_under_the_same_seed():
    def outcomes(seed):
        world = make_world(
            FaultInjector(
                [Fault.from_dict({"tool": "add_note", "when": {"probability": 0.5}})], seed
            )
        )
        return [
            world.call("add_note", {"customer_id": "CUS-1001", "body": "x"}).outcome
            for _ in range(40)
        ]

    first = outcomes(7)
    assert first == outcomes(7)
    assert 5 < first.count("failed") < 35
    assert first != outcomes(8)


def test_a_fault_can_match_arguments():
    world = make_world(FaultInjector([Fault("set_reminder", match={"channel": "sms"})]))
    assert world.call("set_reminder", REMINDER).outcome == "failed"
    assert world.call("set_reminder", {**REMINDER, "channel": "email"}).outcome == "ok"


@pytest.mark.parametrize(
    "spec, message",
    [
        ({"tool": "x", "when": "sometimes"}, "must be always, nth or probability"),
        ({"tool": "x", "when": {"nth": 0}}, "needs n >= 1"),
        ({"tool": "x", "when": {"probability": 1.5}}, "needs 0 <= p <= 1"),
        ({"tool": "x", "when": {"every": 2}}, "unknown 'when'"),
    ],
)
def test_malformed_fault_specs_say_what_was_expected(spec, message):
    with pytest.raises(FaultSpecError, match=message):
        Fault.from_dict(spec)
