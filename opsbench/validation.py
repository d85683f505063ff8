"""Running reference assistants over tasks: task validation and the scorer's own test matrix."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from adapters.reference import reference_factory
from businesses.loader import initial_tables
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
    tactic parameters the tactic does not take, and scripted tactic lines that cannot be said
    (a tactic whose line needs a parameter the task does not set). An LLM caller or the
    scripted caller would otherwise fail on them mid-run."""
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
        for index, line in enumerate(spec.script):
            if "tactic" not in line or "say" in line:
                continue
            try:
                tactic_for(spec, str(line["tactic"])).line(spec)
            except TacticError as exc:
                problems.append(f"{where}.script[{index}]: {exc}")
    return problems


def validate_task(task: Task) -> list[str]:
    """Why ``task``'s reference plan does not pass, or ``[]`` when it does.

    The oracle run through the real tools must satisfy the outcome, leave no collateral, break
    no rule, escalate exactly as expected, and state every fact it must disclose.
    """
    problems = static_problems(task)
    if problems:
        return problems
    try:
        run = run_reference(task, "oracle")
    except Exception as exc:  # a validator reports a broken task in one line, never a trace
        return [f"oracle: the episode raised {type(exc).__name__}: {exc}"]
    problems += [f"oracle: {reason}" for reason in run.score.reasons]
    # A reference call the tools reject as malformed is a typo in the task, even when the
    # outcome still holds (a misspelt argument of a lookup).
    for call in run.result.trace:
        code = (call.result.get("error") or {}).get("code") if not call.ok else None
        if code in MALFORMED:
            message = call.result["error"]["message"]
            problems.append(f"oracle: call {call.index} ({call.tool}) was rejected: {message}")
    if run.result.error:
        problems.append(f"oracle: episode error: {run.result.error}")
    if not run.score.passed and not problems:
        problems.append("oracle: did not pass")
    return problems
