"""An OpenAI Agents SDK agent (``openai-agents``) as an OpsBench assistant.

    opsbench run -m python:examples.openai_agents_sdk:make -M model=gpt-4.1

The SDK runs its own loop (``Runner.run``); each business tool is a ``FunctionTool`` whose
invocation is handed to the OpsBench episode (``turn.call``), so the call acts on the episode's
world and is scored like any other. The agent keeps the SDK's own history between caller turns.
"""

from __future__ import annotations

from typing import Any

from agents import (
    Agent,
    FunctionTool,
    ModelResponse,
    OpenAIResponsesModel,
    RunConfig,
    RunContextWrapper,
    RunHooks,
    Runner,
)
from agents.items import TResponseInputItem
from agents.tool_context import ToolContext

from contract.assistant import EpisodeContext
from contract.messages import Usage
from examples._openai_client import as_provider_errors, async_client
from opsbench.integrations.bridge import AgentTurn, BridgeAssistant


class _SayAlongsideCalls(RunHooks[Any]):
    """Hands the text of a response that also calls tools to the caller, with the calls."""

    def __init__(self, turn: AgentTurn) -> None:
        self.turn = turn

    async def on_llm_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], response: ModelResponse
    ) -> None:
        usage = response.usage
        self.turn.add_usage(Usage(usage.input_tokens, usage.output_tokens, requests=1))
        kinds = {getattr(item, "type", None) for item in response.output}
        if "function_call" not in kinds:
            return
        for item in response.output:
            if getattr(item, "type", None) == "message":
                for part in item.content:
                    self.turn.say(getattr(part, "text", "") or "")


def _tool(turn: AgentTurn, name: str, description: str, schema: dict[str, Any]) -> FunctionTool:
    async def invoke(_context: ToolContext[Any], arguments: str) -> str:
        return (await turn.call(name, arguments)).content

    # Not strict: OpsBench's schemas have optional fields, which strict mode cannot express.
    return FunctionTool(
        name=name,
        description=description,
        params_json_schema=schema,
        on_invoke_tool=invoke,
        strict_json_schema=False,
    )


class AgentsSDKAgent:
    """One ``agents.Agent`` per caller turn (same tools and instructions), one history per call."""

    def __init__(self, model: str, base_url: str | None, max_turns: int) -> None:
        self.client = async_client(base_url)
        self.model = OpenAIResponsesModel(model=model, openai_client=self.client)
        self.max_turns = max_turns
        self.history: list[TResponseInputItem] = []

    async def run(self, turn: AgentTurn) -> str:
        agent = Agent(
            name="assistant",
            instructions=turn.instructions,
            model=self.model,
            tools=[_tool(turn, s.name, s.description, s.parameters) for s in turn.tools],
        )
        items: list[TResponseInputItem] = [
            *self.history,
            *({"role": "user", "content": line} for line in turn.caller),
        ]
        result = await as_provider_errors(
            lambda: Runner.run(
                agent,
                items,
                max_turns=self.max_turns,
                hooks=_SayAlongsideCalls(turn),
                # No traces leave the machine: the SDK would otherwise upload them to OpenAI.
                run_config=RunConfig(tracing_disabled=True),
            )
        )
        self.history = result.to_input_list()
        return str(result.final_output or "")

    async def aclose(self) -> None:
        await self.client.close()


def make(
    context: EpisodeContext,
    model: str = "gpt-4.1",
    base_url: str | None = None,
    max_turns: int = 12,
) -> BridgeAssistant:
    """``python:examples.openai_agents_sdk:make`` (options: ``model``, ``max_turns``)."""
    return BridgeAssistant(AgentsSDKAgent(model, base_url, int(max_turns)))
