"""Whole runs against the local provider server when providers misbehave: a trickling server
is cut off by the request deadline and the episode deadline, a failing judge or caller stops
the run before more episodes are paid for, an exhausted quota stops its model only, retries
are recorded per episode, and an OpenAI and an Anthropic model share one server."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from businesses import load_set
from opsbench.cli import app
from opsbench.store import Store
from tests.app.conftest import MINI_SET
from tests.helpers import MINI

server_module = pytest.importorskip("adapters.server")
Fault = server_module.Fault
MINI_TASKS = load_set(MINI)[1]
# One byte every 0.2 s: a reply of a few hundred bytes would take over a minute.
TRICKLE = 0.2


@pytest.fixture(scope="module")
def shared() -> Iterator[object]:
    with server_module.LocalServer(server_module.EchoAssistant()) as running:
        yield running


@pytest.fixture
def server(shared):
    shared.reset(server_module.EchoAssistant())
    return shared


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})


def run(db: Path, *args: str):
    return invoke("run", "--set", MINI_SET, "--store", str(db), "-q", "--json", *args)


def episodes(db: Path) -> list:
    with Store(db, create=False) as store:
        return store.episodes(store.latest_run())


def test_a_trickling_server_is_cut_off_at_the_request_deadline(server, tmp_path: Path):
    server.inject(Fault.trickle(TRICKLE, times=2))
    db = tmp_path / "o.db"
    result = run(
        db,
        *("-m", "openai/local-test", "--base-url", server.openai_base_url, "--limit", "1"),
        *("-M", "timeout=0.5", "-M", "max_attempts=2", "--concurrency", "1"),
    )
    assert result.exit_code == 1, result.output  # an infrastructure error fails the run
    [episode] = episodes(db)
    assert episode.status == "infrastructure_error"
    assert "request deadline of 0.5 s" in episode.error
    assert [(a["attempt"], a["status"]) for a in episode.retries] == [(1, None), (2, None)]
    assert all("request deadline" in a["reason"] for a in episode.retries)


def test_an_episode_past_its_deadline_is_an_infrastructure_error(server, tmp_path: Path):
    # Each request would finish within its own (generous) deadline: only the episode's cuts it.
    server.inject(Fault.trickle(TRICKLE, times=20))
    db = tmp_path / "o.db"
    result = run(
        db,
        *("-m", "openai/local-test", "--base-url", server.openai_base_url, "--limit", "1"),
        *("-M", "timeout=600", "--episode-timeout", "1.5"),
    )
    assert result.exit_code == 1, result.output
    [episode] = episodes(db)
    assert episode.status == "infrastructure_error"
    assert "ran past its deadline of 1.5 s (--episode-timeout)" in episode.error
    assert "allow-errors" in result.stderr


def test_a_failing_judge_stops_every_queue_before_more_episodes_are_paid_for(
    server, tmp_path: Path
):
    server.inject(Fault.http(401, times=100))
    db = tmp_path / "o.db"
    result = run(
        db,
        *("-m", "reference/oracle", "-m", "reference/idle", "--concurrency", "1"),
        *("--judge", "openai/judge-model", "--base-url", server.openai_base_url),
    )
    assert result.exit_code == 1
    stops = [line for line in result.stderr.splitlines() if "stopped" in line]
    assert len(stops) == 1, result.stderr  # one line for both models, one reason
    assert "reference/oracle, reference/idle stopped" in stops[0]
    assert "the judge openai/judge-model" in stops[0] and "refused the API key" in stops[0]
    assert "--resume" in stops[0]
    stored = episodes(db)
    # The judge failed on the first judged episode of each queue at most, not on all of them.
    assert 1 <= len(stored) <= 2 < 2 * len(MINI_TASKS)
    assert {e.status for e in stored} == {"infrastructure_error"}
    assert len(server.requests) == len(stored)


def test_a_failing_llm_caller_stops_the_run(server, tmp_path: Path):
    server.inject(Fault.http(403, times=100))
    db = tmp_path / "o.db"
    result = run(
        db,
        *("-m", "reference/oracle", "--concurrency", "1"),
        *("--caller", "llm:openai/caller-model", "--base-url", server.openai_base_url),
    )
    assert result.exit_code == 1
    assert "the caller openai/caller-model" in result.stderr and "permission" in result.stderr
    assert len(episodes(db)) == 1 and len(server.requests) == 1


def test_an_exhausted_quota_stops_its_model_and_the_other_shares_the_server(server, tmp_path: Path):
    server.inject(Fault.quota_exhausted(times=100, endpoint="openai"))
    db = tmp_path / "o.db"
    result = run(
        db,
        *("-m", "openai/local-test", "-m", "anthropic/local-claude", "--concurrency", "1"),
        *("--base-url", server.url),
    )
    assert result.exit_code == 1
    assert "openai/local-test stopped: the quota or spend limit is exhausted" in result.stderr
    assert "anthropic/local-claude stopped" not in result.stderr
    by_model: dict[str, list[str]] = {}
    for episode in episodes(db):
        by_model.setdefault(episode.model, []).append(episode.status)
    assert by_model["openai/local-test"] == ["infrastructure_error"]
    assert by_model["anthropic/local-claude"] == ["scored"] * len(MINI_TASKS)


@pytest.mark.parametrize("suffix", ["", "/v1"])
def test_an_openai_and_an_anthropic_model_share_one_local_server(server, tmp_path: Path, suffix):
    db = tmp_path / "o.db"
    result = run(
        db,
        *("-m", "openai/local-test", "-m", "anthropic/local-claude"),
        *("-m", "litellm/anthropic/local-claude", "--base-url", server.url + suffix),
    )
    assert result.exit_code == 0, result.output
    assert {e.status for e in episodes(db)} == {"scored"}
    assert len(episodes(db)) == 3 * len(MINI_TASKS)
    assert {r.endpoint for r in server.requests} == {"openai", "anthropic"}
    assert {r.status for r in server.requests} == {200}


def test_retries_are_recorded_in_the_store_the_run_log_and_the_report(server, tmp_path: Path):
    server.inject(Fault.http(429, retry_after=0, times=2), Fault.http(500, retry_after=0))
    db = tmp_path / "o.db"
    result = run(
        db,
        *("-m", "openai/local-test", "--base-url", server.openai_base_url, "--limit", "1"),
    )
    assert result.exit_code == 0, result.output
    [episode] = episodes(db)
    assert episode.status == "scored"
    assert [(a["attempt"], a["status"], a["wait_s"]) for a in episode.retries] == [
        (1, 429, 0.0),
        (2, 429, 0.0),
        (3, 500, 0.0),
    ]
    report = json.loads(result.stdout)
    assert report["retries"]["openai/local-test"] == {
        "failed_requests": 3,
        "episodes": 1,
        "waited_s": 0.0,
        "reasons": {"HTTP 429": 2, "HTTP 500": 1},
    }
    log = next((tmp_path / "logs").glob("*.log")).read_text()
    assert "3 failed requests (HTTP 429 x2, HTTP 500 x1), waited 0.0 s" in log
    assert log.count("3 failed requests") == 2  # the episode's line and the run's summary
    text = invoke("report", "--store", str(db)).stdout
    assert "retries: openai/local-test: 3 failed requests" in text


def test_a_store_from_before_retries_were_recorded_opens_and_reads_them_as_none(tmp_path: Path):
    db = tmp_path / "old.db"
    assert run(db, "-m", "reference/oracle", "--limit", "1").exit_code == 0
    connection = sqlite3.connect(db)
    connection.execute("ALTER TABLE episodes DROP COLUMN retries")  # as an older OpsBench made it
    connection.close()
    assert run(db, "-m", "reference/oracle", "--limit", "1").exit_code == 0
    with Store(db, create=False) as store:
        old, new = (store.episodes(run_id) for run_id in store.run_ids())
    assert [e.retries for e in old] == [[]] and [e.retries for e in new] == [[]]
