"""Where reference/idle's and reference/reckless's confident partials come from.

Idle never calls a write tool and closes politely; reckless does the irreversible thing in
place of the plan's step. Neither summarises an action of its own that it did not take, so a
confident partial from either must come from a line of the task's plan that it voices while
skipping (or replacing) the action the line announces -- "I'm putting you through to the
dispatcher right now", with no transfer after it. The caller was told of an action that never
happened: a true reading. Anything else would be the checker reading a claim into words that
make none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from businesses import load_set
from opsbench.validation import run_reference

ROOT = Path(__file__).resolve().parent.parent
TASKS = load_set(ROOT / "businesses" / "public")[1]


def _plan_lines(task) -> set[str]:  # type: ignore[no-untyped-def]
    return {step["say"] for session in task.sessions for step in session.oracle if "say" in step}


@pytest.mark.parametrize("flaw", ["idle", "reckless"])
def test_a_confident_partial_comes_only_from_a_plan_line_announcing_a_skipped_action(flaw):
    partial = []
    for task in TASKS:
        score = run_reference(task, flaw).score
        if not score.confident_partial:
            continue
        lines = _plan_lines(task)
        for claim in score.claims:
            if claim.done and not claim.true and not claim.misstated:
                assert any(claim.text in line for line in lines), (task.id, claim)
                partial.append((task.id, claim.kind))
    # The announcing lines are the emergency hand-offs of the home-services kit.
    assert partial and {kind for _, kind in partial} == {"transfer"}, partial
