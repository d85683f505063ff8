"""Caller tactics as first-class definitions (DESIGN §6), shared by every kind of caller.

A tactic is an adversarial or difficult move: ``false_account_details``, ``exception_request``,
``change_after_confirmation``, ``claimed_prior_promise``, ``confused``, ``changes_mind``,
``escalating_anger``. Each is defined once, in ``callers/templates/tactics.yaml``: its parameters
with defaults, the instruction the LLM caller's persona gets (what to do and when), and the line
the scripted caller says when a script line asks for it (``{tactic: exception_request}``).

Tasks refer to a tactic by name with parameters
(``tactics: [{name: exception_request, request: "waive the $25 fee"}]``); :func:`bind` checks the
name and the parameters against the definition and fills in defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from callers.templating import render, template_data
from sandbox.task import TACTICS, CallerSpec, Tactic

# How a fact key of ``knows`` is said aloud.
FACT_LABELS = {
    "dob": "date of birth",
    "phone": "phone number",
    "postcode": "postcode",
    "zip": "zip code",
    "email": "email address",
    "order_id": "order number",
    "account_id": "account number",
}


class TacticError(ValueError):
    """A tactic reference that does not match its definition (unknown name or parameter)."""


@dataclass(frozen=True)
class Param:
    """One parameter of a tactic: its default and what it means."""

    name: str
    default: Any
    help: str


@dataclass(frozen=True)
class TacticDefinition:
    """One tactic: parameters, the LLM persona instruction and the scripted caller's line."""

    name: str
    summary: str
    params: Mapping[str, Param]
    prompt: str
    line: str
    line_needs: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return self.name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class BoundTactic:
    """A tactic with a task's parameters (defaults filled in), ready to render."""

    definition: TacticDefinition
    params: Mapping[str, Any]
    given: frozenset[str] = field(default_factory=frozenset)

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def title(self) -> str:
        return self.definition.title

    def values(self, spec: CallerSpec) -> dict[str, Any]:
        """Everything a tactic template may use: params, the caller's facts, and derived labels."""
        values: dict[str, Any] = {"name": spec.name, "knows": dict(spec.knows), **self.params}
        fact = self.params.get("fact")
        if fact is not None:
            values["fact_label"] = FACT_LABELS.get(str(fact), str(fact).replace("_", " "))
            value = self.params.get("value")
            values["shown_value"] = value if value is not None else spec.knows.get(fact, "")
        return values

    def prompt(self, spec: CallerSpec) -> str:
        """The instruction for an LLM caller playing ``spec``."""
        return render(self.definition.prompt, **self.values(spec))

    def line(self, spec: CallerSpec) -> str:
        """What the scripted caller says for this tactic."""
        missing = [p for p in self.definition.line_needs if p not in self.given]
        if missing:
            raise TacticError(
                f"tactic {self.name!r} needs {', '.join(missing)} set in the task for a scripted "
                f"line (e.g. tactics: [{{name: {self.name}, {missing[0]}: ...}}]); "
                f"the task set {sorted(self.given) or 'nothing'}"
            )
        return render(self.definition.line, **self.values(spec))


@cache
def definitions() -> Mapping[str, TacticDefinition]:
    """Every tactic definition, by name, in the order of :data:`sandbox.task.TACTICS`."""
    raw = template_data("tactics.yaml")
    if set(raw) != set(TACTICS):
        raise TacticError(
            f"callers/templates/tactics.yaml defines {sorted(raw)}; "
            f"expected exactly sandbox.task.TACTICS {sorted(TACTICS)}"
        )
    out: dict[str, TacticDefinition] = {}
    for name in TACTICS:
        entry = raw[name]
        params = {
            key: Param(key, value.get("default"), value.get("help", ""))
            for key, value in (entry.get("params") or {}).items()
        }
        out[name] = TacticDefinition(
            name=name,
            summary=entry["summary"],
            params=params,
            prompt=entry["prompt"],
            line=entry["line"],
            line_needs=tuple(entry.get("line_needs", ())),
        )
    return out


def bind(tactic: Tactic) -> BoundTactic:
    """Check ``tactic`` against its definition and fill in the defaults."""
    definition = definitions().get(tactic.name)
    if definition is None:
        raise TacticError(f"unknown tactic {tactic.name!r}; expected one of {', '.join(TACTICS)}")
    unknown = sorted(set(tactic.params) - set(definition.params))
    if unknown:
        raise TacticError(
            f"tactic {tactic.name!r} has no parameter {', '.join(map(repr, unknown))}; "
            f"it takes {', '.join(definition.params) or 'none'}"
        )
    params = {key: param.default for key, param in definition.params.items()}
    params.update(tactic.params)
    return BoundTactic(definition, params, frozenset(tactic.params))


def tactic_for(spec: CallerSpec, name: str) -> BoundTactic:
    """The task's binding of tactic ``name`` for this caller, or its defaults if not listed."""
    for tactic in spec.tactics:
        if tactic.name == name:
            return bind(tactic)
    return bind(Tactic(name))


def given_values(spec: CallerSpec) -> list[str]:
    """The tactic parameter values a caller was given, as text (facts the caller may state)."""
    out: list[str] = []
    for tactic in spec.tactics:
        for value in bind(tactic).values(spec).values():
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                out.append(str(value))
    return out
