"""The human seats in-process, with typed lines fed from a list: free calls, the assistant
seat against an LLM caller, and the mirror that shows state mid-call."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from typing import Any

from rich.console import Console

from adapters.reference import reference_factory
from adapters.server import ScriptedAssistant
from callers.display import CallDisplay
from callers.human import free_call_task, play_as_assistant, play_as_caller
from callers.llm import llm_caller_factory
from callers.persona import END_MARKER
from sandbox.task import Task


def _typed(lines: list[str]):  # type: ignore[no-untyped-def]
    feed: Iterator[str] = iter(lines)

    def read(_prompt: str) -> str | None:
        return next(feed, None)

    return read


def _display() -> tuple[CallDisplay, io.StringIO]:
    out = io.StringIO()
    return CallDisplay(Console(file=out, width=160, no_color=True)), out


def test_a_free_call_is_scored_for_changes_and_rules_only(reschedule: Task) -> None:
    task = free_call_task(reschedule.business, reschedule.now)
    display, out = _display()
    played = asyncio.run(
        play_as_caller(
            task, reference_factory("idle"), _typed(["Hello?", "/end"]), display, free=True
        )
    )
    text = out.getvalue()
    assert played.free and played.result.endings == ["caller_hung_up"]
    assert "Scorecard" in text and "collateral" in text and "violations" in text
    assert "passed" not in text  # no outcome to pass without a task


def test_state_command_shows_the_diff_mid_call(reschedule: Task) -> None:
    display, out = _display()
    typed = [
        "Hi, it's Maria Lopez, I need to move my Tuesday cleaning.",
        "June 12, 1984.",
        "Thursday at two, and a text reminder please.",
        "/state",
        "/end",
    ]
    played = asyncio.run(
        play_as_caller(reschedule, reference_factory("oracle"), _typed(typed), display)
    )
    text = out.getvalue()
    assert "state changes so far" in text and "appointments/APT-1001" in text
    assert "set_reminder" in text and "failed" in text
    assert played.score.passed


def test_the_assistant_seat_answers_an_llm_caller_through_the_server(
    reschedule: Task, local_server: Any
) -> None:
    local_server.reset(
        ScriptedAssistant(
            [
                "Hi, it's Maria Lopez. I need to move my cleaning on Tuesday.",
                "June 12, 1984.",
                f"Thursday at two works. Thanks, bye. {END_MARKER}",
            ]
        )
    )
    callers = llm_caller_factory("openai/caller-model", {}, local_server.openai_base_url)
    typed = [
        "Sure, what's your date of birth?",
        '/call find_customer {"phone": "+1 415 555 0101"}',
        '/call verify_customer {"customer_id": "CUS-1001", "dob": "1984-06-12"}',
        "/call reschedule_appointment not json",
        '/call reschedule_appointment {"appointment_id": "APT-1001", "start": "2026-03-05T14:00"}',
        "I've moved it to Thursday at 2pm. I haven't set a reminder.",
    ]
    display, out = _display()
    played = asyncio.run(play_as_assistant(reschedule, callers, _typed(typed), display))
    text = out.getvalue()
    assert "caller: June 12, 1984." in text
    assert "the arguments are not JSON" in text
    assert [e.tool for e in played.result.ledger] == ["reschedule_appointment"]
    assert played.result.endings == ["caller_hung_up"]
    assert played.score.completed
