"""No assistant but a reference one is given the answer key (issue 10).

Over every task of the public and fixture sets: a ``python:`` agent's factory is called with an
:class:`EpisodeContext` alone (business, seed, trial), and neither the requests it answers nor
the request bodies the OpenAI (Chat Completions and Responses), Anthropic and litellm adapters
send to the local server contain anything of the task's reference plan (its say lines and call
arguments, the pushover and reckless branches too), its expectations, its fault schedule, its
caller's goal and knowledge, title or id -- except what the assistant legitimately saw anyway
(the system prompt, the tools, what the caller said, what tools returned).

And the old trick of wrapping ``reference/oracle`` in a custom agent scores nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from adapters.custom import make_factory as custom_factory
from adapters.server import EchoAssistant
from businesses import PUBLIC_DIR, initial_tables, load_set
from callers import scripted_caller_factory
from contract.assistant import EpisodeContext
from opsbench.errors import AgentCrashError
from opsbench.runner import RunConfig, run_evaluation
from opsbench.store import Store
from sandbox.episode import EpisodeResult, run_episode
from sandbox.prompt import system_prompt
from sandbox.task import Task
from tests.adapters import spy_agents
from tests.adapters.support import ANTHROPIC, LITELLM, OPENAI_CHAT, OPENAI_RESPONSES, factory
from tests.helpers import MINI

TASKS = [*load_set(PUBLIC_DIR)[1], *load_set(MINI)[1]]
WIRE = {
    "openai-chat": OPENAI_CHAT,
    "openai-responses": OPENAI_RESPONSES,
    "anthropic": ANTHROPIC,
    "litellm": LITELLM,
}


def _leaves(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item)
            if key not in ("say", "call", "args"):
                yield str(key)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _leaves(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield from _leaves(dataclasses.asdict(value))
    elif value is not None and not isinstance(value, bool):
        yield str(value)


def answer_key(task: Task) -> set[str]:
    """Every string of the task that only the harness (and a reference assistant) may know."""
    secret: list[Any] = [task.id, task.title, task.coverage, task.expect, task.faults]
    for session in task.sessions:
        secret += [session.oracle, session.caller.goal, session.caller.knows]
    # Plain lower-case words ("keep", "completed") are field values any HTTP exchange may hold;
    # ids, dates, amounts, names and sentences are what would give a plan away.
    return {s for s in _leaves(secret) if len(s) >= 4 and not re.fullmatch(r"[a-z_]+", s)}


def seen_legitimately(task: Task, result: EpisodeResult) -> str:
    """What the assistant may see: prompts, tools, the caller's words, what the tools returned."""
    parts = [system_prompt(task.business, session.at) for session in task.sessions]
    parts.append(json.dumps([dataclasses.asdict(t) for t in _tools(task)], default=str))
    parts += [u.text for u in result.transcript]
    parts += [json.dumps(r.result) + r.raw_arguments for r in result.trace]
    return "\n".join(parts)


def _tools(task: Task) -> Any:
    from sandbox.episode import business_tools

    return business_tools(task.business, initial_tables(task)).specs()


def leaked(task: Task, result: EpisodeResult, given: str) -> list[str]:
    """The answer-key strings in ``given`` that the assistant had no other way to see."""
    legit = seen_legitimately(task, result)
    hidden = [s for s in answer_key(task) if s not in legit]
    # As a whole word (2500 is not in 12500); JSON escapes quotes and non-ASCII: both spellings.
    return [
        s
        for s in hidden
        if any(
            re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", given)
            for form in {s, json.dumps(s)[1:-1]}
        )
    ]


def _run(task: Task, make) -> EpisodeResult:  # type: ignore[no-untyped-def]
    return asyncio.run(run_episode(task, initial_tables(task), make, scripted_caller_factory))


def test_episode_context_carries_only_the_business_seed_and_trial():
    assert [f.name for f in dataclasses.fields(EpisodeContext)] == ["business", "seed", "trial"]


def test_the_key_is_there_to_find():
    # The check below could not fail if the tasks hid nothing: every task has a hidden plan.
    for task in TASKS:
        result = _run(task, custom_factory("tests.adapters.spy_agents:Spy", {}))
        hidden = [s for s in answer_key(task) if s not in seen_legitimately(task, result)]
        assert len(hidden) >= 3, task.id


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_a_python_agent_is_given_no_answer_key(task: Task):
    spy_agents.CALLS.clear()
    spy_agents.REQUESTS.clear()
    result = _run(task, custom_factory("tests.adapters.spy_agents:Spy", {}))
    assert len(spy_agents.CALLS) == len(task.sessions)
    for args, kwargs in spy_agents.CALLS:
        assert kwargs == {} and len(args) == 1 and type(args[0]) is EpisodeContext
        assert args[0] == EpisodeContext(task.business.id, 0, 0)
    given = "\n".join(
        json.dumps(
            {
                "system": r.system,
                "tools": [dataclasses.asdict(t) for t in r.tools],
                "messages": [m.to_dict() for m in r.messages],
            },
            default=str,
        )
        for r in spy_agents.REQUESTS
    )
    assert spy_agents.REQUESTS and leaked(task, result, given) == []


@pytest.mark.parametrize("path", WIRE)
def test_no_adapter_sends_the_answer_key_over_the_wire(server, retry, path: str):
    model = WIRE[path]
    for task in TASKS:
        server.reset(EchoAssistant())
        result = _run(task, factory(server, model, retry))
        assert not result.infrastructure_error, result.error
        bodies = "\n".join(
            json.dumps(r.body, ensure_ascii=False) + json.dumps(dict(r.headers))
            for r in server.requests
        )
        assert server.requests and leaked(task, result, bodies) == [], task.id


def _run_cheat(tmp_path, agent: str) -> tuple[Store, AgentCrashError]:  # type: ignore[no-untyped-def]
    store = Store(tmp_path / f"{agent}.db")
    with pytest.raises(AgentCrashError) as info:
        run_evaluation(_config(agent), store)
    return store, info.value


def _config(agent: str) -> RunConfig:
    return RunConfig(models=(f"python:tests.adapters.spy_agents:{agent}",), sets=(str(MINI),))


@pytest.mark.parametrize("agent", ["oracle_by_registry", "oracle_by_reference"])
def test_wrapping_the_oracle_in_a_custom_agent_scores_nothing(tmp_path, agent: str):
    store, crash = _run_cheat(tmp_path, agent)
    # The agent cannot even be set up: the oracle wants a briefing no custom agent is given.
    assert isinstance(crash.error, TypeError) and "brief" in str(crash.error)
    [run_id] = store.run_ids()
    assert store.episodes(run_id) == []
    store.close()


def test_an_oracle_briefed_from_the_context_knows_nothing_and_does_nothing(tmp_path):
    store = Store(tmp_path / "o.db")
    cheat = run_evaluation(_config("oracle_briefed_from_context"), store).run_id
    honest = run_evaluation(_config("Spy"), store).run_id
    episodes = store.episodes(cheat, full=True)
    assert len(episodes) == len(load_set(MINI)[1])
    # No plan reached it: it made no tool call at all, and passes no task a do-nothing agent
    # does not pass as well.
    assert all(e.result["trace"] == [] for e in episodes)
    passed = {e.task_id for e in episodes if e.score["passed"]}
    assert passed <= {e.task_id for e in store.episodes(honest) if e.score["passed"]}
    store.close()
