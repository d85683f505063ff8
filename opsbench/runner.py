"""The batch runner: models × tasks × trials, concurrently, each episode stored as it finishes.

    config  ──select_tasks──▶  tasks  ──plan──▶  episode keys  ──execute──▶  store
                                                      ▲
                           --resume: keys the store lacks, or holds as infrastructure errors

Every model has its own pool of ``concurrency`` workers and its own client-side rate limiter.
An episode is run, (judged,) scored and written to the store in one transaction before the
worker takes the next one, so killing the process loses only the episodes in flight.

Everything a user can get wrong (an unknown model, business, task, an unreachable base URL) is
checked before the run is created, so a typo never leaves an empty run behind.
"""

from __future__ import annotations

import asyncio
import fnmatch
import importlib.util
import json
import logging
import re
import secrets
import socket
import sqlite3
import subprocess
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from adapters.errors import AdapterError, ProviderError
from adapters.reference import FLAWS, ROUTES, reference_factory
from adapters.registry import AnyFactory
from adapters.retry import recording_retries
from businesses import PUBLIC_DIR, LoadError, initial_tables, load_set
from callers.fidelity import check_fidelity
from contract.assistant import AssistantFactory, EpisodeContext
from contract.messages import Usage
from contract.redact import MASK, redact
from opsbench import __version__
from opsbench.arms import resolve_arms, run_models, split_model
from opsbench.errors import (
    AgentCrashError,
    OpsbenchError,
    ResumeRefusedError,
    SelectionError,
    StoreError,
)
from opsbench.judge import JudgeError, judge_episode
from opsbench.nodes import NODE_BASE_URL, without_node_option
from opsbench.provenance import episode_provenance, run_provenance
from opsbench.ratelimit import Limiter, RateLimiter, rate_limited
from opsbench.store import NewEpisode, RunRecord, RunTask, Status, Store
from opsbench.watch import (
    ModelFailure,
    noting_failures,
    retry_summary,
    stop_line,
    watched_models,
)
from sandbox.briefing import BriefedFactory
from sandbox.canonical import canonical_json, content_hash
from sandbox.diff import diff
from sandbox.episode import CallerFactory, EpisodeResult, Limits, run_episode
from sandbox.scorer import score_episode
from sandbox.task import Task

log = logging.getLogger("opsbench.runner")
# Where a run's episodes execute: this machine (an asyncio loop, or a process pool when
# offline), or the shards of a Ray cluster (``opsbench.ray_executor``, the ``ray`` extra).
EXECUTORS: tuple[str, ...] = ("local", "ray")
DEFAULT_MODELS: tuple[str, ...] = tuple(f"reference/{flaw}" for flaw in FLAWS)
# Words of option names whose values are never written to the store, a report or a log.
_SECRET_WORDS = frozenset(
    ("key", "token", "secret", "password", "passwd", "authorization", "auth", "cookie")
)
_SECRET_JOINED = frozenset(("apikey", "accesstoken", "authtoken", "secretkey", "xapikey"))
# Secret-shaped values under innocent names: bearer tokens and provider keys.
_SECRET_SHAPES = re.compile(r"(?i:bearer)\s+\S+|\bsk-[A-Za-z0-9_-]{6,}")
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://\S+$")
# One mask for everything redacted (contract.redact); runs stored before used the legacy one.
REDACTED = MASK
_LEGACY_MASK = "<redacted>"
# Thirty turns of a slow reasoning model fit; a stuck stream or proxy does not hang a run.
DEFAULT_EPISODE_TIMEOUT = 1800.0


@dataclass(frozen=True)
class TaskSet:
    """A directory of businesses and the label results from it carry (``public``, ``heldout``)."""

    label: str
    path: Path


