"""--resume finishes a run as it was started: it refuses anything that would change what the run
measures (measurement flags, model options other than timeout/max_attempts, another server, another
simulated caller), keeps the run's execution settings unless new ones are given, and never
creates a store."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from businesses import load_set
from opsbench.cli import app
from opsbench.errors import ResumeRefusedError
from opsbench.runner import RunConfig, prepare_resume, run_evaluation
from opsbench.store import Store
from tests.app.agents import FAIL_ENV
from tests.app.conftest import MINI_SET, mini_config
from tests.helpers import MINI

server_module = pytest.importorskip("adapters.server", reason="the local provider server")
MINI_TASKS = sorted(load_set(MINI)[1], key=lambda t: t.id)
TUNABLE = "testagent/Tunable"
FLAKY = "testagent/FlakyOracle"


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})


@pytest.fixture(scope="module")
def server() -> Iterator[object]:
    with server_module.LocalServer(server_module.EchoAssistant()) as running:
        yield running


def _cli_run(db: str, *args: str, env: dict[str, str] | None = None) -> str:
    # --allow-errors: some of these runs leave infrastructure errors for --resume on purpose.
    result = invoke(
        "run", "--set", MINI_SET, "--store", db, "-q", "--json", "--allow-errors", *args, env=env
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["run"]["id"]


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--trials", "3"], "--trials"),
        (["--judge", "python:tests.app.agents:SilentJudge"], "--judge"),
        (["-m", "reference/idle"], "--model"),
        (["--set", MINI_SET], "--set"),
        (["--business", "mini_clinic"], "--business"),
        (["--task", "*"], "--task"),
        (["--tags", "x"], "--tags"),
        (["--limit", "1"], "--limit"),
        (["--caller", "scripted"], "--caller"),
        (["--seed", "0"], "--seed"),
        (["--trials", "1", "--seed", "7"], "--trials, --seed"),
    ],
)
def test_resume_refuses_measurement_flags_in_one_line(tmp_path: Path, flags: list, named: str):
    db = str(tmp_path / "o.db")
    run_id = _cli_run(db, "-m", "reference/oracle", "--limit", "1")
    result = invoke("run", "--resume", run_id, "--store", db, "-q", *flags)
    assert result.exit_code == 2, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: --resume {run_id} finishes the run as it was started; {named}")
    assert "start a new run" in line


def test_resume_refuses_model_options_other_than_timeout_and_max_attempts(store: Store):
    config = mini_config(models=(TUNABLE,), options={"temperature": 0}, limit=1)
    run_id = run_evaluation(config, store).run_id
    with pytest.raises(ResumeRefusedError, match=r"temperature: 0 -> 0\.5.*only max_attempts and"):
        prepare_resume(store, run_id, options={"temperature": 0.5})
    with pytest.raises(ResumeRefusedError, match="headers: not set -> "):
        prepare_resume(store, run_id, options={"headers": {"X-Tenant": "b"}})
    # The same values again, or a new timeout, change nothing that is measured.
    resumed = prepare_resume(store, run_id, options={"temperature": 0, "timeout": 30})
    assert dict(resumed.config.options) == {"temperature": 0, "timeout": 30}


def test_resume_accepts_a_redacted_secret_given_again_and_refuses_another(store: Store):
    secret = {"headers": {"Authorization": "Bearer sk-first-123456"}}
    config = mini_config(models=(TUNABLE,), options=secret, limit=1)
    run_id = run_evaluation(config, store).run_id
    again = prepare_resume(store, run_id, options=secret)
    assert dict(again.config.options) == secret
    with pytest.raises(ResumeRefusedError, match="different model options"):
        prepare_resume(store, run_id, options={"headers": {"X-Other": "1"}})


def test_resume_refuses_a_different_base_url_and_accepts_the_same_one(server, store: Store):
    url = server.openai_base_url.replace("http://", "http://user:pw@") + "?key=sk-abcdefgh"
    config = mini_config(models=(TUNABLE,), base_url=url, limit=1)
    run_id = run_evaluation(config, store).run_id
    with pytest.raises(ResumeRefusedError) as info:
        prepare_resume(store, run_id, base_url="http://127.0.0.1:9/v1")
    assert "against --base-url http://127.0.0.1:9/v1: it ran against http://127.0.0." in str(
        info.value
    )
    assert "pw" not in str(info.value) and "sk-abcdefgh" not in str(info.value)
    # The same server, credentials and all: compared redacted, used as given.
    assert prepare_resume(store, run_id, base_url=url).config.base_url == url


def test_resume_refuses_when_the_simulated_caller_changed(store: Store):
    config = mini_config(
        models=("reference/oracle",), caller="llm:python:tests.app.agents:HangUp", limit=1
    )
    run_id = run_evaluation(config, store).run_id
    assert prepare_resume(store, run_id).run.id == run_id  # unchanged: fine
    # The caller's prompt templates were edited between the crash and the resume.
    db = sqlite3.connect(store.path)
    stored = json.loads(db.execute("SELECT config FROM runs WHERE id = ?", (run_id,)).fetchone()[0])
    current = stored["caller_identity"]["prompt_version"]
    stored["caller_identity"]["prompt_version"] = "OLD-PROMPT"
    db.execute("UPDATE runs SET config = ? WHERE id = ?", (json.dumps(stored), run_id))
    db.commit()
    db.close()
    with pytest.raises(ResumeRefusedError) as info:
        prepare_resume(store, run_id)
    message = str(info.value)
    assert f'prompt_version: "OLD-PROMPT" -> "{current}"' in message
    assert "simulated caller changed" in message and "\n" not in message


def test_resume_keeps_the_runs_concurrency_and_rate_limits_unless_given(
    tmp_path: Path, monkeypatch
):
    db = str(tmp_path / "o.db")
    monkeypatch.setenv(FAIL_ENV, MINI_TASKS[0].id)
    args = ["-m", FLAKY, "--concurrency", "2", "--rpm", "6000", "--tpm", "900000"]
    run_id = _cli_run(db, *args)
    monkeypatch.delenv(FAIL_ENV)
    log = tmp_path / "logs" / f"{run_id}.log"

    assert invoke("run", "--resume", run_id, "--store", db, "-q").exit_code == 0
    last = [line for line in log.read_text().splitlines() if "episodes to run" in line][-1]
    assert "1 episodes to run" in last and "concurrency 2, rpm 6000, tpm 900000" in last

    monkeypatch.setenv(FAIL_ENV, MINI_TASKS[1].id)
    run_id = _cli_run(db, *args)
    monkeypatch.delenv(FAIL_ENV)
    log = tmp_path / "logs" / f"{run_id}.log"
    resumed = invoke("run", "--resume", run_id, "--store", db, "-q", "--rpm", "120")
    assert resumed.exit_code == 0, resumed.output
    last = [line for line in log.read_text().splitlines() if "episodes to run" in line][-1]
    assert "concurrency 2, rpm 120, tpm 900000" in last


def test_resume_with_a_mistyped_store_creates_no_database(tmp_path: Path):
    typo = tmp_path / "opsbench-results" / "opsbnech.db"
    result = invoke("run", "--resume", "R1", "--store", str(typo), "-q")
    assert result.exit_code == 2
    assert (
        result.stderr.strip() == f"error: no results store at {typo}: run `opsbench run` "
        "first, or pass --store"
    )
    assert not typo.exists() and not typo.parent.exists()


def test_a_resume_with_nothing_changed_still_runs(store: Store, monkeypatch):
    monkeypatch.setenv(FAIL_ENV, MINI_TASKS[0].id)
    run_id = run_evaluation(mini_config(models=(FLAKY,)), store).run_id
    monkeypatch.delenv(FAIL_ENV)
    assert run_evaluation(RunConfig(), store, resume=run_id).statuses == {"scored": 1}
