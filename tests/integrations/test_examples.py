"""Every example agent under examples/ runs real episodes of public tasks against the local
model server (answered by a reference assistant for the task, no key) and is scored exactly as
the same reference assistant is in process: same score, transcript, ledger and endings."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.reference import reference_factory
from adapters.registry import make_factory
from opsbench.commands.serve import task_assistant
from sandbox.episode import EpisodeResult
from sandbox.scorer import score_episode
from sandbox.task import Task
from tests.integrations.support import run, tasks_by_shape

EXAMPLES = {
    "mcp-tools": ("examples.mcp_tools_agent", "mcp"),
    "openai-agents-sdk": ("examples.openai_agents_sdk", "agents"),
    "langgraph": ("examples.langgraph_agent", "langgraph"),
}
TASKS = tasks_by_shape("writes", "tool-fault", "transfer", "multi-session")


def _example(name: str) -> str:
    module, package = EXAMPLES[name]
    pytest.importorskip(
        package, reason=f"{name} needs the examples extra (uv sync --extra examples)"
    )
    return f"python:{module}:make"


def _ledger(result: EpisodeResult) -> list[dict[str, Any]]:
    # The call ids are the agent's own (the bridge names them); everything else must match.
    return [{k: v for k, v in e.to_dict().items() if k != "call_id"} for e in result.ledger]


def _same(result: EpisodeResult, expected: EpisodeResult, task: Task) -> None:
    assert not result.infrastructure_error, result.error
    assert score_episode(task, result).to_dict() == score_episode(task, expected).to_dict()
    spoken = [(u.session, u.speaker, u.text) for u in result.transcript]
    assert spoken == [(u.session, u.speaker, u.text) for u in expected.transcript]
    assert [len(u.tool_calls) for u in result.transcript] == [
        len(u.tool_calls) for u in expected.transcript
    ]
    assert _ledger(result) == _ledger(expected)
    assert result.endings == expected.endings


@pytest.mark.parametrize("shape", TASKS)
@pytest.mark.parametrize("example", EXAMPLES)
def test_each_example_scores_like_the_oracle_it_is_served(server, example, shape):
    model = _example(example)
    task = TASKS[shape]
    expected = run(task, reference_factory("oracle"))
    assert score_episode(task, expected).passed
    server.reset(task_assistant(task, "reference/oracle"))
    _same(run(task, make_factory(model, {}, server.openai_base_url)), expected, task)
    assert server.requests and all(r.status == 200 for r in server.requests)


@pytest.mark.parametrize("flaw", ["partial", "sentiment"])
@pytest.mark.parametrize("example", EXAMPLES)
def test_each_example_is_failed_like_a_flawed_assistant(server, example, flaw):
    model = _example(example)
    task = TASKS["tool-fault"] if flaw == "partial" else TASKS["transfer"]
    expected = run(task, reference_factory(flaw))
    assert not score_episode(task, expected).passed  # the flaw is caught in process…
    server.reset(task_assistant(task, f"reference/{flaw}"))
    _same(run(task, make_factory(model, {}, server.openai_base_url)), expected, task)  # …and here


def test_the_examples_name_options_they_do_not_take(server):
    from adapters.errors import UnsupportedOptionError

    with pytest.raises(UnsupportedOptionError, match="temperature"):
        make_factory(_example("langgraph"), {"temperature": 0}, server.openai_base_url)
