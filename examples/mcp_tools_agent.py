"""An agent whose tools come through MCP: it lists them from its MCP client, shows them to an
OpenAI-compatible model, and calls them through the client.

    opsbench run -m python:examples.mcp_tools_agent:make -M model=gpt-4.1

Inside an OpsBench episode the client is connected to a server the harness builds for that
episode (``opsbench.integrations.mcp_agent``); the same agent works against
``opsbench mcp --task T`` or any other MCP server.
"""

from __future__ import annotations

import json
from typing import Any

from mcp import Client

from contract.assistant import EpisodeContext
from contract.messages import Usage
from examples._openai_client import as_provider_errors, async_client
from opsbench.integrations.bridge import AgentTurn, BridgeAssistant
from opsbench.integrations.mcp_agent import mcp_assistant
from opsbench.integrations.mcp_tools import result_text


class MCPToolsAgent:
    """A plain tool loop over Chat Completions whose tools are an MCP server's."""

    def __init__(self, model: str, base_url: str | None, max_steps: int) -> None:
        self.model = model
        self.openai = async_client(base_url)
        self.max_steps = max_steps
        # The agent's own memory of the call, as its model saw it.
        self.messages: list[dict[str, Any]] = []

    async def run(self, turn: AgentTurn, client: Client) -> str:
        if not self.messages:
            self.messages.append({"role": "system", "content": client.instructions or ""})
        listed = await client.list_tools()
        tools = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description or "",
                    "parameters": t.input_schema,
                },
            }
            for t in listed.tools
        ]
        self.messages.extend({"role": "user", "content": line} for line in turn.caller)
        for _step in range(self.max_steps):
            response = await as_provider_errors(
                lambda: self.openai.chat.completions.create(
                    model=self.model, messages=self.messages, tools=tools
                )
            )
            if response.usage is not None:
                turn.add_usage(
                    Usage(
                        response.usage.prompt_tokens,
                        response.usage.completion_tokens,
                        requests=1,
                    )
                )
            message = response.choices[0].message
            entry: dict[str, Any] = {"role": "assistant", "content": message.content}
            calls = message.tool_calls or []
            if calls:
                entry["tool_calls"] = [c.model_dump() for c in calls]
            self.messages.append(entry)
            if not calls:
                return message.content or ""
            turn.say(message.content or "")
            for call in calls:
                self.messages.append(
                    {
                        "role": "tool",
                        "tool_call_id": call.id,
                        "content": await _call(turn, client, call.function),
                    }
                )
        return "I'm sorry, I need to check something; let me transfer you to a colleague."

    async def aclose(self) -> None:
        await self.openai.close()


async def _call(turn: AgentTurn, client: Client, function: Any) -> str:
    try:
        arguments = json.loads(function.arguments or "{}")
    except json.JSONDecodeError:
        arguments = None
    if not isinstance(arguments, dict):
        # MCP carries arguments as an object; text that is not one goes to the same door raw,
        # so the model gets OpsBench's own `invalid_json` error for it.
        return (await turn.call(function.name, function.arguments)).content
    return result_text(await client.call_tool(function.name, arguments))


def make(
    context: EpisodeContext,
    model: str = "gpt-4.1",
    base_url: str | None = None,
    max_steps: int = 12,
) -> BridgeAssistant:
    """``python:examples.mcp_tools_agent:make`` (options: ``model``, ``max_steps``)."""
    return mcp_assistant(MCPToolsAgent(model, base_url, int(max_steps)))
