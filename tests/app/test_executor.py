"""The process pool of offline runs stores the same results as one process, in plan order."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from opsbench.errors import SelectionError
from opsbench.runner import DEFAULT_MODELS, plan, prepare_run, run_evaluation
from opsbench.store import Store
from tests.app.conftest import mini_config

# Everything an episode's content decides; finished_at and timings are the wall clock.
CONTENT = (
    "id, model, task_set, task_id, trial, seed, status, task_version, error, score, result, "
    "diff, usage, cost_usd, provenance, retries"
)


def _rows(path: Path) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute(f"SELECT {CONTENT} FROM episodes ORDER BY id").fetchall()
    finally:
        db.close()


def _written_order(path: Path) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT model, task_id, trial FROM episodes ORDER BY rowid").fetchall()
    finally:
        db.close()


@pytest.mark.parametrize("workers", [2, 3])
def test_pool_stores_the_same_bytes_as_one_process(tmp_path: Path, workers: int):
    config = mini_config(trials=3)
    stores = {}
    for count in (1, workers):
        path = tmp_path / f"w{count}.db"
        with Store(path) as store:
            outcome = run_evaluation(config, store, run_id="same", workers=count)
        assert outcome.ran == outcome.planned > 0
        stores[count] = path
    single, pooled = _rows(stores[1]), _rows(stores[workers])
    assert len(single) == len(pooled) == outcome.planned
    assert single == pooled
    # The single writer stores them in plan order, however the workers finish.
    with Store(tmp_path / "plan.db") as store:
        expected = [(k.model, k.task.id, k.trial) for k in plan(prepare_run(config, store))]
    assert _written_order(stores[workers]) == expected


def test_pool_resume_runs_only_what_is_missing(tmp_path: Path):
    path = tmp_path / "r.db"
    config = mini_config(trials=2, models=DEFAULT_MODELS[:2])
    with Store(path) as store:
        run_evaluation(config, store, run_id="r", workers=2)
        db = sqlite3.connect(path)
        db.execute("DELETE FROM episodes WHERE trial = 1")
        db.commit()
        db.close()
        again = run_evaluation(config, store, resume="r", workers=2)
    assert again.ran == again.planned // 2 and again.skipped == again.planned // 2
    assert len(_rows(path)) == again.planned


def test_workers_below_one_is_refused(tmp_path: Path):
    with Store(tmp_path / "x.db") as store, pytest.raises(SelectionError, match="--workers"):
        run_evaluation(mini_config(), store, workers=0)
