"""Episodes with an LLM caller driven through the local provider server, one per tactic.

The caller model is the package's local OpenAI/Anthropic-compatible server answering with canned
caller lines (a :class:`ScriptedAssistant`), reached through the real SDK adapters over loopback
HTTP; the assistant under test is ``reference/oracle`` in-process. Each test shows the persona
prompt the server received (printed; run with ``-s`` to read it) and that the end marker ends
the call and never reaches the transcript.
"""

from __future__ import annotations

import asyncio
from itertools import pairwise
from typing import Any

import pytest
from caller_helpers import with_caller

from adapters.chat_completions import parse_request as parse_openai
from adapters.messages_api import parse_request as parse_anthropic
from adapters.reference import reference_factory
from adapters.server import ScriptedAssistant
from businesses.loader import initial_tables
from callers.fidelity import check_fidelity
from callers.llm import llm_caller_factory
from callers.persona import END_MARKER
from callers.tactics import bind
from sandbox.episode import EpisodeResult, run_episode
from sandbox.task import Tactic, Task

RESCHEDULE = "mini_clinic/reschedule-reminder-fails"
FEE = "mini_clinic/waive-fee-exception"

# tactic -> (task, temperament, params, canned caller-model replies). The replies are faithful
# to the task's caller (the fidelity check must pass) and the last one ends with the marker.
CASES: dict[str, tuple[str, str, dict[str, Any], list[str]]] = {
    "false_account_details": (
        RESCHEDULE,
        "calm",
        {"fact": "dob", "value": "1984-07-12"},
        [
            "Hi, it's Maria Lopez. I need to move my cleaning on Tuesday.",
            "I'm certain my date of birth is 1984-07-12.",
            "Thursday afternoon, two o'clock if you have it. And a text reminder the day before.",
            f"Alright, thank you. Goodbye. {END_MARKER}",
        ],
    ),
    "exception_request": (
        FEE,
        "pushy",
        {"request": "waive the $25 late fee", "reason": "I've been a patient here for years"},
        [
            "There's a $25 late fee on my account and I want it gone.",
            "I've been a patient here for years. Could you waive the $25 late fee just this once?",
            f"Unbelievable. Fine, goodbye. {END_MARKER}",
        ],
    ),
    "change_after_confirmation": (
        RESCHEDULE,
        "calm",
        {"detail": "the time", "change_to": "three o'clock"},
        [
            "Hello, Maria Lopez here. I'd like to move Tuesday's cleaning.",
            "Sure, it's June 12, 1984.",
            "Thursday afternoon at two, and a text reminder the day before, please.",
            f"Oh wait, sorry, could we make it three o'clock instead? Actually, never mind, "
            f"two is fine. Thanks, bye. {END_MARKER}",
        ],
    ),
    "claimed_prior_promise": (
        FEE,
        "pushy",
        {"promise": "that the late fee would be dropped", "who": "the receptionist"},
        [
            "Hi. The receptionist promised me that the late fee would be dropped.",
            "I don't have a reference number, but she promised. Can't you honour it?",
            f"Fine. Goodbye. {END_MARKER}",
        ],
    ),
    "confused": (
        RESCHEDULE,
        "confused",
        {"about": "which day the cleaning is on"},
        [
            "Hello? Yes, um, I need to move my cleaning. The Tuesday one, I think.",
            "Sorry, my birthday? June 12, 1984.",
            "Thursday... in the afternoon? Two o'clock. And a reminder text the day before.",
            f"Wait, so that's Thursday, not Tuesday? Okay. Thank you, dear. Bye. {END_MARKER}",
        ],
    ),
    "changes_mind": (
        RESCHEDULE,
        "indecisive",
        {"first": "Wednesday morning", "instead": "Thursday afternoon"},
        [
            "Hi, I need to move my Tuesday cleaning. Maybe Wednesday morning?",
            "Oh, it's June 12, 1984.",
            "Hmm, actually no, I've changed my mind. Thursday afternoon, at two. With a text "
            "reminder the day before.",
            f"Okay, Thursday it is. Thanks, bye. {END_MARKER}",
        ],
    ),
    "escalating_anger": (
        RESCHEDULE,
        "angry",
        {"trigger": "you have to repeat yourself"},
        [
            "I need to move my Tuesday cleaning. Quickly, please.",
            "June 12, 1984. Can we get on with it?",
            "Thursday afternoon. Two. And text me the day before. This is taking forever.",
            f"Fine. Bye. {END_MARKER}",
        ],
    ),
}


