"""The scripted caller: deterministic lines, with simple reactions, needing no model.

It says its script one line per assistant turn. A task may add ``reactions``
(``{when: regex, say: ..., times: 1}``): when the assistant's last words match, the caller says
that first and keeps its next line for the turn after, at most ``times`` times -- pushing back
after a refusal, say. When the assistant has just asked for an
identity fact the caller knows (date of birth, postcode, phone...) and the next line does not
already give it, it answers from ``knows`` first, so the script stays in step with assistants that
verify at a different moment than the task author expected. When the script runs out it says
goodbye and hangs up.

A script line may name a tactic instead of spelling out its words, ``{tactic: exception_request}``:
the caller then says that tactic's line from :mod:`callers.tactics`, with the task's parameters, so
the scripted and the LLM caller render the same definition. A line with both ``say`` and
``tactic`` says ``say`` (the tactic only labels it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from callers.tactics import tactic_for
from sandbox.episode import CallerTurn, CallerView
from sandbox.task import CallerSpec, Task

_ASKS: dict[str, re.Pattern[str]] = {
    "dob": re.compile(r"date of birth|birth ?date|birthday|\bdob\b|when were you born", re.I),
    "postcode": re.compile(r"post ?code|zip ?code|\bzip\b", re.I),
    "phone": re.compile(
        r"phone number|number on (?:the|your) account|number you'?re calling", re.I
    ),
    "email": re.compile(r"email address", re.I),
    "order_id": re.compile(r"order (?:number|id)", re.I),
}
GOODBYE = "Okay, thank you. Goodbye."


def _mentions(fact: str, value: Any, line: str) -> bool:
    text = line.lower()
    if fact == "dob":
        return "birth" in text or "born" in text or str(value)[:4] in text
    if fact == "phone":
        digits = re.sub(r"\D", "", str(value))
        return digits[-4:] in re.sub(r"\D", "", line)
    return str(value).lower() in text


def _answer(fact: str, value: Any) -> str:
    labels = {
        "dob": "My date of birth is",
        "postcode": "My postcode is",
        "phone": "My number is",
        "email": "My email is",
        "order_id": "The order number is",
    }
    return f"{labels.get(fact, 'It is')} {value}."


def line_text(spec: CallerSpec, line: Mapping[str, Any]) -> str:
    """The words of script line ``line``: its ``say``, or its tactic's line rendered for ``spec``."""
    if "say" in line:
        return str(line["say"])
    if "tactic" in line:
        return tactic_for(spec, str(line["tactic"])).line(spec)
    raise ValueError(f"script line {dict(line)!r} has neither 'say' nor 'tactic'; expected one")


class ScriptedCaller:
    """Plays one session's script."""

    def __init__(self, spec: CallerSpec) -> None:
        self.spec = spec
        self._next = 0
        self._answered: set[str] = set()
        self._reacted: dict[int, int] = {}

    def _authored_reaction(self, heard: str) -> str | None:
        """The task's own ``reactions``: ``{when: regex, say: ..., times: n}`` on what was heard."""
        for index, reaction in enumerate(self.spec.reactions):
            used = self._reacted.get(index, 0)
            if used >= reaction.get("times", 1) or not re.search(
                reaction["when"], heard, re.IGNORECASE
            ):
                continue
            self._reacted[index] = used + 1
            return str(reaction["say"])
        return None

    def _reaction(self, asked: str, upcoming: Mapping[str, Any] | None) -> str | None:
        for fact, pattern in _ASKS.items():
            value = self.spec.knows.get(fact)
            if value is None or fact in self._answered or not pattern.search(asked):
                continue
            if upcoming is not None and _mentions(fact, value, line_text(self.spec, upcoming)):
                return None
            self._answered.add(fact)
            return _answer(fact, value)
        return None

    async def speak(self, view: CallerView) -> CallerTurn:
        script = self.spec.script
        upcoming = script[self._next] if self._next < len(script) else None
        asked = view.last_assistant if len(view.lines) > 1 else ""
        authored = self._authored_reaction(asked) if asked else None
        if authored is not None:
            return CallerTurn(authored)
        if "?" in asked:
            reaction = self._reaction(asked, upcoming)
            if reaction is not None:
                return CallerTurn(reaction)
        if upcoming is None:
            return CallerTurn(GOODBYE, hang_up=True)
        self._next += 1
        return CallerTurn(line_text(self.spec, upcoming), hang_up=bool(upcoming.get("hang_up")))


def scripted_caller_factory(task: Task, session: int) -> ScriptedCaller:
    """A :data:`sandbox.episode.CallerFactory` for scripted callers."""
    return ScriptedCaller(task.sessions[session].caller)
