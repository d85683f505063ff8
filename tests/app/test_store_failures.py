"""A store that refuses a write stops the run cleanly; a reused --run-id is one line, exit 2."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from businesses import load_set
from opsbench.cli import app
from opsbench.errors import StoreError
from opsbench.runner import run_evaluation
from opsbench.store import Store
from tests.app.conftest import MINI_SET, mini_config
from tests.helpers import MINI, FullDiskStore

MINI_TASKS = sorted(load_set(MINI)[1], key=lambda t: t.id)


def invoke(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def test_a_reused_run_id_is_one_line_and_exit_2(tmp_path: Path):
    db = str(tmp_path / "o.db")
    args = ["run", "--set", MINI_SET, "--store", db, "-q", "-m", "reference/oracle", "--limit", "1"]
    assert invoke(*args, "--run-id", "R1").exit_code == 0
    again = invoke(*args, "--run-id", "R1")
    assert again.exit_code == 2, again.output
    assert again.stderr.splitlines() == [
        f"error: run R1 already exists in {db}: give another --run-id, or "
        "`opsbench run --resume R1` to finish it"
    ]
    with Store(db) as store:
        assert store.run_ids() == ["R1"] and len(store.episodes("R1")) == 1


# workers=1: the event loop's workers, one transaction per episode; 2: the process pool's
# single writer, whose batch fails as a whole.
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("error", ["sqlite", "store"])
def test_a_store_error_stops_the_run_cleanly(tmp_path: Path, error: str, workers: int):
    store = FullDiskStore(tmp_path / "o.db", good=2)
    if error == "store":
        # A store error of our own (a locked store) is handled the same way.
        def locked(run_id, episodes):  # type: ignore[no-untyped-def]
            if store.good < len(episodes):
                raise StoreError("results store o.db is locked by another process")
            store.good -= len(episodes)
            return Store.record_encoded(store, run_id, episodes)

        store.record_encoded = locked  # type: ignore[method-assign]
    config = mini_config(models=("reference/oracle", "reference/idle"), concurrency=1)
    with pytest.raises(StoreError) as info:
        run_evaluation(config, store, workers=workers)
    message = str(info.value)
    [run_id] = store.run_ids()
    stored = len(store.episodes(run_id))
    assert message.startswith(f"run {run_id} stopped: could not store the episode of ")
    assert f"{stored} episodes finished and are stored" in message
    assert f"`opsbench run --resume {run_id}` continues" in message and "\n" not in message
    # Nothing past the failure was stored; one process stores exactly up to it.
    assert stored <= 2 and (workers > 1 or stored == 2)
    store.close()


def test_the_cli_reports_a_store_failure_in_one_line(tmp_path: Path, monkeypatch):
    def full(self, run_id, episodes):  # type: ignore[no-untyped-def]
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Store, "record_encoded", full)
    result = invoke(
        "run", "--set", MINI_SET, "--store", str(tmp_path / "o.db"), "-q", "--limit", "1"
    )
    assert result.exit_code == 2, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("error: run ") and "database or disk is full" in line
