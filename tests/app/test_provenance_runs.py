"""Provenance on every result: the scorer version, the effective base URL and the SDK versions
are stored with each run and episode, shown by report (terminal and HTML), compared by compare,
and a --resume with another scorer or another server is refused in one line."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from businesses import load_set
from opsbench import provenance
from opsbench.cli import app
from opsbench.compare import compare
from opsbench.report import build_report
from opsbench.runner import run_evaluation
from opsbench.store import Store
from tests.app import agents
from tests.app.conftest import MINI_SET, mini_config
from tests.helpers import MINI

server_module = pytest.importorskip("adapters.server", reason="the local provider server")
MINI_TASKS = sorted(load_set(MINI)[1], key=lambda t: t.id)
BUGGY = "testagent/BuggyOracle"
LOCAL = "openai/local-test"
ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})


@pytest.fixture(scope="module")
def server() -> Iterator[object]:
    with server_module.LocalServer(server_module.EchoAssistant()) as running:
        yield running


@pytest.fixture
def scoring_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The scorer version computed from a copy of sandbox/ and tools/ that a test may edit."""
    root = tmp_path / "code"
    for name in provenance.SCORING_PACKAGES:
        shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(provenance, "ROOT", root)
    provenance.scorer_version.cache_clear()
    yield root
    provenance.scorer_version.cache_clear()


@pytest.fixture
def no_base_url_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "OPSBENCH_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def _crashed_run(db: str, *models: str, env: dict[str, str] | None = None) -> str:
    """A run stopped by an agent bug in the second task: the first task's episodes are stored."""
    args = ["run", "--set", MINI_SET, "--store", db, "-q", "--concurrency", "1", "--run-id", "R"]
    for model in models:
        args += ["-m", model]
    result = invoke(*args, env={agents.BUG_ENV: MINI_TASKS[1].id, **(env or {})})
    assert result.exit_code == 1 and "run R stopped" in result.stderr, result.output
    return "R"


def test_crash_then_a_scorer_change_then_resume_is_refused(scoring_copy: Path, tmp_path: Path):
    db = str(tmp_path / "o.db")
    run_id = _crashed_run(db, BUGGY)
    with Store(db) as store:
        recorded = store.run(run_id).scorer_version
        assert recorded == provenance.scorer_version()
        assert [e.scorer_version for e in store.episodes(run_id)] == [recorded]
    # Between the crash and the resume, the scorer changes.
    scorer = scoring_copy / "sandbox" / "scorer.py"
    original = scorer.read_text()
    scorer.write_text(original.replace('"tp"', '"tp" ', 1))
    provenance.scorer_version.cache_clear()
    changed = provenance.scorer_version()
    assert changed != recorded
    refused = invoke("run", "--resume", run_id, "--store", db, "-q")
    assert refused.exit_code == 2, refused.output
    [line] = refused.stderr.splitlines()
    assert line == (
        f"error: cannot resume R: it was scored by scorer version {recorded} and this OpsBench "
        f"scores with {changed} (sandbox/ or tools/ changed); episodes scored by two scorers "
        "must not mix: start a new run instead"
    )
    with Store(db) as store:
        assert len(store.episodes(run_id)) == 1  # nothing ran
    # With the scorer as it was, the resume finishes the run.
    scorer.write_text(original)
    provenance.scorer_version.cache_clear()
    finished = invoke("run", "--resume", run_id, "--store", db, "-q")
    assert finished.exit_code == 0, finished.output


def test_crash_then_another_openai_base_url_then_resume_is_refused(
    server, tmp_path: Path, no_base_url_env
):
    db = str(tmp_path / "o.db")
    env = {"OPENAI_BASE_URL": server.openai_base_url, "OPENAI_API_KEY": "local"}
    run_id = _crashed_run(db, BUGGY, LOCAL, env=env)
    with Store(db) as store:
        run = store.run(run_id)
        # The URL came from the environment, not a flag: recorded all the same.
        assert run.config["base_url"] is None
        assert run.provenance["base_urls"] == {BUGGY: None, LOCAL: server.openai_base_url}
        assert run.provenance["sdks"] == {"openai": metadata.version("openai")}
        episodes = {e.model: e.provenance for e in store.episodes(run_id)}
        assert episodes[LOCAL] == {
            "scorer_version": provenance.scorer_version(),
            "base_url": server.openai_base_url,
            "sdks": {"openai": metadata.version("openai")},
        }
        assert episodes[BUGGY]["base_url"] is None and episodes[BUGGY]["sdks"] == {}
    other = "http://127.0.0.1:9/v1"
    refused = invoke(
        "run", "--resume", run_id, "--store", db, "-q", env={**env, "OPENAI_BASE_URL": other}
    )
    assert refused.exit_code == 2, refused.output
    [line] = refused.stderr.splitlines()
    assert line.startswith(
        f"error: cannot resume R: {LOCAL} ran against {server.openai_base_url} and would now go "
        f"to {other}"
    )
    # Unset, the model would go to OpenAI itself: refused too.
    unset = invoke("run", "--resume", run_id, "--store", db, "-q", env={"OPENAI_API_KEY": "x"})
    assert unset.exit_code == 2 and "would now go to the provider itself" in unset.stderr
    finished = invoke("run", "--resume", run_id, "--store", db, "-q", env=env)
    assert finished.exit_code == 0, finished.output


