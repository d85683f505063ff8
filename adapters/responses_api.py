"""The OpenAI Responses wire format, both ways, as plain JSON-ready dicts.

Used by ``openai/`` for reasoning and Responses-only models, and by the local server. Requests
are stateless (``store: false``): the whole conversation goes in ``input`` every turn, and each
assistant turn goes back as the exact ``output`` items it came as
(``provider_state["openai_output"]``), so reasoning items and their ``encrypted_content``
round-trip. Shapes follow OpenAI's API reference for ``POST /v1/responses``:

- the system prompt is ``instructions``;
- the caller's words are ``{"type": "message", "role": "user", "content": …}``;
- a tool call is a ``function_call`` item ``{"call_id", "name", "arguments"}`` and its result a
  ``function_call_output`` item ``{"call_id", "output"}``;
- tools are flat: ``{"type": "function", "name", "description", "parameters", "strict"}``.
"""

from __future__ import annotations

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
from tools.registry import ToolSpec

STATE_KEY = "openai_output"

# ---------------------------------------------------------------- adapter side: requests


def request_params(request: TurnRequest) -> dict[str, Any]:
    """``instructions``, ``input`` and ``tools`` for ``request``."""
    params: dict[str, Any] = {"input": request_input(request.messages)}
    if request.system:
        params["instructions"] = request.system
    if request.tools:
        params["tools"] = request_tools(request.tools)
    return params


