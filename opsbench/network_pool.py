"""Network episodes in several processes: each waits on its own event loop, one writer stores.

An episode that talks to a served model (or an LLM caller, or a judge) spends most of its wall
time waiting, but its client work (the SDK, JSON, scoring, encoding) is CPU on the loop's
thread: at 64 connections and more, one process's CPU, not the server, sets the pace. With
``--workers N`` the run's episodes are split across N forked processes (the task set, the
factories and the plan are inherited, never re-loaded or pickled). Each runs the ordinary
event-loop executor (:func:`opsbench.run_loop.execute`) over its share of every model's
episodes, with its share of the connections (``--concurrency``) and of the rate limits, and
encodes each finished episode (canonical JSON, redaction) before sending it up a pipe.

The parent is the single store writer. It writes episodes in plan order, whatever order they
finish in, every one ready at once in one transaction, and reports an episode (progress, log)
only once its transaction is committed: a SIGKILL loses no reported episode, and ``--resume``
runs the rest. The stop policy holds across the processes: a model halted in one (a refused
key, an exhausted quota) or a crash anywhere stops every process from starting another
episode; what each has in flight finishes and is stored.

Rate limits are split, not shared: process ``i`` gets ``rpm // N`` requests a minute (one more
for the first ``rpm % N``), and the same for tokens, so the processes' limits add up to the
run's. There are never more processes than connections, or than requests (tokens) a minute
of a limit, so every share is at least one. As in one process, tokens are known only after
a reply, so a burst may overshoot the token limit by one request's worth per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import multiprocessing
import pickle
import signal
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from opsbench.errors import AgentCrashError, OpsbenchError, StoreError
from opsbench.executor import Finished, acknowledge, finished
from opsbench.ratelimit import WINDOW_S, RateLimiter
from opsbench.records import EncodedEpisode, NewEpisode, encode_episode, episode_id
from opsbench.store import Store

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event

    from opsbench.run_config import RunConfig
    from opsbench.run_plan import EpisodeKey, Observer, Prepared, RunOutcome

log = logging.getLogger("opsbench")
# The rate limits' window; a test shortens it (before the processes fork) rather than wait
# for several minutes.
LIMIT_WINDOW_S = WINDOW_S


def network_pool_size(config: RunConfig, workers: int) -> int:
    """The processes a network run of ``config`` is split across, at most ``workers``.

    Never more than the connections (``concurrency``) or than a rate limit's requests or
    tokens a minute, so that every process has a share of at least one of each; 1 where
    processes cannot be forked.
    """
    size = min(workers, config.concurrency)
    for limit in (config.rpm, config.tpm):
        if limit is not None:
            size = min(size, limit)
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(size, 1)


def share(total: int, parts: int, index: int) -> int:
    """Process ``index``'s share of ``total`` split in ``parts``: the shares add up to it."""
    return total // parts + (1 if index < total % parts else 0)


def assign(keys: Sequence[EpisodeKey], concurrency: int, workers: int) -> list[list[int]]:
    """The indices of ``keys`` each process runs, in plan order.

    Each model's episodes are dealt to the processes in proportion to their connections: the
    ``j``-th of a model goes to the process holding connection ``j % concurrency``.
    """
    shares: list[list[int]] = [[] for _ in range(workers)]
    seen: dict[str, int] = {}
    for index, key in enumerate(keys):
        j = seen.get(key.model, 0)
        seen[key.model] = j + 1
        shares[(j % concurrency) % workers].append(index)
    return shares


class Stops:
    """The stop policy across processes: one event per model, one for everything (a crash).

    Created before the processes fork, so each holds the same events.
    """

    def __init__(self, models: Sequence[str]) -> None:
        context = multiprocessing.get_context("fork")
        self.everything: Event = context.Event()
        self.models: dict[str, Event] = {m: context.Event() for m in models}

    def stopped(self, model: str) -> bool:
        return self.everything.is_set() or self.models[model].is_set()

    def halt(self, models: Sequence[str]) -> None:
        for model in models:
            self.models[model].set()


# -- in a worker process -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Plan:
    """What the workers inherit from the parent when they fork."""

    prepared: Prepared
    todo: list[EpisodeKey]
    shares: list[list[int]]
    stops: Stops


_PLAN: _Plan | None = None


