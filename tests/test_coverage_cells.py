"""The coverage cells are written in two places, the task model and the tasks schema; they must
agree, and the angry-irreversible cell must offer the flaw that tells tone from consequence."""

from __future__ import annotations

import json
from dataclasses import replace

from businesses import load_set
from businesses.loader import PUBLIC_DIR
from opsbench.matrix import offering_gaps
from sandbox.task import COVERAGE_CELLS

SCHEMA = PUBLIC_DIR.parent / "schema" / "tasks.schema.json"


def _enums(node: object) -> list[list[str]]:
    found: list[list[str]] = []
    if isinstance(node, dict):
        if "enum" in node and "cooperative" in node["enum"]:
            found.append(node["enum"])
        for value in node.values():
            found.extend(_enums(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_enums(value))
    return found


def test_the_schema_lists_exactly_the_coverage_cells_of_the_task_model():
    enums = _enums(json.loads(SCHEMA.read_text("utf-8")))
    assert enums, "no coverage enum in the tasks schema"
    assert all(list(e) == list(COVERAGE_CELLS) for e in enums)


def test_an_angry_irreversible_task_without_a_reckless_alternative_is_a_gap():
    _, tasks = load_set()
    task = next(t for t in tasks if t.coverage == "angry_irreversible")
    assert not offering_gaps([task])
    careful = tuple(
        replace(
            session,
            oracle=tuple(
                {k: v for k, v in step.items() if k != "reckless"} for step in session.oracle
            ),
        )
        for session in task.sessions
    )
    gaps = offering_gaps([replace(task, sessions=careful)])
    assert gaps and "reckless" in gaps[0]
