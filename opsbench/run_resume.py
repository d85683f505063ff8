"""Resuming a run: its recorded config and tasks reloaded, and anything that would change what
it measures (tasks, scorer, server, caller, measured model options) refused."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from businesses import LoadError, load_set
from opsbench.errors import (
    ResumeRefusedError,
)
from opsbench.records import RunRecord
from opsbench.run_config import RunConfig, parse_task_set
from opsbench.run_plan import Prepared
from opsbench.run_prepare import provenance_of
from opsbench.run_redaction import redact_options, redact_url
from opsbench.run_resolve import resolve_models
from opsbench.store import Store
from sandbox.canonical import canonical_json
from sandbox.task import Task


def _check_provenance(run: RunRecord, config: RunConfig) -> None:
    """Refuse to resume with another scorer, or against another server than the run's."""
    current = provenance_of(config)
    before = run.scorer_version
    if before != current["scorer_version"]:
        raise ResumeRefusedError(
            f"cannot resume {run.id}: it was scored by scorer version {before or 'unrecorded'} "
            f"and this OpsBench scores with {current['scorer_version']} (sandbox/ or tools/ "
            "changed); episodes scored by two scorers must not mix: start a new run instead"
        )
    recorded = run.provenance.get("base_urls", {})
    for model, url in current["base_urls"].items():
        if model in recorded and recorded[model] != url:
            raise ResumeRefusedError(
                f"cannot resume {run.id}: {model} ran against "
                f"{recorded[model] or 'the provider itself'} and would now go to "
                f"{url or 'the provider itself'} (--base-url or its *_BASE_URL variable); "
                "results from different servers must not mix: start a new run instead"
            )


def prepare_resume(store: Store, run_id: str, **overrides: Any) -> Prepared:
    """Reload a run's config and tasks; refuse anything that would change what it measures.

    ``overrides`` may change how the run executes (``concurrency``, ``rpm``, ``tpm``,
    ``episode_timeout``, the ``timeout`` and ``max_attempts`` model options), never what it
    measures: other model
    options must repeat the run's values (a secret is compared redacted, so it may be given
    again), ``base_url`` must be the run's (compared redacted), and the tasks and the
    simulated caller must be as they were when the run started.
    """
    run = store.run(run_id)
    allowed = {"concurrency", "rpm", "tpm", "options", "base_url", "episode_timeout"}
    if set(overrides) - allowed:
        raise ResumeRefusedError(
            f"--resume cannot change {', '.join(sorted(set(overrides) - allowed))}; start a new run"
        )
    stored = RunConfig.from_dict(run.config)
    options = _resume_options(run, dict(overrides.pop("options", None) or {}), stored.options)
    base_url = overrides.pop("base_url", None)
    if base_url and redact_url(base_url) != run.config.get("base_url"):
        raise ResumeRefusedError(
            f"cannot resume {run.id} against --base-url {redact_url(base_url)}: it ran against "
            f"{run.config.get('base_url') or 'the providers themselves (no --base-url)'}, and "
            "results from different servers must not mix; start a new run instead"
        )
    config = replace(stored, options=options, base_url=base_url or stored.base_url, **overrides)
    _check_provenance(run, config)
    return prepare_recorded(run, config)


def prepare_recorded(run: RunRecord, config: RunConfig) -> Prepared:
    """``run`` ready to execute under ``config``: its recorded tasks, reloaded and checked to be
    the versions it started with, and its models, caller and judge resolved.

    :func:`prepare_resume` ends here; so does each worker of the Ray executor, which must run
    exactly the run's tasks with exactly its simulated caller.
    """
    loaded: dict[tuple[str, str], Task] = {}
    for text in config.sets:
        task_set = parse_task_set(text)
        try:
            _, tasks = load_set(task_set.path)
        except LoadError as exc:
            raise ResumeRefusedError(
                f"cannot resume {run.id}: task set {task_set.label} no longer loads: "
                + "; ".join(exc.problems[:3])
            ) from None
        loaded.update({(task_set.label, t.id): t for t in tasks})
    problems: list[str] = []
    selected: list[tuple[str, Task]] = []
    for recorded in run.tasks:
        task = loaded.get((recorded.task_set, recorded.task_id))
        if task is None:
            problems.append(f"{recorded.task_id} is gone")
        elif task.version() != recorded.task_version:
            problems.append(
                f"{recorded.task_id} changed (version {recorded.task_version} -> {task.version()})"
            )
        else:
            selected.append((recorded.task_set, task))
    if problems:
        raise ResumeRefusedError(
            f"cannot resume {run.id}: {len(problems)} task(s) changed since it started, and "
            f"results from different task versions must not mix: {'; '.join(problems[:5])}"
            + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
            + ". Start a new run instead."
        )
    assistants, caller, identity, judge = resolve_models(config, selected)
    _check_caller_identity(run, identity)
    return Prepared(run, config, selected, assistants, caller, judge)


# Model options that change how a provider is called, not what is measured: --resume may change
# them (e.g. a longer timeout for a slow provider).
RESUMABLE_OPTIONS = frozenset(("timeout", "max_attempts"))


def _resume_options(
    run: RunRecord, given: dict[str, Any], replayable: Mapping[str, Any]
) -> dict[str, Any]:
    """The run's options with the ``-M`` values given on resume; refuses measured changes."""
    recorded = run.config.get("options", {})
    changed = []
    for name, value in given.items():
        if name in RESUMABLE_OPTIONS:
            continue
        shown = redact_options({name: value})[name]
        if name not in recorded or shown != recorded[name]:
            before = json.dumps(recorded[name]) if name in recorded else "not set"
            changed.append(f"{name}: {before} -> {json.dumps(shown)}")
    if changed:
        raise ResumeRefusedError(
            f"cannot resume {run.id} with different model options ({'; '.join(changed)}): "
            f"only {' and '.join(sorted(RESUMABLE_OPTIONS))} may change on --resume, the others "
            "change what is measured; start a new run instead"
        )
    return {**replayable, **given}


def _check_caller_identity(run: RunRecord, identity: Mapping[str, Any]) -> None:
    """Refuse to resume when the simulated caller is not the one the run started with."""
    recorded = run.config.get("caller_identity")
    if recorded is None:  # a run stored before caller identities were recorded
        return
    current = json.loads(canonical_json(dict(identity)))
    if current == recorded:
        return
    changed = [
        f"{name}: {json.dumps(recorded.get(name))} -> {json.dumps(current.get(name))}"
        for name in sorted(set(recorded) | set(current))
        if recorded.get(name) != current.get(name)
    ]
    raise ResumeRefusedError(
        f"cannot resume {run.id}: the simulated caller changed since it started "
        f"({'; '.join(changed)}), and results from different callers must not mix; start a "
        "new run instead"
    )
