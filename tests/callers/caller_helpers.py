"""Helpers for the caller tests: tasks with another caller, canned caller models."""

from __future__ import annotations

from dataclasses import replace

from sandbox.task import Tactic, Task


def with_caller(task: Task, **changes: object) -> Task:
    """``task`` with its (first session's) caller changed."""
    session = task.sessions[0]
    return replace(task, sessions=(replace(session, caller=replace(session.caller, **changes)),))


def with_tactic(task: Task, name: str, **params: object) -> Task:
    return with_caller(task, tactics=(Tactic(name, params),))
