"""The shapes a run passes around once prepared: the run ready to execute, its episode keys in
plan order, the progress callbacks and the outcome."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from adapters.registry import AnyFactory
from contract.assistant import AssistantFactory
from opsbench.records import RunRecord, Status
from opsbench.run_config import RunConfig
from sandbox.episode import CallerFactory
from sandbox.task import Task


@dataclass(frozen=True)
class EpisodeKey:
    model: str
    task_set: str
    task: Task
    trial: int

    @property
    def store_key(self) -> tuple[str, str, str, int]:
        return (self.model, self.task_set, self.task.id, self.trial)


@dataclass(frozen=True)
class EpisodeDone:
    """What the progress display hears after each stored episode."""

    model: str
    task_id: str
    status: Status
    passed: bool | None
    tokens: int
    cost_usd: float | None


@dataclass
class Observer:
    """Progress callbacks; the CLI renders them, tests may ignore them."""

    started: Callable[[str, dict[str, int], dict[str, int]], None] = lambda run, todo, done: None
    episode: Callable[[EpisodeDone], None] = lambda done: None


@dataclass(frozen=True)
class RunOutcome:
    """How a run (or a resume) went."""

    run_id: str
    planned: int
    ran: int
    skipped: int
    statuses: dict[str, int]
    # Models stopped by the stop policy (their own, their caller's or their judge's), with why.
    halted: dict[str, str] = field(default_factory=dict)
    # Episodes still planned per model (stopped queues), for the --resume hint.
    left: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Prepared:
    """A run ready to execute: resolved factories, selected tasks, the keys still to do."""

    run: RunRecord
    config: RunConfig
    tasks: list[tuple[str, Task]]
    assistants: dict[str, AnyFactory]
    caller: CallerFactory
    judge: AssistantFactory | None


def plan(prepared: Prepared) -> list[EpisodeKey]:
    """Every (model, task, trial) of the run, models outermost."""
    return [
        EpisodeKey(model, label, task, trial)
        for model in prepared.assistants
        for label, task in prepared.tasks
        for trial in range(prepared.config.trials)
    ]


def to_run(
    prepared: Prepared,
    done: Collection[tuple[str, str, str, int]],
    observer: Observer,
    keys: Sequence[EpisodeKey] | None = None,
) -> tuple[list[EpisodeKey], int]:
    """The episodes of ``keys`` (default: the run's plan) the store lacks, in plan order, and
    how many it already holds.

    Tells ``observer`` how many of each model will run and how many were already done, as every
    executor does before its first episode.
    """
    keys = plan(prepared) if keys is None else keys
    todo = [key for key in keys if key.store_key not in done]
    planned: dict[str, int] = dict.fromkeys(prepared.assistants, 0)
    skipped: dict[str, int] = dict.fromkeys(prepared.assistants, 0)
    for key in keys:
        (skipped if key.store_key in done else planned)[key.model] += 1
    observer.started(prepared.run.id, planned, skipped)
    return todo, len(keys) - len(todo)
