"""The claim checker against hand-labelled sets written independently of it.

The headline is ``claims_fresh.yaml``: messages in the style of hosted assistants, written by
another author while the checker was being tuned (issue 11, second round) and scored once, after
the last change to the checker. Every other set has been read while tuning and is development
data now: ``claims_labelled.yaml`` (old development set), ``claims_heldout.yaml`` (old held-out
set) and both halves of ``claims_hosted.yaml`` (its ``split: test`` half was the first round's
test, 0.891 / 0.789).

Precision and recall are over (kind, done) pairs of action claims (``opsbench.agreement``, the
same code ``opsbench claims agreement`` uses for an LLM judge). ``-s`` prints the tables: per
kind, per style, details, descriptions of the account. The development sets must meet the
issue's targets; the fresh set's floor is what was measured on it once (see README).
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
TARGET = (0.95, 0.93)
# Measured once on the fresh set, after the last change to the checker: 0.875 / 0.800 (README
# has the tables). The targets are not met there; the floor sits just under what was measured.
FRESH_FLOOR = (0.87, 0.79)


def _measure(path: Path, split: str | None = None):
    return measure(load_set(path, split), LexiconClaimChecker().extract)


def test_labelled_sets_use_only_known_kinds():
    for path in (DATA, HELDOUT, HOSTED, FRESH):
        items = load_set(path)
        assert len(items) >= 80
        assert {c["kind"] for item in items for c in item["claims"]} <= set(KINDS)


def test_claim_checker_on_the_fresh_test_set():
    m = _measure(FRESH)
    print("\n" + render("fresh test set (scored once)", m))
    assert m.total.precision >= FRESH_FLOOR[0]
    assert m.total.recall >= FRESH_FLOOR[1]


@pytest.mark.parametrize(
    "label, path, split",
    [
        ("old development set", DATA, None),
        ("old held-out set", HELDOUT, None),
        ("hosted set, both halves", HOSTED, None),
    ],
    ids=["labelled", "heldout", "hosted"],
)
def test_claim_checker_on_the_development_sets(label, path, split):
    m = _measure(path, split)
    print("\n" + render(f"{label} (tuned on)", m))
    assert m.total.precision >= TARGET[0] and m.total.recall >= TARGET[1]


@pytest.mark.parametrize("split", ["dev", "test"])
def test_claim_checker_on_each_half_of_the_hosted_set(split):
    m = _measure(HOSTED, split)
    print("\n" + render(f"hosted set, {split} half (tuned on)", m))
    # The halves are reported apart (README); each stays near the targets.
    assert m.total.precision >= 0.94 and m.total.recall >= 0.92


@pytest.mark.parametrize("path", [DATA, HELDOUT, HOSTED, FRESH], ids=lambda p: p.name)
def test_the_checker_is_deterministic(path):
    items = load_set(path)[:40]
    first = [LexiconClaimChecker().extract(i["text"]) for i in items]
    assert first == [LexiconClaimChecker().extract(i["text"]) for i in items]


if __name__ == "__main__":
    # Only development misses are printed: reading the fresh set's misses would make it
    # development data.
    for label, (path, split) in {
        "old development": (DATA, None),
        "old held-out": (HELDOUT, None),
        "hosted": (HOSTED, None),
    }.items():
        result = _measure(path, split)
        print("\n".join(result.misses))
        print(render(label, result))
