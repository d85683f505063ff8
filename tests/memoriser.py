"""A planted memoriser (test-only): it has learnt the public set by heart and replays it.

It never sees the task it is given beyond what any assistant sees (the conversation). From the
committed public files it builds a lookup: a caller's opening line (names, phones, ids and dates
in it) -> the public reference plan of that session. On a call it recognises the opening (exactly,
else the public opening sharing most words with it) and replays that plan through the oracle
reference assistant, public ids and all. That is what an assistant trained on the public set
does; a held-out draw, with other names, ids, dates and rules, is what catches it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from adapters.reference.assistants import ReferenceAssistant
from businesses import PUBLIC_DIR, load_set
from contract.assistant import EpisodeContext
from contract.messages import AssistantTurn, TurnRequest, Usage
from sandbox.briefing import Briefing, briefing

_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


@cache
def memory(public_set: str) -> dict[str, Briefing]:
    """Opening line -> the public plan of that session, for every public task and session."""
    _, tasks = load_set(Path(public_set))
    learnt: dict[str, Briefing] = {}
    for task in tasks:
        for index, session in enumerate(task.sessions):
            learnt.setdefault(session.caller.opening, briefing(task, index))
    return learnt


def recall(public_set: str, opening: str) -> Briefing | None:
    """The memorised plan for ``opening``: exact, else the nearest public opening by words."""
    learnt = memory(public_set)
    if opening in learnt:
        return learnt[opening]
    heard = _words(opening)
    best, score = None, 0.0
    for line, plan in learnt.items():
        known = _words(line)
        overlap = len(heard & known) / max(len(heard | known), 1)
        if overlap > score:
            best, score = plan, overlap
    return best if score >= 0.3 else None


class Memoriser:
    """``python:tests.memoriser:Memoriser``, optionally ``-M public_set=DIR``."""

    def __init__(self, context: EpisodeContext, public_set: str = str(PUBLIC_DIR)) -> None:
        self.context = context
        self.public_set = public_set
        self.replay: ReferenceAssistant | None = None
        self.recognised: bool | None = None

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        if self.recognised is None:
            opening = next((m.content for m in request.messages if m.role == "user"), "")
            plan = recall(self.public_set, opening)
            self.recognised = plan is not None
            if plan is not None:
                self.replay = ReferenceAssistant("oracle", self.context, plan)
        if self.replay is None:
            return AssistantTurn(text="Let me look into that for you.", usage=Usage(requests=1))
        return await self.replay.respond(request)
