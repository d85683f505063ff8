"""``--executor ray``: a run's episodes as shards on a Ray cluster, one store, the same results.

    driver ──shards by (model, business, task, trial)──▶ Ray tasks (opsbench.ray_shard)
      ▲                                                   each: the ordinary executor
      └──── finished episodes, streamed back ◀──────────── (encoded on the worker)
    driver alone writes the SQLite store: --resume, reports and compare are unchanged

Limits hold across the cluster: one :class:`~opsbench.ray_limits.ModelLimits` actor per model
holds its ``--concurrency`` slots and its ``--rpm`` / ``--tpm`` window. A worker that dies
loses only the episodes it had in flight: the driver records them as infrastructure errors
(``--resume`` re-runs them) and queues the shard's episodes that had not started again.

``--ray-address`` (or ``RAY_ADDRESS``) joins a cluster; without it a local Ray instance of
``--workers`` worker processes starts and stops with the run. This module imports Ray only
when a run asks for it, so the default local executor never does.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from contract.messages import Usage
from opsbench.errors import AgentCrashError, SelectionError
from opsbench.executor import Finished, acknowledge, default_workers, finished, is_offline
from opsbench.nodes import NODE_BASE_URL, check_node_option
from opsbench.ratelimit import WINDOW_S
from opsbench.records import EncodedEpisode, NewEpisode, encode_episode
from opsbench.store import Store
from sandbox.episode import EpisodeResult

if TYPE_CHECKING:
    from opsbench.run_config import RunConfig
    from opsbench.run_plan import EpisodeKey, Observer, Prepared, RunOutcome

log = logging.getLogger("opsbench")

# Episodes per shard of an offline run: enough that a Ray task's cost (~ms) is small beside
# its episodes, few enough that a dead worker re-queues little and the load spreads evenly.
OFFLINE_SHARD_MAX = 50
SHARDS_PER_WORKER = 2  # in flight per worker: the next is queued before one finishes
# A shard whose worker died before any of its episodes started is queued again this often.
REQUEUES = 2
# The limiters' window; a test shortens it to see a per-minute limit hold within seconds.
LIMIT_WINDOW_S = WINDOW_S
# Ray's raylet gives its helper processes 15 s to start; on a loaded machine they can miss it
# (a known Ray limitation), and the next try, with their files in the page cache, makes it.
LOCAL_START_ATTEMPTS = 3
# A local Ray instance's shared-memory store: episodes are small and leave it once written.
LOCAL_OBJECT_STORE_BYTES = 256 * 2**20
LOST = (
    "infrastructure: the Ray worker running this episode died ({error}); "
    "`opsbench run --resume` runs it again"
)


def import_ray() -> Any:
    """Ray, or one line saying how to install it."""
    try:
        import ray
    except ImportError:
        raise SelectionError(
            "--executor ray needs Ray, which is not installed: pip install 'opsbench[ray]' "
            "(or uv sync --extra ray)"
        ) from None
    return ray


def check_options(options: Mapping[str, Any], base_url: str | None) -> None:
    """Refuse what no cluster could run, before a run is created."""
    if NODE_BASE_URL in options:
        check_node_option(options[NODE_BASE_URL])
        if base_url:
            raise SelectionError(
                f"-M {NODE_BASE_URL} and --base-url both name the models' server: give one"
            )


@contextmanager
def connected(address: str | None, workers: int | None) -> Iterator[int]:
    """Ray joined (``address``, ``RAY_ADDRESS``) or started locally; yields the worker count.

    A process that has joined a cluster already (a notebook, a test) keeps its connection.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield workers or _cluster_cpus(ray)
        return
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address:
        check_address(address)
    settings: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    for attempt in range(1, LOCAL_START_ATTEMPTS + 1):
        try:
            if address:
                ray.init(address=address, **settings)
            else:
                ray.init(
                    num_cpus=workers or default_workers(),
                    object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                    **settings,
                )
            break
        except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError...
            ray.shutdown()
            text = " ".join(str(exc).split())
            if not address and "timed out" in text and attempt < LOCAL_START_ATTEMPTS:
                log.warning("a local Ray instance did not start in time (%s); again", text)
                continue
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise SelectionError(
                f"--executor ray: cannot start or join {where}: {text[:300]}"
            ) from None
    try:
        yield workers or _cluster_cpus(ray)
    finally:
        ray.shutdown()


def check_address(address: str) -> None:
    """Refuse an address that is not one, or where nothing listens (Ray itself would retry
    for minutes), in one line."""
    if address in ("auto", "local"):
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise SelectionError(
            f"--ray-address {address!r} is not host:port (the head node's GCS, e.g. "
            "10.0.0.1:6379), ray://host:port or auto"
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=3.0):
            pass
    except OSError as exc:
        raise SelectionError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}; is "
            "`ray start --head` running there?"
        ) from None


