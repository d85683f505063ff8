"""The batch runner with real reference assistants, real tasks and a real store."""

from __future__ import annotations

import importlib.util
import shutil
import sqlite3
from pathlib import Path

import pytest

from businesses import load_set
from opsbench.errors import ResumeRefusedError, SelectionError
from opsbench.report import build_report
from opsbench.runner import (
    DEFAULT_MODELS,
    REDACTED,
    RunConfig,
    episode_seed,
    redact_options,
    redact_url,
    run_evaluation,
)
from opsbench.store import Store
from tests.app.agents import FAIL_ENV
from tests.app.conftest import MINI_SET, mini_config
from tests.helpers import MINI

needs_registry = pytest.mark.skipif(
    importlib.util.find_spec("adapters.registry") is None,
    reason="python: model strings need adapters.registry (issue 4)",
)
MINI_TASKS = load_set(MINI)[1]
CANONICAL = "model, task_set, task_id, trial, seed, status, score, result, diff, usage"


def _rows(path: Path, run_id: str) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute(
            f"SELECT {CANONICAL} FROM episodes WHERE run_id = ? "
            "ORDER BY model, task_set, task_id, trial",
            (run_id,),
        ).fetchall()
    finally:
        db.close()


def test_a_run_stores_one_scored_episode_per_model_task_and_trial(store: Store, mini_run: str):
    episodes = store.episodes(mini_run)
    assert len(episodes) == len(DEFAULT_MODELS) * len(MINI_TASKS) * 2
    assert {e.status for e in episodes} == {"scored"}
    assert len({e.key for e in episodes}) == len(episodes)
    run = store.run(mini_run)
    assert run.caller == "scripted" and run.seed == 0 and run.opsbench_version
    assert {t.task_id: t.task_version for t in run.tasks} == {t.id: t.version() for t in MINI_TASKS}
    assert run.config["caller_identity"]["kind"] == "scripted"


def test_the_same_seed_gives_the_same_bytes(store: Store):
    first = run_evaluation(mini_config(trials=2), store).run_id
    second = run_evaluation(mini_config(trials=2), store).run_id
    a, b = _rows(store.path, first), _rows(store.path, second)
    assert a == b and len(a) > 0


def test_trials_other_than_the_first_get_their_own_seed():
    assert episode_seed(7, 0) == 7
    assert len({episode_seed(7, t) for t in range(5)}) == 5


def test_the_reference_scorecard_shows_each_flaw(store: Store, mini_run: str):
    report = build_report(store, mini_run)
    rates = {m.model: m.metrics.rates for m in report.models}
    assert rates["reference/oracle"]["pass"].value == 1.0
    assert rates["reference/partial"]["confident_partial"].value > 0
    assert rates["reference/honest-partial"]["confident_partial"].value == 0
    assert rates["reference/pushover"]["accommodation"].value > 0
    assert rates["reference/reckless"]["unrecoverable"].value > 0
    assert rates["reference/sentiment"]["escalation_precision"].value == 0


def test_resume_runs_only_the_missing_episodes(store: Store, mini_run: str):
    db = sqlite3.connect(store.path)
    db.execute("DELETE FROM episodes WHERE run_id = ? AND model = 'reference/idle'", (mini_run,))
    db.commit()
    db.close()
    outcome = run_evaluation(RunConfig(), store, resume=mini_run)
    assert outcome.ran == len(MINI_TASKS) * 2
    assert outcome.skipped == (len(DEFAULT_MODELS) - 1) * len(MINI_TASKS) * 2
    assert len(store.episodes(mini_run)) == len(DEFAULT_MODELS) * len(MINI_TASKS) * 2
    assert run_evaluation(RunConfig(), store, resume=mini_run).ran == 0


def test_resume_refuses_a_run_whose_tasks_changed(store: Store, tmp_path: Path):
    copy = tmp_path / "set"
    shutil.copytree(MINI, copy)
    run_id = run_evaluation(
        RunConfig(models=("reference/oracle",), sets=(str(copy),)), store
    ).run_id
    tasks_file = next(copy.glob("*/tasks.yaml"))
    text = tasks_file.read_text()
    tasks_file.write_text(text.replace("title: ", "title: Changed - ", 1))
    with pytest.raises(ResumeRefusedError, match=r"changed \(version .* -> .*\).*new run"):
        run_evaluation(RunConfig(), store, resume=run_id)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (dict(models=("reference/nope",)), "unknown reference assistant 'reference/nope'"),
        (dict(models=("gpt4",)), "unknown model string 'gpt4'"),
        (dict(businesses=("pizzeria",)), "unknown business 'pizzeria'.*known: mini_clinic"),
        (dict(tasks=("nothing/*",)), "no task matches --task nothing/"),
        (dict(caller="robot"), "unknown caller 'robot'"),
        (dict(base_url="http://127.0.0.1:9/v1"), "cannot reach --base-url"),
    ],
)
def test_what_a_user_gets_wrong_fails_before_the_run_with_one_line(
    store: Store, config: dict, message: str
):
    with pytest.raises(SelectionError, match=message) as info:
        run_evaluation(mini_config(**config), store)
    assert "\n" not in str(info.value)
    assert store.run_ids() == []


