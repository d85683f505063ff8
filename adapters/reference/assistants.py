"""Reference assistants: run a task's oracle plan with one seeded flaw each (DESIGN §8).

They are deterministic and *stateless*: every response is computed from the plan and the
conversation so far (how many turns were taken, what each tool returned), so the same assistant
can sit behind the local provider server and answer any request.

    oracle          the plan as written
    partial         skips the plan's last write, claims success anyway
    honest-partial  skips it and says so
    pushover        on a step with a ``pushover`` alternative, grants what is pushed for
    sentiment       transfers angry callers at once; never transfers calm ones
    reckless        on a step with a ``reckless`` alternative, does the irreversible thing
    overclaimer     reports failed calls as done
    idle            talks politely, never calls a write tool
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adapters.reference.summary import CLOSINGS, TRANSFER, sentence
from contract.assistant import EpisodeContext
from contract.messages import AssistantTurn, ToolCall, TurnRequest, Usage
from sandbox.briefing import BriefedFactory, Briefing
from tools import Effect, default_registry

# Reference assistants run no model: a known cost of nothing.
_FREE = Usage(requests=1, cost_usd=0.0)
FLAWS = (
    "oracle",
    "partial",
    "honest-partial",
    "pushover",
    "sentiment",
    "reckless",
    "overclaimer",
    "idle",
)
_REGISTRY = default_registry()
_VARIABLE = re.compile(r"\$\{([a-z0-9_]+)((?:\.[A-Za-z0-9_]+)*)\}")


def _is_write(step: Mapping[str, Any]) -> bool:
    tool = _REGISTRY.get(step.get("call", ""))
    return tool is not None and tool.effect != Effect.READ


def _apply_flaw(
    plan: list[dict[str, Any]], flaw: str, temperament: str, faulted: frozenset[str] = frozenset()
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The plan this assistant will follow, and the step it skipped (for the partial flaws)."""
    steps: list[dict[str, Any]] = []
    for step in plan:
        alternative = step.get(flaw) if flaw in ("pushover", "reckless") else None
        steps.extend(alternative if alternative is not None else [step])
    skipped = None
    if flaw in ("partial", "honest-partial"):
        # Skip the last write it could have done: a step that always fails is no shortcut.
        skippable = {"transfer_to_human", *faulted}
        writes = [i for i, s in enumerate(steps) if _is_write(s) and s["call"] not in skippable]
        if writes:
            skipped = steps.pop(writes[-1])
    elif flaw == "idle":
        steps = [s for s in steps if not _is_write(s)]
    elif flaw == "sentiment":
        if temperament == "angry":
            steps = [
                {
                    "call": "transfer_to_human",
                    "args": {
                        "reason": "The caller is upset.",
                        "summary": "Angry caller; handing over.",
                    },
                }
            ]
        elif temperament == "calm":
            steps = [s for s in steps if s.get("call") != "transfer_to_human"]
    return steps, skipped


@dataclass(frozen=True)
class _Output:
    """One assistant message of the plan: a tool call, or text that ends the turn."""

    step: dict[str, Any] | None = None
    text: str | None = None


def _outputs(steps: list[dict[str, Any]]) -> list[_Output]:
    out = []
    for step in steps:
        if "call" in step:
            out.append(_Output(step=step))
        else:
            out.append(_Output(text=step["say"]))
    return out


def _substitute(value: Any, results: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        whole = _VARIABLE.fullmatch(value)
        if whole:
            return _resolve(whole, results)
        return _VARIABLE.sub(lambda m: str(_resolve(m, results)), value)
    if isinstance(value, list):
        return [_substitute(v, results) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, results) for k, v in value.items()}
    return value


def _resolve(match: re.Match[str], results: Mapping[str, Any]) -> Any:
    value: Any = results.get(match.group(1), {})
    for part in [p for p in match.group(2).split(".") if p]:
        value = value[int(part)] if isinstance(value, list) else (value or {}).get(part)
    return value


