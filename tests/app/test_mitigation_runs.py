"""``run --mitigation`` arms, stored as models; ``compare RUN`` before/after; --resume keeps arms;
reports break results down by sessions."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from opsbench.cli import app
from opsbench.report import build_report
from opsbench.runner import RunConfig, run_evaluation
from opsbench.store import Store
from tests.app.conftest import MINI_SET

ARM = "ledger-summary,reversibility-guard"


def invoke(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def _run(db: str, *args: str) -> str:
    result = invoke("run", "--set", MINI_SET, "--store", db, "-q", "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["run"]["id"]


def test_two_arms_run_the_same_tasks_and_seeds_as_two_models(tmp_path: Path):
    db = str(tmp_path / "o.db")
    run_id = _run(db, "-m", "reference/partial", "--mitigation", "none", "--mitigation", ARM)
    with Store(Path(db), create=False) as store:
        report = build_report(store, run_id)
    names = [m.model for m in report.models]
    assert names == ["reference/partial", "reference/partial+ledger-summary+reversibility-guard"]
    assert report.run.config["mitigations"] == ["none", ARM]
    by_model: dict[str, list] = {}
    for e in report.episodes:
        by_model.setdefault(e.model, []).append((e.task_id, e.seed))
    assert sorted(by_model[names[0]]) == sorted(by_model[names[1]])
    before, after = (report.models[0].metrics, report.models[1].metrics)
    assert before.rates["confident_partial"].successes > 0
    assert after.rates["confident_partial"].successes == 0

    out = invoke("compare", run_id, "--store", db).stdout
    for label in (
        "Confident partial completion",
        "Escalation precision",
        "Unauthorized accommodation",
        "Unrecoverable state change",
    ):
        assert label in out
    markdown = invoke("compare", run_id, "--store", db, "--markdown").stdout
    assert markdown.splitlines()[0] == "| ledger-summary, reversibility-guard | Before | After |"
    data = json.loads(invoke("compare", run_id, "--store", db, "--json").stdout)
    headline = {h["metric"]: h for h in data["arms"][0]["headline"]}
    assert headline["confident_partial"]["b"]["value"] == 0
    assert headline["confident_partial"]["a"]["low"] is not None
    report_text = invoke("report", run_id, "--store", db).stdout
    assert "mitigation arms: none | " + ARM in report_text


def test_resume_keeps_the_arms_and_refuses_new_ones(tmp_path: Path):
    db = str(tmp_path / "o.db")
    store_path = Path(db)
    config = RunConfig(models=("reference/idle",), sets=(MINI_SET,), mitigations=("none", ARM))
    with Store(store_path) as store:
        outcome = run_evaluation(config, store)
    assert outcome.ran == outcome.planned > 0 and outcome.planned % 2 == 0
    with Store(store_path, create=False) as store:
        again = run_evaluation(RunConfig(), store, resume=outcome.run_id)
    assert again.ran == 0 and again.skipped == outcome.planned
    refused = invoke("run", "--resume", outcome.run_id, "--store", db, "--mitigation", "none")
    assert refused.exit_code == 2 and "--mitigation" in refused.output


def test_a_bad_mitigation_is_one_line_and_exit_2(tmp_path: Path):
    result = invoke(
        "run",
        "--set",
        MINI_SET,
        "--store",
        str(tmp_path / "o.db"),
        "-q",
        "--mitigation",
        "ledger-sumary",
    )
    assert result.exit_code == 2
    assert "--mitigation ledger-sumary" in result.output and "Traceback" not in result.output


def test_a_model_string_may_carry_its_mitigations(tmp_path: Path):
    db = str(tmp_path / "o.db")
    run_id = _run(db, "-m", "reference/partial+ledger-summary")
    with Store(Path(db), create=False) as store:
        report = build_report(store, run_id)
    assert [m.model for m in report.models] == ["reference/partial+ledger-summary"]
    assert report.models[0].metrics.rates["confident_partial"].successes == 0


def test_reports_break_results_down_by_number_of_sessions(tmp_path: Path):
    db = str(tmp_path / "o.db")
    run_id = _run(db, "-m", "reference/oracle")
    with Store(Path(db), create=False) as store:
        report = build_report(store, run_id)
    groups = report.models[0].breakdowns["sessions"]
    assert set(groups) == {"1", "2"}  # mini_clinic/promised-credit-returns has two sessions
    assert sum(m.scored for m in groups.values()) == report.models[0].metrics.scored


def test_a_rate_limited_model_keeps_its_mitigations_gate(tmp_path: Path):
    db = str(tmp_path / "o.db")
    run_id = _run(db, "-m", "reference/reckless+reversibility-guard", "--rpm", "100000")
    with Store(Path(db), create=False) as store:
        report = build_report(store, run_id)
        episodes = [store.episode(e.id) for e in report.episodes]
    refused = [
        c
        for e in episodes
        for c in e.result["trace"]
        if (c["result"].get("error") or {}).get("code") == "confirmation_required"
    ]
    assert refused
