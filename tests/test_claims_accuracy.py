"""The claim checker against hand-labelled sets written independently of it.

``claims_labelled.yaml`` is the development set: the checker's lexicon was tuned while reading its
misses. ``claims_heldout.yaml`` was written later by another author and is never read while
tuning: its figures are the honest ones, and the README publishes both. Precision and recall
are over (kind, done) pairs. The floors sit a little under the measured figures so a regression
fails.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from sandbox.claims import FAMILIES, KINDS, LexiconClaimChecker

PARENT = {member: family for family, members in FAMILIES.items() for member in members}

DATA = Path(__file__).parent / "data" / "claims_labelled.yaml"
HELDOUT = Path(__file__).parent / "data" / "claims_heldout.yaml"
# Measured 0.941 / 0.864 on first contact (122 messages); floors just under.
HELDOUT_FLOOR = (0.92, 0.84)


def measure(path: Path = DATA) -> tuple[float, float, int, list[str]]:
    items = yaml.safe_load(path.read_text("utf-8"))
    checker = LexiconClaimChecker()
    tp = fp = fn = 0
    misses: list[str] = []
    for item in items:
        gold = {(c["kind"], c["done"]) for c in item["claims"]}
        # The sets label texts and emails alike as "message"; compare at that granularity.
        got = {
            (PARENT.get(c.kind, c.kind), c.done)
            for c in checker.extract(item["text"])
            if not c.state
        }
        tp += len(gold & got)
        fp += len(got - gold)
        fn += len(gold - got)
        if gold != got:
            misses.append(f"{item['text']!r}\n    gold={sorted(gold)}\n    got ={sorted(got)}")
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall, len(items), misses


def test_labelled_sets_use_only_known_kinds():
    for path in (DATA, HELDOUT):
        items = yaml.safe_load(path.read_text("utf-8"))
        assert len(items) >= 80
        assert {c["kind"] for item in items for c in item["claims"]} <= set(KINDS)


def test_claim_checker_on_the_development_set():
    precision, recall, count, _ = measure(DATA)
    print(
        f"\nclaim checker, development set ({count}): precision {precision:.3f}, recall {recall:.3f}"
    )
    assert precision >= 0.95
    assert recall >= 0.90


def test_claim_checker_on_the_held_out_set():
    precision, recall, count, _ = measure(HELDOUT)
    print(
        f"\nclaim checker, held-out set ({count}): precision {precision:.3f}, recall {recall:.3f}"
    )
    assert precision >= HELDOUT_FLOOR[0]
    assert recall >= HELDOUT_FLOOR[1]


if __name__ == "__main__":
    # Only the development set's misses are printed: reading the held-out misses would make it
    # a second development set.
    p, r, n, wrong = measure(DATA)
    print("\n".join(wrong))
    print(
        f"development: {n} messages, {len(wrong)} not exactly right: precision {p:.3f} recall {r:.3f}"
    )
    p, r, n, wrong = measure(HELDOUT)
    print(
        f"held-out:    {n} messages, {len(wrong)} not exactly right: precision {p:.3f} recall {r:.3f}"
    )
