"""The batch runner: models × tasks × trials, concurrently, each episode stored as it finishes.

    config  ──select_tasks──▶  tasks  ──plan──▶  episode keys  ──execute──▶  store
                                                      ▲
                           --resume: keys the store lacks, or holds as infrastructure errors

Every model has its own pool of ``concurrency`` workers and its own client-side rate limiter.
An episode is run, (judged,) scored and written to the store in one transaction before the
worker takes the next one, so killing the process loses only the episodes in flight.

Everything a user can get wrong (an unknown model, business, task, an unreachable base URL) is
checked before the run is created, so a typo never leaves an empty run behi

The pieces live in modules named for what they hold; this one starts a run and re-exports
their public names, so ``from opsbench.runner import ...`` keeps working:

- :mod:`opsbench.run_config`: ``RunConfig``, task sets; :mod:`opsbench.run_redaction`: secrets
- :mod:`opsbench.run_resolve`: model strings and callers; :mod:`opsbench.run_selection`: tasks
- :mod:`opsbench.run_prepare`, :mod:`opsbench.run_resume`: a new run, a resumed one
- :mod:`opsbench.run_plan`: keys, progress, outcome; :mod:`opsbench.episode_runner`: one episode
- :mod:`opsbench.run_loop`: the event-loop executor; :mod:`opsbench.executor`: the process pool
"""

from __future__ import annotations

import asyncio
from typing import Any

from opsbench.episode_runner import run_one
from opsbench.errors import OpsbenchError, SelectionError
from opsbench.nodes import NODE_BASE_URL
from opsbench.run_config import (
    DEFAULT_EPISODE_TIMEOUT,
    DEFAULT_MODELS,
    EXECUTORS,
    RunConfig,
    TaskSet,
    parse_task_set,
)
from opsbench.run_loop import EpisodeSink, execute
from opsbench.run_plan import EpisodeDone, EpisodeKey, Observer, Prepared, RunOutcome, plan
from opsbench.run_prepare import check_run, git_commit, new_run_id, prepare_run
from opsbench.run_redaction import REDACTED, is_secret_name, redact_options, redact_text, redact_url
from opsbench.run_resolve import check_reachable, resolve_assistant, resolve_caller
from opsbench.run_resume import RESUMABLE_OPTIONS, prepare_recorded, prepare_resume
from opsbench.run_selection import episode_seed, select_tasks, task_set_hash, task_sets
from opsbench.store import Store


def run_evaluation(
    config: RunConfig,
    store: Store,
    observer: Observer | None = None,
    *,
    resume: str | None = None,
    run_id: str | None = None,
    workers: int | None = None,
    executor: str = "local",
    ray_address: str | None = None,
    **overrides: Any,
) -> RunOutcome:
    """Start a new run of ``config`` (or resume run ``resume``) and execute it to the end.

    ``workers``: processes for an offline run (None: one per core). ``executor="ray"`` runs
    the episodes as shards on a Ray cluster (``ray_address``, else ``RAY_ADDRESS``, else a
    local Ray instance of ``workers`` worker processes); this process still writes the store.
    """
    if workers is not None and workers < 1:
        raise SelectionError(f"--workers must be at least 1, got {workers}")
    if executor not in EXECUTORS:
        raise SelectionError(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    if executor == "ray":
        # Imported only here: the local executor never imports Ray.
        from opsbench.ray_executor import run_on_ray

        return run_on_ray(
            config,
            store,
            observer,
            resume=resume,
            run_id=run_id,
            workers=workers,
            address=ray_address,
            **overrides,
        )
    if ray_address:
        raise SelectionError(
            f"--ray-address {ray_address} joins a Ray cluster, which only --executor ray uses"
        )
    if resume is not None:
        prepared = prepare_resume(store, resume, **overrides)
        _check_local(prepared.config)
    else:
        _check_local(config)
        prepared = prepare_run(config, store, run_id=run_id)
    return asyncio.run(execute(prepared, store, observer, workers=workers))


def _check_local(config: RunConfig) -> None:
    if NODE_BASE_URL in config.options:
        raise SelectionError(
            f"-M {NODE_BASE_URL} gives each Ray node its own server: it needs --executor ray "
            "(on one machine, give --base-url)"
        )


__all__ = [
    "DEFAULT_EPISODE_TIMEOUT",
    "DEFAULT_MODELS",
    "EXECUTORS",
    "REDACTED",
    "RESUMABLE_OPTIONS",
    "EpisodeDone",
    "EpisodeKey",
    "EpisodeSink",
    "Observer",
    "OpsbenchError",
    "Prepared",
    "RunConfig",
    "RunOutcome",
    "TaskSet",
    "check_reachable",
    "check_run",
    "episode_seed",
    "execute",
    "git_commit",
    "is_secret_name",
    "new_run_id",
    "parse_task_set",
    "plan",
    "prepare_recorded",
    "prepare_resume",
    "prepare_run",
    "redact_options",
    "redact_text",
    "redact_url",
    "resolve_assistant",
    "resolve_caller",
    "run_evaluation",
    "run_one",
    "select_tasks",
    "task_set_hash",
    "task_sets",
]
