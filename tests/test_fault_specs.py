"""Fault specs as task files write them, and which calls they fail, at their boundaries: each row
builds a fault from its task-file form and makes real tool calls in a real world."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from sandbox import Fault, FaultInjector, FaultSpecError
from sandbox.faults import DEFAULT_FAULT_ERROR
from tests.conftest import make_world

# add_note accepts the same call any number of times, so only a fault fails one.
NOTE = {"customer_id": "CUS-1001", "body": "Called back."}
OTHER = {"customer_id": "CUS-1002", "body": "Called back."}


def outcomes(faults: list[Fault], calls: list[dict[str, Any]], seed: int | str = 0) -> list[str]:
    world = make_world(FaultInjector(faults, seed))
    return [world.call("add_note", args).outcome for args in calls]


SPECS = [
    ("no 'when' is always", {"tool": "add_note"}, [NOTE, NOTE], ["failed", "failed"]),
    (
        "nth written flat",
        {"tool": "add_note", "when": "nth", "n": 2},
        [NOTE, NOTE, NOTE],
        ["ok", "failed", "ok"],
    ),
    (
        "probability 1 written flat",
        {"tool": "add_note", "when": "probability", "p": 1.0},
        [NOTE] * 5,
        ["failed"] * 5,
    ),
    (
        "probability 0",
        {"tool": "add_note", "when": {"probability": 0.0}},
        [NOTE] * 5,
        ["ok"] * 5,
    ),
    (
        "probability 1",
        {"tool": "add_note", "when": {"probability": 1}},
        [NOTE] * 5,
        ["failed"] * 5,
    ),
    (
        "a match narrows it to those arguments",
        {"tool": "add_note", "match": {"customer_id": "CUS-1002"}},
        [NOTE, OTHER, NOTE],
        ["ok", "failed", "ok"],
    ),
    ("another tool's fault", {"tool": "set_reminder"}, [NOTE], ["ok"]),
]


@pytest.mark.parametrize("name, spec, calls, expected", SPECS, ids=[r[0] for r in SPECS])
def test_a_spec_fails_exactly_its_calls(name, spec, calls, expected):
    assert outcomes([Fault.from_dict(spec)], calls) == expected


def test_a_spec_is_the_fault_it_describes():
    # What is left out of a spec is the fault's default, not some other value.
    assert Fault.from_dict({"tool": "add_note"}) == Fault("add_note")
    assert Fault.from_dict({"tool": "x", "when": {"nth": 3}}) == Fault("x", "nth", n=3)
    assert Fault.from_dict({"tool": "x", "when": {"probability": 0.5}}) == Fault(
        "x", "probability", p=0.5
    )


ERRORS = [
    ("the defaults", {}, "unavailable", DEFAULT_FAULT_ERROR),
    ("its own message", {"error": "Notes service down"}, "unavailable", "Notes service down"),
    ("its own code", {"code": "timeout"}, "timeout", DEFAULT_FAULT_ERROR),
]


@pytest.mark.parametrize("name, extra, code, message", ERRORS, ids=[r[0] for r in ERRORS])
def test_a_failed_call_reports_the_specs_error(name, extra, code, message):
    world = make_world(FaultInjector([Fault.from_dict({"tool": "add_note", **extra})]))
    record = world.call("add_note", NOTE)
    assert record.result == {"error": {"code": code, "message": message, "field": None}}


@pytest.mark.parametrize(
    "first",
    [Fault("set_reminder"), Fault("add_note", match={"customer_id": "CUS-1002"})],
    ids=["on another tool", "matching other arguments"],
)
def test_a_fault_that_does_not_apply_listed_first_does_not_hide_the_next(first):
    assert outcomes([first, Fault("add_note")], [NOTE]) == ["failed"]


def test_an_injector_without_a_seed_draws_as_seed_zero():
    faults = [Fault("add_note", "probability", p=0.5)]
    calls = [NOTE] * 30
    world = make_world(FaultInjector(faults))
    unseeded = [world.call("add_note", args).outcome for args in calls]
    assert unseeded == outcomes(faults, calls, seed=0)
    assert unseeded != outcomes(faults, calls, seed=1)


def test_an_unknown_when_names_the_tool():
    with pytest.raises(FaultSpecError) as error:
        Fault.from_dict({"tool": "add_note", "when": {"every": 2}})
    assert str(error.value) == "fault on 'add_note': unknown 'when' {'every': 2}"


def _first_draw(seed: int | str, tool: str) -> float:
    """The draw of a tool's first valid call, as the injector takes it (see FaultInjector.check)."""
    return random.Random(f"{seed}/{tool}/1").random()


def test_a_probability_fault_fails_a_call_only_when_its_draw_is_below_p():
    # P(draw < p) is p for a uniform draw: a draw equal to p does not fail, one just above it does.
    draw = _first_draw(0, "add_note")
    at = [Fault("add_note", "probability", p=draw)]
    above = [Fault("add_note", "probability", p=math.nextafter(draw, 1.0))]
    assert outcomes(at, [NOTE]) == ["ok"]
    assert outcomes(above, [NOTE]) == ["failed"]
