"""Running reference assistants over tasks: task validation and the scorer's own test matrix."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from adapters.reference import reference_factory
from businesses.loader import initial_tables
from callers.fidelity import check_authored_lines, check_fidelity
from callers.scripted import scripted_caller_factory
from sandbox.episode import EpisodeResult, run_episode
from sandbox.scorer import Score, score_episode
from sandbox.task import Task

# Tool error codes that mean the call itself was written wrong.
MALFORMED = frozenset({"unknown_tool", "invalid_json", "invalid_arguments"})


@dataclass(frozen=True)
class ReferenceRun:
    task: Task
    flaw: str
    result: EpisodeResult
    score: Score


async def run_reference_async(task: Task, flaw: str = "oracle", seed: int = 0) -> ReferenceRun:
    """One episode of ``reference/<flaw>`` against ``task`` with its scripted caller."""
    result = await run_episode(
        task, initial_tables(task), reference_factory(flaw), scripted_caller_factory, seed=seed
    )
    return ReferenceRun(task, flaw, result, score_episode(task, result))


def run_reference(task: Task, flaw: str = "oracle", seed: int = 0) -> ReferenceRun:
    """Synchronous :func:`run_reference_async`."""
    return asyncio.run(run_reference_async(task, flaw, seed))


def static_problems(task: Task) -> list[str]:
    """What is wrong with ``task`` that shows without running it, beyond what the loader checks:
    tactic parameters the tactic does not take, and caller moves that say a tactic's line which
    cannot be said (a tactic whose line needs a parameter the task does not set). An LLM caller
    or the scripted caller would otherwise fail on them mid-run."""
    from callers.tactics import TacticError, bind, tactic_for

    problems = []
    for number, session in enumerate(task.sessions):
        where = "caller" if number == 0 else f"sessions[{number - 1}].caller"
        spec = session.caller
        for index, tactic in enumerate(spec.tactics):
            try:
                bind(tactic)
            except TacticError as exc:
                problems.append(f"{where}.tactics[{index}]: {exc}")
        groups = {
            "moves": spec.moves,
            "reactions": spec.reactions,
            "corrections": spec.corrections,
            "change": (spec.change,) if spec.change is not None else (),
        }
        for group, moves in groups.items():
            for index, move in enumerate(moves):
                if move.tactic is None or move.say is not None:
                    continue
                try:
                    tactic_for(spec, move.tactic).line(spec)
                except TacticError as exc:
                    problems.append(f"{where}.{group}[{index}]: {exc}")
    return problems


# Every valid route a task must pass: the plan as written, the plan read back before each write
# with a yes awaited, and the plan by another route (adapters/reference/routes.py).
VALIDATION_ROUTES = ("oracle", "confirm-first", "route-varying")


def route_problems(run: ReferenceRun) -> list[str]:
    """Why one reference route's run of a task does not pass, or ``[]`` when it does."""
    route = run.flaw
    problems = [f"{route}: {reason}" for reason in run.score.reasons]
    # A reference call the tools reject as malformed is a typo in the task, even when the
    # outcome still holds (a misspelt argument of a lookup).
    for call in run.result.trace:
        code = (call.result.get("error") or {}).get("code") if not call.ok else None
        if code in MALFORMED:
            message = call.result["error"]["message"]
            problems.append(f"{route}: call {call.index} ({call.tool}) was rejected: {message}")
    if run.result.error:
        problems.append(f"{route}: episode error: {run.result.error}")
    # The scripted caller is part of the task: one that misplays a valid route is a task bug.
    problems.extend(f"{route}: {reason}" for reason in check_fidelity(run.task, run.result))
    if "turn_limit" in run.result.endings:
        problems.append(f"{route}: the call ran to the turn limit")
    if not run.score.passed and not problems:
        problems.append(f"{route}: did not pass")
    return problems


def validate_task(task: Task) -> list[str]:
    """Why ``task`` does not pass every valid route, or ``[]`` when it does.

    Each route of :data:`VALIDATION_ROUTES`, run through the real tools with the scripted
    caller, must satisfy the outcome, leave no collateral, break no rule, escalate exactly as
    expected, state every fact it must disclose, and keep its caller faithful; and every
    authored caller line may state only facts its caller was given.
    """
    problems = static_problems(task)
    if problems:
        return problems
    problems = [f"caller: {reason}" for reason in check_authored_lines(task)]
    for route in VALIDATION_ROUTES:
        try:
            run = run_reference(task, route)
        except Exception as exc:  # a validator reports a broken task in one line, never a trace
            problems.append(f"{route}: the episode raised {type(exc).__name__}: {exc}")
            continue
        problems.extend(route_problems(run))
    return problems