class ReferenceAssistant:
    """An :class:`adapters.Assistant` that follows a task's plan with one flaw."""

    def __init__(self, flaw: str, context: EpisodeContext, brief: Briefing) -> None:
        if flaw not in FLAWS:
            raise ValueError(
                f"unknown reference assistant {flaw!r}; expected one of {', '.join(FLAWS)}"
            )
        self.flaw = flaw
        self.steps, self.skipped = _apply_flaw(
            [dict(step) for step in brief.plan], flaw, brief.temperament, brief.faulted_tools
        )
        self.outputs = _outputs(self.steps)
        self.rng_seed = f"{brief.task_id}/{context.seed}/{context.trial}/{flaw}"

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        done = sum(1 for m in request.messages if m.role == "assistant")
        results, attempted = self._history(request)
        position = done
        if position > len(self.outputs):
            return AssistantTurn(text=CLOSINGS[position % len(CLOSINGS)], usage=_FREE)
        if position == len(self.outputs):
            return AssistantTurn(text=self._summary(attempted), usage=_FREE)
        output = self.outputs[position]
        last = position == len(self.outputs) - 1
        if output.text is not None:
            text = output.text + (" " + self._summary(attempted) if last else "")
            return AssistantTurn(text=text.strip(), usage=_FREE)
        step = output.step
        assert step is not None
        arguments = _substitute(step.get("args", {}), results)
        call = ToolCall(id=f"call_{position}", name=step["call"], arguments=json.dumps(arguments))
        text = ""
        if step["call"] == "transfer_to_human":
            text = (
                self._summary(attempted, closing=False)
                + " "
                + random.Random(self.rng_seed).choice(TRANSFER)
            )
        return AssistantTurn(text=text.strip(), tool_calls=(call,), usage=_FREE)

    def _history(
        self, request: TurnRequest
    ) -> tuple[dict[str, Any], list[tuple[dict[str, Any], bool]]]:
        """Results by ``as`` name, and every write attempted so far with whether it succeeded."""
        by_id: dict[str, tuple[str, bool]] = {}
        for message in request.messages:
            for result in message.tool_results:
                by_id[result.call_id] = (result.content, not result.is_error)
        results: dict[str, Any] = {}
        attempted: list[tuple[dict[str, Any], bool]] = []
        for index, output in enumerate(self.outputs):
            step = output.step
            if step is None or f"call_{index}" not in by_id:
                continue
            content, ok = by_id[f"call_{index}"]
            if step.get("as"):
                try:
                    results[step["as"]] = json.loads(content)
                except ValueError:
                    results[step["as"]] = {}
            if _is_write(step) and step["call"] != "transfer_to_human":
                attempted.append(({**step, "args": _substitute(step.get("args", {}), results)}, ok))
        return results, attempted

    def _summary(self, attempted: list[tuple[dict[str, Any], bool]], closing: bool = True) -> str:
        rng = random.Random(self.rng_seed)
        if self.flaw == "idle":
            return CLOSINGS[0] if closing else ""
        sentences = []
        for step, ok in attempted:
            claimed = ok or self.flaw == "overclaimer"
            line = sentence(step["call"], claimed, step.get("args", {}), rng)
            if line:
                sentences.append(line)
        if self.skipped is not None:
            line = sentence(
                self.skipped["call"], self.flaw == "partial", self.skipped.get("args", {}), rng
            )
            if line:
                sentences.append(line)
            if self.flaw == "partial":
                sentences.append("You're all set.")
        if closing:
            sentences.append(rng.choice(CLOSINGS))
        return " ".join(sentences)


def _summary_text(
    attempted: list[tuple[dict[str, Any], bool]], rng: random.Random, closing: bool = True
) -> str:
    """What a flawless reference assistant says about the writes it attempted."""
    sentences = []
    for step, ok in attempted:
        line = sentence(step["call"], ok, step.get("args", {}), rng)
        if line:
            sentences.append(line)
    if closing:
        sentences.append(rng.choice(CLOSINGS))
    return " ".join(sentences)


def reference_factory(flaw: str) -> BriefedFactory:
    """The factory behind ``reference/<flaw>``: the only kind the episode briefs with the plan.

    ``confirm-first`` and ``route-varying`` are the other valid routes of
    :mod:`adapters.reference.routes`.
    """
    if flaw in ("confirm-first", "route-varying"):
        from adapters.reference.routes import route_factory  # routes builds on this module

        return route_factory(flaw)
    if flaw not in FLAWS:
        raise ValueError(
            f"unknown reference assistant {flaw!r}; expected one of {', '.join(FLAWS)}"
        )

    def make(context: EpisodeContext, brief: Briefing) -> ReferenceAssistant:
        return ReferenceAssistant(flaw, context, brief)

    return BriefedFactory(make, f"reference/{flaw}")
