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
import secrets
import socket
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from adapters.errors import AdapterError, ProviderError
from adapters.protocol import AssistantFactory, EpisodeContext
from adapters.reference import FLAWS, reference_factory
from adapters.types import Usage
from businesses import PUBLIC_DIR, LoadError, initial_tables, load_set
from callers.fidelity import check_fidelity
from opsbench import __version__
from opsbench.errors import OpsbenchError, ResumeRefusedError, SelectionError
from opsbench.judge import JudgeError, judge_episode
from opsbench.ratelimit import RateLimiter, rate_limited
from opsbench.store import NewEpisode, RunRecord, RunTask, Status, Store
from sandbox.canonical import content_hash
from sandbox.diff import diff
from sandbox.episode import CallerFactory, EpisodeResult, Limits, run_episode
from sandbox.scorer import score_episode
from sandbox.task import Task

log = logging.getLogger("opsbench.runner")
DEFAULT_MODELS: tuple[str, ...] = tuple(f"reference/{flaw}" for flaw in FLAWS)
# Option names whose values are never written to the store, a report or a log.
_SECRET_WORDS = ("key", "token", "secret", "password", "authorization")
REDACTED = "<redacted>"


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

    def __post_init__(self) -> None:
        if self.trials < 1:
            raise SelectionError(f"--trials must be at least 1, got {self.trials}")
        if self.concurrency < 1:
            raise SelectionError(f"--concurrency must be at least 1, got {self.concurrency}")
        if not self.models:
            raise SelectionError("no model given: pass --model, e.g. --model reference/oracle")

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
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunConfig:
        values = dict(data)
        for name in ("models", "sets", "businesses", "tasks", "tags"):
            values[name] = tuple(values.get(name, ()))
        # A redacted option cannot be replayed; the adapter falls back to its environment.
        values["options"] = {k: v for k, v in values.get("options", {}).items() if v != REDACTED}
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in values.items() if k in known})


def _set_for_storage(text: str) -> str:
    task_set = parse_task_set(text)
    return "public" if task_set.label == "public" else f"{task_set.label}={task_set.path}"


def redact_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with the values of secret-looking names (``api_key``, ``token``) replaced."""
    return {
        k: REDACTED if any(w in k.lower() for w in _SECRET_WORDS) else v for k, v in options.items()
    }


def redact_url(url: str | None) -> str | None:
    """``url`` without a password or query string (either may carry a credential)."""
    if not url:
        return url
    parts = urlsplit(url)
    netloc = parts.hostname or ""
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


# -- resolving what the command line names ---------------------------------------------------


def resolve_assistant(
    model: str, options: Mapping[str, Any] | None = None, base_url: str | None = None
) -> AssistantFactory:
    """The factory behind a model string.

    ``reference/<flaw>`` is resolved here (reference assistants take no options: any given are
    meant for the other models of the run). Every other string goes to the provider adapters'
    registry, ``adapters.registry.make_factory``.
    """
    if model.startswith("reference/"):
        flaw = model.removeprefix("reference/")
        if flaw not in FLAWS:
            raise SelectionError(
                f"unknown reference assistant {model!r}: expected reference/<flaw> with flaw one "
                f"of {', '.join(FLAWS)}"
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


def select_tasks(config: RunConfig) -> list[tuple[str, Task]]:
    """The (set label, task) pairs a run covers, in a stable order."""
    selected: list[tuple[str, Task]] = []
    for text in config.sets:
        task_set = parse_task_set(text)
        try:
            businesses, tasks = load_set(task_set.path)
        except LoadError as exc:
            raise SelectionError(
                f"task set {task_set.label} ({task_set.path}) does not load: "
                + "; ".join(exc.problems[:5])
                + (f" (and {len(exc.problems) - 5} more)" if len(exc.problems) > 5 else "")
            ) from None
        known = [b.id for b in businesses]
        unknown = [b for b in config.businesses if b not in known]
        if unknown and len(config.sets) == 1:
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


@dataclass(frozen=True)
class Prepared:
    """A run ready to execute: resolved factories, selected tasks, the keys still to do."""

    run: RunRecord
    config: RunConfig
    tasks: list[tuple[str, Task]]
    assistants: dict[str, AssistantFactory]
    caller: CallerFactory
    judge: AssistantFactory | None


def _resolve(
    config: RunConfig,
) -> tuple[dict[str, AssistantFactory], CallerFactory, dict[str, Any], AssistantFactory | None]:
    check_reachable(config.base_url)
    assistants = {}
    for model in dict.fromkeys(config.models):
        assistants[model] = resolve_assistant(model, config.options, config.base_url)
    caller, identity = resolve_caller(config.caller, config.base_url)
    judge = resolve_assistant(config.judge, {}, config.base_url) if config.judge else None
    return assistants, caller, identity, judge


def prepare_run(config: RunConfig, store: Store, *, run_id: str | None = None) -> Prepared:
    """Check everything the config names, then record a new run in the store."""
    assistants, caller, identity, judge = _resolve(config)
    tasks = select_tasks(config)
    run = RunRecord(
        id=run_id or new_run_id(),
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        opsbench_version=__version__,
        git_commit=git_commit(),
        seed=config.seed,
        caller=config.caller,
        judge=config.judge,
        task_set_hash=task_set_hash(tasks),
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
    store.create_run(run)
    return Prepared(run, config, tasks, assistants, caller, judge)


def prepare_resume(store: Store, run_id: str, **overrides: Any) -> Prepared:
    """Reload a run's config and tasks; refuse if any task changed since the run started.

    ``overrides`` may change how the run executes (``concurrency``, ``rpm``, ``tpm``), never what
    it measures.
    """
    run = store.run(run_id)
    allowed = {"concurrency", "rpm", "tpm", "options", "base_url"}
    if set(overrides) - allowed:
        raise SelectionError(
            f"--resume cannot change {', '.join(sorted(set(overrides) - allowed))}; start a new run"
        )
    config = replace(RunConfig.from_dict(run.config), **overrides)
    assistants, caller, _, judge = _resolve(config)
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
    problems, selected = [], []
    for stored in run.tasks:
        task = loaded.get((stored.task_set, stored.task_id))
        if task is None:
            problems.append(f"{stored.task_id} is gone")
        elif task.version() != stored.task_version:
            problems.append(
                f"{stored.task_id} changed (version {stored.task_version} -> {task.version()})"
            )
        else:
            selected.append((stored.task_set, task))
    if problems:
        raise ResumeRefusedError(
            f"cannot resume {run.id}: {len(problems)} task(s) changed since it started, and "
            f"results from different task versions must not mix: {'; '.join(problems[:5])}"
            + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
            + ". Start a new run instead."
        )
    return Prepared(run, config, selected, assistants, caller, judge)


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

    Only a *simulated* (LLM) caller is checked: a scripted caller says what the task's author
    wrote, which task validation already vouches for, and a scripted line that no longer fits
    an unusual assistant is the author's choice, not the simulator inventing a fact.
    """
    if result.infrastructure_error:
        return "infrastructure_error", result.error
    problems = check_fidelity(task, result) if simulated else []
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