def parse_task_set(text: str) -> TaskSet:
    """``public``, ``DIR`` (labelled ``heldout``) or ``LABEL=DIR``."""
    if text == "public":
        return TaskSet("public", PUBLIC_DIR)
    label, sep, path = text.partition("=")
    if not sep:
        label, path = "heldout", text
    resolved = Path(path).expanduser().resolve()
    if resolved == PUBLIC_DIR.resolve():
        label = "public"
    return TaskSet(label, resolved)


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides what a run measures. Stored with the run (secrets redacted)."""

    models: tuple[str, ...] = DEFAULT_MODELS
    sets: tuple[str, ...] = ("public",)
    businesses: tuple[str, ...] = ()
    tasks: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    limit: int | None = None
    trials: int = 1
    caller: str = "scripted"
    judge: str | None = None
    seed: int = 0
    concurrency: int = 4
    rpm: int | None = None
    tpm: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    base_url: str | None = None
    max_turns: int = Limits.max_turns
    max_tool_rounds: int = Limits.max_tool_rounds
    # Seconds one episode (every session, then its judging) may take in all; None: no limit.
    episode_timeout: float | None = DEFAULT_EPISODE_TIMEOUT
    # Arms (``--mitigation``): ``none`` or comma-joined mitigation names; () is one arm, none.
    mitigations: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.episode_timeout is not None and not self.episode_timeout > 0:
            raise SelectionError(
                f"--episode-timeout must be more than 0 seconds, got {self.episode_timeout:g}"
            )
        if self.trials < 1:
            raise SelectionError(f"--trials must be at least 1, got {self.trials}")
        if self.concurrency < 1:
            raise SelectionError(f"--concurrency must be at least 1, got {self.concurrency}")
        for name in ("limit", "rpm", "tpm"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise SelectionError(f"--{name} must be at least 1, got {value}")
        if not self.models:
            raise SelectionError("no model given: pass --model, e.g. --model reference/oracle")
        # A model named twice is one model: planning, storing and reporting all count it once.
        object.__setattr__(self, "models", tuple(dict.fromkeys(self.models)))

    @property
    def limits(self) -> Limits:
        return Limits(self.max_turns, self.max_tool_rounds)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the store, with secret-looking options and URL passwords redacted."""
        return {
            "models": list(self.models),
            "sets": [_set_for_storage(s) for s in self.sets],
            "businesses": list(self.businesses),
            "tasks": list(self.tasks),
            "tags": list(self.tags),
            "limit": self.limit,
            "trials": self.trials,
            "caller": self.caller,
            "judge": self.judge,
            "seed": self.seed,
            "concurrency": self.concurrency,
            "rpm": self.rpm,
            "tpm": self.tpm,
            "options": redact_options(self.options),
            "base_url": redact_url(self.base_url),
            "max_turns": self.max_turns,
            "max_tool_rounds": self.max_tool_rounds,
            "episode_timeout": self.episode_timeout,
            "mitigations": list(self.mitigations),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunConfig:
        values = dict(data)
        for name in ("models", "sets", "businesses", "tasks", "tags", "mitigations"):
            values[name] = tuple(values.get(name, ()))
        # A redacted option (or one holding a redacted secret) cannot be replayed; the adapter
        # falls back to its environment unless the user gives it again.
        values["options"] = {
            k: v for k, v in values.get("options", {}).items() if not _contains_redacted(v)
        }
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in values.items() if k in known})


def _set_for_storage(text: str) -> str:
    task_set = parse_task_set(text)
    return "public" if task_set.label == "public" else f"{task_set.label}={task_set.path}"


