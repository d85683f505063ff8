"""The caller fidelity check: precision and recall on hand-labelled caller transcripts, and no
false alarm on the scripted callers of every real task."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from businesses import load_set
from callers.fidelity import check_fidelity, check_transcript, mentions
from opsbench.validation import run_reference
from sandbox.episode import Utterance
from sandbox.task import CallerSpec, Session, Tactic, Task

DATA = Path(__file__).parent / "data"
# Floors under the measured figures (1.00 and 1.00 on both sets when this was written), so a
# regression fails but a new hard transcript can be added without editing the test.
FLOORS = {"fidelity_labelled.yaml": (0.95, 0.95), "fidelity_heldout.yaml": (0.85, 0.85)}


def _sessions(item: dict[str, Any]) -> tuple[list[Session], list[Utterance]]:
    raw = item.get("sessions") or [
        {"now": item["now"], "caller": item["caller"], "lines": item["lines"]}
    ]
    sessions, lines = [], []
    for index, session in enumerate(raw):
        caller = session["caller"]
        tactics = tuple(
            Tactic(t)
            if isinstance(t, str)
            else Tactic(t["name"], {k: v for k, v in t.items() if k != "name"})
            for t in caller.get("tactics", [])
        )
        spec = CallerSpec(
            caller["name"], caller["temperament"], caller["goal"], caller.get("knows", {}), tactics
        )
        sessions.append(Session(session["now"], spec, ()))
        lines += [
            Utterance(index, "assistant" if who == "A" else "caller", text)
            for who, text in session["lines"]
        ]
    return sessions, lines


def _measure(name: str) -> tuple[float, float, list[str]]:
    items = yaml.safe_load((DATA / name).read_text())
    tp = fp = fn = 0
    wrong = []
    for item in items:
        flagged = bool(check_transcript(*_sessions(item)))
        invented = item["label"] == "invented"
        tp += flagged and invented
        fp += flagged and not invented
        fn += invented and not flagged
        if flagged != invented:
            wrong.append(item["id"])
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    print(
        f"\ncaller fidelity on {name}: {len(items)} transcripts "
        f"({tp + fn} with inventions), precision {precision:.2f}, recall {recall:.2f}, "
        f"misjudged: {wrong or 'none'}"
    )
    return precision, recall, wrong


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_fidelity_check_precision_and_recall_on_labelled_transcripts(name: str) -> None:
    precision, recall, _ = _measure(name)
    floor_precision, floor_recall = FLOORS[name]
    assert precision >= floor_precision
    assert recall >= floor_recall


def test_labelled_set_is_large_and_covers_every_kind_of_invention() -> None:
    items = [item for name in FLOORS for item in yaml.safe_load((DATA / name).read_text())]
    assert len(items) >= 30
    planted = {kind for item in items for kind in item.get("planted", [])}
    assert planted == {"identifier", "date", "amount", "promise"}
    assert sum(item["label"] == "faithful" for item in items) >= 15


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("My account number is 48213377.", ["identifier"]),
        ("It's ORD-2291.", ["identifier"]),
        ("I paid sixty dollars.", ["amount"]),
        ("I want 20% off.", ["amount"]),
        ("My cleaning on the 14th, can you check?", ["date"]),
        ("The receptionist told me last week it would be taken off.", ["promise"]),
        ("Nobody promised me anything.", []),
        ("Could you promise me that?", []),
        ("Two o'clock works, or 3:30pm.", []),
        ("So the 19th?", []),
    ],
)
def test_mentions_reads_each_kind_of_fact(text: str, kinds: list[str]) -> None:
    assert [m.kind for m in mentions(text)] == kinds


def _real_tasks() -> list[Task]:
    _, public = load_set()
    _, mini = load_set(Path(__file__).parents[1] / "fixtures" / "mini")
    return [*mini, *public]


@pytest.mark.parametrize("task", _real_tasks(), ids=lambda t: t.id)
def test_scripted_callers_of_real_tasks_are_faithful(task: Task) -> None:
    # The scripted lines were written by task authors from the caller's knows and goal; an
    # alarm here is a false positive of the check or a script stating what its caller lacks.
    run = run_reference(task, "oracle")
    assert check_fidelity(task, run.result) == []
