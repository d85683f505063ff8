"""Running one episode: the conversation, its judging and scoring, as a row for the store.

Nothing here touches the store; the executors write what this returns."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from adapters.errors import ProviderError
from adapters.registry import AnyFactory
from adapters.retry import recording_retries
from businesses import initial_tables
from callers.fidelity import check_fidelity
from contract.assistant import EpisodeContext
from contract.messages import Usage
from opsbench.arms import split_model
from opsbench.judge import JudgeError, judge_episode
from opsbench.provenance import episode_provenance
from opsbench.records import NewEpisode, Status
from opsbench.run_plan import EpisodeKey, Prepared
from opsbench.run_selection import episode_seed
from sandbox.diff import diff
from sandbox.episode import EpisodeResult, run_episode
from sandbox.scorer import score_episode
from sandbox.task import Task


def _status(task: Task, result: EpisodeResult, simulated: bool) -> tuple[Status, str | None]:
    """The episode's status and, for a caller error, why (DESIGN §6 caller fidelity).

    Every caller is checked, scripted included: a scripted caller that answers an unusual
    assistant out of turn is as much a simulator fault as an LLM inventing a fact.
    ``simulated`` is kept for callers of this function; it no longer changes the check.
    """
    if result.infrastructure_error:
        return "infrastructure_error", result.error
    problems = check_fidelity(task, result)
    if problems:
        return "caller_error", "caller fidelity: " + "; ".join(problems)
    return "scored", result.error


def _usage_cost(usages: Sequence[Usage | None]) -> float | None:
    total = 0.0
    for usage in usages:
        if usage is None:
            continue
        if usage.cost_usd is None:
            return None
        total += usage.cost_usd
    return total


async def run_one(prepared: Prepared, key: EpisodeKey, assistant: AnyFactory) -> NewEpisode:
    """Run, judge and score one episode; never touches the store.

    Every failed provider request made for it (assistant, caller, judge) is recorded in the
    episode's ``retries``; the deadline (``episode_timeout``) covers the conversation and,
    apart, the judging.
    """
    with recording_retries() as retries:
        episode = await _run_one(prepared, key, assistant)
    return replace(episode, retries=retries.to_list())


async def _run_one(prepared: Prepared, key: EpisodeKey, assistant: AnyFactory) -> NewEpisode:
    config, task = prepared.config, key.task
    seed = episode_seed(config.seed, key.trial)
    result = await run_episode(
        task,
        initial_tables(task),
        assistant,
        prepared.caller,
        seed=seed,
        trial=key.trial,
        limits=config.limits,
        deadline_s=config.episode_timeout,
    )
    status, error = _status(task, result, simulated=config.caller != "scripted")
    judge_usage: Usage | None = None
    checker = None
    timings = dict(result.timings)
    if prepared.judge is not None and status != "infrastructure_error":
        tick = time.perf_counter()
        context = EpisodeContext(task.business.id, seed, key.trial)
        try:
            async with asyncio.timeout(config.episode_timeout):
                checker, judge_usage = await judge_episode(prepared.judge, result, context)
        except (ProviderError, JudgeError) as exc:
            status, error = "infrastructure_error", f"judge: {type(exc).__name__}: {exc}"
        except TimeoutError:
            status, error = (
                "infrastructure_error",
                f"judge: did not finish within the deadline of {config.episode_timeout:g} s "
                "(--episode-timeout)",
            )
        timings["judge_s"] = time.perf_counter() - tick
    score = None
    rows = diff(result.initial, result.final)
    if status != "infrastructure_error":
        tick = time.perf_counter()
        score = score_episode(task, result, checker, rows=rows).to_dict()
        timings["score_s"] = time.perf_counter() - tick
    usage = {
        "assistant": result.usage.to_dict(),
        "caller": result.caller_usage.to_dict(),
        "judge": None if judge_usage is None else judge_usage.to_dict(),
    }
    return NewEpisode(
        model=key.model,
        task_set=key.task_set,
        task_id=task.id,
        trial=key.trial,
        seed=seed,
        status=status,
        task_version=result.task_version,
        error=error,
        score=score,
        result=result.to_dict(),
        diff=[row.to_dict() for row in rows],
        usage=usage,
        cost_usd=_usage_cost([result.usage, result.caller_usage, judge_usage]),
        timings=timings,
        finished_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        provenance=episode_provenance(prepared.run.provenance, split_model(key.model)[0]),
    )