def redact_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with secrets replaced by :data:`REDACTED`, at any depth.

    A value is redacted whole when its name (a dict key, at any level) looks secret
    (``api_key``, ``Authorization``, ``access_token``); inside other strings, bearer tokens and
    ``sk-`` keys are replaced, and URL-looking strings lose their password and query.
    """
    return {k: _redact_value(k, v) for k, v in options.items()}


def is_secret_name(name: str) -> bool:
    """``api_key``, ``x-api-key``, ``Authorization``, ``access_token``; not ``max_tokens``."""
    lowered = str(name).lower()
    words = set(re.split(r"[^a-z0-9]+", lowered))
    return bool(words & _SECRET_WORDS) or lowered.replace("-", "").replace("_", "") in (
        _SECRET_JOINED
    )


def redact_text(text: str) -> str:
    """``text`` through :func:`contract.redact.redact`, any bearer token gone too; a URL loses
    its password and query."""
    if _URL.match(text.strip()):
        text = redact_url(text.strip()) or text
    return _SECRET_SHAPES.sub(REDACTED, redact(text))


def _redact_value(name: Any, value: Any) -> Any:
    if name is not None and is_secret_name(name):
        return REDACTED
    if isinstance(value, Mapping):
        return {k: _redact_value(k, v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact_value(None, v) for v in value]
    if isinstance(value, str):
        return redact_text(value)
    return value


def _contains_redacted(value: Any) -> bool:
    if isinstance(value, Mapping):
        return any(_contains_redacted(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_contains_redacted(v) for v in value)
    return isinstance(value, str) and (REDACTED in value or _LEGACY_MASK in value)


def redact_url(url: str | None) -> str | None:
    """``url`` without a password or query string (either may carry a credential)."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
        netloc = parts.hostname or ""
        if parts.port:
            netloc += f":{parts.port}"
    except ValueError:  # not a URL after all (a bad port, brackets): show none of it
        return REDACTED
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


# -- resolving what the command line names ---------------------------------------------------


def resolve_assistant(
    model: str, options: Mapping[str, Any] | None = None, base_url: str | None = None
) -> AnyFactory:
    """The factory behind a model string.

    ``reference/<flaw>`` is resolved here (reference assistants take no options: any given are
    meant for the other models of the run). Every other string goes to the provider adapters'
    registry, ``adapters.registry.make_factory``.
    """
    if model.startswith("reference/"):
        flaw = model.removeprefix("reference/")
        if flaw not in (*FLAWS, *ROUTES):
            raise SelectionError(
                f"unknown reference assistant {model!r}: expected reference/<flaw> with flaw one "
                f"of {', '.join((*FLAWS, *ROUTES))}"
            )
        return reference_factory(flaw)
    if "/" not in model and not model.startswith("python:"):
        raise SelectionError(
            f"unknown model string {model!r}: expected provider/model (openai/gpt-4.1, "
            "anthropic/claude-sonnet-4-5, litellm/<model>), reference/<flaw>, or "
            "python:package.module:factory"
        )
    if importlib.util.find_spec("adapters.registry") is None:
        raise SelectionError(
            f"model {model!r} needs the provider adapters (adapters.registry), which this "
            "installation lacks; reference/<flaw> assistants work offline"
        )
    from adapters.registry import make_factory

    try:
        return make_factory(model, dict(options or {}), base_url)
    except AdapterError as exc:
        raise SelectionError(str(exc)) from None


def resolve_caller(
    caller: str, base_url: str | None = None
) -> tuple[CallerFactory, dict[str, Any]]:
    """The caller factory behind ``scripted`` or ``llm:<model>``, and its identity to record."""
    from callers.choice import choose_caller

    try:
        choice = choose_caller(caller, None, base_url)
    except (ValueError, AdapterError) as exc:
        raise SelectionError(f"--caller {caller}: {exc}") from None
    return choice.factory, dict(choice.identity)


def check_reachable(base_url: str | None, timeout_s: float = 3.0) -> None:
    """Fail early, in one line, when ``--base-url`` points at nothing."""
    if not base_url:
        return
    parts = urlsplit(base_url)
    if not parts.hostname:
        raise SelectionError(f"--base-url {base_url!r} is not a URL like http://127.0.0.1:8000/v1")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=timeout_s):
            pass
    except OSError as exc:
        raise SelectionError(
            f"cannot reach --base-url {redact_url(base_url)}: {exc.strerror or exc}; is the "
            "server running? (`opsbench serve` starts a local one)"
        ) from None


def task_sets(texts: Sequence[str]) -> list[TaskSet]:
    """The distinct task sets of ``--set`` values; one label must name one directory.

    The same set given twice counts once. Two different directories under one label would
    mix their results (and collide in the store), so that is refused.
    """
    by_label: dict[str, TaskSet] = {}
    for text in texts:
        task_set = parse_task_set(text)
        seen = by_label.setdefault(task_set.label, task_set)
        if seen.path != task_set.path:
            raise SelectionError(
                f"two task sets are labelled {task_set.label!r} ({seen.path} and "
                f"{task_set.path}): give each its own label, e.g. --set a={seen.path} "
                f"--set b={task_set.path}"
            )
    return list(by_label.values())


