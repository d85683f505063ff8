"""One shard of a Ray run, on a worker: the ordinary executor over the shard's episodes.

A shard is a Ray task (a streaming generator). It reloads the run's tasks and resolves its
models on its node (:func:`opsbench.run_resume.prepare_recorded`: the task versions, the simulated
caller and the scorer version must be the run's, or the shard refuses), then runs
:func:`opsbench.run_loop.execute` over its keys with each model's cluster-wide limiter. What it
yields, in order, is all the driver hears::

    ("node", ip, hostname, pid)     where the shard runs (the driver logs it)
    ("started", key)                an episode holds its slot and runs
    ("done", EncodedEpisode, Finished)   it finished; encoded here, so the driver only writes
    ("outcome", halted, left)       the stop policy's word on the shard's models
    ("crash", key, error, traceback)     an agent or harness bug stopped the shard
    ("refused", message)            this node cannot run the run (another scorer, task set,
                                    no server for it)

Nothing here writes the store: the driver alone does. Imported only on Ray workers.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import socket
import traceback
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from typing import Any

import ray

from adapters.errors import AdapterError
from businesses import LoadError
from opsbench.errors import AgentCrashError, OpsbenchError
from opsbench.executor import finished
from opsbench.nodes import NODE_BASE_URL, node_base_url
from opsbench.provenance import effective_base_url, scorer_version
from opsbench.ray_limits import ClusterLimiter, slot
from opsbench.records import NewEpisode, RunRecord, encode_episode, episode_id
from opsbench.run_config import RunConfig
from opsbench.run_loop import execute
from opsbench.run_plan import EpisodeKey, Prepared
from opsbench.run_redaction import redact_url
from opsbench.run_resume import prepare_recorded

StoreKey = tuple[str, str, str, int]
# The last run prepared in this worker process: the next shard of the same run reuses it
# instead of loading the task set and resolving the models again.
_PREPARED: dict[tuple[str, str], Prepared] = {}


@ray.remote(max_retries=0, num_cpus=1)
def run_shard(
    run: RunRecord,
    config: RunConfig,
    shard: str,
    keys: list[StoreKey],
    limits: Mapping[str, Any],
) -> Iterator[tuple[Any, ...]]:
    """Run ``keys`` of ``run``; yield what happens (see the module docstring).

    ``max_retries=0``: a shard whose worker dies is not re-run behind the driver's back; the
    driver records its in-flight episodes as infrastructure errors and re-queues the rest.
    """
    yield from stream(run, config, shard, keys, limits)


def stream(
    run: RunRecord,
    config: RunConfig,
    shard: str,
    keys: list[StoreKey],
    limits: Mapping[str, Any],
) -> Iterator[tuple[Any, ...]]:
    """The body of :func:`run_shard`: the executor on its own event loop, paused at each yield."""
    # The driver keeps the run log; a worker's log lines would go nowhere useful.
    logging.getLogger("opsbench").addHandler(logging.NullHandler())
    logging.getLogger("opsbench").propagate = False
    yield ("node", ray.util.get_node_ip_address(), socket.gethostname(), os.getpid())
    try:
        prepared = _prepared(run, config)
    except (OpsbenchError, AdapterError) as exc:
        yield ("refused", f"node {socket.gethostname()}: {exc}")
        return
    except LoadError as exc:
        yield ("refused", f"node {socket.gethostname()}: {'; '.join(exc.problems[:3])}")
        return
    loop = asyncio.new_event_loop()
    try:
        items: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        work = _run(prepared, shard, keys, limits, items.put_nowait)
        task = loop.create_task(work)
        while True:
            item = loop.run_until_complete(items.get())
            if item[0] == "end":
                break
            yield item
        loop.run_until_complete(task)
    finally:
        loop.close()


def _node() -> tuple[str, str, str]:
    """This node's IP address, hostname and Ray node id."""
    return (
        ray.util.get_node_ip_address(),
        socket.gethostname(),
        ray.get_runtime_context().get_node_id(),
    )


def _prepared(run: RunRecord, config: RunConfig) -> Prepared:
    mine = scorer_version()
    if run.scorer_version and run.scorer_version != mine:
        raise OpsbenchError(
            f"this node scores with scorer version {mine}, the run with {run.scorer_version}: "
            "install the same OpsBench on every node of the cluster"
        )
    spec = config.options.get(NODE_BASE_URL)
    if spec is not None:
        node_ip, hostname, node_id = _node()
        url = node_base_url(spec, node_ip=node_ip, hostname=hostname, node_id=node_id)
        config = replace(config, base_url=url)
        # Each episode records the server it really went to: this node's.
        urls = {m: redact_url(effective_base_url(m, url)) for m in run.provenance["base_urls"]}
        run = replace(run, provenance={**run.provenance, "base_urls": urls})
    cache_key = (run.id, repr(config))
    if cache_key not in _PREPARED:
        _PREPARED.clear()
        _PREPARED[cache_key] = prepare_recorded(run, config)
    return _PREPARED[cache_key]


class _Stream:
    """The shard's :class:`~opsbench.run_loop.EpisodeSink`: each episode goes back encoded."""

    def __init__(self, emit: Callable[[tuple[Any, ...]], None]) -> None:
        self._emit = emit

    def done_keys(self, run_id: str) -> set[StoreKey]:
        return set()  # the driver sends only what the store lacks

    def record_episode(self, run_id: str, episode: NewEpisode) -> str:
        self._emit(("done", encode_episode(episode), finished(episode)))
        return episode_id(run_id, episode.model, episode.task_set, episode.task_id, episode.trial)


async def _run(
    prepared: Prepared,
    shard: str,
    keys: list[StoreKey],
    limits: Mapping[str, Any],
    emit: Callable[[tuple[Any, ...]], None],
) -> None:
    config = prepared.config
    tasks = {(label, task.id): task for label, task in prepared.tasks}
    episode_keys = [EpisodeKey(m, label, tasks[(label, t)], trial) for m, label, t, trial in keys]

    def admit(key: EpisodeKey) -> AbstractAsyncContextManager[None]:
        @asynccontextmanager
        async def admitted() -> Any:
            async with slot(limits.get(key.model), shard):
                emit(("started", key.store_key))
                yield

        return admitted()

    def limiter(model: str) -> ClusterLimiter:
        return ClusterLimiter(limits[model], config.rpm, config.tpm)

    try:
        outcome = await execute(
            prepared,
            _Stream(emit),
            workers=1,
            keys=episode_keys,
            limiter=limiter if limits else None,
            admit=admit,
        )
        emit(("outcome", outcome.halted, outcome.left))
    except AgentCrashError as exc:
        emit(("crash", (exc.model, exc.task_id, exc.trial), _portable(exc.error), _trace(exc)))
    except Exception as exc:  # a bug of the harness itself, outside any episode
        emit(("crash", keys[0][:1] + keys[0][2:], _portable(exc), _trace(exc)))
    finally:
        emit(("end",))


def _trace(exc: BaseException) -> str:
    error = getattr(exc, "error", exc)
    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


def _portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling (the driver names it as the agent raised it)."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


__all__ = ["run_shard", "stream"]