def test_report_and_the_html_report_show_the_provenance(
    server, tmp_path: Path, no_base_url_env, monkeypatch
):
    monkeypatch.setenv("OPENAI_BASE_URL", server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    db = str(tmp_path / "o.db")
    with Store(db) as store:
        run_id = run_evaluation(mini_config(models=(LOCAL,), limit=1), store).run_id
    text = invoke("report", run_id, "--store", db).stdout
    version = provenance.scorer_version()
    assert f"scorer {version}  base URL {LOCAL} → {server.openai_base_url}" in text
    assert f"SDKs openai {metadata.version('openai')}" in text
    data = json.loads(invoke("report", run_id, "--store", db, "--json").stdout)
    assert data["run"]["scorer_version"] == version
    assert data["episodes"][0]["scorer_version"] == version
    html = tmp_path / "r.html"
    assert invoke("report", run_id, "--store", db, "--html", str(html)).exit_code == 0
    page = html.read_text()
    assert version in page and 'id: "provenance"' in page


def _rescore(db: str, run_id: str, version: str, tasks: set[str] | None = None) -> None:
    """Mark a run (and some of its tasks' episodes) as scored by another scorer version."""
    con = sqlite3.connect(db)
    prov = json.loads(
        con.execute("SELECT provenance FROM runs WHERE id = ?", (run_id,)).fetchone()[0]
    )
    con.execute(
        "UPDATE runs SET provenance = ? WHERE id = ?",
        (json.dumps({**prov, "scorer_version": version}), run_id),
    )
    for ep_id, task_id, raw in con.execute(
        "SELECT id, task_id, provenance FROM episodes WHERE run_id = ?", (run_id,)
    ).fetchall():
        if tasks is None or task_id in tasks:
            value = {**json.loads(raw), "scorer_version": version}
            con.execute(
                "UPDATE episodes SET provenance = ? WHERE id = ?", (json.dumps(value), ep_id)
            )
    con.commit()
    con.close()


def test_compare_warns_and_keeps_deltas_to_episodes_scored_alike(tmp_path: Path):
    db = str(tmp_path / "o.db")
    with Store(db) as store:
        config = mini_config(models=("reference/oracle",))
        a = run_evaluation(config, store).run_id
        b = run_evaluation(config, store).run_id
    same = compare(*(build_report(Store(db), r) for r in (a, b)))
    assert not any("scorer" in w for w in same.warnings)
    [delta] = [d for d in same.models[0].deltas if d.metric == "pass"]
    assert delta.a.n == len(MINI_TASKS)
    # Run B's first two tasks were scored by another scorer (its run says so too).
    _rescore(db, b, "0ther5c0rer00000", {t.id for t in MINI_TASKS[:2]})
    result = compare(*(build_report(Store(db), r) for r in (a, b)))
    warning = next(w for w in result.warnings if "scorer versions" in w)
    assert provenance.scorer_version() in warning and "0ther5c0rer00000" in warning
    assert "2 task(s) scored differently are left out" in warning
    [delta] = [d for d in result.models[0].deltas if d.metric == "pass"]
    assert (delta.a.n, delta.b.n) == (len(MINI_TASKS) - 2, len(MINI_TASKS) - 2)
    shown = invoke("compare", a, b, "--store", db).stdout
    assert "scorer versions" in shown


def test_a_store_from_before_provenance_opens_and_refuses_to_resume(tmp_path: Path):
    db = tmp_path / "old.db"
    with Store(db) as store:
        run_id = run_evaluation(mini_config(models=("reference/oracle",), limit=1), store).run_id
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE runs DROP COLUMN provenance")
    con.execute("ALTER TABLE episodes DROP COLUMN provenance")
    con.commit()
    con.close()
    with Store(db) as store:  # the columns come back, empty
        run = store.run(run_id)
        assert run.provenance == {} and run.scorer_version is None
        assert [e.provenance for e in store.episodes(run_id)] == [None]
    refused = invoke("run", "--resume", run_id, "--store", str(db), "-q")
    assert refused.exit_code == 2
    assert "scored by scorer version unrecorded" in refused.stderr
    assert "scorer version unrecorded" in invoke("report", run_id, "--store", str(db)).stdout