async def run_one(prepared: Prepared, key: EpisodeKey, assistant: AssistantFactory) -> NewEpisode:
    """Run, judge and score one episode; never touches the store."""
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
    )
    status, error = _status(task, result, simulated=config.caller != "scripted")
    judge_usage: Usage | None = None
    checker = None
    timings = dict(result.timings)
    if prepared.judge is not None and status != "infrastructure_error":
        tick = time.perf_counter()
        context = EpisodeContext(task.id, task.business.id, seed, key.trial)
        try:
            checker, judge_usage = await judge_episode(prepared.judge, result, context)
        except (ProviderError, JudgeError) as exc:
            status, error = "infrastructure_error", f"judge: {type(exc).__name__}: {exc}"
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
    )


async def execute(prepared: Prepared, store: Store, observer: Observer | None = None) -> RunOutcome:
    """Run every episode the store does not already hold (as scored or caller error)."""
    observer = observer or Observer()
    config = prepared.config
    done = store.done_keys(prepared.run.id)
    keys = plan(prepared)
    todo: dict[str, list[EpisodeKey]] = {m: [] for m in prepared.assistants}
    skipped: dict[str, int] = dict.fromkeys(prepared.assistants, 0)
    for key in keys:
        if key.store_key in done:
            skipped[key.model] += 1
        else:
            todo[key.model].append(key)
    observer.started(prepared.run.id, {m: len(v) for m, v in todo.items()}, skipped)
    log.info(
        "run %s: %d episodes to run, %d already done; config %s",
        prepared.run.id,
        sum(len(v) for v in todo.values()),
        sum(skipped.values()),
        json.dumps(prepared.run.config, sort_keys=True),
    )
    statuses: dict[str, int] = {}

    async def worker(model: str, queue: list[EpisodeKey], assistant: AssistantFactory) -> None:
        while queue:
            key = queue.pop(0)
            episode = await run_one(prepared, key, assistant)
            episode_ref = store.record_episode(prepared.run.id, episode)
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
            statuses[episode.status] = statuses.get(episode.status, 0) + 1
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

    workers = []
    for model, factory in prepared.assistants.items():
        limited = rate_limited(factory, RateLimiter(config.rpm, config.tpm))
        queue = todo[model]
        workers.extend(
            worker(model, queue, limited) for _ in range(min(config.concurrency, len(queue)))
        )
    await asyncio.gather(*workers)
    ran = sum(statuses.values())
    log.info("run %s: ran %d episodes: %s", prepared.run.id, ran, statuses)
    return RunOutcome(prepared.run.id, len(keys), ran, sum(skipped.values()), statuses)


def run_evaluation(
    config: RunConfig,
    store: Store,
    observer: Observer | None = None,
    *,
    resume: str | None = None,
    run_id: str | None = None,
    **overrides: Any,
) -> RunOutcome:
    """Start a new run of ``config`` (or resume run ``resume``) and execute it to the end."""
    if resume is not None:
        prepared = prepare_resume(store, resume, **overrides)
    else:
        prepared = prepare_run(config, store, run_id=run_id)
    return asyncio.run(execute(prepared, store, observer))


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
    "prepare_resume",
    "prepare_run",
    "redact_options",
    "redact_url",
    "resolve_assistant",
    "resolve_caller",
    "run_evaluation",
    "select_tasks",
]
