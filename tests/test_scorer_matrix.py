"""The scorer's own test suite: every reference assistant shows its flaw on every task that
offers it, over every task of the public set and the test fixtures.

The cases, the cell offerings and the missing-cell check are :mod:`opsbench.matrix`'s, the same
code ``opsbench businesses validate --matrix`` runs on any set. The assistant × expectation
table is printed at the end of the test run.
"""

from __future__ import annotations

from functools import cache

import pytest

from adapters.reference import FLAWS, ROUTES
from businesses import PUBLIC_DIR, load_set
from callers.fidelity import check_fidelity
from opsbench.matrix import (
    CELL_OFFERS,
    EXPECTATIONS,
    cases,
    metric_table,
    missing_cells,
    offering_gaps,
)
from opsbench.validation import ReferenceRun, run_reference
from sandbox.task import COVERAGE_CELLS
from tests.helpers import MINI

PUBLIC_BUSINESSES, PUBLIC_TASKS = load_set(PUBLIC_DIR)
TASKS = PUBLIC_TASKS + load_set(MINI)[1]
BY_ID = {t.id: t for t in TASKS}


@cache
def run(flaw: str, task_id: str) -> ReferenceRun:
    return run_reference(BY_ID[task_id], flaw)


def score(flaw: str, task_id: str):
    return run(flaw, task_id).score


CASES = cases(TASKS)


@pytest.mark.parametrize(
    "expectation, task", CASES, ids=[f"{e.flaw}:{e.name}:{t.id}" for e, t in CASES]
)
def test_reference_assistant_shows_its_flaw(expectation, task):
    result = score(expectation.flaw, task.id)
    assert expectation.holds(result), (
        f"{expectation.flaw} should be {expectation.name}; scorer said: {result.reasons}"
    )


@pytest.mark.parametrize("assistant", [*FLAWS, *ROUTES])
def test_scripted_callers_are_faithful_across_the_whole_matrix(assistant: str) -> None:
    # The scripted caller answers whatever each reference assistant does; a fidelity flag
    # here is the simulator misplaying its part (or the check misreading it), never the assistant.
    flagged = {
        t.id: check_fidelity(t, run(assistant, t.id).result)
        for t in TASKS
        if check_fidelity(t, run(assistant, t.id).result)
    }
    assert flagged == {}


def test_every_expectation_applies_to_some_task():
    for expectation in EXPECTATIONS:
        assert any(expectation.applies(t) for t in TASKS), expectation.name


def test_every_task_offers_what_its_coverage_cell_implies():
    assert offering_gaps(TASKS) == []


def test_every_public_business_fills_every_coverage_cell():
    assert missing_cells(PUBLIC_BUSINESSES, PUBLIC_TASKS) == []


def test_cell_offerings_name_real_cells_and_expectations():
    assert set(CELL_OFFERS) <= set(COVERAGE_CELLS)
    names = {e.name for e in EXPECTATIONS}
    assert {n for offered in CELL_OFFERS.values() for n in offered} <= names


def matrix_lines() -> list[str]:
    """The assistant × metric table over the tasks (printed in the terminal summary)."""
    runs = {
        (flaw, t.id): type("R", (), {"score": score(flaw, t.id)}) for flaw in FLAWS for t in TASKS
    }
    rows = metric_table(TASKS, runs)
    columns = list(rows[0])[1:]
    header = f"{'assistant':26}" + "".join(f"{c.replace('_', ' '):>18}" for c in columns)
    lines = [f"scorer matrix over {len(TASKS)} tasks (share of tasks)", header]
    for row in rows:
        lines.append(f"{row['assistant']:26}" + "".join(f"{row[c]:>18.2f}" for c in columns))
    return lines
