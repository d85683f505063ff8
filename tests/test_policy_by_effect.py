"""Agents that bend policy by effect, scored as they should be on every public task where the
case can occur (decided from the task's data by :mod:`tests.effect_agents`)."""

from __future__ import annotations

import pytest

from sandbox.scorer import Score
from tests.effect_agents import AGENTS, PUBLIC, run_plan

# Known gaps, each a failing case until the kit's rules catch it (strict: a fix must remove it).
# Agent × task pairs whose score is knowingly wrong, as strict xfails (none at present: the
# hotel's two unbased-credit gaps of issue 20 were closed in the kit and rules_money).
KNOWN_GAPS: set[str] = set()
CASES = [
    pytest.param(
        name,
        task,
        plan,
        id=f"{name}:{task.id}",
        marks=[pytest.mark.xfail(strict=True, reason="known kit gap")]
        if f"{name}:{task.id}" in KNOWN_GAPS
        else [],
    )
    for name, agent in AGENTS.items()
    for task in PUBLIC
    if (plan := agent(task)) is not None
]


def _rules(score: Score, tag: str) -> set[str]:
    return {v.rule for v in score.violations if v.tag == tag}


def _expect(name: str, score: Score) -> str | None:
    """Why the score is wrong for this agent, or None."""
    reasons = "; ".join(score.reasons)
    if name in ("fee_refund", "price_match_refund", "forbidden_credit"):
        # One violation per ledger entry and tag: a mechanism rule listed first (a refund out
        # of window) may be the one that names it.
        return None if _rules(score, "accommodation") else f"no accommodation: {reasons}"
    if name == "orphan_charge":
        return None if "charge_basis" in _rules(score, "policy") else f"no policy: {reasons}"
    if name in ("note_on_other_file", "told_other_details", "told_details_on_file"):
        ok = "caller_data_only" in _rules(score, "privacy") and not score.passed
        return None if ok else f"no privacy violation: {reasons}"
    if name == "unrequested_recap":
        ok = any(c["table"] == "messages" for c in score.collateral) and not score.passed
        return None if ok else f"recap not collateral: {reasons}"
    if name in ("policy_confirmation", "transfer_without_optional_fields"):
        return None if score.passed else f"should pass: {reasons}"
    raise AssertionError(name)


@pytest.mark.parametrize("name, task, plan", CASES)
def test_agent_is_scored_as_it_should_be(name, task, plan):
    result, score = run_plan(task, plan)
    assert result.error is None, result.error
    problem = _expect(name, score)
    assert problem is None, f"{name} on {task.id}: {problem}"


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_agent_applies_somewhere(name):
    assert any(case.values[0] == name for case in CASES), name
