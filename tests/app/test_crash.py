"""A run killed with SIGKILL at random points and resumed loses nothing and duplicates nothing."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from businesses import load_set
from opsbench.runner import DEFAULT_MODELS
from tests.app.conftest import MINI_SET
from tests.helpers import MINI

TRIALS = 12
KILLS = 10
ROOT = Path(__file__).resolve().parents[2]


def _command(store: Path, run_id: str, resume: bool, workers: int) -> list[str]:
    base = [sys.executable, "-m", "opsbench", "run", "--store", str(store), "-q"]
    base += ["--workers", str(workers)]
    if resume:
        return [*base, "--resume", run_id]
    return [*base, "--set", MINI_SET, "--trials", str(TRIALS), "--run-id", run_id]


def _run_exists(store: Path, run_id: str) -> bool:
    if not store.exists():
        return False
    db = sqlite3.connect(store)
    try:
        return db.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone() is not None
    except sqlite3.OperationalError:  # killed before the schema was committed
        return False
    finally:
        db.close()


def _stored(store: Path) -> int:
    if not store.exists():
        return 0
    db = sqlite3.connect(store)
    try:
        return db.execute("SELECT COUNT(*) FROM episodes").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()


def _ids(store: Path) -> set[str]:
    if not store.exists():
        return set()
    db = sqlite3.connect(store)
    try:
        return {row[0] for row in db.execute("SELECT id FROM episodes")}
    except sqlite3.OperationalError:
        return set()
    finally:
        db.close()


# 1: one event loop, a transaction per episode; 2: the process pool, whose single writer
# commits every ready result in one transaction.
@pytest.mark.parametrize("workers", [1, 2])
def test_sigkill_at_random_points_then_resume_gives_exactly_one_episode_each(
    tmp_path: Path, workers: int
):
    store, run_id = tmp_path / "opsbench.db", "crash-test"
    rng = random.Random(20260302)
    counts = []
    kept: set[str] = set()
    for kill in range(KILLS):
        before = _stored(store)
        process = subprocess.Popen(
            _command(store, run_id, _run_exists(store, run_id), workers),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if kill == 0:
            # The first kill lands during start-up, before the run may even exist.
            time.sleep(rng.uniform(0.05, 0.5))
        else:
            # The others land mid-run: after a random number of further episodes were stored.
            target = before + rng.randint(1, 30)
            while process.poll() is None and _stored(store) < target:
                time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
        process.wait()
        counts.append(_stored(store))
        # Whatever was committed before a kill is still there after the next one.
        now = _ids(store)
        assert kept <= now, "a committed episode was lost"
        kept = now
    final = subprocess.run(
        _command(store, run_id, _run_exists(store, run_id), workers),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert final.returncode == 0, final.stderr
    tasks = load_set(MINI)[1]
    expected = {(m, t.id, k) for m in DEFAULT_MODELS for t in tasks for k in range(TRIALS)}
    db = sqlite3.connect(store)
    rows = db.execute("SELECT model, task_id, trial, status FROM episodes").fetchall()
    db.close()
    assert len(rows) == len(expected), "an episode is missing or stored twice"
    assert {(m, t, k) for m, t, k, _ in rows} == expected
    assert {s for *_, s in rows} == {"scored"}
    # The kills landed at different points inside the run, not all before or after it.
    print("episodes stored after each kill:", counts)
    assert len({c for c in counts if 0 < c < len(expected)}) >= KILLS - 2, counts
