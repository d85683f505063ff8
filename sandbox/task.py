"""The task model: what a business is, what a caller wants, and what must (not) change.

These are the records the loader (:mod:`businesses`) produces from YAML and the episode loop and
scorer consume. They are plain frozen dataclasses of JSON-like data, so a task can be hashed,
stored with a result, and handed to a reference assistant as data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sandbox.canonical import content_hash
from sandbox.tables import TableSpec

# The cells of the coverage matrix (DESIGN §6) a task may fill; every business covers each.
COVERAGE_CELLS = (
    "cooperative",
    "confused",
    "changes_mind",
    "angry_simple",
    "calm_irreversible",
    "false_details",
    "exception_request",
    "change_after_confirmation",
    "claimed_promise",
    "multi_step_failure",
    "multi_session",
)

# Adversarial or difficult moves a caller can make; :mod:`callers.tactics` renders each.
TACTICS = (
    "false_account_details",
    "exception_request",
    "change_after_confirmation",
    "claimed_prior_promise",
    "confused",
    "changes_mind",
    "escalating_anger",
)

TEMPERAMENTS = ("calm", "angry", "confused", "indecisive", "pushy", "anxious", "friendly")


@dataclass(frozen=True)
class RuleSpec:
    """A business rule as configured: a rule type from :mod:`sandbox.rules` and its parameters."""

    rule: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Business:
    """A simulated business: policy for the assistant, rules for the scorer, tools and seed data."""

    id: str
    name: str
    type: str
    timezone: str
    greeting: str
    policy: str
    rules: tuple[RuleSpec, ...]
    tools: tuple[str, ...]
    seed: Mapping[str, Mapping[str, dict[str, Any]]]
    extra_tables: Mapping[str, TableSpec] = field(default_factory=dict)
    source: str = ""
    instructions: str = ""
    # Changes allowed in every task of the business (a note on file...), on top of each task's.
    allowed: tuple[Assertion, ...] = ()

    def fingerprint(self) -> dict[str, Any]:
        """Everything that affects scoring, as plain data (for ``task_version``)."""
        return {
            "id": self.id,
            "policy": self.policy,
            "greeting": self.greeting,
            "instructions": self.instructions,
            "rules": [{"rule": r.rule, "params": dict(r.params)} for r in self.rules],
            "tools": list(self.tools),
            "seed": self.seed,
            "extra_tables": {k: [v.prefix, v.schema] for k, v in self.extra_tables.items()},
            "allowed": [
                a.describe() + f" fields={a.fields} count={a.count} who={a.who} when={a.when}"
                for a in self.allowed
            ],
        }


@dataclass(frozen=True)
class Assertion:
    """A claim about diff rows: ``{insert|update|delete: table[/id], where: {...}}``.

    ``count`` is how many rows an outcome assertion must match (``None``: one or more).
    ``fields`` limits which fields an update may change. ``tag`` labels a forbidden match.
    ``who`` and ``when`` are the conditions of a business-wide allowance
    (:mod:`sandbox.allowances`).
    """

    op: str
    table: str
    id: str | None = None
    where: Mapping[str, Any] = field(default_factory=dict)
    count: int | None = 1
    fields: tuple[str, ...] | None = None
    tag: str | None = None
    why: str | None = None
    path: str = ""
    who: str | None = None
    when: str | None = None

    def describe(self) -> str:
        target = f"{self.table}/{self.id}" if self.id else self.table
        where = f" where {dict(self.where)}" if self.where else ""
        return f"{self.op} {target}{where}"


@dataclass(frozen=True)
class Expect:
    """What the scorer checks after the call."""

    outcome: tuple[Assertion, ...] = ()
    allowed: tuple[Assertion, ...] = ()
    forbidden: tuple[Assertion, ...] = ()
    escalate: bool = False
    disclose: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tactic:
    """An adversarial or difficult move the caller makes (see :mod:`callers.tactics`)."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Move:
    """One thing a caller may say, and when (see :mod:`callers.scripted` for the semantics).

    ``say`` is the authored wording (or ``tactic`` names a tactic whose line is said). The
    conditions are on the assistant's last turn: its kinds (``turn``: ``offer``, ``confirm``,
    ``refusal``, ...) and its words (``heard``, a regular expression; ``unless``, one that
    blocks it). ``unless_done`` lists action kinds: once the assistant reported one done, the
    move is not made (a caller does not ask for what was already done). ``times`` bounds how
    often a reaction is made (``None``: as often as its tactic's ``push_back`` says, else once);
    ``hang_up`` ends the call after the move.
    """

    say: str | None = None
    tactic: str | None = None
    turn: tuple[str, ...] = ()
    heard: str | None = None
    unless: str | None = None
    unless_done: tuple[str, ...] = ()
    times: int | None = None
    hang_up: bool = False


@dataclass(frozen=True)
class CallerSpec:
    """Who calls, what they know, want and try. ``knows`` are the only facts it may reveal.

    The scripted caller plays it responsively: ``opening`` first; identity questions answered
    from ``answers`` (or ``knows``); ``moves`` in the caller's own order, each when its
    condition holds; ``reactions`` whenever theirs does (pushing back after a refusal);
    ``corrections`` for a read-back that does not match the goal; ``change`` once, at the first
    confirmation its words match (change-after-confirmation); the call ends when every kind in
    ``done_when`` was reported done, when refused for good, or at the turn limit.
    """

    name: str
    temperament: str
    goal: str
    knows: Mapping[str, Any] = field(default_factory=dict)
    tactics: tuple[Tactic, ...] = ()
    opening: str = ""
    answers: Mapping[str, str] = field(default_factory=dict)
    moves: tuple[Move, ...] = ()
    reactions: tuple[Move, ...] = ()
    corrections: tuple[Move, ...] = ()
    change: Move | None = None
    done_when: tuple[str, ...] = ()


@dataclass(frozen=True)
class Session:
    """One call of a task. Multi-session tasks have several, the clock moved to ``at`` between."""

    at: str
    caller: CallerSpec
    oracle: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class Task:
    """One scenario against one business."""

    id: str
    business: Business
    title: str
    coverage: str
    tags: tuple[str, ...]
    setup: Mapping[str, Any]
    faults: tuple[Mapping[str, Any], ...]
    sessions: tuple[Session, ...]
    expect: Expect
    source: str = ""
    notes: str = ""
    requires_action: bool = True

    @property
    def now(self) -> str:
        return self.sessions[0].at

    @property
    def caller(self) -> CallerSpec:
        return self.sessions[0].caller

    @property
    def multi_session(self) -> bool:
        return len(self.sessions) > 1

    def fingerprint(self) -> dict[str, Any]:
        """Everything about the task that affects scoring, as plain data."""
        return {"id": self.id, "raw": self._raw}

    # The loader attaches the task's raw YAML mapping so the version hash covers every field.
    _raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def _version(self) -> str:
        # Hashing the whole business costs about a millisecond: once per task, not per episode.
        fingerprint = {"business": self.business.fingerprint(), "task": self.fingerprint()}
        return content_hash(fingerprint)[:16]

    def version(self) -> str:
        """Hash of the business and this task: results from different versions never mix."""
        return self._version
