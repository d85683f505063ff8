"""The one error a tool may raise: :class:`ToolError`, returned to the model, never fatal.

A tool error is the *model's* problem (a bad argument, an unknown id, a double booking) and goes
back to it as ``{"error": {"code", "message", "field"}}`` so it can correct itself. Any other
exception from a handler is a harness bug.

Codes:
    unknown_tool        no tool of that name is enabled for this business
    invalid_json        the arguments string is not a JSON object
    invalid_arguments   missing, extra, mistyped or out-of-range fields
    not_found           an id that does not exist
    conflict            a hard constraint (double booking, refund above the amount paid...)
    unavailable         an injected or simulated back-end failure (the call did nothing)
    call_ended          the call was already handed to a person: the assistant has left it
    escalation_required the business reserves this for a person: nothing was done; transfer
"""

from __future__ import annotations

from typing import Any


class ToolError(Exception):
    """A structured refusal from a tool, for the model to read."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def payload(self) -> dict[str, Any]:
        """The JSON the model sees."""
        return {"error": {"code": self.code, "message": self.message, "field": self.field}}


def not_found(table_label: str, record_id: Any, field: str) -> ToolError:
    return ToolError("not_found", f"No {table_label} with id {record_id!r}.", field)


def conflict(message: str, field: str | None = None) -> ToolError:
    return ToolError("conflict", message, field)


def invalid(message: str, field: str | None = None) -> ToolError:
    return ToolError("invalid_arguments", message, field)
