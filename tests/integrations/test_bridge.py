"""The bridge between an agent's own tool loop and the episode loop, with plain agents (no
framework) on a real task: concurrent calls, results, errors, cancellation, MCP."""

from __future__ import annotations

import asyncio
import json

import pytest

from opsbench.integrations.bridge import AgentTurn, BridgeAssistant
from sandbox.episode import Limits, run_episode
from tests.integrations.support import tasks_by_shape

TASK = tasks_by_shape("writes")["writes"]


def _episode(agent_factory, limits: Limits | None = None):  # type: ignore[no-untyped-def]
    from businesses import initial_tables
    from callers import scripted_caller_factory

    return asyncio.run(
        run_episode(
            TASK,
            initial_tables(TASK),
            lambda _context: BridgeAssistant(agent_factory()),
            scripted_caller_factory,
            limits=limits or Limits(),
        )
    )


class Gatherer:
    """Calls two tools at once (as frameworks run parallel calls), then answers."""

    def __init__(self) -> None:
        self.seen: list[tuple[bool, dict]] = []

    async def run(self, turn: AgentTurn) -> str:
        turn.say("Let me look that up.")
        answers = await asyncio.gather(
            turn.call("list_services", {}),
            turn.call("find_customer", '{"name": "nobody at all"}'),
            turn.call("book_appointment", "{not json"),
        )
        self.seen.extend((a.is_error, a.payload()) for a in answers)
        return "Thanks for calling."


def test_concurrent_calls_are_one_turn_run_by_the_episode_in_order():
    agents: list[Gatherer] = []

    def make() -> Gatherer:
        agents.append(Gatherer())
        return agents[-1]

    result = _episode(make)
    first = next(u for u in result.transcript if u.speaker == "assistant" and u.tool_calls)
    assert first.text == "Let me look that up."
    assert [c["name"] for c in first.tool_calls] == [
        "list_services",
        "find_customer",
        "book_appointment",
    ]
    calls = [t for t in result.trace if t.session == 0][:3]
    assert [t.tool for t in calls] == ["list_services", "find_customer", "book_appointment"]
    seen = agents[0].seen
    assert seen[0][0] is False and "services" in seen[0][1]
    assert seen[1] == (False, {"matches": [], "count": 0})
    assert seen[2][0] is True and seen[2][1]["error"]["code"] == "invalid_json"
    assert result.ledger[0].outcome == "rejected"  # the bad booking is on the ledger, refused


class Endless:
    """Never stops calling tools: the episode's tool-round limit must end it."""

    cancelled = 0

    async def run(self, turn: AgentTurn) -> str:
        try:
            while True:
                await turn.call("list_services", {})
        except asyncio.CancelledError:
            Endless.cancelled += 1
            raise


def test_a_run_the_episode_will_not_resume_is_cancelled():
    Endless.cancelled = 0
    result = _episode(Endless, Limits(max_turns=5, max_tool_rounds=3))
    assert result.endings == ["tool_round_limit"]
    assert len(result.trace) == 3
    assert Endless.cancelled == 1


class Broken:
    async def run(self, turn: AgentTurn) -> str:
        await turn.call("list_services", {})
        raise ValueError("the agent's own bug")


def test_an_agent_exception_surfaces_from_the_episode():
    with pytest.raises(ValueError, match="the agent's own bug"):
        _episode(Broken)


def test_an_mcp_agent_sees_the_episode_tools_and_instructions():
    pytest.importorskip("mcp")
    from opsbench.integrations.mcp_agent import mcp_assistant
    from sandbox.episode import business_tools
    from sandbox.prompt import system_prompt

    seen: list[tuple[list[str], str | None, str]] = []

    class Lister:
        async def run(self, turn: AgentTurn, client) -> str:  # type: ignore[no-untyped-def]
            tools = (await client.list_tools()).tools
            result = await client.call_tool("find_customer", {"name": "nobody at all"})
            seen.append(([t.name for t in tools], client.instructions, result.content[0].text))
            return "Goodbye."

    from businesses import initial_tables
    from callers import scripted_caller_factory

    result = asyncio.run(
        run_episode(
            TASK,
            initial_tables(TASK),
            lambda _context: mcp_assistant(Lister()),
            scripted_caller_factory,
        )
    )
    names, instructions, text = seen[0]
    assert names == [s.name for s in business_tools(TASK.business).specs()]
    assert instructions == system_prompt(TASK.business, TASK.sessions[0].at)
    assert json.loads(text) == {"matches": [], "count": 0}
    assert [t.tool for t in result.trace][:1] == ["find_customer"]  # run by the episode
