"""The event-loop executor: every model's queue of episodes run by ``concurrency`` workers
behind its rate limiter, each episode stored as it finishes, with the crash and stop policies."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import replace
from typing import Any, Protocol

from adapters.registry import AnyFactory
from opsbench.episode_runner import run_one
from opsbench.errors import (
    AgentCrashError,
    StoreError,
)
from opsbench.ratelimit import Limiter, RateLimiter, rate_limited
from opsbench.records import NewEpisode
from opsbench.run_plan import EpisodeDone, EpisodeKey, Observer, Prepared, RunOutcome, plan
from opsbench.store import Store
from opsbench.watch import (
    ModelFailure,
    noting_failures,
    retry_summary,
    stop_line,
    watched_models,
)

log = logging.getLogger("opsbench.runner")


class EpisodeSink(Protocol):
    """Where :func:`execute` puts finished episodes: the :class:`~opsbench.store.Store`, or a
    Ray shard's stream back to the driver, which alone writes the store."""

    def done_keys(self, run_id: str) -> set[tuple[str, str, str, int]]: ...

    def record_episode(self, run_id: str, episode: NewEpisode) -> str: ...


class SharedStop(Protocol):
    """Stops shared by the worker processes of one run (:mod:`opsbench.network_pool`)."""

    def stopped(self, model: str) -> bool:
        """Whether ``model``'s queue must start no new episode (halted elsewhere, a crash)."""
        ...

    def halt(self, models: Sequence[str]) -> None:
        """Tell the other processes that ``models`` stopped here (the stop policy)."""
        ...


def _admit_all(key: EpisodeKey) -> AbstractAsyncContextManager[None]:
    return nullcontext()