def select_tasks(config: RunConfig) -> list[tuple[str, Task]]:
    """The (set label, task) pairs a run covers, in a stable order."""
    selected: list[tuple[str, Task]] = []
    sets = task_sets(config.sets)
    for task_set in sets:
        # Every file is checked before the first episode; a broken set is refused with the
        # lines `businesses validate` prints, each naming its file and path.
        try:
            businesses, tasks = load_set(task_set.path)
        except LoadError as exc:
            raise LoadError(
                [f"task set {task_set.label}: {line}" for line in exc.problems]
            ) from None
        from opsbench.validation import static_problems

        broken = [
            f"task set {task_set.label}: {t.id}: {p}" for t in tasks for p in static_problems(t)
        ]
        if broken:
            raise LoadError(broken)
        known = [b.id for b in businesses]
        unknown = [b for b in config.businesses if b not in known]
        if unknown and len(sets) == 1:
            raise SelectionError(
                f"unknown business {', '.join(map(repr, unknown))} in {task_set.label}; "
                f"known: {', '.join(known)}"
            )
        for task in tasks:
            if config.businesses and task.business.id not in config.businesses:
                continue
            if config.tasks and not any(fnmatch.fnmatchcase(task.id, g) for g in config.tasks):
                continue
            if config.tags and not set(config.tags) & set(task.tags):
                continue
            selected.append((task_set.label, task))
    if not selected:
        wanted = ", ".join(
            f"{name} {' '.join(values)}"
            for name, values in (
                ("--business", config.businesses),
                ("--task", config.tasks),
                ("--tags", config.tags),
            )
            if values
        )
        raise SelectionError(
            f"no task matches {wanted or 'the task set'}; list them with "
            "`opsbench businesses list` and `opsbench businesses show B`"
        )
    selected.sort(key=lambda pair: (pair[0], pair[1].id))
    return selected[: config.limit] if config.limit else selected


def episode_seed(seed: int, trial: int) -> int:
    """The seed of one trial: the run seed for trial 0, a derived one for the others."""
    return seed if trial == 0 else int(content_hash([seed, trial])[:8], 16)


def task_set_hash(tasks: Sequence[tuple[str, Task]]) -> str:
    """One hash over every (set, task id, task version) of a run."""
    return content_hash(sorted([label, t.id, t.version()] for label, t in tasks))[:16]


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


# -- executing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class EpisodeKey:
    model: str
    task_set: str
    task: Task
    trial: int

    @property
    def store_key(self) -> tuple[str, str, str, int]:
        return (self.model, self.task_set, self.task.id, self.trial)


@dataclass(frozen=True)
class EpisodeDone:
    """What the progress display hears after each stored episode."""

    model: str
    task_id: str
    status: Status
    passed: bool | None
    tokens: int
    cost_usd: float | None


@dataclass
class Observer:
    """Progress callbacks; the CLI renders them, tests may ignore them."""

    started: Callable[[str, dict[str, int], dict[str, int]], None] = lambda run, todo, done: None
    episode: Callable[[EpisodeDone], None] = lambda done: None


@dataclass(frozen=True)
class RunOutcome:
    """How a run (or a resume) went."""

    run_id: str
    planned: int
    ran: int
    skipped: int
    statuses: dict[str, int]
    # Models stopped by the stop policy (their own, their caller's or their judge's), with why.
    halted: dict[str, str] = field(default_factory=dict)
    # Episodes still planned per model (stopped queues), for the --resume hint.
    left: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Prepared:
    """A run ready to execute: resolved factories, selected tasks, the keys still to do."""

    run: RunRecord
    config: RunConfig
    tasks: list[tuple[str, Task]]
    assistants: dict[str, AnyFactory]
    caller: CallerFactory
    judge: AssistantFactory | None


