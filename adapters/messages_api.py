"""The Anthropic Messages wire format, both ways, as plain JSON-ready dicts.

Used by the ``anthropic/`` adapter and by the local server. Shapes follow Anthropic's API
reference for ``POST /v1/messages``:

- the system prompt is the top-level ``system`` parameter, never a message;
- results go back as ``tool_result`` blocks in the *next* ``user`` message, before any text
  in it, one per ``tool_use`` id; a failed tool sets ``is_error: true`` and always has content;
- consecutive messages of one role are merged into one, and an empty assistant turn (the model
  said nothing) is left out, as the API refuses empty messages;
- an assistant turn is sent back exactly as it came (``provider_state["anthropic_content"]``),
  so thinking blocks and their signatures round-trip unchanged;
- prompt caching: one ``cache_control`` breakpoint on the last system block caches the whole
  stable prefix, because the cache covers tools, then system, in that order. With no system
  prompt the breakpoint goes on the last tool.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adapters.toolcalls import arguments_text, call_id, parse_arguments
from contract.messages import AssistantTurn, Message, ToolCall, ToolResult, TurnRequest
from tools.formats import to_anthropic
from tools.registry import ToolSpec

STATE_KEY = "anthropic_content"
EPHEMERAL: dict[str, str] = {"type": "ephemeral"}
SAMPLING_PARAMETERS = ("temperature", "top_p", "top_k")
EMPTY_ERROR_CONTENT = "The tool failed and returned no details."

# ---------------------------------------------------------------- adapter side: requests


def request_params(request: TurnRequest, *, cache: bool = True) -> dict[str, Any]:
    """``system``, ``tools`` and ``messages`` for ``request`` (``system``/``tools`` only if any)."""
    params: dict[str, Any] = {"messages": request_messages(request.messages)}
    tools = request_tools(request.tools)
    if request.system:
        block: dict[str, Any] = {"type": "text", "text": request.system}
        if cache:
            block["cache_control"] = dict(EPHEMERAL)
        params["system"] = [block]
    elif cache and tools:
        tools[-1]["cache_control"] = dict(EPHEMERAL)
    if tools:
        params["tools"] = tools
    return params


def request_tools(specs: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    """The ``tools`` array: ``{"name", "description", "input_schema"}`` per tool."""
    return to_anthropic(specs)


def request_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The ``messages`` array: roles alternate, tool results lead their user message."""
    out: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if not blocks:
            return
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})

    for message in messages:
        if message.role == "user":
            add("user", [{"type": "text", "text": message.content}] if message.content else [])
        elif message.role == "tool":
            # Results first: an earlier user text merged into this turn would break the rule.
            blocks = [_tool_result(r) for r in message.tool_results]
            if out and out[-1]["role"] == "user":
                out[-1]["content"][:0] = blocks
            else:
                add("user", blocks)
        else:
            add("assistant", _assistant_blocks(message))
    return out


def _tool_result(result: ToolResult) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": result.call_id}
    if result.is_error:
        block["is_error"] = True
        block["content"] = result.content or EMPTY_ERROR_CONTENT
    elif result.content:
        block["content"] = result.content
    return block


def _assistant_blocks(message: Message) -> list[dict[str, Any]]:
    state = message.provider_state or {}
    original = state.get(STATE_KEY)
    if isinstance(original, list) and _same_calls(original, message.tool_calls):
        return [dict(b) for b in original]
    blocks: list[dict[str, Any]] = []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    for call in message.tool_calls:
        # The API needs an object; a call whose arguments were not one was answered with a
        # tool error, which the model sees next, so an empty input loses nothing it needs.
        blocks.append(
            {
                "type": "tool_use",
                "id": call.id,
                "name": call.name,
                "input": parse_arguments(call.arguments) or {},
            }
        )
    return blocks


