"""`opsbench businesses new NAME`: the skeleton fills every coverage cell, validates on every
route with a faithful caller, passes the full reference matrix with no gap, runs through the
runner, and bad names or existing files are one line and exit 2."""

from __future__ import annotations

import yaml
from typer.testing import CliRunner

from adapters.reference import FLAWS
from businesses import load_set
from callers.fidelity import check_fidelity
from opsbench.cli import app
from opsbench.integrations.new_business import write_business
from opsbench.matrix import check_set
from opsbench.validation import VALIDATION_ROUTES, run_reference, validate_task
from sandbox.task import COVERAGE_CELLS

RUNNER = CliRunner()


def test_the_new_business_validates_with_the_matrix(tmp_path):
    made = RUNNER.invoke(app, ["businesses", "new", "pet_grooming", "--out", str(tmp_path)])
    assert made.exit_code == 0, made.output
    checked = RUNNER.invoke(app, ["businesses", "validate", "--set", str(tmp_path), "--matrix"])
    assert checked.exit_code == 0, checked.output
    assert "11 of 11 tasks valid in 1 business" in checked.output
    assert "matrix complete: no gaps" in checked.output
    assert "FAIL" not in checked.output and "GAP" not in checked.output
    businesses, tasks = load_set(tmp_path)
    assert [b.id for b in businesses] == ["pet_grooming"]
    assert all(t.id.startswith("pet_grooming/") for t in tasks)
    # One task per coverage cell: the skeleton is a worked example of every cell.
    assert sorted(t.coverage for t in tasks) == sorted(COVERAGE_CELLS)
    check = check_set(businesses, tasks)
    assert check.gaps == []
    # Each flaw of the matrix is shown on at least one task: the examples exercise the scorer
    # (pushover on the pushback tasks, sentiment both ways, reckless on the irreversible move).
    shown = {c.expectation.flaw for c in check.cells if c.applicable}
    assert set(FLAWS) <= shown
    assert all(c.held == c.applicable for c in check.cells)


def test_every_skeleton_task_passes_every_route_with_a_faithful_caller(tmp_path):
    write_business("pet_grooming", tmp_path)
    _businesses, tasks = load_set(tmp_path)
    for task in tasks:
        for route in VALIDATION_ROUTES:
            run = run_reference(task, route)
            assert run.score.passed, (task.id, route, run.score.reasons)
            assert check_fidelity(task, run.result) == [], (task.id, route)
        assert validate_task(task) == [], task.id


def test_the_files_point_to_the_authoring_guide_and_name_the_business(tmp_path):
    RUNNER.invoke(app, ["businesses", "new", "bike_repair", "--out", str(tmp_path)])
    for name in ("business.yaml", "tasks.yaml"):
        text = (tmp_path / "bike_repair" / name).read_text()
        assert "businesses/README.md" in text
        assert "{{" not in text
    business = yaml.safe_load((tmp_path / "bike_repair" / "business.yaml").read_text())
    assert business["id"] == "bike_repair" and business["name"] == "Bike Repair"


def test_two_new_businesses_share_a_set_and_both_run(tmp_path):
    for name in ("pet_grooming", "bike_repair"):
        assert (
            RUNNER.invoke(app, ["businesses", "new", name, "--out", str(tmp_path)]).exit_code == 0
        )
    store = tmp_path / "results.db"
    ran = RUNNER.invoke(
        app,
        ["run", "--set", f"mine={tmp_path}", "-m", "reference/oracle", "--store", str(store)],
    )
    assert ran.exit_code == 0, ran.output
    report = RUNNER.invoke(
        app, ["report", "--store", str(store), "--fail-under", "pass=1.0", "--json"]
    )
    assert report.exit_code == 0, report.output


def test_bad_names_and_existing_files_are_one_line_and_exit_2(tmp_path):
    bad = RUNNER.invoke(app, ["businesses", "new", "Pet-Grooming", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "lower_snake" in bad.output and "Traceback" not in bad.output
    assert RUNNER.invoke(app, ["businesses", "new", "pets", "--out", str(tmp_path)]).exit_code == 0
    again = RUNNER.invoke(app, ["businesses", "new", "pets", "--out", str(tmp_path)])
    assert again.exit_code == 2 and "already exists" in again.output
    a_file = tmp_path / "file"
    a_file.write_text("x")
    not_dir = RUNNER.invoke(app, ["businesses", "new", "pets", "--out", str(a_file)])
    assert not_dir.exit_code == 2 and "not a directory" in not_dir.output
