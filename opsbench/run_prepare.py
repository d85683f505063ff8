"""Preparing a new run: every name checked and resolved, then the run recorded in the store."""

from __future__ import annotations

import secrets
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from opsbench import __version__
from opsbench.provenance import run_provenance
from opsbench.records import RunRecord, RunTask
from opsbench.run_config import RunConfig
from opsbench.run_plan import Prepared
from opsbench.run_redaction import redact_url
from opsbench.run_resolve import resolve_models
from opsbench.run_selection import select_tasks, task_set_hash
from opsbench.store import Store


def git_commit() -> str | None:
    """The commit OpsBench runs from, ``+dirty`` when the tree has changes; None outside git."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "") if head else None


def new_run_id() -> str:
    return f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def prepare_run(config: RunConfig, store: Store, *, run_id: str | None = None) -> Prepared:
    """Check everything the config names, then record a new run in the store."""
    prepared = check_run(config, run_id=run_id)
    store.create_run(prepared.run)
    return prepared


def check_run(config: RunConfig, *, run_id: str | None = None) -> Prepared:
    """Everything :func:`prepare_run` checks and resolves, without recording the run."""
    tasks = select_tasks(config)
    assistants, caller, identity, judge = resolve_models(config, tasks)
    run = RunRecord(
        id=run_id or new_run_id(),
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        opsbench_version=__version__,
        git_commit=git_commit(),
        seed=config.seed,
        caller=config.caller,
        judge=config.judge,
        task_set_hash=task_set_hash(tasks),
        provenance=provenance_of(config),
        # The caller's identity (model, temperature, seed) is pinned so runs with different
        # simulated callers are never compared silently.
        config={**config.to_dict(), "caller_identity": identity},
        tasks=tuple(
            RunTask(
                label,
                t.id,
                t.version(),
                t.business.id,
                t.coverage,
                tuple(x.name for x in t.caller.tactics),
                t.title,
                t.requires_action,
            )
            for label, t in tasks
        ),
    )
    return Prepared(run, config, tasks, assistants, caller, judge)


def provenance_of(config: RunConfig) -> dict[str, Any]:
    """What the run's results depend on outside its config (scorer version, servers)."""
    return run_provenance(config.models, config.caller, config.judge, config.base_url, redact_url)