def _cluster_cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def run_on_ray(
    config: RunConfig,
    store: Store,
    observer: Observer | None,
    *,
    resume: str | None,
    run_id: str | None,
    workers: int | None,
    address: str | None,
    **overrides: Any,
) -> RunOutcome:
    """:func:`opsbench.runner.run_evaluation` with ``--executor ray``."""
    from opsbench.run_prepare import check_run
    from opsbench.run_resume import prepare_resume

    import_ray()
    if resume is not None:
        prepared = prepare_resume(store, resume, **overrides)
    else:
        prepared = check_run(config, run_id=run_id)
    check_options(prepared.config.options, prepared.config.base_url)
    # The run is recorded only once the cluster is there: a wrong address leaves no empty run.
    with connected(address, workers) as size:
        if resume is None:
            store.create_run(prepared.run)
        return asyncio.run(execute_ray(prepared, store, observer, size))


@dataclass
class _Shard:
    id: str
    keys: list[EpisodeKey]
    started: set[tuple[str, str, str, int]] = field(default_factory=set)
    finished: set[tuple[str, str, str, int]] = field(default_factory=set)


def shards(keys: Sequence[EpisodeKey], size: int) -> list[list[EpisodeKey]]:
    """``keys`` ordered by (model, business, task, trial), cut into shards of ``size``."""
    ordered = sorted(
        keys, key=lambda k: (k.model, k.task.business.id, k.task_set, k.task.id, k.trial)
    )
    return [ordered[i : i + size] for i in range(0, len(ordered), size)]


def shard_plan(config: RunConfig, todo: int, workers: int) -> tuple[int, int]:
    """(episodes per shard, episodes in flight per shard) for ``todo`` episodes."""
    if is_offline(config):
        return max(1, min(OFFLINE_SHARD_MAX, math.ceil(todo / (workers * 8)))), 1
    # Every shard may hold its share of the model's slots; four rounds of them per shard.
    per = max(1, math.ceil(config.concurrency / workers))
    return per * 4, per


