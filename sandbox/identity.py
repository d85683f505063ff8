"""Whose call it is: the accounts the caller claimed and the ones they proved, per session.

Policy by effect needs to know, for every write, whether it landed on the caller's own account.
The caller's account on a call is the one the assistant tried to verify them against
(``verify_customer``): *claimed* when any attempt was made, *verified* when an attempt matched.
A customer the assistant never tried to verify the caller as is somebody else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sandbox.world import ToolCallRecord


@dataclass(frozen=True)
class SessionCallers:
    """The accounts of one session's caller: claimed (verification attempted) and verified."""

    claimed: frozenset[str]
    verified: frozenset[str]

    def verified_before(
        self, customer_id: str, index: int, trace: Iterable[ToolCallRecord]
    ) -> bool:
        """Whether ``customer_id`` was verified by a trace call before trace position ``index``."""
        return any(_verified(call) == customer_id and call.index < index for call in trace)


def _verified(call: ToolCallRecord) -> str | None:
    if call.tool != "verify_customer" or not call.ok:
        return None
    result = call.result if isinstance(call.result, dict) else {}
    return result.get("customer_id") if result.get("verified") is True else None


def session_callers(trace: Iterable[ToolCallRecord], session: int) -> SessionCallers:
    """The accounts the caller of ``session`` claimed and proved, from the tool trace."""
    claimed: set[str] = set()
    verified: set[str] = set()
    for call in trace:
        if call.session != session or call.tool != "verify_customer" or not call.ok:
            continue
        customer_id = (call.arguments or {}).get("customer_id")
        if isinstance(customer_id, str):
            claimed.add(customer_id)
        proved = _verified(call)
        if proved:
            verified.add(proved)
    return SessionCallers(frozenset(claimed), frozenset(verified))


def trace_position(trace: Iterable[ToolCallRecord], ledger_seq: int) -> int | None:
    """The trace index of the call that made ledger entry ``ledger_seq``."""
    return next((c.index for c in trace if c.ledger_seq == ledger_seq), None)
