"""Fixtures for the caller tests: the mini clinic's tasks, a task with any tactic, the server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from businesses.loader import load_business
from sandbox.task import Task

MINI = Path(__file__).parents[1] / "fixtures" / "mini" / "mini_clinic"


@pytest.fixture(scope="session")
def mini_tasks() -> dict[str, Task]:
    _, tasks = load_business(MINI)
    return {t.id: t for t in tasks}


@pytest.fixture
def reschedule(mini_tasks: dict[str, Task]) -> Task:
    """Maria moves her cleaning; the reminder service is down (oracle plan: three turns)."""
    return mini_tasks["mini_clinic/reschedule-reminder-fails"]


@pytest.fixture(scope="session")
def local_server() -> Iterator[object]:
    """The package's local OpenAI/Anthropic-compatible server, loopback only."""
    from adapters.server import LocalServer

    with LocalServer() as server:
        yield server
