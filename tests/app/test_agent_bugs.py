"""A bug in an agent (an exception other than a provider failure) is fatal to the run, but the
run stops cleanly: no new episode starts, the ones in flight (other models' too) finish and are
stored, the error is one line naming model, task, trial and exception, the traceback is in the
run log, the exit status is non-zero, and --resume finishes the run once the bug is fixed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from businesses import load_set
from opsbench.cli import app
from opsbench.errors import AgentCrashError
from opsbench.runner import run_evaluation
from opsbench.store import Store
from tests.app import agents
from tests.app.conftest import MINI_SET, mini_config
from tests.helpers import MINI

MINI_TASKS = sorted(load_set(MINI)[1], key=lambda t: t.id)
BUGGY = "testagent/BuggyOracle"
WAITS = "testagent/WaitsForBug"


@pytest.fixture(autouse=True)
def no_bug_yet(monkeypatch):
    monkeypatch.setattr(agents, "BUGS_RAISED", [])
    # The bug fires on the second task: the first episode of the buggy model finishes first.
    monkeypatch.setenv(agents.BUG_ENV, MINI_TASKS[1].id)


def _stored(db: Path) -> set[tuple[str, str, str]]:
    con = sqlite3.connect(db)
    try:
        return set(con.execute("SELECT model, task_id, status FROM episodes"))
    finally:
        con.close()


def test_an_agent_bug_stops_the_run_in_one_line_and_keeps_finished_episodes(
    tmp_path: Path, monkeypatch
):
    db = tmp_path / "o.db"
    # WAITS starts first and its first episode waits for the bug: it is in flight when it fires.
    args = ["run", "-m", WAITS, "-m", BUGGY, "--set", MINI_SET, "--concurrency", "1"]
    result = CliRunner().invoke(app, [*args, "--store", str(db), "--run-id", "R", "-q"])
    assert result.exit_code == 1, result.output
    log = tmp_path / "logs" / "R.log"
    assert result.stderr.splitlines() == [
        f"error: run R stopped: {BUGGY} raised KeyError: 'choices' in {MINI_TASKS[1].id} trial 0 "
        "(a bug in the agent or the harness, not a provider failure); 2 episodes finished and "
        f"are stored, `opsbench run --resume R` continues once it is fixed; traceback in {log}"
    ]
    assert "Traceback" not in result.output
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and 'return {}["choices"]' in text
    # The buggy model's first episode, and the other model's episode that was in flight when the
    # bug fired (it waited for it), are stored; nothing else started.
    assert _stored(db) == {
        (BUGGY, MINI_TASKS[0].id, "scored"),
        (WAITS, MINI_TASKS[0].id, "scored"),
    }

    monkeypatch.delenv(agents.BUG_ENV)  # the bug is fixed
    resumed = CliRunner().invoke(app, ["run", "--resume", "R", "--store", str(db), "-q", "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout)["stored_episodes"] == 2 * len(MINI_TASKS)


def test_the_runner_raises_agent_crash_error_naming_the_episode(store: Store):
    config = mini_config(models=(BUGGY,), concurrency=1)
    with pytest.raises(AgentCrashError) as info:
        run_evaluation(config, store)
    crash = info.value
    assert (crash.model, crash.task_id, crash.trial) == (BUGGY, MINI_TASKS[1].id, 0)
    assert isinstance(crash.error, KeyError) and "\n" not in str(crash)
    [run_id] = store.run_ids()
    assert [e.task_id for e in store.episodes(run_id)] == [MINI_TASKS[0].id]


def test_a_harness_bug_in_a_worker_process_stops_the_run_cleanly(store: Store, monkeypatch):
    # More episodes than the pool's window holds: after the crash nothing new is submitted, the
    # ones in flight are drained and stored, and the crash (not an IndexError) is what surfaces.
    import adapters.reference.summary as summary

    def broken(arguments):
        raise KeyError("arrival")

    monkeypatch.setattr(summary, "action_fields", broken)  # the fork inherits it
    config = mini_config(models=("reference/oracle",), trials=12)
    with pytest.raises(AgentCrashError) as info:
        run_evaluation(config, store, workers=2)
    assert isinstance(info.value.error, KeyError)
    [run_id] = store.run_ids()
    assert len(store.episodes(run_id)) < 12 * len(MINI_TASKS)
