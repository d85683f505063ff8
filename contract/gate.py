"""An optional hook through which an assistant's wrapper may refuse a tool call before it runs.

A mitigation (``adapters.mitigations``) that must stop a call before it changes anything
implements :class:`ToolGate` on the assistant object it hands to the episode loop. For every
tool call the assistant makes, the loop asks the gate first, giving it the conversation so far
and a *preview*: the effect class a call would record (a dry run, so a cancellation that would
be final reads ``irreversible``). A gate that returns an error payload
(``{"error": {"code", "message", "field"}}``) stops the call: nothing runs, the call is recorded
as ``rejected``, and the payload goes back to the assistant as the tool result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast, runtime_checkable

from contract.messages import ToolCall, TurnRequest
from tools import Effect

Preview = Callable[[str, Any], Effect | None]
"""``preview(tool, arguments)``: the effect class that call would record now, run dry (no change,
no record); ``None`` when it would be refused."""


@runtime_checkable
class ToolGate(Protocol):
    """Decides, before a tool call runs, whether it may run."""

    def gate_tool_call(
        self, call: ToolCall, request: TurnRequest, preview: Preview
    ) -> dict[str, Any] | None:
        """``None`` to let ``call`` run, or the tool error to return instead of running it.

        ``request`` is the conversation up to and including the assistant message that makes
        the call, with the results of earlier calls of that message; ``preview`` dry-runs any
        call (``preview(call.name, call.arguments)`` is this call's effect class).
        """
        ...


def gate_of(assistant: object) -> ToolGate | None:
    """The gate of ``assistant``, looking through wrappers that do not gate themselves.

    A wrapper that only waits or watches (a rate limiter, the stop-policy watch) keeps the
    assistant it wraps in ``inner``; the gate of a mitigation inside it still applies.
    """
    seen: set[int] = set()
    while assistant is not None and id(assistant) not in seen:
        # What isinstance(assistant, ToolGate) checks for a runtime protocol of one method,
        # without its cost (≈ 0.1 ms a check: it lists the protocol's members every time).
        if getattr(assistant, "gate_tool_call", None) is not None:
            return cast(ToolGate, assistant)
        seen.add(id(assistant))
        assistant = getattr(assistant, "inner", None)
    return None
