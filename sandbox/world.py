"""The world one episode acts on: state, clock, tools, faults, ledger and trace.

:meth:`World.call` is the single door through which an assistant changes anything. It never
raises for anything a model can send: unknown tools, arguments that are not JSON, schema
violations, unknown ids and hard-constraint breaches all come back as structured tool errors
and change nothing. Once ``transfer_to_human`` has succeeded the assistant has left the call:
every later call of the session (even one in the same turn) is refused with ``call_ended``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from sandbox.clock import SimClock
from sandbox.faults import FaultInjector
from sandbox.ledger import Ledger, LedgerEntry, Transaction
from sandbox.state import State
from tools import Effect, ToolError, ToolRegistry

CallOutcome = Literal["ok", "rejected", "failed"]


@dataclass(frozen=True)
class ToolCallRecord:
    """One tool call as it happened, reads included (the trace)."""

    index: int
    session: int
    time: str
    call_id: str | None
    tool: str
    raw_arguments: str
    arguments: dict[str, Any] | None
    outcome: CallOutcome
    effect: Effect | None
    result: dict[str, Any]
    ledger_seq: int | None

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"

    @property
    def error_code(self) -> str | None:
        error = self.result.get("error") if isinstance(self.result, dict) else None
        return error.get("code") if isinstance(error, dict) else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "session": self.session,
            "time": self.time,
            "call_id": self.call_id,
            "tool": self.tool,
            "raw_arguments": self.raw_arguments,
            "arguments": self.arguments,
            "outcome": self.outcome,
            "effect": None if self.effect is None else str(self.effect),
            "result": self.result,
            "ledger_seq": self.ledger_seq,
        }


def _raw(arguments: Any) -> str:
    if isinstance(arguments, str):
        return arguments
    try:
        return json.dumps(arguments, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(arguments)


def _parse_arguments(arguments: Any) -> dict[str, Any] | ToolError:
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        text = arguments.strip()
        if not text:
            return {}
        try:
            arguments = json.loads(text)
        except ValueError as exc:
            return ToolError(
                "invalid_json", f"Arguments are not valid JSON ({exc}); send a JSON object."
            )
    if not isinstance(arguments, dict):
        return ToolError(
            "invalid_json", f"Arguments must be a JSON object; got {type(arguments).__name__}."
        )
    return arguments


class World:
    """State plus everything needed to change it honestly."""

    def __init__(
        self,
        state: State,
        tools: ToolRegistry,
        clock: SimClock,
        faults: FaultInjector | None = None,
    ) -> None:
        self.state = state
        self.tools = tools
        self.clock = clock
        self.faults = faults or FaultInjector()
        self.ledger = Ledger()
        self.trace: list[ToolCallRecord] = []
        self.session = 0
        self.call_ended = False

    def call(self, name: str, arguments: Any = None, call_id: str | None = None) -> ToolCallRecord:
        """Run one tool call from the model and record it. Never raises for model input."""
        raw = _raw(arguments)
        tool = self.tools.get(name) if isinstance(name, str) else None
        if self.call_ended:
            error = ToolError(
                "call_ended",
                "The call was handed to a person; you are no longer on it, and nothing was done.",
            )
            effect = None if tool is None else tool.effect
            return self._record(str(name), call_id, raw, None, "rejected", effect, error.payload())
        if tool is None:
            error = ToolError(
                "unknown_tool",
                f"There is no tool named {name!r}. Available: {', '.join(self.tools.names())}.",
            )
            return self._record(str(name), call_id, raw, None, "rejected", None, error.payload())

        parsed = _parse_arguments(arguments)
        if isinstance(parsed, ToolError):
            return self._record(name, call_id, raw, None, "rejected", tool.effect, parsed.payload())
        problem = self.tools.validation_error(name, parsed)
        if problem is not None:
            return self._record(
                name, call_id, raw, parsed, "rejected", tool.effect, problem.payload()
            )

        fault = self.faults.check(name, parsed)
        if fault is not None:
            payload = {"error": {"code": fault.code, "message": fault.error, "field": None}}
            return self._record(name, call_id, raw, parsed, "failed", tool.effect, payload)

        tx = Transaction(self.state, self.clock.iso(), tool.effect)
        try:
            result = tool.handler(tx, parsed)
        except ToolError as refusal:
            tx.rollback()
            return self._record(
                name, call_id, raw, parsed, "rejected", tool.effect, refusal.payload()
            )
        except BaseException:
            tx.rollback()
            raise
        if tool.ends_call:
            self.call_ended = True
        return self._record(name, call_id, raw, parsed, "ok", tx.effect, result, tx)

    def preview_effect(self, name: str, arguments: Any = None) -> Effect | None:
        """The effect class ``call(name, arguments)`` would record, without recording anything.

        Runs the handler on a transaction and rolls it back (so a cancellation that would be
        final reads ``irreversible``); no trace, no ledger entry, no fault counted. ``None``
        when the call would be refused (unknown tool, bad arguments, a hard constraint).
        """
        tool = self.tools.get(name) if isinstance(name, str) else None
        if tool is None:
            return None
        parsed = _parse_arguments(arguments)
        if isinstance(parsed, ToolError) or self.tools.validation_error(name, parsed) is not None:
            return None
        tx = Transaction(self.state, self.clock.iso(), tool.effect)
        try:
            tool.handler(tx, parsed)
        except ToolError:
            return None
        finally:
            tx.rollback()
        return tx.effect

    def refuse(
        self, name: str, arguments: Any, call_id: str | None, payload: dict[str, Any]
    ) -> ToolCallRecord:
        """Record a call that was stopped before it ran (a gate refused it); changes nothing."""
        tool = self.tools.get(name) if isinstance(name, str) else None
        parsed = _parse_arguments(arguments)
        return self._record(
            str(name),
            call_id,
            _raw(arguments),
            None if isinstance(parsed, ToolError) else parsed,
            "rejected",
            None if tool is None else tool.effect,
            payload,
        )

    def _record(
        self,
        name: str,
        call_id: str | None,
        raw: str,
        arguments: dict[str, Any] | None,
        outcome: CallOutcome,
        effect: Effect | None,
        result: dict[str, Any],
        tx: Transaction | None = None,
    ) -> ToolCallRecord:
        ledger_seq = None
        if effect is not None and effect != Effect.READ:
            ledger_seq = self.ledger.next_seq()
            self.ledger.append(
                LedgerEntry(
                    seq=ledger_seq,
                    time=self.clock.iso(),
                    tool=name,
                    call_id=call_id,
                    arguments=arguments,
                    outcome=outcome,
                    effect=effect,
                    result=result,
                    changes=tx.changes() if tx is not None else (),
                    session=self.session,
                    effect_note=tx.effect_note if tx is not None else None,
                )
            )
        record = ToolCallRecord(
            index=len(self.trace),
            session=self.session,
            time=self.clock.iso(),
            call_id=call_id,
            tool=name,
            raw_arguments=raw,
            arguments=arguments,
            outcome=outcome,
            effect=effect,
            result=result,
            ledger_seq=ledger_seq,
        )
        self.trace.append(record)
        return record

    def start_session(self, clock_advance_to: str | None = None) -> None:
        """Begin the next session of a multi-session task (state and ledger carry over)."""
        self.session += 1
        self.call_ended = False
        if clock_advance_to is not None:
            self.clock.set(clock_advance_to)