async def execute_ray(
    prepared: Prepared, store: Store, observer: Observer | None, workers: int
) -> RunOutcome:
    """Run every episode the store lacks as shards on the joined cluster; write them here."""
    from opsbench import ray_limits, ray_shard
    from opsbench.run_plan import EpisodeDone, Observer, RunOutcome, to_run

    ray = import_ray()
    observer = observer or Observer()
    run, config = prepared.run, prepared.config
    done = store.done_keys(run.id)
    todo, already = to_run(prepared, done, observer)
    size, in_flight = shard_plan(config, len(todo), workers)
    log.info(
        "run %s: %d episodes to run, %d already done; Ray executor, %d workers, shards of %d",
        run.id,
        len(todo),
        already,
        workers,
        size,
    )
    offline = is_offline(config)
    limits: dict[str, Any] = {}
    if not offline or config.rpm or config.tpm:
        limits = {
            model: ray_limits.ModelLimits.remote(  # type: ignore[attr-defined]
                None if offline else config.concurrency, config.rpm, config.tpm, LIMIT_WINDOW_S
            )
            for model in prepared.assistants
        }
    run_ref = ray.put(run)
    config_ref = ray.put(replace(config, concurrency=in_flight))
    pending: deque[list[EpisodeKey]] = deque(shards(todo, size))
    running: dict[str, _Shard] = {}
    events: asyncio.Queue[tuple[_Shard, tuple[Any, ...]]] = asyncio.Queue()
    consumers: set[asyncio.Task[None]] = set()
    requeued: dict[tuple[str, str, str, int], int] = {}
    statuses: dict[str, int] = {}
    halted: dict[str, str] = {}
    left: dict[str, int] = {}
    crashed: tuple[tuple[str, str, int], BaseException, str] | None = None
    refused: str | None = None
    by_key = {key.store_key: key for key in todo}
    counter = 0

    async def consume(shard: _Shard) -> None:
        # A streaming generator (ObjectRefGenerator): one object per item the shard yields.
        generator: Any = ray_shard.run_shard.remote(
            run_ref, config_ref, shard.id, [k.store_key for k in shard.keys], limits
        )
        try:
            async for ref in generator:
                await events.put((shard, await ref))
            await events.put((shard, ("end",)))
        except Exception as exc:  # the worker or its node died (or Ray lost the task)
            await events.put((shard, ("died", exc)))

    def submit() -> None:
        nonlocal counter
        while pending and len(running) < workers * SHARDS_PER_WORKER:
            if crashed is not None or refused is not None:
                return
            keys_ = []
            for key in pending.popleft():
                if key.model in halted:  # stopped by the stop policy: stays planned
                    left[key.model] = left.get(key.model, 0) + 1
                else:
                    keys_.append(key)
            if not keys_:
                continue
            counter += 1
            shard = _Shard(f"{run.id}/{counter}", keys_)
            running[shard.id] = shard
            task = asyncio.create_task(consume(shard))
            consumers.add(task)
            task.add_done_callback(consumers.discard)

    submit()
    while running:
        batch = [await events.get()]
        while not events.empty():
            batch.append(events.get_nowait())
        writes: list[tuple[EpisodeKey, EncodedEpisode, Finished]] = []
        for shard, item in batch:
            kind = item[0]
            if kind == "node":
                log.info(
                    "shard %s (%d episodes) runs on %s (%s), pid %d",
                    shard.id,
                    len(shard.keys),
                    item[2],
                    item[1],
                    item[3],
                )
            elif kind == "started":
                shard.started.add(item[1])
            elif kind == "done":
                encoded, summary = item[1], item[2]
                store_key = encoded.key[:4]
                shard.finished.add(store_key)
                writes.append((by_key[store_key], encoded, summary))
            elif kind == "outcome":
                for model, why in item[1].items():
                    if model not in halted:
                        halted[model] = why
                        log.error(
                            "%s stopped: %s; fix that, then `opsbench run --resume %s` runs "
                            "what is left",
                            model,
                            why,
                            run.id,
                        )
                for model, count in item[2].items():
                    left[model] = left.get(model, 0) + count
            elif kind == "crash":
                if crashed is None:
                    crashed = (item[1], item[2], item[3])
                    log.error(
                        "run %s stopped: %s, %s trial %d raised %s: %s\n%s",
                        run.id,
                        *item[1],
                        type(item[2]).__name__,
                        item[2],
                        item[3],
                    )
            elif kind == "refused":
                refused = refused or item[1]
                log.error("run %s stopped: %s", run.id, item[1])
            elif kind == "end":
                running.pop(shard.id, None)
            elif kind == "died":
                running.pop(shard.id, None)
                in_flight_keys = shard.started - shard.finished
                writes.extend(_lost(prepared, [by_key[k] for k in in_flight_keys], item[1]))
                for actor in limits.values():
                    actor.give_back.remote(shard.id)
                again = [
                    k
                    for k in shard.keys
                    if k.store_key not in shard.started and k.store_key not in shard.finished
                ]
                retry = [k for k in again if requeued.get(k.store_key, 0) < REQUEUES]
                for key in retry:
                    requeued[key.store_key] = requeued.get(key.store_key, 0) + 1
                # Queued again at the front; those re-queued too often are lost like the rest.
                if retry:
                    pending.appendleft(retry)
                writes.extend(_lost(prepared, [k for k in again if k not in retry], item[1]))
        if writes:
            refs = store.record_encoded(run.id, [w[1] for w in writes])
            for (key, _encoded, summary), ref in zip(writes, refs, strict=True):
                acknowledge(ref, key, summary, statuses, observer, EpisodeDone)
        submit()
    await asyncio.gather(*consumers)
    # Shards never submitted: their models stopped (or the run did); they stay planned.
    for shard_keys in pending:
        for key in shard_keys:
            left[key.model] = left.get(key.model, 0) + 1
    ran = sum(statuses.values())
    log.info("run %s: ran %d episodes: %s", run.id, ran, statuses)
    if crashed is not None:
        (model, task_id, trial), error, _trace = crashed
        raise AgentCrashError(run.id, model, task_id, trial, error, ran)
    if refused is not None:
        raise SelectionError(
            f"run {run.id} stopped: {refused}; {ran} episodes finished and are stored, "
            f"`opsbench run --resume {run.id}` continues once that is fixed"
        )
    return RunOutcome(
        run.id,
        len(todo) + already,
        ran,
        already,
        statuses,
        halted,
        {m: n for m, n in left.items() if n},
    )


def _lost(
    prepared: Prepared, keys: Sequence[EpisodeKey], error: BaseException
) -> list[tuple[EpisodeKey, EncodedEpisode, Finished]]:
    """Episodes a dead worker had in flight, as infrastructure errors."""
    from opsbench.arms import split_model
    from opsbench.provenance import episode_provenance
    from opsbench.run_selection import episode_seed

    why = LOST.format(error=f"{type(error).__name__}: {' '.join(str(error).split())[:200]}")
    out = []
    for key in sorted(keys, key=lambda k: k.store_key):
        seed = episode_seed(prepared.config.seed, key.trial)
        result = EpisodeResult(
            key.task.id,
            key.task.version(),
            seed,
            key.trial,
            ["infrastructure_error"],
            [],
            [],
            [],
            None,  # type: ignore[arg-type]  # no state survives a dead worker
            None,  # type: ignore[arg-type]
            Usage(),
            Usage(),
            error=why,
        )
        episode = NewEpisode(
            model=key.model,
            task_set=key.task_set,
            task_id=key.task.id,
            trial=key.trial,
            seed=seed,
            status="infrastructure_error",
            task_version=key.task.version(),
            error=why,
            score=None,
            result=result.to_dict(),
            diff=[],
            usage={"assistant": Usage().to_dict(), "caller": Usage().to_dict(), "judge": None},
            cost_usd=None,
            timings={},
            finished_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
            provenance=episode_provenance(prepared.run.provenance, split_model(key.model)[0]),
        )
        out.append((key, encode_episode(episode), finished(episode)))
    return out


__all__ = [
    "check_address",
    "check_options",
    "connected",
    "execute_ray",
    "import_ray",
    "run_on_ray",
    "shards",
]
