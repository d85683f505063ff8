"""The answer key, for the reference assistants only.

A reference assistant acts from the task's reference plan; no other assistant may see it.
:class:`BriefedFactory` is the one way the plan leaves the task: the episode loop hands a
:class:`Briefing` to a factory only when that factory *is* a :class:`BriefedFactory`, and only
``adapters.registry`` builds one, for ``reference/<flaw>`` model strings. A custom agent's
factory is always wrapped in a plain function, so even a custom factory that subclasses this
one is called with the :class:`contract.assistant.EpisodeContext` alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from contract.assistant import Assistant, AssistantFactory, EpisodeContext
from sandbox.task import Task


@dataclass(frozen=True)
class Briefing:
    """What a reference assistant knows of one session of a task."""

    task_id: str
    plan: tuple[Mapping[str, Any], ...]
    temperament: str
    session: int
    sessions: int
    coverage: str
    # Tools that always fail in this task: a partial assistant skips the last write it could do.
    faulted_tools: frozenset[str]
    # The task allows a cancelled booking of its own: a reschedule may go as cancel-and-rebook.
    rebook_allowed: bool = False


def briefing(task: Task, session_index: int) -> Briefing:
    """The reference plan and the facts a reference assistant's flaw needs, for one session."""
    session = task.sessions[session_index]
    return Briefing(
        task_id=task.id,
        plan=tuple(dict(step) for step in session.oracle),
        temperament=session.caller.temperament,
        session=session_index,
        sessions=len(task.sessions),
        coverage=task.coverage,
        faulted_tools=frozenset(
            f["tool"] for f in task.faults if f.get("when", "always") == "always"
        ),
        rebook_allowed=any(
            a.op == "insert" and a.table == "appointments" and a.where.get("status") == "cancelled"
            for a in (*task.expect.allowed, *task.business.allowed)
        ),
    )


class BriefedFactory:
    """An assistant factory that is told the task's reference plan (reference assistants only)."""

    def __init__(self, make: Callable[[EpisodeContext, Briefing], Assistant], name: str) -> None:
        self._make = make
        self.name = name

    def __call__(self, context: EpisodeContext, brief: Briefing) -> Assistant:
        return self._make(context, brief)

    def __repr__(self) -> str:
        return f"BriefedFactory({self.name!r})"


def make_assistant(
    factory: AssistantFactory | BriefedFactory, context: EpisodeContext, task: Task, session: int
) -> Assistant:
    """A fresh assistant for one session: briefed only when ``factory`` is a reference one."""
    if isinstance(factory, BriefedFactory):
        return factory(context, briefing(task, session))
    return factory(context)


def wrapped(
    factory: AssistantFactory | BriefedFactory, wrap: Callable[[Assistant], Assistant]
) -> AssistantFactory | BriefedFactory:
    """``factory`` with every assistant it makes passed through ``wrap``; briefed stays briefed."""
    if isinstance(factory, BriefedFactory):
        inner = factory
        return BriefedFactory(lambda context, brief: wrap(inner(context, brief)), inner.name)
    plain = factory
    return lambda context: wrap(plain(context))
