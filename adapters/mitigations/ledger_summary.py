"""``ledger-summary``: what the assistant reports having done is generated from the ledger.

Whenever a turn of the assistant tells the caller what was or was not done (the claim checker
finds a claim in it), the sentences carrying claims are replaced by a summary built from this
session's tool calls and results: every write that succeeded (done), every one that returned
an error (failed, with the error), and every action the assistant spoke of as done that no
successful call shows (pending: "I have not set a reminder"). Sentences without claims
(questions, greetings) are kept. The assistant's own text is kept as ``original_text`` in the
transcript for comparison; the caller hears only the summary.

It cannot make the work happen: a skipped step stays skipped, now disclosed. Claims about an
action called in the same turn are left as they are (the call has not run yet), and an
action done on an earlier call (another session) is not in this call's ledger.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adapters.mitigations.base import Mitigation
from adapters.mitigations.conversation import Attempt, attempts, data, sentences
from adapters.wording import action_fields
from contract.messages import AssistantTurn, TurnRequest
from sandbox.claim_cache import default_checker
from sandbox.claims import TOOL_KINDS, Claim

# Several tools may perform one kind (a generic credit, an outage credit): the first listed
# phrases a pending action, and any of them attempted means the action is not pending.
_KIND_TOOLS: dict[str, tuple[str, ...]] = {}
for _tool, _kind in TOOL_KINDS.items():
    _KIND_TOOLS[_kind] = (*_KIND_TOOLS.get(_kind, ()), _tool)


def _fields(arguments: dict[str, Any], error: str) -> dict[str, str]:
    return {**action_fields(arguments), "error": error.rstrip(".") or "it returned an error"}


def _phrase(tool: str, outcome: str, attempt: Attempt | None = None) -> str | None:
    entry = data("ledger_summary")["tools"].get(tool)
    if entry is None:
        return None
    arguments = attempt.arguments if attempt else {}
    error = attempt.error_message if attempt else ""
    return str(entry[outcome]).format(**_fields(arguments, error))


def ledger_summary(done: list[Attempt], claims: list[Claim]) -> list[str]:
    """The summary sentences: done, failed (not later done), then every action the assistant
    spoke of that no call attempted (pending)."""
    out: list[str] = []
    ok_tools = {a.call.name for a in done if a.ok}
    for attempt in done:
        if attempt.call.name == "transfer_to_human":
            continue
        if attempt.ok:
            line = _phrase(attempt.call.name, "done", attempt)
        elif attempt.call.name not in ok_tools:
            line = _phrase(attempt.call.name, "failed", attempt)
        else:
            line = None
        if line and line not in out:
            out.append(line)
    said = {a.call.name for a in done}
    families = data("ledger_summary")["families"]
    for claim in claims:
        # Whatever the assistant said of an action -- done or not -- the ledger decides: an
        # action no call of this session attempted is pending.
        if claim.kind in ("overall", "transfer"):
            continue
        tools = _KIND_TOOLS.get(claim.kind, ())
        if tools and not said.intersection(tools):
            line = _phrase(tools[0], "pending")
        elif not tools and claim.kind in families and not said & {"send_sms", "send_email"}:
            line = families[claim.kind]["pending"]
        else:
            line = None
        if line and line not in out:
            out.append(line)
    if not out:
        out.append(data("ledger_summary")["nothing_done"])
    return [data("ledger_summary")["intro"], *out]


class LedgerSummary(Mitigation):
    """Replaces what the assistant claims with what this call's ledger shows."""

    name = "ledger-summary"

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        turn = await self.inner.respond(request)
        if not turn.text:
            return turn
        # Claims about calls of this very turn are judged once they run: leave those alone.
        calling = {TOOL_KINDS.get(c.name) for c in turn.tool_calls}
        parts = sentences(turn.text)
        claims_of = [
            [c for c in default_checker().extract(part) if c.kind not in calling] for part in parts
        ]
        if not any(claims_of):
            return turn
        first = next(i for i, found in enumerate(claims_of) if found)
        kept_before = [
            p for p, found in zip(parts[:first], claims_of[:first], strict=True) if not found
        ]
        kept_after = [
            p for p, found in zip(parts[first:], claims_of[first:], strict=True) if not found
        ]
        claims = [c for found in claims_of for c in found]
        summary = ledger_summary(attempts(request.messages), claims)
        text = " ".join([*kept_before, *summary, *kept_after])
        return replace(turn, text=text, original_text=turn.original_text or turn.text)


__all__ = ["LedgerSummary", "ledger_summary"]
