"""Offline episodes on every core: a process pool runs them, one writer stores them in order.

Reference assistants with the scripted caller and no judge need no network and never wait:
one event loop runs them on one core. Here each episode runs in a worker process (forked, so
the task set, the factories and the plan are inherited, never re-loaded or pickled), which
also encodes it (canonical JSON, redaction) so that the parent only writes. The parent is the
single store writer: it takes results in plan order, whatever order they finish in, and
writes every one that is ready in one transaction; an episode is reported (progress, log)
only once its transaction is committed, so a SIGKILL loses no episode that was reported, and
``--resume`` re-runs the rest. Each episode's content depends only on its key and the run's
seed, so the store holds the same results as a single-process run.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sqlite3
import sys
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from opsbench.errors import AgentCrashError, StoreError
from opsbench.records import EncodedEpisode, NewEpisode, encode_episode
from opsbench.store import Store

if TYPE_CHECKING:
    from opsbench.run_config import RunConfig
    from opsbench.run_plan import EpisodeKey, Observer, Prepared, RunOutcome

log = logging.getLogger("opsbench")

# Results waiting in the pool per worker: enough to keep every worker busy while the writer
# commits, few enough that memory stays flat whatever the run's size.
WINDOW_PER_WORKER = 8


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def pool_size(prepared: Prepared, workers: int | None) -> int:
    """How many worker processes ``prepared`` runs in: 1 (in-process) unless it is offline.

    Only reference assistants with the scripted caller and no judge are certain to need no
    network, no client per event loop and no shared rate limit; every other run stays on the
    event loop, whose concurrency is what waits on the providers (or, given ``--workers``,
    on several: :mod:`opsbench.network_pool`).
    """
    if workers is not None and workers < 1:
        from opsbench.errors import SelectionError

        raise SelectionError(f"--workers must be at least 1, got {workers}")
    size = default_workers() if workers is None else workers
    if (
        size < 2
        or not is_offline(prepared.config)
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return 1
    return size


def is_offline(config: RunConfig) -> bool:
    """Reference assistants, the scripted caller, no judge: no request leaves the machine."""
    return (
        all(model.startswith("reference/") for model in config.models)
        and config.caller == "scripted"
        and config.judge is None
    )


# -- in the worker process ---------------------------------------------------------------------

# Set in the parent just before the pool forks; the workers inherit them.
_PREPARED: Prepared | None = None
_KEYS: list[EpisodeKey] = []
_LOOP: asyncio.AbstractEventLoop | None = None


def _start_worker() -> None:
    global _LOOP
    # Ctrl-C is the parent's to handle (it stops submitting and drains); a worker whose
    # parent died (SIGKILL) must not linger.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    _LOOP = asyncio.new_event_loop()


@dataclass(frozen=True)
class Finished:
    """What the writer needs of a finished episode besides its columns."""

    status: str
    passed: bool | None
    error: str | None
    flags: tuple[str, ...]
    cost_usd: float | None
    tokens: int = 0


def _run_key(index: int) -> tuple[EncodedEpisode, Finished]:
    from opsbench.episode_runner import run_one

    assert _PREPARED is not None and _LOOP is not None
    key = _KEYS[index]
    episode = _LOOP.run_until_complete(run_one(_PREPARED, key, _PREPARED.assistants[key.model]))
    return encode_episode(episode), finished(episode)


def finished(episode: NewEpisode) -> Finished:
    """The summary the writer reports once ``episode`` is committed."""
    return Finished(
        episode.status,
        None if episode.score is None else bool(episode.score["passed"]),
        episode.error,
        tuple(episode.result.get("caller_flags", [])),
        episode.cost_usd,
        sum(
            (u or {}).get("input_tokens", 0) + (u or {}).get("output_tokens", 0)
            for u in episode.usage.values()
        ),
    )


# -- in the parent -----------------------------------------------------------------------------


async def execute_pool(
    prepared: Prepared, store: Store, observer: Observer, workers: int
) -> RunOutcome:
    """Run every episode the store does not hold in ``workers`` processes; write in order."""
    from opsbench.run_plan import EpisodeDone, RunOutcome, to_run

    global _PREPARED, _KEYS
    done = store.done_keys(prepared.run.id)
    todo, already = to_run(prepared, done, observer)
    log.info(
        "run %s: %d episodes to run, %d already done; %d worker processes",
        prepared.run.id,
        len(todo),
        already,
        workers,
    )
    statuses: dict[str, int] = {}
    crashed: tuple[EpisodeKey, BaseException] | None = None
    loop = asyncio.get_running_loop()
    _PREPARED, _KEYS = prepared, todo
    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker)
    window: deque[tuple[int, asyncio.Future[Any]]] = deque()
    submitted = 0
    try:
        # After a crash nothing more is submitted: drain what is in flight, then stop.
        while (crashed is None and submitted < len(todo)) or window:
            while (
                crashed is None
                and submitted < len(todo)
                and len(window) < workers * WINDOW_PER_WORKER
            ):
                window.append((submitted, loop.run_in_executor(pool, _run_key, submitted)))
                submitted += 1
            await asyncio.wait([window[0][1]])
            # Every result ready at the head, in plan order, goes in one transaction.
            batch: list[tuple[EpisodeKey, EncodedEpisode, Finished]] = []
            while window and window[0][1].done():
                index, future = window.popleft()
                key = todo[index]
                exc = future.exception()
                if exc is not None:
                    if crashed is None:
                        log.error(
                            "run %s stopped: %s, %s trial %d raised %s: %s",
                            prepared.run.id,
                            key.model,
                            key.task.id,
                            key.trial,
                            type(exc).__name__,
                            exc,
                            exc_info=exc,
                        )
                        crashed = (key, exc)
                    continue
                encoded, summary = future.result()
                batch.append((key, encoded, summary))
            if not batch:
                continue
            try:
                refs = store.record_encoded(prepared.run.id, [b[1] for b in batch])
            except (StoreError, sqlite3.Error) as store_exc:
                key = batch[0][0]
                raise StoreError(
                    f"run {prepared.run.id} stopped: could not store the episode of "
                    f"{key.model}, {key.task.id} trial {key.trial} "
                    f"({' '.join(str(store_exc).split())}); {sum(statuses.values())} episodes "
                    f"finished and are stored, `opsbench run --resume {prepared.run.id}` "
                    "continues once the store can be written"
                ) from None
            for (key, _encoded, summary), ref in zip(batch, refs, strict=True):
                acknowledge(ref, key, summary, statuses, observer, EpisodeDone)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _PREPARED, _KEYS = None, []
    ran = sum(statuses.values())
    log.info("run %s: ran %d episodes: %s", prepared.run.id, ran, statuses)
    if crashed is not None:
        key, error = crashed
        raise AgentCrashError(prepared.run.id, key.model, key.task.id, key.trial, error, ran)
    return RunOutcome(prepared.run.id, len(todo) + already, ran, already, statuses, {}, {})


def acknowledge(
    ref: str,
    key: EpisodeKey,
    summary: Finished,
    statuses: dict[str, int],
    observer: Observer,
    done_type: Any,
) -> None:
    """Report one committed episode: its count, its warning if any, the progress display."""
    if summary.status != "scored":
        log.warning(
            "%s %s (%s, %s trial %d): %s",
            ref,
            summary.status,
            key.model,
            key.task.id,
            key.trial,
            summary.error or ", ".join(summary.flags),
        )
    statuses[summary.status] = statuses.get(summary.status, 0) + 1
    observer.episode(
        done_type(
            key.model, key.task.id, summary.status, summary.passed, summary.tokens, summary.cost_usd
        )
    )


__all__ = [
    "Finished",
    "acknowledge",
    "default_workers",
    "execute_pool",
    "finished",
    "is_offline",
    "pool_size",
]
