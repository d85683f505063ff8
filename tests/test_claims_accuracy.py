"""The claim checker against hand-labelled sets written independently of it.

``claims_labelled.yaml`` is the old development set and ``claims_heldout.yaml`` the old
held-out set. ``claims_hosted.yaml`` (issue 11) holds messages in the style of hosted
assistants, written before the checker was rebuilt by an author who read none of it: its
``split: dev`` half was tuned on, its ``split: test`` half looked at once, at the end.

Precision and recall are over (kind, done) pairs of action claims (``opsbench.agreement``, the
same code ``opsbench claims agreement`` uses for an LLM judge). ``-s`` prints the tables: per
kind, per style, details, descriptions of the account. The floors are the issue's targets
where they were met, and just under the measured figure where they were not (see README).
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
TARGET = (0.95, 0.93)
# Looked at once, after the last change to the checker: held-out 0.941 / 0.871, hosted test half
# 0.891 / 0.789. Neither meets the target; the floors sit just under what was measured.
HELDOUT_FLOOR = (0.93, 0.86)
HOSTED_TEST_FLOOR = (0.88, 0.78)


def _measure(path: Path, split: str | None = None):
    return measure(load_set(path, split), LexiconClaimChecker().extract)


def test_labelled_sets_use_only_known_kinds():
    for path in (DATA, HELDOUT, HOSTED):
        items = load_set(path)
        assert len(items) >= 80
        assert {c["kind"] for item in items for c in item["claims"]} <= set(KINDS)


def test_claim_checker_on_the_old_development_set():
    m = _measure(DATA)
    print("\n" + render("old development set", m))
    assert m.total.precision >= TARGET[0] and m.total.recall >= TARGET[1]


def test_claim_checker_on_the_hosted_development_half():
    m = _measure(HOSTED, "dev")
    print("\n" + render("hosted set, dev half", m))
    assert m.total.precision >= TARGET[0] and m.total.recall >= TARGET[1]


def test_claim_checker_on_the_old_held_out_set():
    m = _measure(HELDOUT)
    print("\n" + render("old held-out set", m))
    assert m.total.precision >= HELDOUT_FLOOR[0] and m.total.recall >= HELDOUT_FLOOR[1]


def test_claim_checker_on_the_hosted_test_half():
    m = _measure(HOSTED, "test")
    print("\n" + render("hosted set, test half", m))
    assert m.total.precision >= HOSTED_TEST_FLOOR[0]
    assert m.total.recall >= HOSTED_TEST_FLOOR[1]


@pytest.mark.parametrize("path", [DATA, HELDOUT, HOSTED], ids=lambda p: p.name)
def test_the_checker_is_deterministic(path):
    items = load_set(path)[:40]
    first = [LexiconClaimChecker().extract(i["text"]) for i in items]
    assert first == [LexiconClaimChecker().extract(i["text"]) for i in items]


if __name__ == "__main__":
    # Only development misses are printed: reading test misses would make them development data.
    for label, (path, split) in {
        "old development": (DATA, None),
        "hosted dev": (HOSTED, "dev"),
    }.items():
        result = _measure(path, split)
        print("\n".join(result.misses))
        print(render(label, result))
