"""Real worlds for the policy-layer tests: tool calls through :class:`sandbox.World`, then the
rules, the matchers and the scorer on what they left.

A *script* is a list of steps: ``(tool, arguments)`` runs a call at the simulated time;
``("@", "2026-03-05T10:00")`` sets the clock (before the first call: the call takes place
then; later: the clock moves on); ``("session", "2026-03-09T09:00")`` starts the
next session (the caller ringing back) at that time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from contract.messages import Usage
from sandbox.clock import SimClock
from sandbox.diff import diff
from sandbox.episode import EpisodeResult, Utterance
from sandbox.faults import Fault, FaultInjector
from sandbox.rules import RuleContext, Violation, check_rules
from sandbox.scorer import Score, score_episode
from sandbox.task import Assertion, Expect, Task
from sandbox.world import World
from tests.conftest import make_world
from tests.helpers import mini_tasks

Step = tuple[str, Any]


def play(
    script: Sequence[Step], world: World | None = None, *, faulted: Sequence[str] = ()
) -> tuple[World, Any]:
    """Run ``script`` on a fresh sample world (``faulted`` tools always fail, as an injected
    back-end fault); returns the world and its initial state."""
    world = world or make_world(FaultInjector([Fault(tool) for tool in faulted]))
    initial = world.state.copy()
    for step, (name, arguments) in enumerate(script):
        if name == "@" and not world.trace:
            world.clock = SimClock(arguments)  # the call takes place at another time
        elif name == "@":
            world.clock.set(arguments)
        elif name == "session":
            world.start_session(arguments)
        else:
            world.call(name, arguments, f"step{step}")
    return world, initial


def context(
    script: Sequence[Step], world: World | None = None, *, faulted: Sequence[str] = ()
) -> RuleContext:
    world, initial = play(script, world, faulted=faulted)
    rows = diff(initial, world.state)
    return RuleContext(initial, world.state, rows, list(world.ledger.entries), list(world.trace))


def violations(
    rule: str,
    params: Mapping[str, Any],
    script: Sequence[Step],
    world: World | None = None,
    *,
    faulted: Sequence[str] = (),
) -> list[Violation]:
    """The violations of one configured rule over what ``script`` did."""
    return check_rules([(rule, params)], context(script, world, faulted=faulted))


def result_of(world: World, initial: Any, said: Sequence[str] = ()) -> EpisodeResult:
    """An episode result for a world that was driven directly (no caller, no model)."""
    transcript = [Utterance(0, "assistant", "Hello.")]
    transcript += [Utterance(0, "assistant", text) for text in said]
    return EpisodeResult(
        task_id="policy/test",
        task_version="0",
        seed=0,
        trial=0,
        endings=["caller_hung_up"],
        transcript=transcript,
        trace=list(world.trace),
        ledger=list(world.ledger.entries),
        initial=initial,
        final=world.state,
        usage=Usage.zero(),
        caller_usage=Usage.zero(),
    )


def bare_task(
    outcome: Sequence[Assertion] = (),
    *,
    allowed: Sequence[Assertion] = (),
    forbidden: Sequence[Assertion] = (),
    escalate: bool = False,
    disclose: Sequence[str] = (),
) -> Task:
    """A one-session task with no business rules and exactly the expectations given."""
    base = mini_tasks()["mini_clinic/angry-simple-question"]
    expect: Expect = replace(
        base.expect,
        outcome=tuple(outcome),
        allowed=tuple(allowed),
        forbidden=tuple(forbidden),
        escalate=escalate,
        disclose=tuple(disclose),
    )
    business = replace(base.business, rules=(), allowed=())
    return replace(base, business=business, expect=expect)


def score(script: Sequence[Step], task: Task | None = None, said: Sequence[str] = ()) -> Score:
    """The scorer's verdict on what ``script`` did, against ``task`` (default: expect nothing)."""
    world, initial = play(script)
    return score_episode(task or bare_task(), result_of(world, initial, said))


def flagged(
    rule: str,
    params: Mapping[str, Any],
    script: Sequence[Step],
    world: World | None = None,
    *,
    faulted: Sequence[str] = (),
) -> list[int]:
    """The script steps (by index) whose calls broke ``rule``, in the order reported."""
    ctx = context(script, world, faulted=faulted)
    by_seq = {e.seq: e.call_id for e in ctx.ledger}
    out = []
    for violation in check_rules([(rule, params)], ctx):
        assert violation.rule == rule
        call_id = by_seq[violation.ledger_seq] if violation.ledger_seq is not None else None
        out.append(int(call_id.removeprefix("step")) if call_id else -1)
    return out