def _resolve(
    config: RunConfig, tasks: Sequence[tuple[str, Task]]
) -> tuple[dict[str, AnyFactory], CallerFactory, dict[str, Any], AssistantFactory | None]:
    check_reachable(config.base_url)
    # -M node_base_url is the Ray executor's (each node's own server); no adapter takes it.
    options = without_node_option(config.options)
    # Each model under each arm of --mitigation (opsbench.arms), stored as its own model.
    assistants = resolve_arms(
        run_models(config.models, config.mitigations),
        [task for _, task in tasks],
        lambda model: resolve_assistant(model, options, config.base_url),
    )
    caller, identity = resolve_caller(config.caller, config.base_url)
    judge = resolve_assistant(config.judge, {}, config.base_url) if config.judge else None
    if isinstance(judge, BriefedFactory):
        raise SelectionError(f"--judge {config.judge}: a reference assistant cannot judge claims")
    return assistants, caller, identity, judge


def prepare_run(config: RunConfig, store: Store, *, run_id: str | None = None) -> Prepared:
    """Check everything the config names, then record a new run in the store."""
    prepared = check_run(config, run_id=run_id)
    store.create_run(prepared.run)
    return prepared


def check_run(config: RunConfig, *, run_id: str | None = None) -> Prepared:
    """Everything :func:`prepare_run` checks and resolves, without recording the run."""
    tasks = select_tasks(config)
    assistants, caller, identity, judge = _resolve(config, tasks)
    run = RunRecord(
        id=run_id or new_run_id(),
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        opsbench_version=__version__,
        git_commit=git_commit(),
        seed=config.seed,
        caller=config.caller,
        judge=config.judge,
        task_set_hash=task_set_hash(tasks),
        provenance=_provenance(config),
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


def _provenance(config: RunConfig) -> dict[str, Any]:
    return run_provenance(config.models, config.caller, config.judge, config.base_url, redact_url)


def _check_provenance(run: RunRecord, config: RunConfig) -> None:
    """Refuse to resume with another scorer, or against another server than the run's."""
    current = _provenance(config)
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
    assistants, caller, identity, judge = _resolve(config, selected)
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


def plan(prepared: Prepared) -> list[EpisodeKey]:
    """Every (model, task, trial) of the run, models outermost."""
    return [
        EpisodeKey(model, label, task, trial)
        for model in prepared.assistants
        for label, task in prepared.tasks
        for trial in range(prepared.config.trials)
    ]


def _status(task: Task, result: EpisodeResult, simulated: bool) -> tuple[Status, str | None]:
    """The episode's status and, for a caller error, why (DESIGN §6 caller fidelity).

    Every caller is checked, scripted included: a scripted caller that answers an unusual
    assistant out of turn is as much a simulator fault as an LLM inventing a fact.
    ``simulated`` is kept for callers of this function; it no longer changes the check.
    """
    if result.infrastructure_error:
        return "infrastructure_error", result.error
    problems = check_fidelity(task, result)
    if problems:
        return "caller_error", "caller fidelity: " + "; ".join(problems)
    return "scored", result.error


def _usage_cost(usages: Sequence[Usage | None]) -> float | None:
    total = 0.0
    for usage in usages:
        if usage is None:
            continue
        if usage.cost_usd is None:
            return None
        total += usage.cost_usd
    return total


async def run_one(prepared: Prepared, key: EpisodeKey, assistant: AnyFactory) -> NewEpisode:
    """Run, judge and score one episode; never touches the store.

    Every failed provider request made for it (assistant, caller, judge) is recorded in the
    episode's ``retries``; the deadline (``episode_timeout``) covers the conversation and,
    apart, the judging.
    """
    with recording_retries() as retries:
        episode = await _run_one(prepared, key, assistant)
    return replace(episode, retries=retries.to_list())


async def _run_one(prepared: Prepared, key: EpisodeKey, assistant: AnyFactory) -> NewEpisode:
    config, task = prepared.config, key.task
    seed = episode_seed(config.seed, key.trial)
    result = await run_episode(
        task,
        initial_tables(task),
        assistant,
        prepared.caller,
        seed=seed,
        trial=key.trial,
        limits=config.limits,
        deadline_s=config.episode_timeout,
    )
    status, error = _status(task, result, simulated=config.caller != "scripted")
    judge_usage: Usage | None = None
    checker = None
    timings = dict(result.timings)
    if prepared.judge is not None and status != "infrastructure_error":
        tick = time.perf_counter()
        context = EpisodeContext(task.business.id, seed, key.trial)
        try:
            async with asyncio.timeout(config.episode_timeout):
                checker, judge_usage = await judge_episode(prepared.judge, result, context)
        except (ProviderError, JudgeError) as exc:
            status, error = "infrastructure_error", f"judge: {type(exc).__name__}: {exc}"
        except TimeoutError:
            status, error = (
                "infrastructure_error",
                f"judge: did not finish within the deadline of {config.episode_timeout:g} s "
                "(--episode-timeout)",
            )
        timings["judge_s"] = time.perf_counter() - tick
    score = None
    if status != "infrastructure_error":
        tick = time.perf_counter()
        score = score_episode(task, result, checker).to_dict()
        timings["score_s"] = time.perf_counter() - tick
    usage = {
        "assistant": result.usage.to_dict(),
        "caller": result.caller_usage.to_dict(),
        "judge": None if judge_usage is None else judge_usage.to_dict(),
    }
    return NewEpisode(
        model=key.model,
        task_set=key.task_set,
        task_id=task.id,
        trial=key.trial,
        seed=seed,
        status=status,
        task_version=result.task_version,
        error=error,
        score=score,
        result=result.to_dict(),
        diff=[row.to_dict() for row in diff(result.initial, result.final)],
        usage=usage,
        cost_usd=_usage_cost([result.usage, result.caller_usage, judge_usage]),
        timings=timings,
        finished_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        provenance=episode_provenance(prepared.run.provenance, split_model(key.model)[0]),
    )


class EpisodeSink(Protocol):
    """Where :func:`execute` puts finished episodes: the :class:`~opsbench.store.Store`, or a
    Ray shard's stream back to the driver, which alone writes the store."""

    def done_keys(self, run_id: str) -> set[tuple[str, str, str, int]]: ...

    def record_episode(self, run_id: str, episode: NewEpisode) -> str: ...


def _admit_all(key: EpisodeKey) -> AbstractAsyncContextManager[None]:
    return nullcontext()


async def execute(
    prepared: Prepared,
    store: EpisodeSink,
    observer: Observer | None = None,
    *,
    workers: int | None = 1,
    keys: Sequence[EpisodeKey] | None = None,
    limiter: Callable[[str], Limiter] | None = None,
    admit: Callable[[EpisodeKey], AbstractAsyncContextManager[None]] = _admit_all,
) -> RunOutcome:
    """Run every episode the store does not already hold (as scored or caller error).

    ``workers`` processes run an offline run's episodes (None: one per core; see
    :mod:`opsbench.executor`); any other run stays on this event loop.

    A shard of the Ray executor runs this same loop over its own ``keys`` (default: the whole
    plan), with each model's ``limiter`` shared by the cluster (default: one
    :class:`~opsbench.ratelimit.RateLimiter` per model here) and ``admit`` entered around each
    episode (a cluster-wide concurrency slot, and word to the driver that it started).
    """
    observer = observer or Observer()
    from opsbench.executor import execute_pool, pool_size

    size = pool_size(prepared, workers)
    if size > 1 and keys is None and isinstance(store, Store):
        return await execute_pool(prepared, store, observer, size)
    config = prepared.config
    done = store.done_keys(prepared.run.id)
    keys = plan(prepared) if keys is None else list(keys)
    todo: dict[str, list[EpisodeKey]] = {m: [] for m in prepared.assistants}
    skipped: dict[str, int] = dict.fromkeys(prepared.assistants, 0)
    for key in keys:
        if key.store_key in done:
            skipped[key.model] += 1
        else:
            todo[key.model].append(key)
    observer.started(prepared.run.id, {m: len(v) for m, v in todo.items()}, skipped)
    log.info(
        "run %s: %d episodes to run, %d already done; concurrency %d, rpm %s, tpm %s; config %s",
        prepared.run.id,
        sum(len(v) for v in todo.values()),
        sum(skipped.values()),
        config.concurrency,
        config.rpm,
        config.tpm,
        json.dumps(prepared.run.config, sort_keys=True),
    )
    statuses: dict[str, int] = {}
    retried: list[dict[str, Any]] = []  # every failed request of the episodes run
    assistants, caller, judge = watched_models(
        prepared.assistants, prepared.caller, prepared.judge, config.caller, config.judge
    )
    watched = replace(prepared, assistants=assistants, caller=caller, judge=judge)

    # A bug in an agent or in the harness (anything but a provider failure, which run_episode
    # records as an infrastructure error) stops the run: no new episode starts, the ones in
    # flight finish and are stored, then AgentCrashError names the episode that failed.
    crashed: list[tuple[EpisodeKey, Exception]] = []
    # One stop policy for every model the run uses (contract.errors.stop_reason): a refused
    # key or permission, an unknown model or endpoint, an exhausted quota will fail every
    # later request too. The assistant's failing stops its own queue; the caller's or the
    # judge's, every queue (every episode needs them). What is left stays planned, so
    # --resume finishes it once the cause is fixed.
    halted: dict[str, str] = {}

    def halt(models: Sequence[str], failure: ModelFailure, key: EpisodeKey) -> None:
        line = stop_line(failure)
        fresh = [m for m in models if m not in halted]
        for model in fresh:
            halted[model] = line
        if fresh:
            log.error(
                "%s stopped after %s trial %d: %s; fix that, then "
                "`opsbench run --resume %s` runs what is left",
                ", ".join(fresh),
                key.task.id,
                key.trial,
                line,
                prepared.run.id,
            )

    async def worker(model: str, queue: list[EpisodeKey], assistant: AnyFactory) -> None:
        while queue and not crashed and model not in halted:
            key = queue.pop(0)
            failures: list[ModelFailure] = []
            try:
                with noting_failures(failures):
                    async with admit(key):
                        episode = await run_one(watched, key, assistant)
            except Exception as exc:
                log.error(
                    "run %s stopped: %s, %s trial %d raised %s: %s",
                    prepared.run.id,
                    model,
                    key.task.id,
                    key.trial,
                    type(exc).__name__,
                    exc,
                    exc_info=exc,
                )
                crashed.append((key, exc))
                return
            try:
                episode_ref = store.record_episode(prepared.run.id, episode)
            except (StoreError, sqlite3.Error) as exc:
                # The store cannot take it (full disk, lock held too long): stop like a crash,
                # every other worker finishing and storing what it has in flight if it can.
                log.error(
                    "run %s stopped: could not store %s, %s trial %d: %s",
                    prepared.run.id,
                    model,
                    key.task.id,
                    key.trial,
                    exc,
                    exc_info=exc,
                )
                crashed.append((key, exc))
                return
            # Reference assistants never wait on I/O: yield so Ctrl-C and other models get a turn.
            await asyncio.sleep(0)
            if episode.retries:
                log.info(
                    "%s (%s, %s trial %d): %s",
                    episode_ref,
                    model,
                    key.task.id,
                    key.trial,
                    retry_summary(episode.retries),
                )
            if episode.status != "scored":
                log.warning(
                    "%s %s (%s, %s trial %d): %s",
                    episode_ref,
                    episode.status,
                    model,
                    key.task.id,
                    key.trial,
                    episode.error or ", ".join(episode.result.get("caller_flags", [])),
                )
            stopping = next((f for f in reversed(failures) if f.stop_reason), None)
            if episode.status == "infrastructure_error" and stopping is not None:
                everyone = stopping.role != "assistant"
                halt(list(prepared.assistants) if everyone else [model], stopping, key)
            statuses[episode.status] = statuses.get(episode.status, 0) + 1
            retried.extend(episode.retries)
            tokens = sum(
                (u or {}).get("input_tokens", 0) + (u or {}).get("output_tokens", 0)
                for u in episode.usage.values()
            )
            observer.episode(
                EpisodeDone(
                    model,
                    key.task.id,
                    episode.status,
                    None if episode.score is None else bool(episode.score["passed"]),
                    tokens,
                    episode.cost_usd,
                )
            )

    loops: list[Coroutine[Any, Any, None]] = []
    for model, factory in watched.assistants.items():
        shared = limiter(model) if limiter else RateLimiter(config.rpm, config.tpm)
        limited = rate_limited(factory, shared)
        queue = todo[model]
        loops.extend(
            worker(model, queue, limited) for _ in range(min(config.concurrency, len(queue)))
        )
    await asyncio.gather(*loops)
    ran = sum(statuses.values())
    log.info("run %s: ran %d episodes: %s", prepared.run.id, ran, statuses)
    if retried:
        log.info("run %s: %s", prepared.run.id, retry_summary(retried))
    if crashed:
        key, exc = crashed[0]
        if isinstance(exc, StoreError | sqlite3.Error):
            raise StoreError(
                f"run {prepared.run.id} stopped: could not store the episode of {key.model}, "
                f"{key.task.id} trial {key.trial} ({' '.join(str(exc).split())}); {ran} "
                f"episodes finished and are stored, `opsbench run --resume {prepared.run.id}` "
                "continues once the store can be written"
            )
        raise AgentCrashError(prepared.run.id, key.model, key.task.id, key.trial, exc, ran)
    left = {m: len(q) for m, q in todo.items() if q}
    return RunOutcome(
        prepared.run.id, len(keys), ran, sum(skipped.values()), statuses, halted, left
    )


def run_evaluation(
    config: RunConfig,
    store: Store,
    observer: Observer | None = None,
    *,
    resume: str | None = None,
    run_id: str | None = None,
    workers: int | None = None,
    executor: str = "local",
    ray_address: str | None = None,
    **overrides: Any,
) -> RunOutcome:
    """Start a new run of ``config`` (or resume run ``resume``) and execute it to the end.

    ``workers``: processes for an offline run (None: one per core). ``executor="ray"`` runs
    the episodes as shards on a Ray cluster (``ray_address``, else ``RAY_ADDRESS``, else a
    local Ray instance of ``workers`` worker processes); this process still writes the store.
    """
    if workers is not None and workers < 1:
        raise SelectionError(f"--workers must be at least 1, got {workers}")
    if executor not in EXECUTORS:
        raise SelectionError(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    if executor == "ray":
        # Imported only here: the local executor never imports Ray.
        from opsbench.ray_executor import run_on_ray

        return run_on_ray(
            config,
            store,
            observer,
            resume=resume,
            run_id=run_id,
            workers=workers,
            address=ray_address,
            **overrides,
        )
    if ray_address:
        raise SelectionError(
            f"--ray-address {ray_address} joins a Ray cluster, which only --executor ray uses"
        )
    if resume is not None:
        prepared = prepare_resume(store, resume, **overrides)
        _check_local(prepared.config)
    else:
        _check_local(config)
        prepared = prepare_run(config, store, run_id=run_id)
    return asyncio.run(execute(prepared, store, observer, workers=workers))


def _check_local(config: RunConfig) -> None:
    if NODE_BASE_URL in config.options:
        raise SelectionError(
            f"-M {NODE_BASE_URL} gives each Ray node its own server: it needs --executor ray "
            "(on one machine, give --base-url)"
        )


__all__ = [
    "DEFAULT_MODELS",
    "EpisodeDone",
    "Observer",
    "OpsbenchError",
    "RunConfig",
    "RunOutcome",
    "TaskSet",
    "check_reachable",
    "episode_seed",
    "execute",
    "parse_task_set",
    "prepare_recorded",
    "prepare_resume",
    "prepare_run",
    "redact_options",
    "redact_url",
    "resolve_assistant",
    "resolve_caller",
    "run_evaluation",
    "select_tasks",
]