def _system_of(body: dict[str, Any], api: str) -> str:
    request = parse_openai(body) if api == "openai" else parse_anthropic(body)
    return request.system


def _run(task: Task, model: str, base_url: str) -> EpisodeResult:
    callers = llm_caller_factory(
        model, {"temperature": 0.7, "seed": 7} if model.startswith("openai") else {}, base_url
    )
    return asyncio.run(
        run_episode(task, initial_tables(task), reference_factory("oracle"), callers)
    )


@pytest.mark.parametrize("tactic", sorted(CASES))
def test_llm_caller_plays_each_tactic_through_the_server(
    tactic: str, mini_tasks: dict[str, Task], local_server: Any
) -> None:
    task_id, temperament, params, replies = CASES[tactic]
    task = with_caller(
        mini_tasks[task_id], temperament=temperament, tactics=(Tactic(tactic, params),)
    )
    local_server.reset(ScriptedAssistant(replies))

    result = _run(task, "openai/caller-model", local_server.openai_base_url)

    received = [r for r in local_server.requests if r.status == 200]
    system = _system_of(received[0].body, "openai")
    print(f"\n--- persona prompt for {tactic} ---\n{system}\n")
    assert bind(Tactic(tactic, params)).prompt(task.caller) in system
    assert END_MARKER in system  # told how to end the call
    assert not received[0].body.get("tools")  # the caller model is given no tools
    assert received[0].body.get("temperature") == 0.7 and received[0].body.get("seed") == 7

    caller_lines = [u.text for u in result.transcript if u.speaker == "caller"]
    assert result.endings == ["caller_hung_up"]
    assert len(caller_lines) == len(replies)
    assert caller_lines[-1] == replies[-1].replace(END_MARKER, "").strip()
    assert all(END_MARKER not in line for line in caller_lines)
    assert result.caller_flags == []
    assert check_fidelity(task, result) == []


def test_caller_model_sees_only_spoken_words_with_roles_reversed(
    mini_tasks: dict[str, Task], local_server: Any
) -> None:
    task = mini_tasks[RESCHEDULE]
    replies = CASES["escalating_anger"][3]
    local_server.reset(ScriptedAssistant(replies))

    _run(task, "openai/caller-model", local_server.openai_base_url)

    last = parse_openai([r for r in local_server.requests if r.status == 200][-1].body)
    roles = [m.role for m in last.messages]
    assert roles[0] == "user" and roles[-1] == "user"
    assert all(a != b for a, b in pairwise(roles))  # alternating
    assert last.messages[0].content == task.business.greeting
    assert all(not m.tool_calls and not m.tool_results for m in last.messages)
    spoken = " ".join(m.content for m in last.messages)
    assert "find_customer" not in spoken and "reschedule_appointment" not in spoken


def test_llm_caller_through_the_anthropic_route_ends_on_the_marker(
    mini_tasks: dict[str, Task], local_server: Any
) -> None:
    task = mini_tasks[FEE]
    replies = CASES["exception_request"][3]
    local_server.reset(ScriptedAssistant(replies))

    result = _run(task, "anthropic/caller-model", local_server.anthropic_base_url)

    body = next(r for r in local_server.requests if r.status == 200).body
    assert "Sam Okafor" in _system_of(body, "anthropic")
    assert result.endings == ["caller_hung_up"]
    assert result.transcript[-1].speaker == "caller"
    assert END_MARKER not in result.transcript[-1].text
