"""The CLI cases of issue 14, each as the user met it: one line and exit 2 instead of a traceback,
a silent pass or a wrong label."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from opsbench.cli import app
from opsbench.errors import StoreError
from opsbench.records import RunRecord
from opsbench.store import Store
from tests.app.conftest import MINI_SET
from tests.helpers import MINI


def invoke(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def one_error(result) -> str:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def mini_run(store: Path, *extra: str):
    args = ("run", "-m", "reference/oracle", "--set", MINI_SET, "-q", "--store", str(store))
    return invoke(*args, *extra)


@pytest.mark.parametrize(
    "args, expected",
    [
        (("run", "--rpm", "0"), "error: Invalid value for '--rpm'"),
        (("run", "--rpm", "-5"), "error: Invalid value for '--rpm'"),
        (("run", "--tpm", "-5"), "error: Invalid value for '--tpm'"),
        (("run", "--limit", "0"), "error: Invalid value for '--limit'"),
        (("run", "--limit", "-1"), "error: Invalid value for '--limit'"),
        (("serve", "--port", "-1"), "error: Invalid value for '--port'"),
        (("serve", "--port", "70000"), "error: Invalid value for '--port'"),
        (("run", "-M", "warp=9"), "error: -M warp: no model of this run takes options"),
        (("run", "--fail-under", ""), "error: --fail-under: nothing to check in an empty value"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else None,
)
def test_a_bad_option_is_one_line_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args, expected
):
    monkeypatch.chdir(tmp_path)  # nothing may be written; if it were, it would be here
    line = one_error(invoke(*args))
    assert line.startswith(expected), line
    assert not (tmp_path / "opsbench-results").exists()


def test_limit_one_runs_exactly_one_task(tmp_path: Path):
    result = mini_run(tmp_path / "o.db", "--limit", "1", "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["episodes"]) == 1


def test_report_fail_under_empty_is_refused_before_the_report(tmp_path: Path):
    store = tmp_path / "o.db"
    assert mini_run(store, "--limit", "1").exit_code == 0
    result = invoke("report", "--store", str(store), "--fail-under", "")
    assert one_error(result).startswith("error: --fail-under: nothing to check")
    assert result.stdout == ""


@pytest.fixture
def foreign(tmp_path: Path) -> Path:
    path = tmp_path / "theirs.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE runs (id TEXT PRIMARY KEY, owner TEXT)")
        db.execute("INSERT INTO runs VALUES ('r1', 'someone else')")
    return path


@pytest.mark.parametrize(
    "command",
    [("runs",), ("report",), ("show", "ep-1"), ("compare", "a", "b"), ("export", "a", "--jsonl")],
    ids=lambda c: c[0],
)
def test_read_commands_refuse_a_foreign_sqlite_file_and_leave_it_untouched(foreign, command):
    before = foreign.read_bytes()
    line = one_error(invoke(*command, "--store", str(foreign)))
    assert line == (
        f"error: {foreign} is not an OpsBench results store (it holds tables runs); it was "
        "left untouched: pass another --store"
    )
    assert foreign.read_bytes() == before
    assert sorted(p.name for p in foreign.parent.iterdir()) == ["theirs.db"]  # no -wal, -shm


def test_run_refuses_a_foreign_sqlite_file(foreign):
    before = foreign.read_bytes()
    assert "is not an OpsBench results store" in one_error(mini_run(foreign, "--limit", "1"))
    assert foreign.read_bytes() == before


def test_an_empty_file_is_no_store_to_read(tmp_path: Path):
    empty = tmp_path / "empty.db"
    empty.touch()
    assert "(it is empty)" in one_error(invoke("runs", "--store", str(empty)))
    assert empty.read_bytes() == b""


def test_a_store_that_refuses_writes_is_one_store_error(tmp_path: Path):
    # SQLite's own read-only refusal, as a store on a read-only file or mount gives it.
    with Store(tmp_path / "o.db") as store:
        store._db.execute("PRAGMA query_only = ON")
        run = RunRecord("r", "2026-01-01", "0", None, 0, "scripted", None, "h", {})
        with pytest.raises(StoreError, match="is read-only: make it writable"):
            store.create_run(run)


def test_run_on_a_read_only_store_is_one_line(tmp_path: Path):
    store = tmp_path / "o.db"
    assert mini_run(store, "--limit", "1").exit_code == 0
    store.chmod(0o444)
    if os.access(store, os.W_OK):
        pytest.skip("this user (root) can write a read-only file; see the Store-level test")
    assert "is read-only" in one_error(mini_run(store, "--limit", "1"))


def test_play_refuses_now_with_a_task():
    line = one_error(
        invoke(
            "play",
            "-b",
            "mini_clinic",
            "--set",
            MINI_SET,
            "-m",
            "reference/oracle",
            "--task",
            "mini_clinic/waive-fee-exception",
            "--now",
            "2026-03-02T09:00",
        )
    )
    assert line.startswith("--now sets the time of a free call")


def test_a_set_is_reported_under_its_own_label_not_held_out(tmp_path: Path):
    result = invoke(
        "run",
        "-m",
        "reference/oracle",
        "--set",
        "public",
        "--set",
        f"salon={MINI_SET}",
        "--task",
        "mini_clinic/*",
        "--task",
        "dental/book-*",
        "-q",
        "--store",
        str(tmp_path / "o.db"),
    )
    assert result.exit_code == 0, result.output
    report = invoke("report", "--store", str(tmp_path / "o.db"), "--json")
    (model,) = json.loads(report.stdout)["models"]
    assert model["gap_against"] == "salon"
    text = invoke("report", "--store", str(tmp_path / "o.db")).stdout
    assert "reference/oracle: public − salon pass rate" in text
    assert "held-out" not in text


def test_run_refuses_a_broken_set_before_the_first_episode(tmp_path: Path):
    target = tmp_path / "set" / "mini_clinic"
    shutil.copytree(MINI / "mini_clinic", target)
    tasks = target / "tasks.yaml"
    tasks.write_text(tasks.read_text().replace("now: 2026-03-02T09:10", "now: 2026-02-30T09:10", 1))
    store = tmp_path / "o.db"
    result = invoke("run", "--set", f"salon={target.parent}", "-q", "--store", str(store))
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [
        "error: task set salon: mini_clinic/tasks.yaml: tasks[0].now: '2026-02-30T09:10' is "
        "not a real time (day is out of range for month)"
    ]
    assert "agent or the harness" not in result.output
    validate = invoke("businesses", "validate", "--set", str(target.parent))
    assert validate.exit_code == 2
    assert validate.stderr.splitlines() == [
        "mini_clinic/tasks.yaml: tasks[0].now: '2026-02-30T09:10' is not a real time (day is "
        "out of range for month)"
    ]
    if store.exists():
        with sqlite3.connect(store) as db:
            assert db.execute("SELECT COUNT(*) FROM episodes").fetchone() == (0,)


@pytest.mark.parametrize(
    "content",
    [b"\x00\x01binary", "business: café\n".encode("latin-1"), "business: x\n".encode("utf-16")],
    ids=["binary", "latin-1", "utf-16"],
)
def test_run_refuses_a_set_with_undecodable_files_in_one_line(tmp_path: Path, content: bytes):
    target = tmp_path / "set" / "mini_clinic"
    shutil.copytree(MINI / "mini_clinic", target)
    (target / "tasks.yaml").write_bytes(content)
    line = one_error(
        invoke("run", "--set", str(target.parent), "-q", "--store", str(tmp_path / "o"))
    )
    assert line.startswith("error: task set heldout: mini_clinic/tasks.yaml: ")


def test_guide_style_unquoted_dates_load_and_run(tmp_path: Path):
    target = tmp_path / "set" / "mini_clinic"
    shutil.copytree(MINI / "mini_clinic", target)
    path = target / "tasks.yaml"
    data = yaml.safe_load(path.read_text())
    assert data["tasks"][0]["caller"]["knows"]["dob"] == "1984-06-12"
    path.write_text(path.read_text().replace('dob: "1984-06-12"', "dob: 1984-06-12"))
    result = invoke("businesses", "validate", "--set", str(target.parent))
    assert result.exit_code == 0, result.output


def test_a_tactic_line_that_cannot_be_said_is_refused_before_the_run(tmp_path: Path):
    # Loads, but the scripted caller could not say its first line: before, `validate` showed a
    # traceback and `run` stopped mid-way blaming "the agent or the harness".
    target = tmp_path / "set" / "mini_clinic"
    shutil.copytree(MINI / "mini_clinic", target)
    tasks = target / "tasks.yaml"
    first = (
        "        - say: \"Thursday afternoon please, two o'clock if you have it. "
        'And text me a reminder the day before."'
    )
    assert first in tasks.read_text()
    tasks.write_text(
        tasks.read_text().replace(first, "        - tactic: change_after_confirmation", 1)
    )
    why = (
        "caller.moves[0]: tactic 'change_after_confirmation' needs change_to set in the task "
        "for a scripted line"
    )
    validate = invoke("businesses", "validate", "--set", str(target.parent))
    assert validate.exit_code == 1 and "Traceback" not in validate.output
    assert f"     {why}" in validate.output
    line = one_error(
        invoke("run", "--set", str(target.parent), "-q", "--store", str(tmp_path / "o"))
    )
    assert line.startswith(f"error: task set heldout: mini_clinic/reschedule-reminder-fails: {why}")
