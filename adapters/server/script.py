"""Assistants that need no model, for driving the local server: canned replies, or an echo."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from contract.messages import AssistantTurn, ToolCall, TurnRequest, Usage

THINKING_KEY = "thinking"
"""``provider_state`` key of an :class:`AssistantTurn` whose text the server sends as the
Anthropic thinking block (when the request turns thinking on)."""


class ScriptExhausted(RuntimeError):
    """Every canned reply has been used."""


def reply(
    text: str = "",
    *calls: ToolCall | tuple[str, Any],
    usage: Usage | None = None,
    thinking: str | None = None,
) -> AssistantTurn:
    """A canned reply: ``reply("Booked.", ("book_appointment", {"slot": "…"}))``.

    A call given as ``(name, arguments)`` gets no id here; the script numbers it. Arguments
    that are not a string are serialised as JSON; a string is sent as is (malformed or not).
    """
    tool_calls = tuple(
        c if isinstance(c, ToolCall) else ToolCall("", c[0], _arguments(c[1])) for c in calls
    )
    state = {THINKING_KEY: thinking} if thinking is not None else None
    return AssistantTurn(text, tool_calls, usage or Usage(), provider_state=state)


def _arguments(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def reply_from_dict(data: Mapping[str, Any]) -> AssistantTurn:
    """A reply from a script file entry: ``{"text", "tool_calls": [{"name", "arguments",
    "id"?}], "usage": {"input_tokens", …}, "thinking"}`` (every key optional)."""
    calls = [
        ToolCall(str(c.get("id", "")), str(c["name"]), _arguments(c.get("arguments", {})))
        for c in data.get("tool_calls", [])
    ]
    usage = Usage(**data["usage"]) if "usage" in data else None
    return reply(str(data.get("text", "")), *calls, usage=usage, thinking=data.get("thinking"))


class ScriptedAssistant:
    """Answers every request with the next canned reply, whatever was asked.

    Calls without an id are numbered ``call_<reply>_<position>``. ``requests`` keeps every
    request received, in order. Raises :class:`ScriptExhausted` when no reply is left.
    """

    def __init__(self, replies: Iterable[AssistantTurn | str | Mapping[str, Any]]) -> None:
        self._replies = [_as_turn(r) for r in replies]
        self._next = 0
        self._lock = threading.Lock()
        self.requests: list[TurnRequest] = []

    @property
    def remaining(self) -> int:
        return len(self._replies) - self._next

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        with self._lock:
            self.requests.append(request)
            index = self._next
            if index >= len(self._replies):
                raise ScriptExhausted(
                    f"the script has {len(self._replies)} replies and all were used; "
                    f"request {index + 1} has none"
                )
            self._next += 1
        turn = self._replies[index]
        calls = tuple(
            c if c.id else ToolCall(f"call_{index}_{i}", c.name, c.arguments)
            for i, c in enumerate(turn.tool_calls)
        )
        return AssistantTurn(turn.text, calls, turn.usage, turn.provider_state)


def _as_turn(value: AssistantTurn | str | Mapping[str, Any]) -> AssistantTurn:
    if isinstance(value, AssistantTurn):
        return value
    if isinstance(value, str):
        return reply(value)
    return reply_from_dict(value)


class EchoAssistant:
    """Says back what the caller said and calls no tools: a connectivity check, no model."""

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        heard = next((m.content for m in reversed(request.messages) if m.role == "user"), "")
        text = (
            f"(OpsBench local server, no assistant attached) You said: {heard}"
            if heard
            else ("(OpsBench local server, no assistant attached) Hello.")
        )
        return AssistantTurn(text)
