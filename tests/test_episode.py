"""The conversation loop: turns, tool rounds, endings, determinism, multi-session."""

from __future__ import annotations

import asyncio
import json

from businesses import initial_tables
from callers import scripted_caller_factory
from contract.messages import AssistantTurn
from sandbox import canonical_bytes
from sandbox.episode import Limits, run_episode
from tests.helpers import (
    EndlessCaller,
    FailingAssistant,
    LoopingAssistant,
    ScriptedAssistant,
    call,
    mini_tasks,
)

TASKS = mini_tasks()
RESCHEDULE = TASKS["mini_clinic/reschedule-reminder-fails"]


def _run(task, assistant, caller_factory=scripted_caller_factory, **kwargs):
    return asyncio.run(
        run_episode(task, initial_tables(task), lambda ctx: assistant, caller_factory, **kwargs)
    )


def test_the_harness_greets_and_the_caller_speaks_first():
    result = _run(RESCHEDULE, ScriptedAssistant([]))
    assert result.transcript[0].speaker == "assistant"
    assert result.transcript[0].text == RESCHEDULE.business.greeting
    assert result.transcript[1].speaker == "caller"


def test_the_call_ends_when_the_scripted_caller_runs_out_of_lines():
    result = _run(RESCHEDULE, ScriptedAssistant([]))
    assert result.endings == ["caller_hung_up"]
    assert result.transcript[-1].text == "Okay, thank you. Goodbye."


def test_all_tool_calls_of_a_turn_run_in_order_and_are_fed_back():
    assistant = ScriptedAssistant(
        [
            AssistantTurn(
                tool_calls=(
                    call("find_customer", '{"phone": "+1 415 555 0101"}', "a"),
                    call("list_appointments", '{"customer_id": "CUS-1001"}', "b"),
                )
            ),
        ]
    )
    result = _run(RESCHEDULE, assistant)
    assert [t.tool for t in result.trace] == ["find_customer", "list_appointments"]
    fed_back = assistant.requests[1].messages[-1]
    assert fed_back.role == "tool"
    assert [r.call_id for r in fed_back.tool_results] == ["a", "b"]
    assert json.loads(fed_back.tool_results[0].content)["matches"][0]["id"] == "CUS-1001"


def test_a_malformed_tool_call_becomes_a_tool_error_and_changes_nothing():
    assistant = ScriptedAssistant(
        [
            AssistantTurn(
                tool_calls=(call("reschedule_appointment", '{"appointment_id": "APT-1001", '),)
            )
        ]
    )
    result = _run(RESCHEDULE, assistant)
    fed_back = assistant.requests[1].messages[-1].tool_results[0]
    assert fed_back.is_error and json.loads(fed_back.content)["error"]["code"] == "invalid_json"
    assert result.initial == result.final


def test_transfer_to_human_ends_the_call():
    task = TASKS["mini_clinic/cancel-final-billing"]
    assistant = ScriptedAssistant(
        [
            AssistantTurn(
                text="Let me transfer you.",
                tool_calls=(
                    call("transfer_to_human", '{"reason": "final billing", "summary": "cancel"}'),
                ),
            )
        ]
    )
    result = _run(task, assistant)
    assert result.endings == ["transferred"]
    assert result.transcript[-1].speaker == "assistant"


def test_tool_calls_after_a_transfer_in_the_same_turn_change_nothing():
    task = TASKS["mini_clinic/cancel-final-billing"]
    after = call("add_note", '{"customer_id": "CUS-1002", "body": "left the call"}', "n")
    assistant = ScriptedAssistant(
        [
            AssistantTurn(
                tool_calls=(
                    call("transfer_to_human", '{"reason": "final billing", "summary": "x"}', "t"),
                    after,
                ),
            )
        ]
    )
    result = _run(task, assistant)
    assert result.endings == ["transferred"]
    assert list(result.final.rows("notes")) == list(result.initial.rows("notes"))
    assert [(r.tool, r.outcome, r.error_code) for r in result.trace] == [
        ("transfer_to_human", "ok", None),
        ("add_note", "rejected", "call_ended"),
    ]


def test_the_turn_limit_ends_a_call_that_never_ends():
    result = _run(
        RESCHEDULE,
        ScriptedAssistant([]),
        lambda task, i: EndlessCaller(),
        limits=Limits(max_turns=4),
    )
    assert result.endings == ["turn_limit"]
    assert sum(1 for u in result.transcript if u.speaker == "caller") == 4


def test_the_tool_round_limit_ends_a_tool_loop():
    result = _run(RESCHEDULE, LoopingAssistant(), limits=Limits(max_tool_rounds=3))
    assert result.endings == ["tool_round_limit"]
    assert len(result.trace) == 3


def test_a_provider_failure_is_an_infrastructure_error_not_a_crash():
    result = _run(RESCHEDULE, FailingAssistant())
    assert result.infrastructure_error
    assert "503" in result.error


def test_same_seed_same_result_bytes():
    from adapters.reference import reference_factory

    task = RESCHEDULE
    runs = [
        asyncio.run(
            run_episode(
                task,
                initial_tables(task),
                reference_factory("oracle"),
                scripted_caller_factory,
                seed=3,
            )
        )
        for _ in range(2)
    ]
    assert canonical_bytes(runs[0].to_dict()) == canonical_bytes(runs[1].to_dict())
    assert runs[0].final.canonical_bytes() == runs[1].final.canonical_bytes()


def test_the_assistant_is_told_the_policy_and_the_simulated_time():
    assistant = ScriptedAssistant([])
    _run(RESCHEDULE, assistant)
    system = assistant.requests[0].system
    assert "Monday 2026-03-02, 09:10" in system
    assert "Late-cancellation fees are never waived" in system


def test_tool_schemas_are_specialised_to_the_business():
    assistant = ScriptedAssistant([])
    _run(RESCHEDULE, assistant)
    names = [t.name for t in assistant.requests[0].tools]
    assert names == [n for n in names if n in RESCHEDULE.business.tools]
    availability = next(t for t in assistant.requests[0].tools if t.name == "list_availability")
    assert availability.parameters["properties"]["service_id"]["enum"] == ["SRV-1001", "SRV-1002"]
