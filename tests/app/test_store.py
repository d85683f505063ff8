"""The results store: one row per episode, WAL, resume semantics, clear errors."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from opsbench.errors import RunNotFoundError, StoreError, StoreLockedError, StoreVersionError
from opsbench.records import NewEpisode, RunRecord, RunTask
from opsbench.store import Store

RUN = RunRecord(
    id="run-1",
    created_at="2026-01-01T00:00:00+00:00",
    opsbench_version="0.1.0",
    git_commit=None,
    seed=0,
    caller="scripted",
    judge=None,
    task_set_hash="abc",
    config={"models": ["m"], "trials": 1},
    tasks=(RunTask("public", "biz/t", "v1", "biz", "cooperative", (), "T", True),),
)
EPISODE = NewEpisode(
    model="m",
    task_set="public",
    task_id="biz/t",
    trial=0,
    seed=0,
    status="infrastructure_error",
    task_version="v1",
    error="ProviderError: 500",
    score=None,
    result={"endings": ["infrastructure_error"]},
    diff=[],
    usage={"assistant": {"requests": 1, "cost_usd": None}},
    cost_usd=None,
    timings={"total_s": 0.1},
    finished_at="2026-01-01T00:00:01+00:00",
)


def test_store_is_in_wal_mode(store: Store):
    mode = sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_infrastructure_error_is_replaced_by_a_later_attempt_and_kept_in_history(store: Store):
    store.create_run(RUN)
    first = store.record_episode("run-1", EPISODE)
    assert store.done_keys("run-1") == set()
    scored = replace(EPISODE, status="scored", error=None, score={"passed": True})
    assert store.record_episode("run-1", scored) == first
    [episode] = store.episodes("run-1")
    assert (episode.status, episode.attempts) == ("scored", 2)
    assert store.done_keys("run-1") == {("m", "public", "biz/t", 0)}
    assert [a["error"] for a in store.failed_attempts("run-1")] == ["ProviderError: 500"]


def test_a_scored_episode_is_never_overwritten(store: Store):
    store.create_run(RUN)
    store.record_episode("run-1", replace(EPISODE, status="scored", score={"passed": True}))
    with pytest.raises(StoreError, match="already scored"):
        store.record_episode("run-1", EPISODE)


def test_runs_and_episodes_are_found_by_unique_prefix(store: Store):
    store.create_run(RUN)
    ep = store.record_episode("run-1", EPISODE)
    assert store.run("run-").id == "run-1"
    assert store.episode(ep[:6]).id == ep
    with pytest.raises(RunNotFoundError, match="is not a run"):
        store.run("nope")
    with pytest.raises(RunNotFoundError, match="is not an episode"):
        store.episode("ep-zzz")


def test_a_store_from_a_newer_opsbench_is_refused(tmp_path: Path):
    path = tmp_path / "o.db"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    with pytest.raises(StoreVersionError, match="newer OpsBench"):
        Store(path)


def test_a_locked_store_gives_one_clear_error(tmp_path: Path, monkeypatch):
    monkeypatch.setattr("opsbench.store.BUSY_TIMEOUT_S", 0.05)
    path = tmp_path / "o.db"
    Store(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreLockedError, match="locked by another process"):
            Store(path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_reading_a_missing_store_names_the_fix(tmp_path: Path):
    with pytest.raises(StoreError, match="run `opsbench run` first"):
        Store(tmp_path / "absent.db", create=False)


def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path):
    path = tmp_path / "junk.db"
    path.write_text("not a database, just text" * 100)
    with pytest.raises(StoreError, match="not an OpsBench results store"):
        Store(path)
