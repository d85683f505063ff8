"""What a run measures: :class:`RunConfig` (stored with the run, secrets redacted) and the
task sets (``--set``) it draws from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters.reference import FLAWS
from businesses import PUBLIC_DIR
from opsbench.errors import (
    SelectionError,
)
from opsbench.run_redaction import contains_redacted, redact_options, redact_url
from sandbox.episode import Limits

# Where a run's episodes execute: this machine (an asyncio loop, or a process pool when
# offline), or the shards of a Ray cluster (``opsbench.ray_executor``, the ``ray`` extra).
EXECUTORS: tuple[str, ...] = ("local", "ray")
DEFAULT_MODELS: tuple[str, ...] = tuple(f"reference/{flaw}" for flaw in FLAWS)
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
            k: v for k, v in values.get("options", {}).items() if not contains_redacted(v)
        }
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in values.items() if k in known})


def _set_for_storage(text: str) -> str:
    task_set = parse_task_set(text)
    return "public" if task_set.label == "public" else f"{task_set.label}={task_set.path}"
