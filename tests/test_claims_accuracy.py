"""The claim checker against hand-labelled sets written independently of it.

Every set here has been read while tuning and is development data: ``claims_fresh.yaml`` (the
second round's held-out set, 0.875 / 0.800 when scored once; tuned on in the third round),
``claims_labelled.yaml`` (old development set), ``claims_heldout.yaml`` (old held-out set) and
both halves of ``claims_hosted.yaml``. A new held-out set is scored by the lead, once.

Precision and recall are over (kind, done) pairs of action claims (``opsbench.agreement``, the
same code ``opsbench claims agreement`` uses for an LLM judge). ``-s`` prints the tables: per
kind, per style, details, descriptions of the account. Every set must meet the issue's targets.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from opsbench.agreement import load_set, measure, render
from sandbox.claims import KINDS, LexiconClaimChecker

HERE = Path(__file__).parent / "data"
DATA = HERE / "claims_labelled.yaml"
HELDOUT = HERE / "claims_heldout.yaml"
HOSTED = HERE / "claims_hosted.yaml"
FRESH = HERE / "claims_fresh.yaml"
# Written by an author who never saw the checker (issue 11, round 3) and scored once, after the
# last change to the checker: 0.904 / 0.867 (README). The targets are not met on unseen text;
# the floor sits just under what was measured, so a regression shows.
BLIND = HERE / "claims_blind.yaml"
BLIND_FLOOR = (0.90, 0.86)
TARGET = (0.95, 0.93)


def _measure(path: Path, split: str | None = None):
    return measure(load_set(path, split), LexiconClaimChecker().extract)


def test_labelled_sets_use_only_known_kinds():
    for path in (DATA, HELDOUT, HOSTED, FRESH):
        items = load_set(path)
        assert len(items) >= 80
        assert {c["kind"] for item in items for c in item["claims"]} <= set(KINDS)


def test_claim_checker_on_the_blind_test_set():
    m = _measure(BLIND)
    print("\n" + render("blind test set (scored once)", m))
    assert m.total.precision >= BLIND_FLOOR[0]
    assert m.total.recall >= BLIND_FLOOR[1]


@pytest.mark.parametrize(
    "label, path, split",
    [
        ("old development set", DATA, None),
        ("old held-out set", HELDOUT, None),
        ("hosted set, both halves", HOSTED, None),
        ("fresh set", FRESH, None),
    ],
    ids=["labelled", "heldout", "hosted", "fresh"],
)
def test_claim_checker_on_the_development_sets(label, path, split):
    m = _measure(path, split)
    print("\n" + render(f"{label} (tuned on)", m))
    assert m.total.precision >= TARGET[0] and m.total.recall >= TARGET[1]


@pytest.mark.parametrize("split", ["dev", "test"])
def test_claim_checker_on_each_half_of_the_hosted_set(split):
    m = _measure(HOSTED, split)
    print("\n" + render(f"hosted set, {split} half (tuned on)", m))
    # The halves are reported apart (README); each meets the targets.
    assert m.total.precision >= TARGET[0] and m.total.recall >= TARGET[1]


@pytest.mark.parametrize("path", [DATA, HELDOUT, HOSTED, FRESH], ids=lambda p: p.name)
def test_the_checker_is_deterministic(path):
    items = load_set(path)[:40]
    first = [LexiconClaimChecker().extract(i["text"]) for i in items]
    assert first == [LexiconClaimChecker().extract(i["text"]) for i in items]


if __name__ == "__main__":
    # Misses of the development sets (every set here is one).
    for label, (path, split) in {
        "old development": (DATA, None),
        "hosted": (HOSTED, None),
        "fresh": (FRESH, None),
    }.items():
        result = _measure(path, split)
        print("\n".join(result.misses))
        print(render(label, result))
