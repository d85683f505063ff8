"""--executor ray on a local Ray instance of two worker processes (one for the whole module).

The same scripted run stores the same bytes as the local executor; ``--rpm`` holds across the
workers, counted at the local provider server; a worker killed mid-run loses only its episodes
in flight, stored as infrastructure errors, and ``--resume`` leaves every episode stored once,
as the local executor stores it; each node's episodes go to the server ``-M node_base_url``
names for it.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters.server import EchoAssistant, LocalServer
from contract.messages import AssistantTurn, TurnRequest
from opsbench import ray_executor
from opsbench.runner import run_evaluation
from opsbench.store import Store
from tests.app.conftest import mini_config
from tests.helpers import assert_rate_held

WORKERS = 2
# Everything an episode's content decides; finished_at, timings and attempts are not content.
CONTENT = (
    "id, model, task_set, task_id, trial, seed, status, task_version, error, score, result, "
    "diff, usage, cost_usd, provenance, retries"
)
KILLER = "python:tests.app.ray_agents:KillsItsWorker"


class Timed:
    """The server's echo, noting when each request arrived (seconds, monotonic)."""

    def __init__(self) -> None:
        self.inner = EchoAssistant()
        self.arrivals: list[float] = []

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        self.arrivals.append(time.monotonic())
        await asyncio.sleep(0)
        return await self.inner.respond(request)


@pytest.fixture(scope="module")
def cluster() -> Iterator[int]:
    """One local Ray instance of two worker processes for every test here."""
    with pytest.MonkeyPatch.context() as patch:
        # Worker processes take the environment Ray starts with.
        patch.setenv("OPENAI_API_KEY", "local-test-key")
        with ray_executor.connected(None, WORKERS) as size:
            yield size


@pytest.fixture(scope="module")
def shared_server() -> Iterator[LocalServer]:
    with LocalServer(Timed()) as server:
        yield server


@pytest.fixture
def server(shared_server: LocalServer) -> LocalServer:
    shared_server.reset(Timed())
    return shared_server


def _rows(path: Path) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute(f"SELECT {CONTENT} FROM episodes ORDER BY id").fetchall()
    finally:
        db.close()


def _statuses(path: Path) -> dict[str, int]:
    db = sqlite3.connect(path)
    try:
        return dict(db.execute("SELECT status, COUNT(*) FROM episodes GROUP BY status"))
    finally:
        db.close()


def test_ray_stores_the_same_bytes_as_the_local_executor(cluster: int, tmp_path: Path):
    # Every reference assistant with scripted callers; a provider model is compared too, after
    # a worker is killed (test_a_killed_worker_...).
    config = mini_config(trials=2)
    paths = {}
    for executor in ("local", "ray"):
        paths[executor] = tmp_path / f"{executor}.db"
        with Store(paths[executor]) as store:
            outcome = run_evaluation(
                config,
                store,
                run_id="same",
                workers=1 if executor == "local" else None,
                executor=executor,
            )
        assert outcome.ran == outcome.planned > 0
    local, ray = _rows(paths["local"]), _rows(paths["ray"])
    assert len(local) == outcome.planned
    assert ray == local


def test_rpm_holds_across_workers_at_the_server(
    cluster: int,
    server: LocalServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
):
    # The limit is per minute; a 10 s "minute" shows it hold in seconds, not minutes.
    window, rpm = 10.0, 3
    monkeypatch.setattr(ray_executor, "LIMIT_WINDOW_S", window)
    # --concurrency 2 over two workers: one episode in flight per shard, two shards at once.
    config = mini_config(
        models=("openai/echo",), base_url=server.openai_base_url, rpm=rpm, concurrency=2
    )
    caplog.set_level(logging.INFO, logger="opsbench")
    started = time.monotonic()
    with Store(tmp_path / "rpm.db") as store:
        outcome = run_evaluation(config, store, executor="ray")
    assert outcome.ran == outcome.planned
    pids = set(re.findall(r"runs on .*, pid (\d+)", caplog.text))
    assert len(pids) == WORKERS, caplog.text  # both workers sent requests
    arrivals = sorted(server.assistant.arrivals)
    assert len(arrivals) > 2 * rpm  # the limit had to bind, twice at least
    # A limiter per process (2 x rpm per window) breaks this at the start of the run.
    assert_rate_held(arrivals, started, rpm, window)