def request_tools(specs: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    """Flat function tools. ``strict`` is off: OpsBench schemas have optional fields."""
    return [
        {
            "type": "function",
            "name": s.name,
            "description": s.description,
            "parameters": s.parameters,
            "strict": False,
        }
        for s in specs
    ]


def request_input(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The ``input`` items for the conversation."""
    items: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "user":
            items.append({"type": "message", "role": "user", "content": message.content})
        elif message.role == "tool":
            items.extend(
                {
                    "type": "function_call_output",
                    "call_id": r.call_id,
                    "output": r.content or "(no output)",
                }
                for r in message.tool_results
            )
        else:
            items.extend(_assistant_items(message))
    return items


def _assistant_items(message: Message) -> list[dict[str, Any]]:
    original = (message.provider_state or {}).get(STATE_KEY)
    if isinstance(original, list) and _same_calls(original, message.tool_calls):
        return [dict(item) for item in original]
    items: list[dict[str, Any]] = []
    if message.content:
        items.append({"type": "message", "role": "assistant", "content": message.content})
    items.extend(
        {"type": "function_call", "call_id": c.id, "name": c.name, "arguments": c.arguments}
        for c in message.tool_calls
    )
    return items


def _same_calls(items: list[Any], calls: Sequence[ToolCall]) -> bool:
    ids = [
        i.get("call_id")
        for i in items
        if isinstance(i, Mapping) and i.get("type") == "function_call"
    ]
    return ids == [c.id for c in calls]


# --------------------------------------------------------------- adapter side: responses


def parse_response(
    data: Mapping[str, Any], *, turn: int
) -> tuple[str, tuple[ToolCall, ...], dict[str, Any] | None]:
    """Text, tool calls, and the output items to send back next turn, from a ``response``."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    kept: list[dict[str, Any]] = []
    for raw in data.get("output") or []:
        if not isinstance(raw, Mapping):
            continue
        item = dict(raw)
        kind = item.get("type")
        if kind == "message":
            for part in item.get("content") or []:
                if isinstance(part, Mapping) and part.get("type") in ("output_text", "refusal"):
                    texts.append(str(part.get("text") or part.get("refusal") or ""))
        elif kind == "function_call":
            item["call_id"] = call_id(item.get("call_id"), turn=turn, position=len(calls))
            # Sent back as given, except that the API takes arguments only as a string.
            item["arguments"] = arguments_text(item.get("arguments"))
            calls.append(ToolCall(item["call_id"], str(item.get("name") or ""), item["arguments"]))
        kept.append(item)
    return "".join(texts), tuple(calls), ({STATE_KEY: kept} if kept else None)


# ------------------------------------------------------------------ server side: requests


def parse_request(body: Mapping[str, Any]) -> TurnRequest:
    """The neutral request behind a Responses body. Raises ``ValueError`` on a body OpenAI
    would reject (see :func:`request_problems`)."""
    problems = request_problems(body)
    if problems:
        raise ValueError(problems[0])
    raw_input = body.get("input")
    items = (
        [{"type": "message", "role": "user", "content": raw_input}]
        if isinstance(raw_input, str)
        else list(raw_input or [])
    )
    system = [str(body.get("instructions") or "")] if body.get("instructions") else []
    messages: list[Message] = []
    names: dict[str, str] = {}
    assistant: list[dict[str, Any]] = []
    results: list[ToolResult] = []

    def flush() -> None:
        if assistant:
            calls = tuple(
                ToolCall(i["call_id"], str(i.get("name", "")), arguments_text(i.get("arguments")))
                for i in assistant
                if i.get("type") == "function_call"
            )
            text = "".join(_text(i.get("content")) for i in assistant if i.get("type") == "message")
            messages.append(
                Message(
                    "assistant", text, tool_calls=calls, provider_state={STATE_KEY: list(assistant)}
                )
            )
            assistant.clear()
        if results:
            messages.append(Message("tool", tool_results=tuple(results)))
            results.clear()

    for raw in items:
        item = dict(raw)
        kind = item.get("type", "message")
        role = item.get("role")
        if kind == "function_call_output":
            if assistant:
                flush()
            ref = str(item.get("call_id"))
            output = _text(item.get("output"))
            results.append(ToolResult(ref, names.get(ref, ""), output, is_error_content(output)))
        elif kind in ("function_call", "reasoning") or (kind == "message" and role == "assistant"):
            if results:
                flush()
            if kind == "function_call":
                names[str(item.get("call_id"))] = str(item.get("name", ""))
            assistant.append(item)
        elif kind == "message" and role in ("system", "developer"):
            system.append(_text(item.get("content")))
        elif kind == "message":
            flush()
            messages.append(Message("user", _text(item.get("content"))))
    flush()
    tools = tuple(
        ToolSpec(str(t["name"]), str(t.get("description") or ""), dict(t.get("parameters") or {}))
        for t in body.get("tools") or []
        if isinstance(t, Mapping) and t.get("type") == "function" and "name" in t
    )
    return TurnRequest("\n\n".join(system), tools, tuple(messages))


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(p.get("text", "")) for p in content if isinstance(p, Mapping) and "text" in p
        )
    return ""


def request_problems(body: Mapping[str, Any]) -> list[str]:
    """What OpenAI would answer with HTTP 400 for this body, in its words; ``[]`` if fine."""
    problems: list[str] = []
    model = str(body.get("model") or "")
    if not model:
        problems.append("Missing required parameter: 'model'.")
    if is_reasoning_model(model):
        problems.extend(
            f"Unsupported parameter: '{name}' is not supported with this model."
            for name in ("temperature", "top_p")
            if name in body
        )
    raw_input = body.get("input")
    if isinstance(raw_input, str):
        return problems
    if not isinstance(raw_input, list):
        return [*problems, "Missing required parameter: 'input'."]
    calls: list[str] = []
    outputs: list[str] = []
    for i, item in enumerate(raw_input):
        if not isinstance(item, Mapping):
            problems.append(f"Invalid type for 'input[{i}]': expected an object.")
            continue
        if item.get("type") == "function_call":
            if not item.get("call_id"):
                problems.append(f"Missing required parameter: 'input[{i}].call_id'.")
            if not isinstance(item.get("arguments"), str):
                problems.append(
                    f"Invalid type for 'input[{i}].arguments': expected a string, but got "
                    f"{type(item.get('arguments')).__name__} instead."
                )
            calls.append(str(item.get("call_id")))
        elif item.get("type") == "function_call_output":
            ref = str(item.get("call_id"))
            if ref not in calls:
                problems.append(f"No tool call found for function call output with call_id {ref}.")
            outputs.append(ref)
    problems.extend(
        f"No tool output found for function call {c}." for c in calls if c not in outputs
    )
    return problems


# ----------------------------------------------------------------- server side: responses


def response_body(
    turn: AssistantTurn,
    *,
    model: str,
    response_id: str,
    usage: Mapping[str, Any],
    reasoning: Sequence[Mapping[str, Any]] = (),
    item_id: Any = None,
) -> dict[str, Any]:
    """A ``response`` object for ``turn``; ``item_id(prefix)`` numbers the output items."""

    def next_id(prefix: str) -> str:
        return item_id(prefix) if item_id is not None else f"{prefix}0"

    output: list[dict[str, Any]] = [dict(r) for r in reasoning]
    if turn.text:
        output.append(
            {
                "type": "message",
                "id": next_id("msg_"),
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
            }
        )
    output.extend(
        {
            "type": "function_call",
            "id": next_id("fc_"),
            "call_id": c.id,
            "name": c.name,
            "arguments": c.arguments,
            "status": "completed",
        }
        for c in turn.tool_calls
    )
    return {
        "id": response_id,
        "object": "response",
        "created_at": 0,
        "status": "completed",
        "model": model,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "error": None,
        "incomplete_details": None,
        "usage": dict(usage),
    }


def usage_body(
    *, input_tokens: int, output_tokens: int, cached_tokens: int = 0, reasoning_tokens: int = 0
) -> dict[str, Any]:
    """A Responses ``usage`` object."""
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": cached_tokens, "cache_write_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": reasoning_tokens},
        "total_tokens": input_tokens + output_tokens,
    }
