"""Which tasks a run covers (``--set``, ``--business``, ``--task``, ``--tags``, ``--limit``) and
the seeds and hash derived from them."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence

from businesses import LoadError, load_set
from opsbench.errors import (
    SelectionError,
)
from opsbench.run_config import RunConfig, TaskSet, parse_task_set
from sandbox.canonical import content_hash
from sandbox.task import Task


def task_sets(texts: Sequence[str]) -> list[TaskSet]:
    """The distinct task sets of ``--set`` values; one label must name one directory.

    The same set given twice counts once. Two different directories under one label would
    mix their results (and collide in the store), so that is refused.
    """
    by_label: dict[str, TaskSet] = {}
    for text in texts:
        task_set = parse_task_set(text)
        seen = by_label.setdefault(task_set.label, task_set)
        if seen.path != task_set.path:
            raise SelectionError(
                f"two task sets are labelled {task_set.label!r} ({seen.path} and "
                f"{task_set.path}): give each its own label, e.g. --set a={seen.path} "
                f"--set b={task_set.path}"
            )
    return list(by_label.values())


def select_tasks(config: RunConfig) -> list[tuple[str, Task]]:
    """The (set label, task) pairs a run covers, in a stable order."""
    selected: list[tuple[str, Task]] = []
    sets = task_sets(config.sets)
    for task_set in sets:
        # Every file is checked before the first episode; a broken set is refused with the
        # lines `businesses validate` prints, each naming its file and path.
        try:
            businesses, tasks = load_set(task_set.path)
        except LoadError as exc:
            raise LoadError(
                [f"task set {task_set.label}: {line}" for line in exc.problems]
            ) from None
        from opsbench.validation import static_problems

        broken = [
            f"task set {task_set.label}: {t.id}: {p}" for t in tasks for p in static_problems(t)
        ]
        if broken:
            raise LoadError(broken)
        known = [b.id for b in businesses]
        unknown = [b for b in config.businesses if b not in known]
        if unknown and len(sets) == 1:
            raise SelectionError(
                f"unknown business {', '.join(map(repr, unknown))} in {task_set.label}; "
                f"known: {', '.join(known)}"
            )
        for task in tasks:
            if config.businesses and task.business.id not in config.businesses:
                continue
            if config.tasks and not any(fnmatch.fnmatchcase(task.id, g) for g in config.tasks):
                continue
            if config.tags and not set(config.tags) & set(task.tags):
                continue
            selected.append((task_set.label, task))
    if not selected:
        wanted = ", ".join(
            f"{name} {' '.join(values)}"
            for name, values in (
                ("--business", config.businesses),
                ("--task", config.tasks),
                ("--tags", config.tags),
            )
            if values
        )
        raise SelectionError(
            f"no task matches {wanted or 'the task set'}; list them with "
            "`opsbench businesses list` and `opsbench businesses show B`"
        )
    selected.sort(key=lambda pair: (pair[0], pair[1].id))
    return selected[: config.limit] if config.limit else selected


def episode_seed(seed: int, trial: int) -> int:
    """The seed of one trial: the run seed for trial 0, a derived one for the others."""
    return seed if trial == 0 else int(content_hash([seed, trial])[:8], 16)


def task_set_hash(tasks: Sequence[tuple[str, Task]]) -> str:
    """One hash over every (set, task id, task version) of a run."""
    return content_hash(sorted([label, t.id, t.version()] for label, t in tasks))[:16]
