"""Runs against the local provider server: injected faults become infrastructure errors that are
reported apart and re-run by --resume (the planted-key tests are in test_redaction.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from businesses import load_set
from opsbench.cli import app
from tests.app.conftest import MINI_SET
from tests.helpers import MINI

server_module = pytest.importorskip("adapters.server", reason="the local provider server (issue 4)")
MINI_TASKS = load_set(MINI)[1]


@pytest.fixture(scope="module")
def server() -> Iterator[object]:
    with server_module.LocalServer(server_module.EchoAssistant()) as running:
        yield running


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})


def test_injected_faults_are_infrastructure_errors_then_resume_completes(server, tmp_path: Path):
    server.reset()
    Fault = server_module.Fault
    # Two 500s that outlast all six attempts each (an outage, not a reason to stop).
    server.inject(Fault.http(500, retry_after=0, times=12))
    db = str(tmp_path / "o.db")
    args = ["run", "-m", "openai/local-test", "--set", MINI_SET, "--store", db, "-q"]
    first = invoke(*args, "--concurrency", "1", "--base-url", server.openai_base_url, "--json")
    # A run with infrastructure errors is unfinished: it fails unless --allow-errors.
    assert first.exit_code == 1, first.output
    assert "2 infrastructure errors" in first.stderr and "--allow-errors" in first.stderr
    report = json.loads(first.stdout)
    metrics = report["models"][0]["metrics"]
    assert metrics["infrastructure_errors"] == 2
    assert metrics["scored"] == len(MINI_TASKS) - 2
    assert metrics["rates"]["pass"]["n"] == len(MINI_TASKS) - 2  # errors are not in the rates
    assert metrics["usage"]["assistant"]["cost_usd"] is None  # no price for a local model
    errors = [e for e in report["episodes"] if e["status"] == "infrastructure_error"]
    assert all("ProviderError" in e["error"] for e in errors)
    text = invoke("report", "--store", db).stdout
    assert "2 infrastructure errors" in text and "--resume" in text

    resumed = invoke("run", "--resume", report["run"]["id"], "--store", db, "-q", "--json")
    assert resumed.exit_code == 0, resumed.output
    metrics = json.loads(resumed.stdout)["models"][0]["metrics"]
    assert (metrics["scored"], metrics["infrastructure_errors"]) == (len(MINI_TASKS), 0)


def test_a_refused_key_stops_that_model_instead_of_failing_every_episode(server, tmp_path: Path):
    server.reset()
    server.inject(server_module.Fault.http(401, times=1))
    db = str(tmp_path / "k.db")
    args = ["run", "-m", "openai/local-test", "--set", MINI_SET, "--store", db, "-q"]
    first = invoke(*args, "--concurrency", "1", "--base-url", server.openai_base_url, "--json")
    assert first.exit_code == 1
    assert "openai/local-test stopped" in first.stderr and "--resume" in first.stderr
    report = json.loads(first.stdout)
    metrics = report["models"][0]["metrics"]
    assert metrics["infrastructure_errors"] == 1 and metrics["scored"] == 0

    resumed = invoke("run", "--resume", report["run"]["id"], "--store", db, "-q", "--json")
    assert resumed.exit_code == 0, resumed.output
    metrics = json.loads(resumed.stdout)["models"][0]["metrics"]
    assert (metrics["scored"], metrics["infrastructure_errors"]) == (len(MINI_TASKS), 0)