async def execute(
    prepared: Prepared,
    store: EpisodeSink,
    observer: Observer | None = None,
    *,
    workers: int | None = 1,
    keys: Sequence[EpisodeKey] | None = None,
    limiter: Callable[[str], Limiter] | None = None,
    admit: Callable[[EpisodeKey], AbstractAsyncContextManager[None]] = _admit_all,
    stop: SharedStop | None = None,
) -> RunOutcome:
    """Run every episode the store does not already hold (as scored or caller error).

    ``workers`` processes run an offline run's episodes (None: one per core; see
    :mod:`opsbench.executor`); any other run stays on this event loop unless ``workers`` is
    above 1, when that many processes share it (:mod:`opsbench.network_pool`).

    A shard of the Ray executor runs this same loop over its own ``keys`` (default: the whole
    plan), with each model's ``limiter`` shared by the cluster (default: one
    :class:`~opsbench.ratelimit.RateLimiter` per model here) and ``admit`` entered around each
    episode (a cluster-wide concurrency slot, and word to the driver that it started).
    A worker process of :mod:`opsbench.network_pool` runs it over its share of the plan, with
    ``stop`` shared by its siblings: a model one of them halts, or a crash, stops them all.
    """
    observer = observer or Observer()
    from opsbench.executor import execute_pool, pool_size

    size = pool_size(prepared, workers)
    if size > 1 and keys is None and isinstance(store, Store):
        return await execute_pool(prepared, store, observer, size)
    if workers is not None and workers > 1 and keys is None and isinstance(store, Store):
        from opsbench.network_pool import execute_network_pool, network_pool_size

        processes = network_pool_size(prepared.config, workers)
        if processes > 1:
            return await execute_network_pool(prepared, store, observer, processes)
    config = prepared.config
    done = store.done_keys(prepared.run.id)
    keys = plan(prepared) if keys is None else list(keys)
    todo: dict[str, list[EpisodeKey]] = {m: [] for m in prepared.assistants}
    skipped: dict[str, int] = dict.fromkeys(prepared.assistants, 0)
    for key in keys:
        if key.store_key in done:
            skipped[key.model] += 1
        else:
            todo[key.model].append(key)
    observer.started(prepared.run.id, {m: len(v) for m, v in todo.items()}, skipped)
    log.info(
        "run %s: %d episodes to run, %d already done; concurrency %d, rpm %s, tpm %s; config %s",
        prepared.run.id,
        sum(len(v) for v in todo.values()),
        sum(skipped.values()),
        config.concurrency,
        config.rpm,
        config.tpm,
        json.dumps(prepared.run.config, sort_keys=True),
    )
    statuses: dict[str, int] = {}
    retried: list[dict[str, Any]] = []  # every failed request of the episodes run
    assistants, caller, judge = watched_models(
        prepared.assistants, prepared.caller, prepared.judge, config.caller, config.judge
    )
    watched = replace(prepared, assistants=assistants, caller=caller, judge=judge)

    # A bug in an agent or in the harness (anything but a provider failure, which run_episode
    # records as an infrastructure error) stops the run: no new episode starts, the ones in
    # flight finish and are stored, then AgentCrashError names the episode that failed.
    crashed: list[tuple[EpisodeKey, Exception]] = []
    # One stop policy for every model the run uses (contract.errors.stop_reason): a refused
    # key or permission, an unknown model or endpoint, an exhausted quota will fail every
    # later request too. The assistant's failing stops its own queue; the caller's or the
    # judge's, every queue (every episode needs them). What is left stays planned, so
    # --resume finishes it once the cause is fixed.
    halted: dict[str, str] = {}

    def halt(models: Sequence[str], failure: ModelFailure, key: EpisodeKey) -> None:
        line = stop_line(failure)
        fresh = [m for m in models if m not in halted]
        for model in fresh:
            halted[model] = line
        if fresh and stop is not None:
            stop.halt(fresh)
        if fresh:
            log.error(
                "%s stopped after %s trial %d: %s; fix that, then "
                "`opsbench run --resume %s` runs what is left",
                ", ".join(fresh),
                key.task.id,
                key.trial,
                line,
                prepared.run.id,
            )

    async def worker(model: str, queue: list[EpisodeKey], assistant: AnyFactory) -> None:
        while queue and not crashed and model not in halted:
            if stop is not None and stop.stopped(model):
                break
            key = queue.pop(0)
            failures: list[ModelFailure] = []
            try:
                with noting_failures(failures):
                    async with admit(key):
                        episode = await run_one(watched, key, assistant)
            except Exception as exc:
                log.error(
                    "run %s stopped: %s, %s trial %d raised %s: %s",
                    prepared.run.id,
                    model,
                    key.task.id,
                    key.trial,
                    type(exc).__name__,
                    exc,
                    exc_info=exc,
                )
                crashed.append((key, exc))
                return
            try:
                episode_ref = store.record_episode(prepared.run.id, episode)
            except (StoreError, sqlite3.Error) as exc:
                # The store cannot take it (full disk, lock held too long): stop like a crash,
                # every other worker finishing and storing what it has in flight if it can.
                log.error(
                    "run %s stopped: could not store %s, %s trial %d: %s",
                    prepared.run.id,
                    model,
                    key.task.id,
                    key.trial,
                    exc,
                    exc_info=exc,
                )
                crashed.append((key, exc))
                return
            # Reference assistants never wait on I/O: yield so Ctrl-C and other models get a turn.
            await asyncio.sleep(0)
            if episode.retries:
                log.info(
                    "%s (%s, %s trial %d): %s",
                    episode_ref,
                    model,
                    key.task.id,
                    key.trial,
                    retry_summary(episode.retries),
                )
            if episode.status != "scored":
                log.warning(
                    "%s %s (%s, %s trial %d): %s",
                    episode_ref,
                    episode.status,
                    model,
                    key.task.id,
                    key.trial,
                    episode.error or ", ".join(episode.result.get("caller_flags", [])),
                )
            stopping = next((f for f in reversed(failures) if f.stop_reason), None)
            if episode.status == "infrastructure_error" and stopping is not None:
                everyone = stopping.role != "assistant"
                halt(list(prepared.assistants) if everyone else [model], stopping, key)
            statuses[episode.status] = statuses.get(episode.status, 0) + 1
            retried.extend(episode.retries)
            tokens = sum(
                (u or {}).get("input_tokens", 0) + (u or {}).get("output_tokens", 0)
                for u in episode.usage.values()
            )
            observer.episode(
                EpisodeDone(
                    model,
                    key.task.id,
                    episode.status,
                    None if episode.score is None else bool(episode.score["passed"]),
                    tokens,
                    episode.cost_usd,
                )
            )

    loops: list[Coroutine[Any, Any, None]] = []
    for model, factory in watched.assistants.items():
        shared = limiter(model) if limiter else RateLimiter(config.rpm, config.tpm)
        limited = rate_limited(factory, shared)
        queue = todo[model]
        loops.extend(
            worker(model, queue, limited) for _ in range(min(config.concurrency, len(queue)))
        )
    await asyncio.gather(*loops)
    ran = sum(statuses.values())
    log.info("run %s: ran %d episodes: %s", prepared.run.id, ran, statuses)
    if retried:
        log.info("run %s: %s", prepared.run.id, retry_summary(retried))
    if crashed:
        key, exc = crashed[0]
        if isinstance(exc, StoreError | sqlite3.Error):
            raise StoreError(
                f"run {prepared.run.id} stopped: could not store the episode of {key.model}, "
                f"{key.task.id} trial {key.trial} ({' '.join(str(exc).split())}); {ran} "
                f"episodes finished and are stored, `opsbench run --resume {prepared.run.id}` "
                "continues once the store can be written"
            )
        raise AgentCrashError(prepared.run.id, key.model, key.task.id, key.trial, exc, ran)
    left = {m: len(q) for m, q in todo.items() if q}
    return RunOutcome(
        prepared.run.id, len(keys), ran, sum(skipped.values()), statuses, halted, left
    )
