"""--fail-under gates on complete runs: infrastructure errors or planned episodes missing from the
store fail it (rates would cover only part of the run) unless --allow-errors says otherwise; a
threshold that cannot be read fails in one line before the run."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from businesses import load_set
from opsbench.cli import app
from tests.app.agents import FAIL_ENV
from tests.app.conftest import MINI_SET
from tests.helpers import MINI

MINI_TASKS = sorted(load_set(MINI)[1], key=lambda t: t.id)
FLAKY = "testagent/FlakyOracle"


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})


def _fail_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("fail-under:")]


def test_fail_under_fails_a_run_with_infrastructure_errors_and_says_why(tmp_path: Path):
    db = str(tmp_path / "o.db")
    down = ",".join(t.id for t in MINI_TASKS[1:])  # the provider is down for all but one task
    args = ["run", "-m", FLAKY, "--set", MINI_SET, "--store", db, "-q", "--json"]
    result = invoke(*args, "--fail-under", "pass=0.8", env={FAIL_ENV: down})
    assert result.exit_code == 1, result.output
    run_id = json.loads(result.stdout)["run"]["id"]
    # The one scored episode passed: the rate alone would have let the run through.
    assert json.loads(result.stdout)["models"][0]["metrics"]["rates"]["pass"]["value"] == 1.0
    [line] = _fail_lines(result)
    errors = len(MINI_TASKS) - 1
    assert line.startswith(
        f"fail-under: {FLAKY}: {errors} infrastructure errors of {len(MINI_TASKS)} planned"
    )
    assert f"--resume {run_id}" in line and "--allow-errors" in line

    allowed = invoke("report", run_id, "--store", db, "--fail-under", "pass=0.8", "--allow-errors")
    assert allowed.exit_code == 0, allowed.output
    assert _fail_lines(allowed) == []


def test_fail_under_fails_a_run_with_planned_episodes_missing(tmp_path: Path):
    db = str(tmp_path / "o.db")
    args = ["run", "-m", "reference/oracle", "-m", "reference/idle", "--set", MINI_SET]
    result = invoke(*args, "--store", db, "-q", "--json")
    run_id = json.loads(result.stdout)["run"]["id"]
    # The run was killed: one oracle episode and every idle one never made it to the store.
    store = sqlite3.connect(db)
    store.execute(
        "DELETE FROM episodes WHERE model = 'reference/idle' OR task_id = ?", (MINI_TASKS[0].id,)
    )
    store.commit()
    store.close()
    gated = invoke("report", run_id, "--store", db, "--fail-under", "pass=0")
    assert gated.exit_code == 1, gated.output
    assert _fail_lines(gated) == [
        f"fail-under: {model}: {missing} episodes not run of {len(MINI_TASKS)} planned, so its "
        f"rates cover only part of the run; finish it with `opsbench run --resume {run_id}`, or "
        "pass --allow-errors to gate on the scored episodes alone"
        for model, missing in (("reference/oracle", 1), ("reference/idle", len(MINI_TASKS)))
    ]
    # Without --fail-under there is no gate, and an incomplete run is still reported.
    assert invoke("report", run_id, "--store", db).exit_code == 0


def test_a_complete_run_passes_the_gate(tmp_path: Path):
    db = str(tmp_path / "o.db")
    args = ["run", "-m", "reference/oracle", "-m", "reference/oracle", "--set", MINI_SET]
    result = invoke(*args, "--store", db, "-q", "--fail-under", "pass=1")
    assert result.exit_code == 0, result.output
    assert _fail_lines(result) == []


def test_an_unreadable_threshold_fails_in_one_line_before_the_run(tmp_path: Path):
    db = tmp_path / "o.db"
    result = invoke("run", "--set", MINI_SET, "--store", str(db), "--fail-under", "pass=0.8.1")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: --fail-under: cannot read 'pass=0.8.1'; expected metric=value or "
        "metric<=value, e.g. pass=0.8,confident_partial<=0.01"
    ]
    assert not db.exists()


def test_a_threshold_written_as_a_percentage_is_refused():
    from opsbench.errors import SelectionError
    from opsbench.gate import parse_thresholds

    with pytest.raises(SelectionError, match="shares from 0 to 1"):
        parse_thresholds("pass=80")
