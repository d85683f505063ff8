"""``opsbench export RUN --jsonl``: every episode as one JSON object per line, for other tools.

Each line is self-describing: the episode (result, score, diff, usage, timings) plus the task's
business, coverage cell and tactics, and the run's id, OpsBench version, caller, judge, seed and
task-set hash, so lines from different runs can be concatenated and still be told apart.
"""

from __future__ import annotations

import json
from typing import TextIO

from opsbench.store import Store


def export_jsonl(store: Store, run_id: str, out: TextIO) -> int:
    """Write run ``run_id``'s episodes to ``out``; returns how many."""
    run = store.run(run_id)
    header = {
        "run_id": run.id,
        "opsbench_version": run.opsbench_version,
        "git_commit": run.git_commit,
        "caller": run.caller,
        "judge": run.judge,
        "run_seed": run.seed,
        "task_set_hash": run.task_set_hash,
        "scorer_version": run.scorer_version,
    }
    count = 0
    for episode in store.episodes(run.id, full=True):
        line = {**header, **episode.to_dict(full=True)}
        out.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
        count += 1
    return count