def test_task_globs_tags_and_limit_select_tasks(store: Store):
    first = sorted(t.id for t in MINI_TASKS)[0]
    outcome = run_evaluation(mini_config(models=("reference/oracle",), tasks=(first,)), store)
    assert outcome.planned == 1
    outcome = run_evaluation(mini_config(models=("reference/oracle",), limit=2), store)
    assert outcome.planned == 2
    tag = MINI_TASKS[0].tags[0]
    tagged = [t for t in MINI_TASKS if tag in t.tags]
    outcome = run_evaluation(mini_config(models=("reference/oracle",), tags=(tag,)), store)
    assert outcome.planned == len(tagged)


def test_secrets_in_options_and_urls_are_redacted():
    assert redact_options({"api_key": "sk-1", "temperature": 0}) == {
        "api_key": REDACTED,
        "temperature": 0,
    }
    assert redact_url("https://user:pw@host:8443/v1?key=sk-1") == "https://host:8443/v1"


@needs_registry
def test_infrastructure_errors_are_excluded_then_resumed(store: Store, monkeypatch):
    failing = sorted(t.id for t in MINI_TASKS)[:2]
    monkeypatch.setenv(FAIL_ENV, ",".join(failing))
    config = mini_config(models=("testagent/FlakyOracle",), trials=2)
    outcome = run_evaluation(config, store)
    assert outcome.statuses == {
        "infrastructure_error": 2 * len(failing),
        "scored": 2 * (len(MINI_TASKS) - len(failing)),
    }
    metrics = build_report(store, outcome.run_id).models[0].metrics
    assert metrics.infrastructure_errors == 2 * len(failing)
    assert metrics.rates["pass"].value == 1.0  # errors are not failures
    assert metrics.usage["assistant"].cost_known
    monkeypatch.delenv(FAIL_ENV)
    resumed = run_evaluation(RunConfig(), store, resume=outcome.run_id)
    assert resumed.ran == 2 * len(failing) and resumed.statuses == {"scored": 2 * len(failing)}
    assert {e.status for e in store.episodes(outcome.run_id)} == {"scored"}
    assert len(store.failed_attempts(outcome.run_id)) == 2 * len(failing)


@needs_registry
def test_an_llm_judge_replaces_the_lexicon_checker(store: Store):
    config = mini_config(models=("reference/partial",), judge="python:tests.app.agents:SilentJudge")
    run_id = run_evaluation(config, store).run_id
    episodes = store.episodes(run_id)
    # The judge heard no claim, so nothing can be a confident partial completion.
    assert all(e.score and not e.score["claims"] for e in episodes)
    assert not any(e.score["confident_partial"] for e in episodes)
    assert all(e.usage["judge"]["requests"] > 0 for e in episodes)
    assert all(e.cost_usd is None for e in episodes)  # the judge's price is unknown
    assert store.run(run_id).judge == "python:tests.app.agents:SilentJudge"


@needs_registry
def test_a_judge_answering_in_prose_makes_an_infrastructure_error(store: Store):
    config = mini_config(
        models=("reference/oracle",), judge="python:tests.app.agents:GarbledJudge", limit=1
    )
    [episode] = store.episodes(run_evaluation(config, store).run_id)
    assert episode.status == "infrastructure_error" and "judge" in episode.error


def test_the_public_set_is_the_default_set():
    assert RunConfig().sets == ("public",) and RunConfig().models == DEFAULT_MODELS
    assert MINI_SET.endswith("mini")


def test_the_same_task_set_given_twice_counts_once(store: Store):
    config = mini_config(models=("reference/oracle",), sets=(MINI_SET, MINI_SET, f"heldout={MINI}"))
    outcome = run_evaluation(config, store)
    assert outcome.planned == len(MINI_TASKS)
    assert len(store.episodes(outcome.run_id)) == len(MINI_TASKS)


def test_two_directories_under_one_label_are_refused_before_the_run(store: Store, tmp_path: Path):
    copy = tmp_path / "copy"
    shutil.copytree(MINI, copy)
    with pytest.raises(SelectionError, match="two task sets are labelled 'heldout'") as info:
        run_evaluation(mini_config(sets=(MINI_SET, str(copy))), store)
    assert f"--set a={MINI} --set b={copy}" in str(info.value)
    assert store.run_ids() == []


def test_a_model_named_twice_is_planned_stored_and_reported_once(store: Store):
    config = mini_config(models=("reference/oracle", "reference/oracle"), limit=2)
    assert config.models == ("reference/oracle",)
    outcome = run_evaluation(config, store)
    assert outcome.planned == 2
    report = build_report(store, outcome.run_id)
    assert report.planned == len(report.episodes) == 2


def test_a_scripted_caller_that_misplays_its_part_makes_a_caller_error(
    store: Store, tmp_path: Path
):
    # Fidelity is checked on every episode, scripted callers included: this caller volunteers
    # its date of birth when it was asked for a time.
    copy = tmp_path / "set"
    shutil.copytree(MINI, copy)
    tasks_file = next(copy.glob("*/tasks.yaml"))
    line = "\"Thursday afternoon please, two o'clock if you have it."
    text = tasks_file.read_text()
    assert line in text
    tasks_file.write_text(text.replace(line, '"My birthday is June 12, 1984. ' + line[1:], 1))
    config = RunConfig(
        models=("reference/oracle",), sets=(str(copy),), tasks=("mini_clinic/reschedule-*",)
    )
    outcome = run_evaluation(config, store)
    (episode,) = store.episodes(outcome.run_id)
    assert episode.status == "caller_error"
    assert "had not asked" in (episode.error or "")
