"""Other valid routes through every task: the confirm-first and route-varying reference
assistants pass every task the oracle passes, with the scripted caller.

Written without reading the plans' step order: the tests look only at what happened in each
episode (the score, the transcript, the trace), never at the oracle steps.
"""

from __future__ import annotations

from functools import cache

import pytest

from businesses import PUBLIC_DIR, load_set
from opsbench.validation import ReferenceRun, run_reference
from tests.helpers import MINI
from tools import Effect, default_registry

TASKS = load_set(PUBLIC_DIR)[1] + load_set(MINI)[1]
BY_ID = {t.id: t for t in TASKS}
_REGISTRY = default_registry()


@cache
def run(route: str, task_id: str) -> ReferenceRun:
    return run_reference(BY_ID[task_id], route)


def _writes(result) -> list[str]:
    return [
        c.tool
        for c in result.trace
        if _REGISTRY.get(c.tool).effect != Effect.READ and c.tool != "transfer_to_human"
    ]


@pytest.mark.parametrize("route", ["confirm-first", "route-varying"])
@pytest.mark.parametrize("task_id", sorted(BY_ID))
def test_another_route_passes_every_task_the_oracle_passes(route: str, task_id: str) -> None:
    if not run("oracle", task_id).score.passed:
        pytest.skip("the oracle does not pass this task")
    other = run(route, task_id)
    assert other.score.passed, other.score.reasons
    assert "turn_limit" not in other.result.endings


@pytest.mark.parametrize("task_id", sorted(BY_ID))
def test_confirm_first_writes_only_after_a_read_back_and_a_yes(task_id: str) -> None:
    from adapters.reference.confirm_first import affirmative

    transcript = run("confirm-first", task_id).result.transcript
    asked = approved = False
    for line in transcript:
        if line.speaker == "caller":
            approved = asked and affirmative(line.text)
            asked = False
            continue
        if "shall i go ahead?" in line.text.lower() and not line.tool_calls:
            asked, approved = True, False
        for call in line.tool_calls:
            if _REGISTRY.get(call["name"]).effect != Effect.READ and call["name"] not in (
                "transfer_to_human",
            ):
                assert approved, f"{call['name']} without a read-back answered yes"


def test_the_varied_route_differs_from_the_oracle_s() -> None:
    # Extra look-ups on every task that writes; another order or cancel-and-rebook on some.
    differs = [t for t in BY_ID if _writes(run("oracle", t).result)]
    for task_id in differs:
        oracle = [c.tool for c in run("oracle", task_id).result.trace]
        varied = [c.tool for c in run("route-varying", task_id).result.trace]
        assert len(varied) > len(oracle), task_id
    reordered = [
        t
        for t in differs
        if _writes(run("oracle", t).result) != _writes(run("route-varying", t).result)
    ]
    assert any("cancel_appointment" in _writes(run("route-varying", t).result) for t in reordered)
    assert len(reordered) >= 5
