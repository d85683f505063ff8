"""Helpers shared by the integration tests: tasks chosen by shape, episodes through the server."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from businesses import PUBLIC_DIR, initial_tables, load_set
from callers import scripted_caller_factory
from sandbox.episode import EpisodeResult, run_episode
from sandbox.task import Task

_SHAPES: dict[str, Callable[[Task], bool]] = {
    "writes": lambda t: len(t.sessions) == 1 and not t.faults and not t.expect.escalate,
    "tool-fault": lambda t: len(t.sessions) == 1 and bool(t.faults),
    "transfer": lambda t: len(t.sessions) == 1 and t.expect.escalate,
    "multi-session": lambda t: len(t.sessions) > 1,
}


def public_tasks() -> list[Task]:
    return load_set(PUBLIC_DIR)[1]


def tasks_by_shape(*shapes: str) -> dict[str, Task]:
    """The first public task of each shape (chosen by shape, not by id)."""
    tasks = public_tasks()
    return {shape: next(t for t in tasks if _SHAPES[shape](t)) for shape in shapes}


def run(task: Task, make_assistant, seed: int = 0) -> EpisodeResult:  # type: ignore[no-untyped-def]
    """One episode of ``task`` with the scripted caller."""
    return asyncio.run(
        run_episode(task, initial_tables(task), make_assistant, scripted_caller_factory, seed=seed)
    )
