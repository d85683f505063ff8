"""The OpenAI Chat Completions wire format, both ways, as plain JSON-ready dicts.

Used by the ``openai/`` and ``litellm/`` adapters (neutral request -> wire body, wire response
-> neutral turn) and by the local server (wire body -> neutral request, neutral turn -> wire
response). The shapes follow OpenAI's API reference for ``POST /v1/chat/completions``:

- the system prompt is the first message (role ``system``, or ``developer`` for reasoning
  models);
- an assistant message carries ``tool_calls: [{"id", "type": "function", "function":
  {"name", "arguments": "<JSON text>"}}]``;
- each result is its own ``{"role": "tool", "tool_call_id", "content"}`` message, right after
  the assistant message, in call order. The wire has no error flag: a tool error is the
  content itself (``{"error": {...}}``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from adapters.openai_models import is_reasoning_model
from adapters.toolcalls import arguments_text, call_id
from contract.messages import (
    AssistantTurn,
    Message,
    ToolCall,
    ToolResult,
    TurnRequest,
    is_error_content,
)
from tools.formats import to_openai
from tools.registry import ToolSpec

# ---------------------------------------------------------------- adapter side: requests


def request_messages(request: TurnRequest, *, system_role: str = "system") -> list[dict[str, Any]]:
    """The ``messages`` array for ``request``."""
    out: list[dict[str, Any]] = []
    if request.system:
        out.append({"role": system_role, "content": request.system})
    for message in request.messages:
        if message.role == "user":
            out.append({"role": "user", "content": message.content})
        elif message.role == "assistant":
            wire: dict[str, Any] = {"role": "assistant", "content": message.content or None}
            if message.tool_calls:
                wire["tool_calls"] = [_wire_call(c) for c in message.tool_calls]
            elif wire["content"] is None:
                wire["content"] = ""
            out.append(wire)
        else:
            for result in message.tool_results:
                out.append(
                    {
                        "role": "tool",
                        "tool_call_id": result.call_id,
                        # An empty tool message is rejected by some servers; say so in words.
                        "content": result.content or "(no output)",
                    }
                )
    return out


def request_tools(specs: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    """The ``tools`` array: ``{"type": "function", "function": {...}}`` per tool."""
    return to_openai(specs)


def _wire_call(call: ToolCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    }


# --------------------------------------------------------------- adapter side: responses


def parse_completion(
    data: Mapping[str, Any], *, turn: int, replace_random_ids: bool = False
) -> tuple[str, tuple[ToolCall, ...]]:
    """Text and tool calls of the first choice, normalised (see :mod:`adapters.toolcalls`).

    A message with neither text nor calls is an empty turn (the model said nothing). A reply
    with no choice at all is not the model's answer but a broken server or gateway: a
    :class:`ValueError` naming what is missing (the adapters raise it as a provider error).
    """
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        raise ValueError(
            f"the reply has no choice to read (choices: {json.dumps(choices)[:80]}); "
            "a chat completion carries at least one"
        )
    message = choices[0].get("message") or {}
    text = _text(message.get("content"))
    if not text and isinstance(message.get("refusal"), str):
        text = message["refusal"]
    calls: list[ToolCall] = []
    for position, raw in enumerate(message.get("tool_calls") or []):
        function = raw.get("function") or {}
        calls.append(
            ToolCall(
                id=call_id(
                    raw.get("id"), turn=turn, position=position, replace_random=replace_random_ids
                ),
                name=str(function.get("name") or ""),
                arguments=arguments_text(function.get("arguments")),
            )
        )
    return text, tuple(calls)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "".join(
            str(p.get("text", "")) for p in content if isinstance(p, Mapping) and "text" in p
        )
    return ""


# ------------------------------------------------------------------ server side: requests


def parse_request(body: Mapping[str, Any]) -> TurnRequest:
    """The neutral request behind a Chat Completions body. Raises ``ValueError`` on a body
    OpenAI would reject (see :func:`request_problems`)."""
    problems = request_problems(body)
    if problems:
        raise ValueError(problems[0])
    system: list[str] = []
    messages: list[Message] = []
    names: dict[str, str] = {}
    pending: list[ToolResult] = []

    def flush() -> None:
        if pending:
            messages.append(Message("tool", tool_results=tuple(pending)))
            pending.clear()

    for raw in body["messages"]:
        role = raw.get("role")
        if role == "tool":
            ref = str(raw.get("tool_call_id"))
            content = _text(raw.get("content"))
            pending.append(ToolResult(ref, names.get(ref, ""), content, is_error_content(content)))
            continue
        flush()
        if role in ("system", "developer"):
            system.append(_text(raw.get("content")))
        elif role == "user":
            messages.append(Message("user", _text(raw.get("content"))))
        elif role == "assistant":
            calls = []
            for c in raw.get("tool_calls") or []:
                function = c.get("function") or {}
                names[c["id"]] = str(function.get("name", ""))
                calls.append(
                    ToolCall(c["id"], names[c["id"]], arguments_text(function.get("arguments")))
                )
            messages.append(
                Message("assistant", _text(raw.get("content")), tool_calls=tuple(calls))
            )
    flush()
    tools = tuple(
        ToolSpec(
            str(t["function"]["name"]),
            str(t["function"].get("description", "")),
            dict(t["function"].get("parameters") or {}),
        )
        for t in body.get("tools") or []
        if isinstance(t, Mapping) and isinstance(t.get("function"), Mapping)
    )
    return TurnRequest("\n\n".join(system), tools, tuple(messages))


def request_problems(body: Mapping[str, Any]) -> list[str]:
    """What OpenAI would answer with HTTP 400 for this body, in its own words; ``[]`` if fine."""
    problems: list[str] = []
    model = str(body.get("model") or "")
    if not model:
        problems.append("you must provide a model parameter")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return [*problems, "'messages' must be a non-empty array"]
    if is_reasoning_model(model):
        for name in ("temperature", "top_p"):
            if name in body:
                problems.append(
                    f"Unsupported parameter: '{name}' is not supported with this model."
                )
        if "max_tokens" in body:
            problems.append(
                "Unsupported parameter: 'max_tokens' is not supported with this model. "
                "Use 'max_completion_tokens' instead."
            )
    open_calls: list[str] = []
    for i, message in enumerate(messages):
        role = message.get("role") if isinstance(message, Mapping) else None
        if role not in ("system", "developer", "user", "assistant", "tool"):
            problems.append(f"Invalid value for 'messages[{i}].role': {role!r}")
            continue
        if role == "tool":
            ref = message.get("tool_call_id")
            if ref not in open_calls:
                problems.append(
                    f"Invalid parameter: messages[{i}] with role 'tool' must be a response to "
                    f"a preceding message with 'tool_calls' (no open call {ref!r})."
                )
            else:
                open_calls.remove(ref)
            continue
        if open_calls:
            problems.append(_unanswered(open_calls))
            open_calls = []
        if role == "assistant":
            for j, call in enumerate(message.get("tool_calls") or []):
                where = f"messages[{i}].tool_calls[{j}]"
                if not isinstance(call.get("id"), str) or not call["id"]:
                    problems.append(f"Missing required parameter: '{where}.id'.")
                    continue
                arguments = (call.get("function") or {}).get("arguments")
                if not isinstance(arguments, str):
                    problems.append(
                        f"Invalid type for '{where}.function.arguments': expected a string, "
                        f"but got {type(arguments).__name__} instead."
                    )
                open_calls.append(call["id"])
    if open_calls:
        problems.append(_unanswered(open_calls))
    return problems


def _unanswered(ids: list[str]) -> str:
    return (
        "An assistant message with 'tool_calls' must be followed by tool messages responding "
        f"to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
        f"{', '.join(ids)}"
    )


# ----------------------------------------------------------------- server side: responses


def completion_body(
    turn: AssistantTurn,
    *,
    model: str,
    response_id: str,
    usage: Mapping[str, Any],
) -> dict[str, Any]:
    """A ``chat.completion`` object for ``turn``."""
    message: dict[str, Any] = {
        "role": "assistant",
        "content": turn.text if turn.text or not turn.tool_calls else None,
        "refusal": None,
    }
    if turn.tool_calls:
        message["tool_calls"] = [_wire_call(c) for c in turn.tool_calls]
    return {
        "id": response_id,
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if turn.tool_calls else "stop",
                "logprobs": None,
            }
        ],
        "usage": dict(usage),
    }


def usage_body(
    *, input_tokens: int, output_tokens: int, cached_tokens: int = 0, reasoning_tokens: int = 0
) -> dict[str, Any]:
    """A Chat Completions ``usage`` object."""
    return {
        "prompt_tokens": input_tokens,
        "completion_tokens": output_tokens,
        "total_tokens": input_tokens + output_tokens,
        "prompt_tokens_details": {"cached_tokens": cached_tokens},
        "completion_tokens_details": {"reasoning_tokens": reasoning_tokens},
    }
