"""The commands users live in, run through the real CLI against a real store."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from businesses import PUBLIC_DIR, load_set
from opsbench.cli import app
from opsbench.runner import DEFAULT_MODELS
from tests.app.conftest import MINI_SET
from tests.helpers import MINI

MINI_TASKS = load_set(MINI)[1]
WIDE = {"COLUMNS": "200"}


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, list(args), env={**WIDE, **(env or {})})


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "opsbench.db")


@pytest.fixture
def cli_run(db: str) -> str:
    result = invoke("run", "--set", MINI_SET, "--store", db, "-q", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["run"]["id"]


@pytest.mark.skipif(not PUBLIC_DIR.is_dir(), reason="the public set is not in this checkout")
def test_run_with_no_arguments_is_the_offline_reference_scorecard(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("run")
    assert result.exit_code == 0, result.output
    assert "OpsBench scorecard" in result.stdout and "reference/oracle" in result.stdout
    assert "confident" in result.stdout and "unauthorized" in result.stdout
    assert (tmp_path / "opsbench-results" / "opsbench.db").exists()
    report = json.loads(invoke("report", "--json").stdout)
    public_tasks = len(load_set(PUBLIC_DIR)[1])
    assert report["stored_episodes"] == len(DEFAULT_MODELS) * public_tasks
    oracle = report["models"][0]
    assert oracle["model"] == "reference/oracle"
    assert oracle["metrics"]["rates"]["pass"]["value"] == 1.0


def test_report_json_has_every_metric_with_its_interval(db: str, cli_run: str):
    data = json.loads(invoke("report", cli_run, "--store", db, "--json").stdout)
    assert "Wilson 95%" in data["note"]
    rates = data["models"][0]["metrics"]["rates"]
    assert set(rates) >= {
        "pass",
        "completion",
        "collateral",
        "escalation_precision",
        "escalation_recall",
        "accommodation",
        "privacy",
        "unrecoverable",
        "disclosure",
        "confident_partial",
    }
    assert all({"value", "low", "high", "n"} <= set(r) for r in rates.values())
    assert set(data["models"][0]["breakdowns"]) == {
        "business",
        "caller_kind",
        "tactic",
        "task_set",
        "sessions",
    }


def test_terminal_report_shows_breakdowns_and_cost(db: str, cli_run: str):
    out = invoke("report", "--store", db).stdout
    for heading in ("pass rate by business", "caller kind", "failure classes", "tokens and cost"):
        assert heading in out


def test_show_prints_transcript_ledger_diff_and_reasons(db: str, cli_run: str):
    data = json.loads(invoke("report", "--store", db, "--json").stdout)
    failed = next(
        e for e in data["episodes"] if e["model"] == "reference/pushover" and not e["passed"]
    )
    out = invoke("show", failed["id"], "--store", db).stdout
    for part in ("transcript", "ledger", "state diff", "score", "FAILED", "violation"):
        assert part in out
    assert invoke("show", "ep-nothing", "--store", db).exit_code == 2


def test_export_jsonl_writes_one_self_describing_line_per_episode(db: str, cli_run: str, tmp_path):
    out = tmp_path / "run.jsonl"
    assert invoke("export", cli_run, "--jsonl", "-o", str(out), "--store", db).exit_code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == len(DEFAULT_MODELS) * len(MINI_TASKS)
    assert {line["run_id"] for line in lines} == {cli_run}
    assert all(line["result"]["transcript"] and "diff" in line for line in lines)


def test_compare_lists_deltas_and_flipped_tasks(db: str, cli_run: str):
    other = invoke(
        "run", "--set", MINI_SET, "--store", db, "-q", "--json", "-m", "reference/partial"
    )
    run_b = json.loads(other.stdout)["run"]["id"]
    baseline = invoke(
        "run", "--set", MINI_SET, "--store", db, "-q", "--json", "-m", "reference/oracle"
    )
    run_a = json.loads(baseline.stdout)["run"]["id"]
    data = json.loads(invoke("compare", run_a, run_b, "--store", db, "--json").stdout)
    [pair] = data["models"]
    assert (pair["model_a"], pair["model_b"]) == ("reference/oracle", "reference/partial")
    assert pair["regressions"] and not pair["fixes"]
    assert next(d for d in pair["deltas"] if d["metric"] == "pass")["delta"] < 0
    text = invoke("compare", run_a, run_b, "--store", db).stdout
    assert "pass → fail" in text


def test_fail_under_sets_the_exit_status(db: str):
    args = ("run", "--set", MINI_SET, "--store", db, "-q")
    failing = invoke(*args, "--fail-under", "pass=0.8,confident_partial<=0.01")
    assert failing.exit_code == 1
    assert "fail-under: reference/partial: pass is" in failing.stderr
    passing = invoke(*args, "-m", "reference/oracle", "--fail-under", "pass=1,confident_partial<=0")
    assert passing.exit_code == 0, passing.output
    typo = invoke(*args, "--fail-under", "pas=0.8")
    assert typo.exit_code == 2 and "unknown metric 'pas'" in typo.stderr


def test_junit_has_one_test_case_per_task_and_model(db: str, tmp_path: Path):
    path = tmp_path / "junit.xml"
    result = invoke("run", "--set", MINI_SET, "--store", db, "-q", "--junit", str(path))
    assert result.exit_code == 0
    root = ET.parse(path).getroot()
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == list(DEFAULT_MODELS)
    assert all(len(s.findall("testcase")) == len(MINI_TASKS) for s in suites)
    oracle = suites[0]
    assert oracle.get("failures") == "0"
    partial = suites[1]
    assert int(partial.get("failures")) > 0 and partial.find("testcase/failure").text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("-m", "gpt-4o"), "unknown model string 'gpt-4o'"),
        (("-b", "bakery"), "unknown business 'bakery'"),
        (("-m", "openai/gpt-4.1"), "OPENAI_API_KEY"),
        (("--caller", "llm:nobody/x"), "--caller llm:nobody/x"),
    ],
)
def test_user_errors_are_one_clear_line(db: str, args, message, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    result = invoke("run", "--set", MINI_SET, "--store", db, "-q", *args)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_report_without_a_store_says_what_to_do(tmp_path: Path):
    result = invoke("report", "--store", str(tmp_path / "none.db"))
    assert result.exit_code == 2 and "run `opsbench run` first" in result.stderr


def test_runs_lists_the_runs(db: str, cli_run: str):
    assert cli_run in invoke("runs", "--store", db).stdout


def test_compare_measures_deltas_on_the_tasks_both_runs_share(db: str):
    base = ("run", "--set", MINI_SET, "--store", db, "-q", "--json", "-m", "reference/oracle")
    few = json.loads(invoke(*base, "--task", "mini_clinic/angry-*").stdout)["run"]["id"]
    everything = json.loads(invoke(*base).stdout)["run"]["id"]
    data = json.loads(invoke("compare", few, everything, "--store", db, "--json").stdout)
    [pair] = data["models"]
    passing = next(d for d in pair["deltas"] if d["metric"] == "pass")
    assert passing["a"]["n"] == passing["b"]["n"] == 1
    assert any("over the 1 task(s) both runs share" in w for w in data["warnings"])