def test_a_killed_worker_loses_only_its_episodes_in_flight_and_resume_finishes(
    cluster: int, tmp_path: Path
):
    marker = tmp_path / "killed"
    config = mini_config(models=(KILLER,), options={"marker": str(marker)}, trials=3)
    path = tmp_path / "k.db"
    with Store(path) as store:
        first = run_evaluation(config, store, run_id="k", executor="ray")
    assert marker.exists()  # a worker process did die mid-run
    # Nothing is lost: every planned episode is stored, those in flight on the dead worker as
    # infrastructure errors naming it; the shard's other episodes ran on another worker.
    assert first.ran == first.planned == len(_rows(path))
    db = sqlite3.connect(path)
    errors = db.execute(
        "SELECT error FROM episodes WHERE status = 'infrastructure_error'"
    ).fetchall()
    db.close()
    assert 1 <= len(errors) <= 2  # at most the shard's two episodes in flight
    assert all("Ray worker running this episode died" in e for (e,) in errors)
    with Store(path) as store:
        again = run_evaluation(config, store, resume="k", executor="ray")
        failed = store.failed_attempts("k")
    assert again.ran == len(errors) and again.skipped == first.planned - len(errors)
    assert len(failed) == len(errors)
    assert _statuses(path) == {"scored": first.planned}
    # Nothing duplicated, nothing different: the store is the local executor's, byte for byte.
    with Store(tmp_path / "local.db") as store:
        run_evaluation(config, store, run_id="k", workers=1)
    assert _rows(path) == _rows(tmp_path / "local.db")


def test_each_node_sends_its_episodes_to_its_own_server(
    cluster: int, server: LocalServer, tmp_path: Path
):
    import ray

    node_ip = ray.util.get_node_ip_address()
    nodes = {node_ip: server.openai_base_url, "*": "http://127.0.0.1:9/v1"}
    config = mini_config(models=("openai/echo",), options={"node_base_url": nodes}, limit=2)
    with Store(tmp_path / "n.db") as store:
        outcome = run_evaluation(config, store, executor="ray")
        episodes = store.episodes(outcome.run_id)
    assert outcome.statuses == {"scored": 2}
    assert server.requests  # this node's server answered them
    assert {e.provenance["base_url"] for e in episodes} == {server.openai_base_url}


def test_a_refused_key_stops_its_model_on_every_shard_and_the_rest_stays_planned(
    cluster: int, server: LocalServer, tmp_path: Path
):
    from adapters.server import Fault

    server.inject(Fault.http(401, times=100))
    # Three shards of four (one episode in flight each); two run at once.
    config = mini_config(
        models=("openai/echo",), base_url=server.openai_base_url, trials=2, concurrency=2
    )
    with Store(tmp_path / "h.db") as store:
        outcome = run_evaluation(config, store, executor="ray")
        stored = store.episodes(outcome.run_id)
    assert "refused the API key" in outcome.halted["openai/echo"]
    # Each shard stops at its first failure: no more than one episode per shard is paid for,
    # and every other planned episode is left for --resume, none lost.
    assert 1 <= len(stored) <= 3
    assert {e.status for e in stored} == {"infrastructure_error"}
    assert len(stored) + outcome.left["openai/echo"] == outcome.planned


def test_an_agent_bug_on_a_worker_stops_the_run_like_the_local_executor(
    cluster: int, tmp_path: Path
):
    from opsbench.errors import AgentCrashError

    config = mini_config(models=("python:tests.app.ray_agents:Buggy",), trials=2)
    with Store(tmp_path / "c.db") as store, pytest.raises(AgentCrashError) as raised:
        run_evaluation(config, store, run_id="c", executor="ray")
    message = str(raised.value)
    assert "python:tests.app.ray_agents:Buggy raised RuntimeError: agent bug" in message
    assert "trial 1" in message and "--resume c" in message
    with Store(tmp_path / "c.db") as store:
        stored = store.episodes("c")
    # What finished before the bug is stored and scored; no episode of the buggy trial is.
    assert stored and {e.trial for e in stored} == {0}
    assert {e.status for e in stored} == {"scored"}
