"""An agent whose tools are MCP, scored like any other assistant.

The agent is plugged in as an ordinary ``python:`` factory that returns
``mcp_assistant(MyAgent(...))``. For each caller turn the harness builds an MCP server offering
exactly the tools of the episode's request (with their schemas and the business's instructions)
and connects an official ``mcp.Client`` to it in process; the agent lists and calls tools through
that client as it would against any MCP server. Each call goes through the episode loop, so it
acts on *this* episode's world, with its ledger, faults and tool errors (see
:mod:`opsbench.integrations.bridge`).

The agent is never told which task it is in, and never has to find a server: the harness hands
it the one for its episode. The same agent pointed at ``opsbench mcp --task T`` (stdio or HTTP)
sees the same tools and instructions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from opsbench.integrations.bridge import AgentTurn, BridgeAssistant
from opsbench.integrations.mcp_tools import DoorAnswer, require_mcp, tool_server

if TYPE_CHECKING:
    from mcp import Client


class MCPAgent(Protocol):
    """An agent with its own loop whose tools come through ``client``; returns its reply."""

    async def run(self, turn: AgentTurn, client: Client) -> str: ...


class _ThroughMCP:
    """Runs an :class:`MCPAgent` with a client connected to this turn's in-process server."""

    def __init__(self, agent: MCPAgent, server_name: str) -> None:
        self.agent = agent
        self.server_name = server_name

    async def run(self, turn: AgentTurn) -> str:
        from mcp import Client

        async def door(name: str, arguments: Mapping[str, Any] | None) -> DoorAnswer:
            answer = await turn.call(name, dict(arguments or {}))
            return DoorAnswer(answer.payload(), ok=not answer.is_error)

        server = tool_server(
            turn.tools, door, name=self.server_name, instructions=turn.instructions
        )
        # The client lives inside this run's task: its transport's task group must be entered
        # and left in the same task.
        async with Client(server) as client:
            return await self.agent.run(turn, client)

    async def aclose(self) -> None:
        close = getattr(self.agent, "aclose", None)
        if close is not None:
            await close()


def mcp_assistant(agent: MCPAgent, *, server_name: str = "opsbench-business") -> BridgeAssistant:
    """An OpsBench assistant running ``agent`` against its episode's MCP server."""
    require_mcp()
    return BridgeAssistant(_ThroughMCP(agent, server_name))
