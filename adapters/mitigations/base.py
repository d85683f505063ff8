"""What every mitigation shares: it wraps an assistant and may refuse its tool calls.

A :class:`Mitigation` is itself an :class:`~contract.assistant.Assistant`: ``respond`` asks the
wrapped assistant and may change its turn; ``gate_tool_call`` (the
:class:`~contract.gate.ToolGate` hook) may refuse a call before it runs. Wrappers nest: the
outer one's gate is asked first, then the inner ones', so one refusal is enough.

A wrapper sees what the assistant sees -- the request (system prompt, tools, conversation with
tool results) -- plus the business's public policy rules (:class:`Policy`). Never the task.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from contract.assistant import Assistant
from contract.gate import Preview, ToolGate
from contract.messages import AssistantTurn, ToolCall, TurnRequest


@dataclass(frozen=True)
class Policy:
    """A business's public, machine-checkable policy rules: ``(rule type, parameters)`` pairs.

    The same rules the business states in its policy text and the scorer checks; nothing of
    any task (its expectations, plan or faults).
    """

    business: str
    rules: tuple[tuple[str, Mapping[str, Any]], ...] = ()

    def params(self, rule: str) -> list[Mapping[str, Any]]:
        """The parameters of every configured rule of type ``rule``."""
        return [params for name, params in self.rules if name == rule]


def tool_error(code: str, message: str) -> dict[str, Any]:
    """OpsBench's structured tool error, as a gate returns it."""
    return {"error": {"code": code, "message": message, "field": None}}


class Mitigation:
    """Wraps ``inner``; by default changes nothing. Subclasses override the two hooks."""

    name = "none"

    def __init__(self, inner: Assistant, policy: Policy) -> None:
        self.inner = inner
        self.policy = policy

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        return await self.inner.respond(request)

    def check(
        self, call: ToolCall, request: TurnRequest, preview: Preview
    ) -> dict[str, Any] | None:
        """This mitigation's own verdict on ``call``: ``None`` to let it run."""
        return None

    def gate_tool_call(
        self, call: ToolCall, request: TurnRequest, preview: Preview
    ) -> dict[str, Any] | None:
        refusal = self.check(call, request, preview)
        if refusal is None and isinstance(self.inner, ToolGate):
            refusal = self.inner.gate_tool_call(call, request, preview)
        return refusal
