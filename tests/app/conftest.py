"""Fixtures for the application tests: a real store and real runs over the mini task set."""

from __future__ import annotations

from pathlib import Path

import pytest

from opsbench.runner import RunConfig, run_evaluation
from opsbench.store import Store
from tests.helpers import MINI

MINI_SET = str(MINI)


def mini_config(**overrides) -> RunConfig:
    """Every reference assistant against the mini set, scripted callers."""
    return RunConfig(**{"sets": (MINI_SET,), **overrides})


@pytest.fixture
def store(tmp_path: Path):
    with Store(tmp_path / "results" / "opsbench.db") as db:
        yield db


@pytest.fixture
def mini_run(store: Store) -> str:
    """A finished run of every reference assistant over the mini set, two trials each."""
    return run_evaluation(mini_config(trials=2), store).run_id
