"""The records of the results store: a run, its tasks, its episodes as stored and as handed in.

Plain frozen dataclasses, and the encoding of a finished episode into the store's columns
(canonical JSON, redacted), which a worker process does so the single writer only writes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal

from contract.redact import redact_all
from sandbox.canonical import canonical_json

Status = Literal["scored", "infrastructure_error", "caller_error"]
STATUSES: tuple[str, ...] = ("scored", "infrastructure_error", "caller_error")


def episode_id(run_id: str, model: str, task_set: str, task_id: str, trial: int) -> str:
    """A stable, short id for one episode of a run (the same after ``--resume``)."""
    key = "\x1f".join((run_id, model, task_set, task_id, str(trial)))
    return "ep-" + hashlib.sha256(key.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class RunTask:
    """A task as it was when the run started."""

    task_set: str
    task_id: str
    task_version: str
    business: str
    coverage: str
    tactics: tuple[str, ...]
    title: str
    requires_action: bool


@dataclass(frozen=True)
class RunRecord:
    """A run's metadata: enough to know what was measured and to resume it."""

    id: str
    created_at: str
    opsbench_version: str
    git_commit: str | None
    seed: int
    caller: str
    judge: str | None
    task_set_hash: str
    config: dict[str, Any]
    tasks: tuple[RunTask, ...] = ()
    # Scorer version, effective base URL per model, SDK versions (opsbench.provenance); empty
    # for a run stored before they were recorded.
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def scorer_version(self) -> str | None:
        return self.provenance.get("scorer_version")

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created_at": self.created_at,
            "opsbench_version": self.opsbench_version,
            "git_commit": self.git_commit,
            "seed": self.seed,
            "caller": self.caller,
            "judge": self.judge,
            "task_set_hash": self.task_set_hash,
            "config": self.config,
            "task_versions": {f"{t.task_set}:{t.task_id}": t.task_version for t in self.tasks},
            "provenance": self.provenance,
            "scorer_version": self.scorer_version,
        }


@dataclass(frozen=True)
class EpisodeRecord:
    """One finished episode as stored. ``result`` and ``diff`` are loaded only when asked for."""

    id: str
    run_id: str
    model: str
    task_set: str
    task_id: str
    trial: int
    seed: int
    status: str
    task_version: str
    error: str | None
    score: dict[str, Any] | None
    usage: dict[str, Any]
    cost_usd: float | None
    attempts: int
    timings: dict[str, float]
    finished_at: str
    task: RunTask | None = None
    provenance: dict[str, Any] | None = None
    result: dict[str, Any] | None = field(default=None, repr=False)
    diff: list[dict[str, Any]] | None = field(default=None, repr=False)
    # Failed provider requests (assistant, caller, judge) and the waits after them.
    retries: list[dict[str, Any]] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.model, self.task_set, self.task_id, self.trial)

    @property
    def scorer_version(self) -> str | None:
        return (self.provenance or {}).get("scorer_version")

    def to_dict(self, *, full: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "run_id": self.run_id,
            "model": self.model,
            "task_set": self.task_set,
            "task_id": self.task_id,
            "trial": self.trial,
            "seed": self.seed,
            "status": self.status,
            "task_version": self.task_version,
            "error": self.error,
            "score": self.score,
            "usage": self.usage,
            "cost_usd": self.cost_usd,
            "attempts": self.attempts,
            "timings": self.timings,
            "finished_at": self.finished_at,
            "provenance": self.provenance,
            "retries": self.retries,
        }
        if self.task is not None:
            out["business"] = self.task.business
            out["coverage"] = self.task.coverage
            out["tactics"] = list(self.task.tactics)
            out["title"] = self.task.title
        if full:
            out["result"] = self.result
            out["diff"] = self.diff
        return out


@dataclass(frozen=True)
class NewEpisode:
    """What the runner hands the store for one finished episode."""

    model: str
    task_set: str
    task_id: str
    trial: int
    seed: int
    status: Status
    task_version: str
    error: str | None
    score: dict[str, Any] | None
    result: dict[str, Any]
    diff: list[dict[str, Any]]
    usage: dict[str, Any]
    cost_usd: float | None
    timings: dict[str, float]
    finished_at: str
    provenance: dict[str, Any] | None = None
    retries: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class EncodedEpisode:
    """An episode as the store's columns: canonical JSON, redacted. Cheap to pickle, so a
    worker process can encode and the single writer only writes."""

    key: tuple[str, str, str, int, int]  # model, task set, task id, trial, seed
    values: tuple[Any, ...]


def encode_episode(episode: NewEpisode) -> EncodedEpisode:
    """The columns of ``episode``, every text redacted (see :meth:`Store.record_episode`)."""
    error, score, result, diff, retries = redact_all(
        [
            episode.error or "",
            "" if episode.score is None else canonical_json(episode.score),
            canonical_json(episode.result),
            canonical_json(episode.diff),
            canonical_json(episode.retries),
        ]
    )
    return EncodedEpisode(
        (episode.model, episode.task_set, episode.task_id, episode.trial, episode.seed),
        (
            episode.status,
            episode.task_version,
            None if episode.error is None else error,
            None if episode.score is None else score,
            result,
            diff,
            canonical_json(episode.usage),
            episode.cost_usd,
            canonical_json(episode.timings),
            episode.finished_at,
            None if episode.provenance is None else canonical_json(episode.provenance),
            retries,
        ),
    )
