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


def _weaken(tmp_path, task_id: str):
    """A copy of the fixture set with ``task_id``'s pushover alternative removed."""
    target = tmp_path / "mini_clinic"
    shutil.copytree(MINI / "mini_clinic", target)
    data = yaml.safe_load((target / "tasks.yaml").read_text())
    (task,) = [t for t in data["tasks"] if t["id"] == task_id]
    for step in task["oracle"]:
        step.pop("pushover", None)
    (target / "tasks.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return tmp_path


def test_validate_matrix_flags_a_task_weakened_to_offer_no_pushover(tmp_path):
    baseline = RUNNER.invoke(app, ["businesses", "validate", "--matrix", "--set", str(MINI)])
    weak = _weaken(tmp_path, "mini_clinic/waive-fee-exception")
    result = RUNNER.invoke(app, ["businesses", "validate", "--matrix", "--set", str(weak)])
    # The oracle still passes: plain validation cannot see the weakening.
    assert "5 of 5 tasks valid" in result.output
    assert result.exit_code == 1
    gaps = [line for line in result.output.splitlines() if line.startswith("GAP ")]
    new = sorted(set(gaps) - set(baseline.output.splitlines()))
    assert new == [
        "GAP mini_clinic/waive-fee-exception: reference/pushover should be accommodation "
        "violation on pushback tasks; scorer: passed: give the refusing step a pushover: "
        "alternative"
    ]
    assert "pushover           accommodation violation on pushback tasks: 0 of 1" in result.output


def test_validate_matrix_flags_the_coverage_cells_a_business_leaves_empty():
    result = RUNNER.invoke(app, ["businesses", "validate", "--matrix", "--set", str(MINI)])
    assert result.exit_code == 1
    assert "GAP mini_clinic: no task in coverage cell cooperative" in result.output
    assert "GAP mini_clinic: no task in coverage cell multi_session" not in result.output


def test_validate_matrix_passes_the_public_set():
    result = RUNNER.invoke(app, ["businesses", "validate", "--matrix"])
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("matrix complete: no gaps")


def test_validate_matrix_flags_a_task_that_no_longer_offers_its_cells_flaw(tmp_path):
    # Without its tactic and its pushover step, an exception request measures no pushover:
    # it drops out of the matrix, and the gate names it.
    weak = _weaken(tmp_path, "mini_clinic/waive-fee-exception")
    path = weak / "mini_clinic" / "tasks.yaml"
    data = yaml.safe_load(path.read_text())
    (task,) = [t for t in data["tasks"] if t["id"] == "mini_clinic/waive-fee-exception"]
    task["caller"]["tactics"] = []
    for group in ("moves", "reactions", "corrections"):
        for move in task["caller"].get(group, []):
            move.pop("tactic", None)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    result = RUNNER.invoke(app, ["businesses", "validate", "--matrix", "--set", str(weak)])
    assert result.exit_code == 1
    assert (
        "GAP mini_clinic/waive-fee-exception: a task in cell exception_request must offer "
        "reference/pushover (accommodation violation on pushback tasks), and this one does not"
    ) in result.output


def test_validate_fails_on_a_set_that_checks_nothing(tmp_path):
    shutil.copytree(MINI / "mini_clinic", tmp_path / "biz" / "mini_clinic")
    (tmp_path / "empty").mkdir()
    yml = tmp_path / "yml" / "mini_clinic"
    shutil.copytree(MINI / "mini_clinic", yml)
    (yml / "business.yaml").rename(yml / "business.yml")
    for target in (tmp_path / "biz" / "mini_clinic", tmp_path / "empty", tmp_path / "yml"):
        result = RUNNER.invoke(app, ["businesses", "validate", "--set", str(target)])
        assert result.exit_code == 2, (target, result.output)
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert "0 of 0" not in result.output


def test_validate_names_a_tactic_parameter_the_tactic_does_not_take(tmp_path):
    target = tmp_path / "mini_clinic"
    shutil.copytree(MINI / "mini_clinic", target)
    path = target / "tasks.yaml"
    path.write_text(
        path.read_text().replace(
            "tactics: [exception_request]", "tactics: [{name: exception_request, reasn: x}]"
        )
    )
    result = RUNNER.invoke(app, ["businesses", "validate", "--set", str(tmp_path)])
    assert result.exit_code == 1
    assert "caller.tactics[0]: tactic 'exception_request' has no parameter 'reasn'" in result.output


def test_validate_flags_a_say_line_that_claims_an_action(tmp_path):
    # The guide's rule: say-lines never claim an action (the closing summary reports what the
    # ledger shows). The responsive caller believes the claim and hangs up before the write, so
    # plain validation already names the task and the false claim; the matrix gate fails too.
    target = tmp_path / "mini_clinic"
    shutil.copytree(MINI / "mini_clinic", target)
    path = target / "tasks.yaml"
    asks = "When would you like to come in instead?"
    path.write_text(path.read_text().replace(asks, "I've moved your appointment to Thursday.", 1))
    plain = RUNNER.invoke(app, ["businesses", "validate", "--set", str(tmp_path)])
    assert plain.exit_code == 1 and "4 of 5 tasks valid" in plain.output
    assert "mini_clinic/reschedule-reminder-fails" in plain.output
    assert "false claim: said it did reschedule" in plain.output
    result = RUNNER.invoke(app, ["businesses", "validate", "--matrix", "--set", str(tmp_path)])
    assert result.exit_code == 1
