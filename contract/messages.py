"""The neutral conversation format every adapter translates to and from.

One format for messages, tool calls (with ids), tool results and usage, so the episode loop
never sees a provider's wire format. What a provider needs back verbatim on the next turn
(Anthropic thinking blocks, OpenAI reasoning items) rides along opaquely in ``provider_state``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from tools.registry import ToolSpec

Role = Literal["user", "assistant", "tool"]


@dataclass(frozen=True)
class ToolCall:
    """A tool call as the model made it. ``arguments`` is the raw JSON text, malformed or not."""

    id: str
    name: str
    arguments: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "arguments": self.arguments}


@dataclass(frozen=True)
class ToolResult:
    """What a tool returned, as JSON text, for the call with ``call_id``.

    ``is_error`` is true when the call changed nothing and ``content`` is OpsBench's
    ``{"error": {"code", "message", "field"}}``; wire formats without such a flag (Chat
    Completions) carry only the content, and the local server infers the flag from it.
    """

    call_id: str
    name: str
    content: str
    is_error: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "call_id": self.call_id,
            "name": self.name,
            "content": self.content,
            "is_error": self.is_error,
        }


def is_error_content(content: str) -> bool:
    """Whether a tool result's text is OpsBench's ``{"error": {...}}`` (for wire formats, like
    Chat Completions, that carry no error flag of their own)."""
    try:
        value = json.loads(content)
    except (json.JSONDecodeError, TypeError):
        return False
    return isinstance(value, dict) and "error" in value


@dataclass(frozen=True)
class Message:
    """One message of the conversation, from the assistant's point of view.

    ``user`` is the caller speaking; ``assistant`` carries text and/or tool calls; ``tool``
    carries the results of the previous assistant message's calls, in call order.
    """

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()
    provider_state: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [c.to_dict() for c in self.tool_calls]
        if self.tool_results:
            out["tool_results"] = [r.to_dict() for r in self.tool_results]
        return out


@dataclass
class Usage:
    """Tokens and cost of one or more model requests.

    ``cost_usd`` is ``None`` when unknown -- the default, so an agent that reports no usage is
    never counted as free. Sums start from :meth:`zero`; one unknown makes the sum unknown.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    requests: int = 0
    cost_usd: float | None = None

    @classmethod
    def zero(cls) -> Usage:
        """Nothing used, at a known cost of nothing: the start of a sum."""
        return cls(cost_usd=0.0)

    def __add__(self, other: Usage) -> Usage:
        cost = (
            None
            if self.cost_usd is None or other.cost_usd is None
            else self.cost_usd + other.cost_usd
        )
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cached_tokens + other.cached_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
            self.requests + other.requests,
            cost,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cached_tokens": self.cached_tokens,
            "reasoning_tokens": self.reasoning_tokens,
            "requests": self.requests,
            "cost_usd": self.cost_usd,
        }


@dataclass(frozen=True)
class TurnRequest:
    """Everything an assistant is given for one response."""

    system: str
    tools: tuple[ToolSpec, ...]
    messages: tuple[Message, ...]


@dataclass(frozen=True)
class AssistantTurn:
    """One response: text for the caller and/or tool calls to run, with its usage."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    provider_state: Mapping[str, Any] | None = None
    # What the assistant itself wrote, when a wrapper replaced ``text`` before the caller heard
    # it (``ledger-summary``): kept in the transcript for comparison, never sent to the caller.
    original_text: str | None = None

    def as_message(self) -> Message:
        """The assistant message to append to the history."""
        return Message(
            "assistant",
            self.text,
            tool_calls=self.tool_calls,
            provider_state=self.provider_state,
        )