def _same_calls(blocks: list[Any], calls: Sequence[ToolCall]) -> bool:
    ids = [b.get("id") for b in blocks if isinstance(b, Mapping) and b.get("type") == "tool_use"]
    return ids == [c.id for c in calls]


# --------------------------------------------------------------- adapter side: responses


def parse_message(
    data: Mapping[str, Any], *, turn: int
) -> tuple[str, tuple[ToolCall, ...], dict[str, Any] | None]:
    """Text, tool calls and the provider state to keep, from a ``message`` object.

    The content blocks are kept as they came (with any missing tool ids filled in, so the
    kept blocks and the neutral calls agree) to be sent back unchanged next turn.
    """
    content = data.get("content") or []
    texts: list[str] = []
    calls: list[ToolCall] = []
    kept: list[dict[str, Any]] = []
    for raw in content:
        if not isinstance(raw, Mapping):
            continue
        block = dict(raw)
        kind = block.get("type")
        if kind == "text":
            if not block.get("text"):
                continue  # the API refuses an empty text block when it is sent back
            texts.append(str(block.get("text", "")))
        elif kind == "tool_use":
            block["id"] = call_id(block.get("id"), turn=turn, position=len(calls))
            calls.append(
                ToolCall(
                    block["id"], str(block.get("name") or ""), arguments_text(block.get("input"))
                )
            )
        kept.append(_request_form(block))
    state = {STATE_KEY: kept} if kept else None
    return "".join(texts), tuple(calls), state


def _request_form(block: dict[str, Any]) -> dict[str, Any]:
    # Response blocks carry read-only fields (e.g. text ``citations: null``) that a request
    # does not take; thinking blocks are kept whole, their signature covers them.
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": block.get("text", "")}
    if kind == "tool_use":
        return {
            "type": "tool_use",
            "id": block["id"],
            "name": block.get("name"),
            "input": block.get("input") if isinstance(block.get("input"), dict) else {},
        }
    return block


# ------------------------------------------------------------------ server side: requests


def parse_request(body: Mapping[str, Any]) -> TurnRequest:
    """The neutral request behind a Messages body. Raises ``ValueError`` on a body Anthropic
    would reject (see :func:`request_problems`)."""
    problems = request_problems(body)
    if problems:
        raise ValueError(problems[0])
    messages: list[Message] = []
    names: dict[str, str] = {}
    for raw in body["messages"]:
        blocks = _blocks(raw.get("content"))
        if raw["role"] == "assistant":
            calls = []
            for b in blocks:
                if b.get("type") == "tool_use":
                    names[b["id"]] = str(b.get("name", ""))
                    calls.append(ToolCall(b["id"], names[b["id"]], arguments_text(b.get("input"))))
            text = "".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")
            messages.append(
                Message(
                    "assistant", text, tool_calls=tuple(calls), provider_state={STATE_KEY: blocks}
                )
            )
            continue
        results = [
            ToolResult(
                str(b["tool_use_id"]),
                names.get(str(b["tool_use_id"]), ""),
                _text(b.get("content")),
                bool(b.get("is_error", False)),
            )
            for b in blocks
            if b.get("type") == "tool_result"
        ]
        if results:
            messages.append(Message("tool", tool_results=tuple(results)))
        text = "".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")
        if text or not results:
            messages.append(Message("user", text))
    tools = tuple(
        ToolSpec(str(t["name"]), str(t.get("description", "")), dict(t.get("input_schema") or {}))
        for t in body.get("tools") or []
        if isinstance(t, Mapping) and "name" in t
    )
    return TurnRequest(_text(body.get("system")), tools, tuple(messages))


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [dict(b) for b in content if isinstance(b, Mapping)]
    return []


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(str(b.get("text", "")) for b in _blocks(content) if b.get("type") == "text")