class _Pipe:
    """A worker's :class:`~opsbench.run_loop.EpisodeSink`: each episode goes up, encoded."""

    def __init__(self, conn: Connection, indices: dict[tuple[str, str, str, int], int]) -> None:
        self._conn, self._indices = conn, indices

    def done_keys(self, run_id: str) -> set[tuple[str, str, str, int]]:
        return set()  # the parent sends only what the store lacks

    def record_episode(self, run_id: str, episode: NewEpisode) -> str:
        key = (episode.model, episode.task_set, episode.task_id, episode.trial)
        self._conn.send(("episode", self._indices[key], encode_episode(episode), finished(episode)))
        return episode_id(run_id, *key)


class _NoWarnings(logging.Filter):
    """The parent logs a finished episode's warning once it is stored; the worker does not."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno != logging.WARNING


def _picklable(error: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


def _work(number: int, workers: int, conn: Connection) -> None:
    from opsbench.run_loop import execute

    # Ctrl-C is the parent's to handle; a worker whose parent died (SIGKILL) must not linger.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    logging.getLogger("opsbench.runner").addFilter(_NoWarnings())
    assert _PLAN is not None
    prepared, config = _PLAN.prepared, _PLAN.prepared.config
    mine = _PLAN.shares[number]
    keys = [_PLAN.todo[i] for i in mine]
    own = replace(
        config,
        concurrency=share(config.concurrency, workers, number),
        rpm=None if config.rpm is None else share(config.rpm, workers, number),
        tpm=None if config.tpm is None else share(config.tpm, workers, number),
    )
    sink = _Pipe(conn, {k.store_key: i for k, i in zip(keys, mine, strict=True)})
    try:
        outcome = asyncio.run(
            execute(
                replace(prepared, config=own),
                sink,
                keys=keys,
                limiter=lambda model: RateLimiter(own.rpm, own.tpm, window_s=LIMIT_WINDOW_S),
                stop=_PLAN.stops,
            )
        )
        _tell(conn, ("end", outcome.halted, outcome.left))
    except AgentCrashError as exc:
        _tell(conn, ("crash", (exc.model, exc.task_id, exc.trial), _picklable(exc.error)))
    except BrokenPipeError:
        pass  # the parent stopped listening (its store failed, Ctrl-C): nothing to tell
    except BaseException as exc:  # whatever it was (even SystemExit), the parent must hear
        _tell(conn, ("crash", None, _picklable(exc)))
    finally:
        conn.close()


def _tell(conn: Connection, message: tuple[Any, ...]) -> None:
    with contextlib.suppress(OSError):  # a parent gone has nothing to hear
        conn.send(message)


# -- in the parent -----------------------------------------------------------------------------


async def execute_network_pool(
    prepared: Prepared, store: Store, observer: Observer, workers: int
) -> RunOutcome:
    """Run every episode the store lacks in ``workers`` processes; write them in plan order."""
    from opsbench.run_plan import EpisodeDone, RunOutcome, to_run

    global _PLAN
    run_id = prepared.run.id
    done = store.done_keys(run_id)
    todo, already = to_run(prepared, done, observer)
    log.info(
        "run %s: %d episodes to run, %d already done; %d worker processes sharing "
        "concurrency %d, rpm %s, tpm %s",
        run_id,
        len(todo),
        already,
        workers,
        prepared.config.concurrency,
        prepared.config.rpm,
        prepared.config.tpm,
    )
    shares = assign(todo, prepared.config.concurrency, workers)
    stops = Stops(list(prepared.assistants))
    context = multiprocessing.get_context("fork")
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[tuple[int, Any]] = asyncio.Queue()
    processes: list[multiprocessing.process.BaseProcess] = []
    conns: list[Connection] = []
    statuses: dict[str, int] = {}
    halted: dict[str, str] = {}
    left: dict[str, int] = {}
    crashed: tuple[tuple[str, str, int] | None, BaseException] | None = None
    # Plan index -> the encoded episode, or None for one that will never come (stopped).
    ready: dict[int, tuple[EncodedEpisode, Finished] | None] = {}
    received: set[int] = set()
    head = 0
    _PLAN = _Plan(prepared, todo, shares, stops)
    # What the processes inherit stays shared: the collector would otherwise walk (and so
    # copy, page by page) every object of the parent in each of them.
    gc.freeze()
    try:
        for number in range(workers):
            parent_end, child_end = context.Pipe(duplex=False)
            process = context.Process(
                target=_work, args=(number, workers, child_end), name=f"opsbench-net-{number}"
            )
            process.start()
            child_end.close()
            processes.append(process)
            conns.append(parent_end)
            loop.add_reader(parent_end.fileno(), _reader(number, parent_end, inbox, loop))
        running = set(range(workers))
        while running or head < len(todo):
            if not running and head not in ready:
                break  # nothing more will come (cannot happen: every end fills its gaps)
            number, message = await inbox.get()
            messages = [(number, message)]
            while not inbox.empty():
                messages.append(inbox.get_nowait())
            for number, message in messages:
                kind = message[0]
                if kind == "episode":
                    _, index, encoded, summary = message
                    ready[index] = (encoded, summary)
                    received.add(index)
                    continue
                if number not in running:
                    continue  # its end of file after its last word
                running.discard(number)
                loop.remove_reader(conns[number].fileno())
                for index in shares[number]:
                    if index not in received:
                        ready[index] = None
                if kind == "end":
                    _, their_halted, their_left = message
                    for model, line in their_halted.items():
                        halted.setdefault(model, line)
                    for model, count in their_left.items():
                        left[model] = left.get(model, 0) + count
                    continue
                stops.everything.set()
                if kind == "crash":
                    where, error = message[1], message[2]
                else:  # "eof": the process died without a word (killed, out of memory)
                    processes[number].join(5)
                    code = processes[number].exitcode
                    where, error = (
                        None,
                        RuntimeError(
                            f"worker process {number} died (exit code {code}) before finishing "
                            "its episodes"
                        ),
                    )
                if crashed is None:
                    crashed = (where, error)
            batch: list[tuple[EpisodeKey, EncodedEpisode, Finished]] = []
            while head in ready:
                item = ready.pop(head)
                if item is not None:
                    batch.append((todo[head], *item))
                head += 1
            if batch:
                _store(store, run_id, batch, statuses, observer, EpisodeDone, stops)
    finally:
        stops.everything.set()
        for number, conn in enumerate(conns):
            with contextlib.suppress(ValueError, OSError):
                loop.remove_reader(conn.fileno())
            conn.close()
            if processes[number].is_alive():
                processes[number].join(0.1)
            if processes[number].is_alive():
                processes[number].terminate()
            processes[number].join()
        _PLAN = None
        gc.unfreeze()
    ran = sum(statuses.values())
    log.info("run %s: ran %d episodes: %s", run_id, ran, statuses)
    if crashed is not None:
        where, error = crashed
        if where is None:
            raise OpsbenchError(
                f"run {run_id} stopped: {type(error).__name__}: {error}; {ran} episodes "
                f"finished and are stored, `opsbench run --resume {run_id}` runs the rest"
            )
        model, task_id, trial = where
        raise AgentCrashError(run_id, model, task_id, trial, error, ran)
    return RunOutcome(run_id, len(todo) + already, ran, already, statuses, halted, left)


def _reader(
    number: int,
    conn: Connection,
    inbox: asyncio.Queue[tuple[int, Any]],
    loop: asyncio.AbstractEventLoop,
) -> Any:
    def read() -> None:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            loop.remove_reader(conn.fileno())
            message = ("eof",)
        inbox.put_nowait((number, message))

    return read


def _store(
    store: Store,
    run_id: str,
    batch: list[tuple[EpisodeKey, EncodedEpisode, Finished]],
    statuses: dict[str, int],
    observer: Observer,
    done_type: Any,
    stops: Stops,
) -> None:
    """Write ``batch`` in one transaction, then report each episode of it."""
    try:
        refs = store.record_encoded(run_id, [b[1] for b in batch])
    except (StoreError, sqlite3.Error) as store_exc:
        stops.everything.set()
        key = batch[0][0]
        raise StoreError(
            f"run {run_id} stopped: could not store the episode of {key.model}, {key.task.id} "
            f"trial {key.trial} ({' '.join(str(store_exc).split())}); "
            f"{sum(statuses.values())} episodes finished and are stored, "
            f"`opsbench run --resume {run_id}` continues once the store can be written"
        ) from None
    for (key, _encoded, summary), ref in zip(batch, refs, strict=True):
        acknowledge(ref, key, summary, statuses, observer, done_type)


__all__ = ["Stops", "assign", "execute_network_pool", "network_pool_size", "share"]
