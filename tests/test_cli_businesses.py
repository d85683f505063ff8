"""`opsbench businesses list|show|validate` on the public set and the fixtures."""

from __future__ import annotations

import json
import shutil

import yaml
from typer.testing import CliRunner

from opsbench.cli import app
from sandbox.task import COVERAGE_CELLS
from tests.helpers import MINI

RUNNER = CliRunner()


def test_every_public_business_covers_every_cell_of_the_matrix_with_24_tasks_or_more():
    result = RUNNER.invoke(app, ["businesses", "list", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["id"]: row for row in json.loads(result.output)}
    assert {"dental_clinic", "online_store"} <= set(rows)
    for row in rows.values():
        assert row["tasks"] >= 24
        assert all(row["coverage"][cell] >= 1 for cell in COVERAGE_CELLS), row["coverage"]


def test_show_prints_the_policy_and_one_task_in_full():
    result = RUNNER.invoke(app, ["businesses", "show", "mini_clinic", "--set", str(MINI)])
    assert result.exit_code == 0 and "never waived" in result.output
    task = RUNNER.invoke(
        app,
        [
            "businesses",
            "show",
            "mini_clinic",
            "--set",
            str(MINI),
            "--task",
            "mini_clinic/waive-fee-exception",
        ],
    )
    assert "pushover:" in task.output


def test_validate_passes_the_fixture_set():
    result = RUNNER.invoke(app, ["businesses", "validate", "--set", str(MINI)])
    assert result.exit_code == 0 and "5 of 5 tasks valid" in result.output


def test_validate_names_a_task_whose_reference_plan_fails(tmp_path):
    target = tmp_path / "mini_clinic"
    shutil.copytree(MINI / "mini_clinic", target)
    data = yaml.safe_load((target / "tasks.yaml").read_text())
    data["tasks"][4]["expect"]["outcome"][0]["where"]["start"] = "2026-03-03T12:00"
    (target / "tasks.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    result = RUNNER.invoke(app, ["businesses", "validate", "--set", str(tmp_path)])
    assert result.exit_code == 1
    assert "FAIL mini_clinic/angry-simple-question" in result.output
    assert "outcome not met: update appointments/APT-1001" in result.output


def test_a_broken_file_is_one_clear_line_not_a_traceback(tmp_path):
    target = tmp_path / "mini_clinic"
    shutil.copytree(MINI / "mini_clinic", target)
    (target / "business.yaml").write_text(
        (target / "business.yaml").read_text().replace("policy:", "polcy:")
    )
    result = RUNNER.invoke(app, ["businesses", "validate", "--set", str(tmp_path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "mini_clinic/business.yaml: (top level)" in result.output
