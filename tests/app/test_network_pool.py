"""--workers N on a network run: N processes, each its own event loop and share of the
connections and rate limits, the parent the one store writer.

Against the local OpenAI-compatible server: two processes store what one stores, in plan
order; an agent bug in one process stops both and ``--resume`` finishes the run; a SIGKILL
mid-run loses no committed episode and ``--resume`` completes it; ``--rpm`` holds across the
processes, counted at the server.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters.server import EchoAssistant, LocalServer
from businesses import load_set
from contract.messages import AssistantTurn, TurnRequest
from opsbench import network_pool
from opsbench.errors import AgentCrashError, StoreError
from opsbench.network_pool import assign, network_pool_size, share
from opsbench.run_plan import EpisodeKey
from opsbench.runner import RunConfig, run_evaluation
from opsbench.store import Store
from tests.app import agents
from tests.app.conftest import MINI_SET, mini_config
from tests.helpers import MINI, FullDiskStore, assert_rate_held

LOCAL = "openai/local-test"
BUGGY = "testagent/BuggyOracle"
ROOT = Path(__file__).resolve().parents[2]
MINI_TASKS = sorted(load_set(MINI)[1], key=lambda t: t.id)
# Everything an episode's content decides; finished_at, timings and attempts are not content.
CONTENT = (
    "id, model, task_set, task_id, trial, seed, status, task_version, error, score, result, "
    "diff, usage, cost_usd, provenance, retries"
)


class Timed:
    """The server's echo, noting when each request arrived (seconds, monotonic)."""

    def __init__(self, delay_s: float = 0.0) -> None:
        self.inner = EchoAssistant()
        self.delay_s = delay_s
        self.arrivals: list[float] = []

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        self.arrivals.append(time.monotonic())
        await asyncio.sleep(self.delay_s)
        return await self.inner.respond(request)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalServer]:
    """A fresh server per test: its prompt cache (cached_tokens) starts empty every time."""
    monkeypatch.setenv("OPENAI_API_KEY", "local-test-key")
    with LocalServer(Timed()) as running:
        yield running


def _content(path: Path) -> list[tuple]:
    """:func:`_rows` without ``cached_tokens``: the server's prompt cache counts a shared
    prefix as cached for whichever episode's request arrives second, which timing decides
    even in one process at ``--concurrency`` above 1."""
    out = []
    for row in _rows(path):
        result, usage = json.loads(row[10]), json.loads(row[12])
        result["usage"].pop("cached_tokens", None)
        for part in usage.values():
            if part:
                part.pop("cached_tokens", None)
        out.append((*row[:10], result, row[11], usage, *row[13:]))
    return out


def _rows(path: Path, order: str = "id") -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute(f"SELECT {CONTENT} FROM episodes ORDER BY {order}").fetchall()
    finally:
        db.close()


@pytest.mark.parametrize(
    ("workers", "concurrency", "rpm", "tpm", "expected"),
    [
        (2, 4, None, None, 2),
        (4, 3, None, None, 3),  # never more processes than connections
        (8, 16, 5, None, 5),  # nor than requests a minute: each keeps at least one
        (8, 16, None, 2, 2),
        (1, 16, None, None, 1),
    ],
)
def test_pool_size_leaves_every_process_a_share(workers, concurrency, rpm, tpm, expected):
    config = RunConfig(concurrency=concurrency, rpm=rpm, tpm=tpm)
    assert network_pool_size(config, workers) == expected


@pytest.mark.parametrize(("total", "parts"), [(4, 2), (5, 2), (7, 3), (3, 3), (128, 5)])
def test_shares_add_up_to_the_whole_and_differ_by_one_at_most(total: int, parts: int):
    shares = [share(total, parts, i) for i in range(parts)]
    assert sum(shares) == total
    assert max(shares) - min(shares) <= 1 and min(shares) >= 1


