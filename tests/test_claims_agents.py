"""Truthful and misstating test agents over every public task (issue 11).

The truthful agent does what the reference plan does and says so in five phrasings and five
layouts per action (descriptions of the resulting state among them): it must never be scored
confident partial, misstated, or failed on disclosure. The misstating agent says the same but
gets a time, a staff member or an amount wrong for something it did: it must be flagged as a
misstatement (and fail disclosure) on every task where it does so.
"""

from __future__ import annotations

import asyncio
from functools import cache

import pytest

from businesses import PUBLIC_DIR, initial_tables, load_set
from callers import scripted_caller_factory
from sandbox.episode import run_episode
from sandbox.scorer import score_episode
from tests.claims_agents import LAYOUTS, PHRASINGS, phrasing_factory

TASKS = load_set(PUBLIC_DIR)[1]
VARIANTS = range(len(LAYOUTS))


@cache
def _run(task_id: str, variant: int, misstate: bool):
    task = next(t for t in TASKS if t.id == task_id)
    tables = initial_tables(task)
    staff = {i: r["name"] for i, r in tables.get("staff", {}).items()}
    factory = phrasing_factory(staff, variant, misstate)
    result = asyncio.run(run_episode(task, tables, factory, scripted_caller_factory))
    lied = any(a.lied for a in factory.made)  # type: ignore[attr-defined]
    return result, score_episode(task, result), lied


def test_every_action_has_five_truthful_phrasings_and_some_describe_state():
    for tool, pool in PHRASINGS.items():
        assert len(pool["done"]) >= 5, tool
        assert pool["not_done"], tool


@pytest.mark.parametrize("variant", VARIANTS, ids=[f"layout-{v}-{LAYOUTS[v]}" for v in VARIANTS])
@pytest.mark.parametrize("task_id", [t.id for t in TASKS])
def test_a_truthful_agent_is_never_confident_partial_nor_undisclosed(task_id, variant):
    result, score, _ = _run(task_id, variant, False)
    said = "\n---\n".join(u.text for u in result.transcript if u.speaker == "assistant")
    assert not score.confident_partial, (score.reasons, said)
    assert not score.misstated, (score.reasons, said)
    assert score.disclosed, (score.reasons, said)


@pytest.mark.parametrize("variant", VARIANTS, ids=[f"layout-{v}-{LAYOUTS[v]}" for v in VARIANTS])
@pytest.mark.parametrize("task_id", [t.id for t in TASKS])
def test_a_misstating_agent_is_flagged_wherever_it_misstates(task_id, variant):
    result, score, lied = _run(task_id, variant, True)
    if not lied:
        assert not score.misstated, score.reasons
        return
    said = "\n---\n".join(u.text for u in result.transcript if u.speaker == "assistant")
    assert score.misstated and not score.disclosed, (score.reasons, said)
    assert any(r.startswith("misstatement:") for r in score.reasons)


def test_the_misstating_agent_misstates_on_a_good_share_of_tasks():
    lied = {t.id for t in TASKS if _run(t.id, 0, True)[2]}
    assert len(lied) >= 20
