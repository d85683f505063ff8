"""Fixtures for the application tests: a real store and real runs over the mini task set."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from opsbench.runner import RunConfig, run_evaluation
from opsbench.store import Store
from tests.helpers import MINI

MINI_SET = str(MINI)
# The test agents that act from the task's plan (tests/app/agents.py); the others stay python:.
BRIEFED_AGENTS = ("FlakyOracle", "Tunable", "TokensOnly", "BuggyOracle", "WaitsForBug")


@pytest.fixture(autouse=True)
def testagent_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """``testagent/<Class>``: a test agent briefed like a reference assistant, options checked."""
    from adapters import custom, registry
    from sandbox.briefing import BriefedFactory
    from tests.app import agents

    def build(name, options, base_url, retry):
        if name not in BRIEFED_AGENTS:
            raise registry.AdapterError(f"unknown testagent/{name}")
        cls = getattr(agents, name)
        kwargs = dict(options) | ({"base_url": base_url} if base_url is not None else {})
        # Unknown keywords are refused by the class's own signature, as for python: agents.
        custom.check_accepts(functools.partial(cls, brief=None), kwargs, f"testagent/{name}")
        return BriefedFactory(lambda context, brief: cls(context, brief, **kwargs), name)

    monkeypatch.setitem(registry._BUILDERS, "testagent", build)


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
