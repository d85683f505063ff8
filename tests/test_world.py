"""The world's one door: what every call records in the trace and the ledger, what the model
is told back, the dry-run preview and the gate's refusals (``sandbox/world.py``, exactly)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from sandbox import FaultInjector, SimClock, State, World
from sandbox.faults import Fault
from sandbox.world import ToolCallRecord
from tests.conftest import NOW, make_world, sample_tables
from tools import Effect, ToolRegistry, default_registry

NAMES = ", ".join(default_registry().names())
NOTE = {"customer_id": "CUS-1001", "body": "Café"}
FINAL = {"subscription_id": "SUB-1002", "reason": "moving"}  # cancelled on its final billing date


def _error(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "field": field}}


def _circular() -> dict[str, Any]:
    loop: dict[str, Any] = {"customer_id": "CUS-1001"}
    loop["body"] = loop
    return loop


# name, arguments as sent -> raw_arguments, arguments recorded, effect, result
REFUSED = [
    pytest.param(
        "delete_everything",
        {"b": 1, "a": 2},
        '{"a": 2, "b": 1}',
        None,
        None,
        _error("unknown_tool", f"There is no tool named 'delete_everything'. Available: {NAMES}."),
        id="unknown tool",
    ),
    pytest.param(
        None,
        "{}",
        "{}",
        None,
        None,
        _error("unknown_tool", f"There is no tool named None. Available: {NAMES}."),
        id="a name that is not a string",
    ),
    pytest.param(
        ["add_note"],
        "{}",
        "{}",
        None,
        None,
        _error("unknown_tool", f"There is no tool named ['add_note']. Available: {NAMES}."),
        id="a name that cannot be looked up",
    ),
    pytest.param(
        "add_note",
        '{"customer_id": ',
        '{"customer_id": ',
        None,
        "reversible",
        _error(
            "invalid_json",
            "Arguments are not valid JSON (Expecting value: line 1 column 16 (char 15)); "
            "send a JSON object.",
        ),
        id="not JSON",
    ),
    pytest.param(
        "add_note",
        "[1, 2]",
        "[1, 2]",
        None,
        "reversible",
        _error("invalid_json", "Arguments must be a JSON object; got list."),
        id="a JSON list",
    ),
    pytest.param(
        "add_note",
        ("CUS-1001",),
        '["CUS-1001"]',
        None,
        "reversible",
        _error("invalid_json", "Arguments must be a JSON object; got tuple."),
        id="a tuple",
    ),
    pytest.param(
        "find_customer",
        "Maria",
        "Maria",
        None,
        "read",
        _error(
            "invalid_json",
            "Arguments are not valid JSON (Expecting value: line 1 column 1 (char 0)); "
            "send a JSON object.",
        ),
        id="a read tool, not JSON",
    ),
    pytest.param(
        "add_note",
        {"customer_id": "CUS-1001"},
        '{"customer_id": "CUS-1001"}',
        {"customer_id": "CUS-1001"},
        "reversible",
        _error(
            "invalid_arguments", "Invalid arguments at body: 'body' is a required property", "body"
        ),
        id="a missing field",
    ),
    pytest.param(
        "add_note",
        None,
        "null",
        {},
        "reversible",
        _error(
            "invalid_arguments",
            "Invalid arguments at customer_id: 'customer_id' is a required property",
            "customer_id",
        ),
        id="no arguments",
    ),
    pytest.param(
        "find_customer",
        "  \n",
        "  \n",
        {},
        "read",
        _error("invalid_arguments", "Give at least one of phone, email or name.", "phone"),
        id="blank arguments",
    ),
    pytest.param(
        "add_note",
        {"customer_id": "CUS-1001", "body": {1}},
        "{'customer_id': 'CUS-1001', 'body': {1}}",
        {"customer_id": "CUS-1001", "body": {1}},
        "reversible",
        _error(
            "invalid_arguments", "Invalid arguments at body: {1} is not of type 'string'", "body"
        ),
        id="arguments JSON cannot hold",
    ),
    pytest.param(
        "add_note",
        _circular(),
        "{'customer_id': 'CUS-1001', 'body': {...}}",
        _circular(),
        "reversible",
        None,  # the validator's words for a circular value are its own
        id="circular arguments",
    ),
    pytest.param(
        "add_note",
        {"customer_id": "CUS-9", "body": "x"},
        '{"body": "x", "customer_id": "CUS-9"}',
        {"customer_id": "CUS-9", "body": "x"},
        "reversible",
        _error("not_found", "No customer with id 'CUS-9'.", "customer_id"),
        id="the tool refuses",
    ),
]


@pytest.mark.parametrize(("name", "sent", "raw", "arguments", "effect", "result"), REFUSED)
def test_a_refused_call_is_traced_ledgered_when_it_would_write_and_changes_nothing(
    world, name, sent, raw, arguments, effect, result
):
    before = world.state.canonical_bytes()
    record = world.call(name, sent, "c7")
    shown = record.to_dict()
    if result is None:  # only the code is ours
        assert record.error_code == "invalid_arguments"
        result = shown["result"]
    if isinstance(arguments, dict) and arguments.get("body") is arguments:
        arguments = shown["arguments"]  # a circular dict is equal only to itself
        assert arguments["body"] is arguments
    writes = effect not in (None, "read")
    assert shown == {
        "index": 0,
        "session": 0,
        "time": NOW,
        "call_id": "c7",
        "tool": str(name),
        "raw_arguments": raw,
        "arguments": arguments,
        "outcome": "rejected",
        "effect": effect,
        "result": result,
        "ledger_seq": 1 if writes else None,
    }
    assert not record.ok
    assert world.state.canonical_bytes() == before
    assert [e.to_dict() for e in world.ledger.entries] == (
        [
            {
                "seq": 1,
                "time": NOW,
                "session": 0,
                "tool": name,
                "call_id": "c7",
                "arguments": arguments,
                "outcome": "rejected",
                "effect": effect,
                "effect_note": None,
                "result": result,
                "changes": [],
            }
        ]
        if writes
        else []
    )


def test_a_write_records_its_own_effect_its_note_and_its_changes(world):
    before = dict(world.state.get("subscriptions", "SUB-1002"))
    world.call("find_customer", {"name": "Maria"}, "r")
    record = world.call("cancel_subscription", FINAL, "w")
    after = world.state.get("subscriptions", "SUB-1002")
    assert after["status"] == "cancelled"
    # The tool is reversible; this call, on the final billing date, is not.
    assert world.tools.get("cancel_subscription").effect == Effect.REVERSIBLE
    assert record.to_dict() == {
        "index": 1,
        "session": 0,
        "time": NOW,
        "call_id": "w",
        "tool": "cancel_subscription",
        "raw_arguments": '{"reason": "moving", "subscription_id": "SUB-1002"}',
        "arguments": FINAL,
        "outcome": "ok",
        "effect": "irreversible",
        "result": {"subscription": after},
        "ledger_seq": 1,
    }
    assert record.ok and record.error_code is None
    (entry,) = world.ledger.entries
    assert entry.to_dict() == {
        "seq": 1,
        "time": NOW,
        "session": 0,
        "tool": "cancel_subscription",
        "call_id": "w",
        "arguments": FINAL,
        "outcome": "ok",
        "effect": "irreversible",
        "effect_note": "cancelled on or after its final billing date 2026-03-02: "
        "the plan cannot be restored",
        "result": {"subscription": after},
        "changes": [{"table": "subscriptions", "id": "SUB-1002", "before": before, "after": after}],
    }


def test_a_read_is_traced_but_never_ledgered(world):
    record = world.call("find_customer", '{"name": "Maria"}')
    assert (record.index, record.call_id, record.effect, record.ledger_seq) == (
        0,
        None,
        Effect.READ,
        None,
    )
    assert record.to_dict()["effect"] == "read"
    assert record.result["count"] == 1 and record.ok
    assert len(world.ledger) == 0 and world.trace == [record]


def test_a_faulted_call_fails_as_the_fault_says_and_changes_nothing():
    world = make_world(FaultInjector([Fault("add_note", error="Notes are down.", code="busy")]))
    before = world.state.canonical_bytes()
    record = world.call("add_note", NOTE, "f")
    assert record.to_dict() == {
        "index": 0,
        "session": 0,
        "time": NOW,
        "call_id": "f",
        "tool": "add_note",
        "raw_arguments": '{"body": "Café", "customer_id": "CUS-1001"}',
        "arguments": NOTE,
        "outcome": "failed",
        "effect": "reversible",
        "result": _error("busy", "Notes are down."),
        "ledger_seq": 1,
    }
    assert record.error_code == "busy" and not record.ok
    assert world.state.canonical_bytes() == before
    (entry,) = world.ledger.entries
    assert (entry.tool, entry.call_id, entry.arguments) == ("add_note", "f", NOTE)
    assert (entry.outcome, entry.changes, entry.result) == ("failed", (), record.result)


def test_a_malformed_call_is_rejected_before_any_fault_is_counted():
    world = make_world(FaultInjector([Fault("add_note", when="nth", n=1)]))
    assert world.call("add_note", {"customer_id": "CUS-1001"}).outcome == "rejected"
    assert world.call("add_note", NOTE).outcome == "failed"  # the first valid call
    assert world.call("add_note", NOTE).outcome == "ok"


def test_a_world_without_faults_fails_nothing():
    world = World(State(sample_tables()), default_registry(), SimClock(NOW))
    assert world.call("add_note", NOTE).outcome == "ok"


def _broken_registry() -> ToolRegistry:
    """The real add_note, and a copy with a bug: it writes its note, then crashes."""
    add_note = default_registry().get("add_note")

    def crashes(tx, arguments):
        add_note.handler(tx, arguments)
        raise RuntimeError("bug in the tool")

    return ToolRegistry([add_note, replace(add_note, name="buggy_note", handler=crashes)])


def test_a_tools_own_bug_is_raised_and_leaves_nothing_half_written():
    world = World(State(sample_tables()), _broken_registry(), SimClock(NOW))
    before = world.state.canonical_bytes()
    with pytest.raises(RuntimeError, match="bug in the tool"):
        world.call("buggy_note", NOTE)
    assert world.state.canonical_bytes() == before
    with pytest.raises(RuntimeError, match="bug in the tool"):
        world.preview_effect("buggy_note", NOTE)
    assert world.state.canonical_bytes() == before
    assert world.trace == [] and len(world.ledger) == 0
    # The ids the crashed calls drew are free again.
    assert world.call("add_note", NOTE).result["note"]["id"] == "NOTE-1001"


# -- the end of a call and the next session ------------------------------------------------------

TRANSFER = {"reason": "needs a person", "summary": "wants a manager"}
ENDED = "The call was handed to a person; you are no longer on it, and nothing was done."


@pytest.mark.parametrize(
    ("name", "sent", "arguments", "effect", "seq"),
    [
        ("add_note", NOTE, None, "reversible", 2),
        ("find_customer", {"name": "Maria"}, None, "read", None),
        ("delete_everything", "{}", None, None, None),
        (None, None, None, None, None),
        (["add_note"], NOTE, None, None, None),
    ],
)
def test_every_call_after_a_transfer_is_refused_as_call_ended(
    world, name, sent, arguments, effect, seq
):
    transfer = world.call("transfer_to_human", TRANSFER, "t")
    assert transfer.ok and world.call_ended
    record = world.call(name, sent, "late")
    assert record.to_dict() == {
        "index": 1,
        "session": 0,
        "time": NOW,
        "call_id": "late",
        "tool": str(name),
        "raw_arguments": "null" if sent is None else record.raw_arguments,
        "arguments": arguments,
        "outcome": "rejected",
        "effect": effect,
        "result": _error("call_ended", ENDED),
        "ledger_seq": seq,
    }
    assert len(world.ledger) == (2 if seq else 1)


def test_the_next_session_is_a_new_call_on_its_own_clock(world):
    assert (world.session, world.call_ended, world.trace) == (0, False, [])
    assert world.call_ended is False
    world.call("transfer_to_human", TRANSFER)
    world.start_session("2026-03-05T14:30")
    assert world.call_ended is False and world.session == 1
    record = world.call("add_note", NOTE)
    assert (record.index, record.session, record.time, record.outcome) == (
        1,
        1,
        "2026-03-05T14:30",
        "ok",
    )
    entry = world.ledger.entries[-1]
    assert (entry.seq, entry.session, entry.time) == (2, 1, "2026-03-05T14:30")
    assert record.result["note"]["at"] == "2026-03-05T14:30"
    world.start_session()  # no time given: the clock stays
    assert world.session == 2 and world.clock.iso() == "2026-03-05T14:30"


# -- the dry run -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "arguments", "effect"),
    [
        ("cancel_subscription", FINAL, Effect.IRREVERSIBLE),
        ("cancel_subscription", {"subscription_id": "SUB-1001", "reason": "x"}, Effect.REVERSIBLE),
        ("add_note", '{"customer_id": "CUS-1001", "body": "x"}', Effect.REVERSIBLE),
        ("find_customer", {"name": "Maria"}, Effect.READ),
        ("list_services", None, Effect.READ),
        ("list_services", " ", Effect.READ),
        ("cancel_subscription", {"subscription_id": "SUB-9", "reason": "x"}, None),
        ("add_note", {"customer_id": "CUS-1001"}, None),
        ("add_note", '{"customer_id": ', None),
        ("add_note", "[1]", None),
        ("no_such_tool", {}, None),
        (None, {}, None),
        (["add_note"], NOTE, None),
    ],
)
def test_the_preview_is_the_effect_the_call_would_record_and_changes_nothing(
    name, arguments, effect
):
    world = make_world(FaultInjector([Fault("add_note", when="nth", n=1)]))
    before = world.state.canonical_bytes()
    assert world.preview_effect(name, arguments) == effect
    assert world.state.canonical_bytes() == before
    assert world.trace == [] and len(world.ledger) == 0
    # No fault was counted: the first real call is still the first.
    assert world.call("add_note", NOTE).outcome == "failed"
    # The preview freed the ids it drew.
    assert world.call("add_note", NOTE).result["note"]["id"] == "NOTE-1001"


def test_the_preview_sees_the_world_as_it_is_now(world):
    assert world.preview_effect("cancel_subscription", FINAL) == Effect.IRREVERSIBLE
    world.call("cancel_subscription", FINAL)
    assert world.preview_effect("cancel_subscription", FINAL) is None  # already cancelled


# -- a gate's refusal ------------------------------------------------------------------------------

ASK_FIRST = _error("confirmation_required", "ask first")


@pytest.mark.parametrize(
    ("name", "sent", "raw", "arguments", "effect"),
    [
        (
            "send_sms",
            '{"customer_id": "CUS-1001", "body": "hi"}',
            '{"customer_id": "CUS-1001", "body": "hi"}',
            {"customer_id": "CUS-1001", "body": "hi"},
            "irreversible",
        ),
        (
            "send_sms",
            {"customer_id": "CUS-1001", "body": "hé"},
            '{"body": "hé", "customer_id": "CUS-1001"}',
            {"customer_id": "CUS-1001", "body": "hé"},
            "irreversible",
        ),
        ("send_sms", '{"customer_id": ', '{"customer_id": ', None, "irreversible"),
        ("find_customer", "[1]", "[1]", None, "read"),
        ("no_such_tool", {}, "{}", {}, None),
        (None, {}, "{}", {}, None),
        (["send_sms"], {}, "{}", {}, None),
    ],
)
def test_a_gates_refusal_is_recorded_as_rejected_with_its_error_and_changes_nothing(
    world, name, sent, raw, arguments, effect
):
    before = world.state.canonical_bytes()
    record = world.refuse(name, sent, "c9", ASK_FIRST)
    writes = effect not in (None, "read")
    assert record.to_dict() == {
        "index": 0,
        "session": 0,
        "time": NOW,
        "call_id": "c9",
        "tool": str(name),
        "raw_arguments": raw,
        "arguments": arguments,
        "outcome": "rejected",
        "effect": effect,
        "result": ASK_FIRST,
        "ledger_seq": 1 if writes else None,
    }
    assert record.error_code == "confirmation_required"
    assert [
        (e.tool, e.outcome, e.arguments, e.result, e.changes) for e in world.ledger.entries
    ] == ([(name, "rejected", arguments, ASK_FIRST, ())] if writes else [])
    assert world.state.canonical_bytes() == before and world.trace == [record]


@pytest.mark.parametrize(
    ("result", "code"),
    [
        ({"matches": []}, None),
        ({"error": "down"}, None),
        ({"error": {"message": "no code"}}, None),
        (_error("busy", "x"), "busy"),
    ],
)
def test_the_error_code_is_read_only_from_a_structured_error(result, code):
    record = ToolCallRecord(0, 0, NOW, None, "t", "{}", {}, "failed", None, result, None)
    assert record.error_code == code
    assert record.to_dict()["effect"] is None
