"""End to end: real tasks from the public store, real tools, the scorer — run once in-process
with a reference assistant, and once through each adapter (official SDK over HTTP to the local
server, which the same reference assistant answers). Everything must come out the same."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from adapters.reference import reference_factory
from adapters.registry import make_factory
from businesses import PUBLIC_DIR, load_set
from businesses.loader import initial_tables
from callers import scripted_caller_factory
from opsbench.commands.serve import task_assistant
from sandbox.episode import EpisodeResult, run_episode
from sandbox.scorer import score_episode
from sandbox.task import Task
from tests.adapters.support import (
    ANTHROPIC,
    LITELLM,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    base_url,
    factory,
    readme_example,
)


def _pick_tasks() -> dict[str, Task]:
    """One task of each shape the public set has, chosen by shape, not by id."""
    _businesses, tasks = load_set(PUBLIC_DIR)
    shapes = {
        "writes": lambda t: len(t.sessions) == 1 and not t.faults and not t.expect.escalate,
        "transfer": lambda t: len(t.sessions) == 1 and t.expect.escalate,
        "tool-fault": lambda t: len(t.sessions) == 1 and bool(t.faults),
        "multi-session": lambda t: len(t.sessions) > 1,
    }
    return {shape: next(t for t in tasks if test(t)) for shape, test in shapes.items()}


TASKS = _pick_tasks()
PATHS: dict[str, tuple[str, dict[str, Any]]] = {
    "openai-chat": (OPENAI_CHAT, {}),
    "openai-responses": (OPENAI_RESPONSES, {"api": "responses"}),
    "anthropic": (ANTHROPIC, {}),
    "anthropic-thinking": (ANTHROPIC, {"thinking": 2048}),
    "litellm": (LITELLM, {}),
    "python-agent": ("python:readme_agents:HouseStyleAgent", {"model": OPENAI_CHAT}),
}


@pytest.fixture(scope="module", autouse=True)
def readme_agents(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The README's custom agent, importable as ``readme_agents``."""
    folder = tmp_path_factory.mktemp("agents")
    (folder / "readme_agents.py").write_text(readme_example(), encoding="utf-8")
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("readme_agents", None)


def _run(task: Task, make_assistant) -> EpisodeResult:  # type: ignore[no-untyped-def]
    return asyncio.run(
        run_episode(task, initial_tables(task), make_assistant, scripted_caller_factory)
    )


def _through(server, path: str, retry):  # type: ignore[no-untyped-def]
    model, options = PATHS[path]
    if model.startswith("python:"):
        inner = options["model"]
        return make_factory(model, options, base_url(server, inner))
    return factory(server, model, retry, options)


def _same(result: EpisodeResult, expected: EpisodeResult, task: Task) -> None:
    assert not result.infrastructure_error, result.error
    assert score_episode(task, result).to_dict() == score_episode(task, expected).to_dict()
    assert [u.to_dict() for u in result.transcript] == [u.to_dict() for u in expected.transcript]
    assert [e.to_dict() for e in result.ledger] == [e.to_dict() for e in expected.ledger]
    assert result.endings == expected.endings


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", TASKS)
def test_the_oracle_scores_the_same_through_every_adapter(server, retry, shape, path):
    task = TASKS[shape]
    expected = _run(task, reference_factory("oracle"))
    assert score_episode(task, expected).passed  # the baseline is a real pass
    server.reset(task_assistant(task, "reference/oracle"))
    _same(_run(task, _through(server, path, retry)), expected, task)
    assert all(r.status == 200 for r in server.requests)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("flaw", ["partial", "overclaimer"])
def test_a_flawed_reference_scores_the_same_through_every_adapter(server, retry, flaw, path):
    task = TASKS["tool-fault"]
    expected = _run(task, reference_factory(flaw))
    assert not score_episode(task, expected).passed  # the flaw is caught in-process…
    server.reset(task_assistant(task, f"reference/{flaw}"))
    _same(_run(task, _through(server, path, retry)), expected, task)  # …and over the wire


def test_the_chosen_tasks_are_four_different_tasks():
    assert len({t.id for t in TASKS.values()}) == len(TASKS) == 4
