"""Inspect AI's model as an OpsBench assistant: ``TurnRequest`` ↔ Inspect's chat messages.

Each turn is translated afresh from the neutral conversation (system prompt, caller lines,
assistant text and tool calls with their ids, tool results with their error flags) into
Inspect's ``ChatMessage`` list and ``ToolInfo`` specs, and ``Model.generate``'s output back into
an :class:`~contract.messages.AssistantTurn`. Tool calls are run by the OpsBench episode, never
by Inspect, so they go through the world and its ledger as on every other route.

Inspect's ``ToolParams`` hold the JSON Schema keywords Inspect models; others (``minItems``,
``maxItems``) are not shown to the model, but the world still validates every call against the
full schema. Tool results, failed ones included, reach the model as OpsBench's JSON payload,
exactly as through the OpenAI adapter. A tool call whose arguments Inspect could not parse reaches the world as text that
is not JSON, so the model gets OpsBench's ``invalid_json`` error, as on any route.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    Model,
    ModelOutput,
)
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.tool import ToolInfo, ToolParams

from contract.messages import AssistantTurn, Message, ToolCall, TurnRequest, Usage
from tools.registry import ToolSpec


def tool_infos(specs: Iterable[ToolSpec]) -> list[ToolInfo]:
    """OpsBench tool specs as Inspect ``ToolInfo`` (name, description, JSON Schema)."""
    return [
        ToolInfo(
            name=s.name,
            description=s.description,
            parameters=ToolParams.model_validate(s.parameters),
        )
        for s in specs
    ]


def _arguments(text: str) -> tuple[dict[str, Any], str | None]:
    try:
        value = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        return {}, f"not valid JSON: {exc}"
    return (value, None) if isinstance(value, dict) else ({}, "not a JSON object")


def chat_messages(system: str, messages: Iterable[Message]) -> list[ChatMessage]:
    """The conversation as Inspect chat messages, system prompt first."""
    out: list[ChatMessage] = [ChatMessageSystem(content=system)]
    for message in messages:
        if message.role == "user":
            out.append(ChatMessageUser(content=message.content))
        elif message.role == "assistant":
            calls = []
            for call in message.tool_calls:
                arguments, problem = _arguments(call.arguments)
                calls.append(
                    InspectToolCall(
                        id=call.id, function=call.name, arguments=arguments, parse_error=problem
                    )
                )
            out.append(ChatMessageAssistant(content=message.content, tool_calls=calls or None))
        else:
            # A failed call keeps OpsBench's JSON error as its content, as on the OpenAI route;
            # Inspect's ToolCallError would be rendered differently by each provider.
            out.extend(
                ChatMessageTool(content=r.content, tool_call_id=r.call_id, function=r.name)
                for r in message.tool_results
            )
    return out


def assistant_turn(output: ModelOutput) -> AssistantTurn:
    """Inspect's model output as an OpsBench turn (text and tool calls with their ids)."""
    message = output.message
    calls = []
    for index, call in enumerate(message.tool_calls or []):
        arguments = (
            call.parse_error  # not JSON: the world answers it with invalid_json
            if call.parse_error is not None
            else json.dumps(call.arguments, ensure_ascii=False)
        )
        calls.append(ToolCall(call.id or f"call_{index}", call.function, arguments))
    usage = Usage(requests=1)
    if output.usage is not None:
        usage = Usage(
            input_tokens=output.usage.input_tokens,
            output_tokens=output.usage.output_tokens,
            cached_tokens=output.usage.input_tokens_cache_read or 0,
            reasoning_tokens=output.usage.reasoning_tokens or 0,
            requests=1,
            cost_usd=output.usage.total_cost,
        )
    return AssistantTurn(text=message.text, tool_calls=tuple(calls), usage=usage)


class InspectAssistant:
    """Answers each OpsBench turn with one ``Model.generate`` call of Inspect's model."""

    def __init__(self, model: Model) -> None:
        self.model = model

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        output = await self.model.generate(
            chat_messages(request.system, request.messages), tools=tool_infos(request.tools)
        )
        return assistant_turn(output)
