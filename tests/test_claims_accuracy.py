"""The claim checker against a hand-labelled set written independently of it.

Prints precision and recall over (kind, done) pairs; the README publishes these figures. The
floors are the figures measured when the checker last changed, so a regression fails.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from sandbox.claims import KINDS, LexiconClaimChecker

DATA = Path(__file__).parent / "data" / "claims_labelled.yaml"


def measure() -> tuple[float, float, int, list[str]]:
    items = yaml.safe_load(DATA.read_text("utf-8"))
    checker = LexiconClaimChecker()
    tp = fp = fn = 0
    misses: list[str] = []
    for item in items:
        gold = {(c["kind"], c["done"]) for c in item["claims"]}
        got = {(c.kind, c.done) for c in checker.extract(item["text"])}
        tp += len(gold & got)
        fp += len(got - gold)
        fn += len(gold - got)
        if gold != got:
            misses.append(f"{item['text']!r}\n    gold={sorted(gold)}\n    got ={sorted(got)}")
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall, len(items), misses


def test_labelled_set_uses_only_known_kinds():
    items = yaml.safe_load(DATA.read_text("utf-8"))
    assert len(items) >= 80
    assert {c["kind"] for item in items for c in item["claims"]} <= set(KINDS)


def test_claim_checker_precision_and_recall_on_the_labelled_set():
    precision, recall, count, _ = measure()
    print(f"\nclaim checker on {count} labelled messages: precision {precision:.3f}, recall {recall:.3f}")
    assert precision >= 0.85
    assert recall >= 0.80


if __name__ == "__main__":
    p, r, n, wrong = measure()
    print("\n".join(wrong))
    print(f"{n} messages, {len(wrong)} not exactly right: precision {p:.3f} recall {r:.3f}")