def request_problems(body: Mapping[str, Any]) -> list[str]:
    """What Anthropic would answer with HTTP 400 for this body, in its words; ``[]`` if fine.

    Thinking signatures are checked by the server, which knows how it signed them.
    """
    problems: list[str] = []
    for name in ("model", "max_tokens", "messages"):
        if name not in body:
            problems.append(f"{name}: Field required")
    for name in SAMPLING_PARAMETERS:
        if name in body:
            problems.append(f"{name}: Extra inputs are not permitted")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return [*problems, "messages: at least one message is required"]
    breakpoints = _count_cache_control(body.get("system")) + _count_cache_control(body.get("tools"))
    for i, message in enumerate(messages):
        if not isinstance(message, Mapping) or message.get("role") not in ("user", "assistant"):
            problems.append(f"messages.{i}.role: Input should be 'user' or 'assistant'")
            continue
        blocks = _blocks(message.get("content"))
        breakpoints += _count_cache_control(blocks)
        if not blocks and not (i == len(messages) - 1 and message["role"] == "assistant"):
            problems.append(
                f"messages.{i}: all messages must have non-empty content except for the "
                "optional final assistant message"
            )
        for j, block in enumerate(blocks):
            kind = block.get("type")
            if kind == "tool_result" and block.get("is_error") and not block.get("content"):
                problems.append(
                    f"messages.{i}.content.{j}: content cannot be empty if `is_error` is true"
                )
            if kind == "tool_use" and not isinstance(block.get("input"), dict):
                problems.append(
                    f"messages.{i}.content.{j}.tool_use.input: Input should be an object"
                )
        if message["role"] != "assistant":
            continue
        uses = [b.get("id") for b in blocks if b.get("type") == "tool_use"]
        if not uses:
            continue
        following = _blocks(messages[i + 1].get("content")) if i + 1 < len(messages) else []
        leading: list[Any] = []
        for block in following:
            if block.get("type") != "tool_result":
                break
            leading.append(block.get("tool_use_id"))
        missing = [u for u in uses if u not in leading]
        if missing:
            problems.append(
                f"messages.{i + 1}: `tool_use` ids were found without `tool_result` blocks "
                f"immediately after: {', '.join(map(str, missing))}. Each `tool_use` block must "
                "have a corresponding `tool_result` block in the next message, and the "
                "`tool_result` blocks must come first in its content."
            )
    if breakpoints > 4:
        problems.append(
            f"A maximum of 4 blocks with cache_control may be provided. Found {breakpoints}."
        )
    return problems


def _count_cache_control(blocks: Any) -> int:
    if not isinstance(blocks, list):
        return 0
    return sum(1 for b in blocks if isinstance(b, Mapping) and b.get("cache_control"))


# ----------------------------------------------------------------- server side: responses


def message_body(
    turn: AssistantTurn,
    *,
    model: str,
    response_id: str,
    usage: Mapping[str, Any],
    thinking: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """A ``message`` object for ``turn``, with any ``thinking`` blocks first."""
    content: list[dict[str, Any]] = [dict(b) for b in thinking]
    if turn.text:
        content.append({"type": "text", "text": turn.text})
    for call in turn.tool_calls:
        content.append(
            {
                "type": "tool_use",
                "id": call.id,
                "name": call.name,
                "input": parse_arguments(call.arguments) or {},
            }
        )
    return {
        "id": response_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if turn.tool_calls else "end_turn",
        "stop_sequence": None,
        "usage": dict(usage),
    }


def usage_body(
    *,
    input_tokens: int,
    output_tokens: int,
    cache_read: int = 0,
    cache_write: int = 0,
    thinking_tokens: int = 0,
) -> dict[str, Any]:
    """An Anthropic ``usage`` object; ``input_tokens`` excludes cache reads and writes."""
    body: dict[str, Any] = {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_read_input_tokens": cache_read,
        "cache_creation_input_tokens": cache_write,
    }
    if thinking_tokens:
        body["output_tokens_details"] = {"thinking_tokens": thinking_tokens}
    return body
