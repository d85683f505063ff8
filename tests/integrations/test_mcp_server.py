"""`opsbench mcp`: the official MCP client lists and calls a task's tools over stdio and HTTP,
and the same calls leave the same ledger and state diff as through the OpenAI route."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed (uv sync --extra mcp)")

from mcp import Client, StdioServerParameters

from adapters.registry import make_factory
from opsbench.commands.serve import task_assistant
from sandbox.diff import diff
from sandbox.episode import business_tools
from sandbox.prompt import system_prompt
from sandbox.scorer import score_episode
from sandbox.task import Task
from tests.integrations.support import run, tasks_by_shape

TASKS = tasks_by_shape("writes", "tool-fault", "transfer")


def _command(task: Task, *extra: str) -> list[str]:
    return [sys.executable, "-m", "opsbench", "mcp", "--task", task.id, *extra]


def _stdio(task: Task, record: Path) -> StdioServerParameters:
    command = _command(task, "--record", str(record))
    return StdioServerParameters(command=command[0], args=command[1:])


@pytest.fixture
def http_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``opsbench mcp --task T --port 0`` in a subprocess: its URL and its record file."""
    task: Task = request.param
    record = tmp_path / "http.json"
    proc = subprocess.Popen(
        _command(task, "--port", "0", "--record", str(record)),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", line)
        assert match, f"no URL in {line!r}"
        yield match.group(1), record
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _oracle_over_openai(server, task: Task):  # type: ignore[no-untyped-def]
    """The task's oracle through the OpenAI SDK to the local server: a real episode."""
    server.reset(task_assistant(task, "reference/oracle"))
    result = run(task, make_factory("openai/gpt-4.1", {}, server.openai_base_url))
    assert not result.infrastructure_error, result.error
    return result


async def _replay(client: Client, trace: list[Any]) -> list[tuple[bool, Any]]:
    """Every call of ``trace``, in order, through the MCP client: (is_error, payload) each."""
    answers = []
    for call in trace:
        result = await client.call_tool(call.tool, json.loads(call.raw_arguments or "{}"))
        answers.append((result.is_error, json.loads(result.content[0].text)))
    return answers


def _without_call_ids(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Call ids are transport-specific (the model's on the OpenAI route, mcp-<n> over MCP).
    return [{k: v for k, v in e.items() if k != "call_id"} for e in entries]


def _same_as_episode(record: dict[str, Any], answers: list[tuple[bool, Any]], result) -> None:  # type: ignore[no-untyped-def]
    assert answers == [(not t.ok, t.result) for t in result.trace]
    assert _without_call_ids(record["ledger"]) == _without_call_ids(
        [e.to_dict() for e in result.ledger]
    )
    assert record["diff"] == [r.to_dict() for r in diff(result.initial, result.final)]
    assert record["diff"], "the replayed calls changed nothing: the comparison would be empty"


@pytest.mark.parametrize("shape", TASKS)
def test_stdio_calls_leave_the_ledger_and_diff_of_the_openai_route(server, shape, tmp_path):
    task = TASKS[shape]
    episode = _oracle_over_openai(server, task)
    assert score_episode(task, episode).passed
    record_path = tmp_path / "stdio.json"

    async def session() -> list[tuple[bool, Any]]:
        async with Client(_stdio(task, record_path)) as client:
            return await _replay(client, episode.trace)

    answers = asyncio.run(session())
    _same_as_episode(json.loads(record_path.read_text()), answers, episode)


@pytest.mark.parametrize("http_server", [TASKS["tool-fault"]], indirect=True)
def test_http_calls_leave_the_ledger_and_diff_of_the_openai_route(server, http_server):
    url, record_path = http_server
    task = TASKS["tool-fault"]
    episode = _oracle_over_openai(server, task)
    assert any(not t.ok for t in episode.trace), "the fault task should see a failing call"

    async def session() -> list[tuple[bool, Any]]:
        async with Client(url) as client:
            return await _replay(client, episode.trace)

    answers = asyncio.run(session())
    _same_as_episode(json.loads(record_path.read_text()), answers, episode)


@pytest.mark.parametrize("http_server", [TASKS["writes"]], indirect=True)
def test_the_listed_tools_and_instructions_are_what_a_model_is_sent(http_server):
    url, _record = http_server
    task = TASKS["writes"]

    async def listing() -> tuple[list[Any], str | None]:
        async with Client(url) as client:
            return (await client.list_tools()).tools, client.instructions

    tools, instructions = asyncio.run(listing())
    specs = business_tools(task.business).specs()
    assert [(t.name, t.description, t.input_schema) for t in tools] == [
        (s.name, s.description, s.parameters) for s in specs
    ]
    assert instructions == system_prompt(task.business, task.sessions[0].at)


def test_bad_calls_get_opsbench_tool_errors_and_a_transfer_ends_the_call(tmp_path):
    task = TASKS["writes"]
    record_path = tmp_path / "errors.json"

    async def session() -> list[tuple[bool, Any]]:
        async with Client(_stdio(task, record_path)) as client:
            calls = [
                ("no_such_tool", {}),
                ("book_appointment", {"unexpected": 1}),
                ("transfer_to_human", {"reason": "test", "summary": "handing over"}),
                ("find_customer", {"name": "anyone"}),
            ]
            out = []
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                out.append((result.is_error, json.loads(result.content[0].text)))
            return out

    answers = asyncio.run(session())
    codes = [a[1].get("error", {}).get("code") if a[0] else None for a in answers]
    assert codes == ["unknown_tool", "invalid_arguments", None, "call_ended"]
    record = json.loads(record_path.read_text())
    assert [t["outcome"] for t in record["trace"]] == ["rejected", "rejected", "ok"]
    assert record["call_ended"] is True
    assert [row["table"] for row in record["diff"]] == ["escalations"]


def test_an_unknown_task_is_one_line_and_exit_2():
    proc = subprocess.run(
        [sys.executable, "-m", "opsbench", "mcp", "--task", "nope/none"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "unknown task 'nope/none'" in proc.stderr
    assert "Traceback" not in proc.stderr