def test_episodes_are_dealt_in_proportion_to_connections():
    keys = [
        EpisodeKey(model, "public", task, trial)
        for model in ("a", "b")
        for task in MINI_TASKS
        for trial in range(3)
    ]
    shares = assign(keys, concurrency=3, workers=2)
    # Connections 0 and 2 are process 0's, connection 1 process 1's: two episodes in three.
    assert [len(s) for s in shares] == [len(keys) * 2 // 3, len(keys) // 3]
    assert sorted(shares[0] + shares[1]) == list(range(len(keys)))
    assert all(s == sorted(s) for s in shares)


def test_two_processes_store_what_one_stores_in_plan_order(server: LocalServer, tmp_path: Path):
    config = mini_config(
        models=(LOCAL, "reference/oracle"),
        base_url=server.openai_base_url,
        trials=2,
        concurrency=3,
    )
    paths = {}
    for workers in (1, 2):
        server.reset(Timed())  # each run starts with the server's prompt cache empty
        paths[workers] = tmp_path / f"{workers}.db"
        with Store(paths[workers]) as store:
            outcome = run_evaluation(config, store, run_id="same", workers=workers)
        assert outcome.ran == outcome.planned == 2 * len(MINI_TASKS) * 2
        assert outcome.statuses == {"scored": outcome.planned}
    assert _content(paths[2]) == _content(paths[1])
    # The writer takes results in plan order (models outermost, then tasks, then trials),
    # whatever order the processes finish them in.
    stored = [(r[1], r[3], r[4]) for r in _rows(paths[2], order="rowid")]
    planned = [(m, t.id, k) for m in config.models for t in MINI_TASKS for k in range(2)]
    assert stored == planned


def test_a_bug_in_one_process_stops_both_and_resume_finishes(
    server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # The test agent takes no --base-url: the served model finds the server in its variable.
    monkeypatch.setenv("OPENAI_BASE_URL", server.openai_base_url)
    config = mini_config(models=(LOCAL, BUGGY), concurrency=2)
    path = tmp_path / "bug.db"
    monkeypatch.setenv(agents.BUG_ENV, MINI_TASKS[1].id)
    with Store(path) as store, pytest.raises(AgentCrashError) as raised:
        run_evaluation(config, store, run_id="bug", workers=2)
    assert (raised.value.model, raised.value.task_id) == (BUGGY, MINI_TASKS[1].id)
    assert "KeyError" in str(raised.value) and "--resume bug" in str(raised.value)
    stored = _rows(path)
    assert stored and all(r[6] == "scored" for r in stored)
    assert (BUGGY, MINI_TASKS[1].id) not in {(r[1], r[3]) for r in stored}
    monkeypatch.delenv(agents.BUG_ENV)
    with Store(path) as store:
        again = run_evaluation(config, store, resume="bug", workers=2)
    assert again.skipped == len(stored) and again.ran == again.planned - len(stored)
    assert {r[6] for r in _rows(path)} == {"scored"}
    assert len(_rows(path)) == again.planned


def _stored_ids(path: Path) -> set[str]:
    if not path.exists():
        return set()
    db = sqlite3.connect(path)
    try:
        return {row[0] for row in db.execute("SELECT id FROM episodes")}
    except sqlite3.OperationalError:  # the schema is not committed yet
        return set()
    finally:
        db.close()


def test_sigkill_mid_run_loses_no_stored_episode_and_resume_completes(
    server: LocalServer, tmp_path: Path
):
    server.reset(Timed(delay_s=0.05))  # slow enough that the kill lands mid-run
    path, trials = tmp_path / "kill.db", 8
    base = [sys.executable, "-m", "opsbench", "run", "--store", str(path), "-q"]
    base += ["--workers", "2", "--concurrency", "4"]
    first = [*base, "--set", MINI_SET, "-m", LOCAL, "--base-url", server.openai_base_url]
    first += ["--trials", str(trials), "--run-id", "kill"]
    env = {**os.environ, "OPENAI_API_KEY": "local-test-key"}
    process = subprocess.Popen(
        first, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    while process.poll() is None and len(_stored_ids(path)) < 6:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    kept = _stored_ids(path)
    planned = len(MINI_TASKS) * trials
    assert 6 <= len(kept) < planned, "the kill did not land mid-run"
    done = subprocess.run(
        [*base, "--resume", "kill"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert kept <= _stored_ids(path), "an episode committed before the kill was lost"
    db = sqlite3.connect(path)
    rows = db.execute("SELECT task_id, trial, status FROM episodes").fetchall()
    db.close()
    assert sorted((t, k) for t, k, _ in rows) == sorted(
        (t.id, k) for t in MINI_TASKS for k in range(trials)
    ), "an episode is missing or stored twice"
    assert {s for *_, s in rows} == {"scored"}


def test_rpm_holds_across_the_processes_at_the_server(
    server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # The limit is per minute; a 2 s "minute" shows it hold in seconds. The processes fork
    # after this, so they take the short window too.
    window, rpm = 2.0, 3
    monkeypatch.setattr(network_pool, "LIMIT_WINDOW_S", window)
    timed = Timed()
    server.reset(timed)
    config = mini_config(models=(LOCAL,), base_url=server.openai_base_url, rpm=rpm, concurrency=4)
    started = time.monotonic()
    with Store(tmp_path / "rpm.db") as store:
        outcome = run_evaluation(config, store, workers=2)
    assert outcome.ran == outcome.planned and outcome.statuses == {"scored": outcome.planned}
    arrivals = sorted(timed.arrivals)
    assert len(arrivals) > 2 * rpm  # the limit had to bind, twice at least
    # A limiter per process (2 x rpm per window) breaks this at the start of the run.
    assert_rate_held(arrivals, started, rpm, window)


def test_a_store_error_stops_every_process_in_one_line(server: LocalServer, tmp_path: Path):
    store = FullDiskStore(tmp_path / "full.db", good=3)
    config = mini_config(models=(LOCAL,), base_url=server.openai_base_url, trials=4)
    with pytest.raises(StoreError) as info:
        run_evaluation(config, store, workers=2)
    [run_id] = store.run_ids()
    stored = len(store.episodes(run_id))
    store.close()
    message = str(info.value)
    assert message.startswith(f"run {run_id} stopped: could not store the episode of ")
    assert f"{stored} episodes finished and are stored" in message and "\n" not in message
    assert stored <= 3
    with Store(tmp_path / "full.db") as again:
        outcome = run_evaluation(config, again, resume=run_id, workers=2)
    assert outcome.skipped == stored and outcome.ran == outcome.planned - stored
