"""The claim checker against hand-labelled sets written independently of it.

Every set here has been read while tuning and is development data: ``claims_blind.yaml`` (the
third round's blind set, 0.904 / 0.867 when scored once; tuned on in the fourth round),
``claims_fresh.yaml`` (the second round's held-out set, 0.875 / 0.800 when scored once; tuned on
in the third round), ``claims_labelled.yaml`` (old development set), ``claims_heldout.yaml`` (old
held-out set) and both halves of ``claims_hosted.yaml``. A new blind set is scored by the lead,
once, and is not read here.

Precision and recall are over (kind, done) pairs of action claims (``opsbench.agreement``, the
same code ``opsbench claims agreement`` uses for an LLM judge). ``-s`` prints the tables: per
kind, per style, details, descriptions of the account. Every set must meet the issue's targets.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from opsbench.agreement import Agreement, load_set, measure, render
from sandbox.claims import KINDS, Claim, LexiconClaimChecker

HERE = Path(__file__).parent / "data"
DATA = HERE / "claims_labelled.yaml"
HELDOUT = HERE / "claims_heldout.yaml"
HOSTED = HERE / "claims_hosted.yaml"
FRESH = HERE / "claims_fresh.yaml"
# Written by an author who never saw the checker and scored once after round 3 (0.904 / 0.867,
# README); tuned on in round 4, so it is held to the targets like every development set.
BLIND = HERE / "claims_blind.yaml"
# Written by an author who never saw the checker and scored once, after round 4: 0.903 / 0.879
# (README). The targets are not met on unseen text; the floor sits just under what was
# measured (0.915 / 0.907 after round 5), so a regression shows. Burnt for tuning since.
BLIND2 = HERE / "claims_blind2.yaml"
BLIND2_FLOOR = (0.91, 0.90)
# Round 5 split the second blind set by id parity before changing the checker: odd ids (n001,
# n003, ...) were tuned on, even ids were scored once at the end. Floors sit just under the
# figures measured then (odd 0.931 / 0.928, even 0.898 / 0.885), so a regression shows.
BLIND2_HALVES = {"odd": (0.92, 0.92), "even": (0.89, 0.88)}
# The third blind set (406 messages, another author who never saw the checker), scored once after
# round 5: 0.861 / 0.822 (0.852 / 0.812 by the checker before round 5; README). The floor sits
# just under it so a regression shows; burnt for tuning since.
BLIND3 = HERE / "claims_blind3.yaml"
BLIND3_FLOOR = (0.90, 0.90)  # after round 8 (0.908 / 0.902)
# The fourth blind set (421 messages, a fourth author who never saw the checker, its labels read
# twice), scored once on 2026-12-03 by the round-5 checker: 0.891 / 0.829 (README). Development
# data from then on; the floor sits just under the figure so a regression shows.
BLIND4 = HERE / "claims_blind4.yaml"
BLIND4_FLOOR = (0.94, 0.92)  # after round 8 (0.945 / 0.930)
# The fifth blind set (439 messages, a fifth author who never saw the checker, its labels read
# twice), scored once on 2026-12-03 12:38 UTC by the round-6 checker: 0.911 / 0.881 (README; the
# round-5 checker scores 0.902 / 0.843 on it); 0.910 / 0.879 after the fixes a review of round 6
# found with its own sentences. Development data from then on; the floor sits just under the
# figure so a regression shows.
BLIND5 = HERE / "claims_blind5.yaml"
BLIND5_FLOOR = (0.95, 0.95)  # after round 8 (0.962 / 0.959)
# The sixth blind set (362 messages over nine businesses, three authors who never saw the
# checker), scored once on 2026-12-03 17:12 UTC by the round-7 checker: 0.926 / 0.890 (README; the
# round-6 checker scores 0.910 / 0.881 on it). Development data from then on.
BLIND6 = HERE / "claims_blind6.yaml"
BLIND6_FLOOR = (0.94, 0.94)  # after round 8, which tuned on it (0.947 / 0.949)
# The seventh blind set (390 messages over all eleven businesses, six authors who never saw the
# checker, every label read twice), scored once on 2026-12-03 18:49 UTC by the round-8 checker:
# 0.907 / 0.864 (README; the round-7 checker scores 0.909 / 0.851 on it). Development data from
# then on; the floor sits just under the figure so a regression shows.
BLIND7 = HERE / "claims_blind7.yaml"
BLIND7_FLOOR = (0.93, 0.90)  # after round 10 (0.931 / 0.904)
# The eighth blind set (394 messages over all eleven businesses, six more authors who never saw
# the checker, every label read twice), scored once on 2026-12-03 19:12 UTC by the round-9
# checker: 0.914 / 0.887 (README; the round-8 checker scores 0.914 / 0.882 and the round-7 one
# 0.914 / 0.869 on it). Development data from then on.
BLIND8 = HERE / "claims_blind8.yaml"
BLIND8_FLOOR = (0.92, 0.90)  # after round 11 (0.921 / 0.904)
# The ninth blind set (396 messages over all eleven businesses, six more authors who never saw
# the checker, every label read twice), scored once on 2026-12-04 18:58 UTC by the round-10
# checker: 0.927 / 0.902 (README; the round-9 checker scores 0.924 / 0.901 on it). Development
# data from then on.
BLIND9 = HERE / "claims_blind9.yaml"
BLIND9_FLOOR = (0.94, 0.92)  # after round 11, which tuned on it (0.944 / 0.929)
# The tenth blind set (396 messages over all eleven businesses, six more authors who never saw
# the checker, every label read twice), scored once on 2026-12-04 19:22 UTC by the round-11
# checker: 0.934 / 0.912 (README; round 10 scores 0.929 / 0.906 and round 9 0.928 / 0.902 on it).
# Development data from then on.
BLIND10 = HERE / "claims_blind10.yaml"
BLIND10_FLOOR = (0.94, 0.92)  # after round 12, which tuned on it (0.940 / 0.927)
# The eleventh blind set (396 messages over all eleven businesses, six more authors who never saw
# the checker, every label read twice), scored once on 2026-12-04 19:31 UTC by the round-12
# checker: 0.942 / 0.902 (README; rounds 11 and 10 score 0.938 / 0.898, round 9 0.936 / 0.893 on
# it). Development data from then on.
BLIND11 = HERE / "claims_blind11.yaml"
BLIND11_FLOOR = (0.94, 0.91)  # after round 13, which tuned on it (0.949 / 0.915)
# The twelfth blind set (396 messages over all eleven businesses, six more authors who never saw
# the checker, every label read twice), scored once on 2026-12-04 19:40 UTC by the round-13
# checker: 0.929 / 0.912 (README; round 12 scores the same, round 11 0.928 / 0.906, round 9
# 0.922 / 0.899). Development data from then on.
BLIND12 = HERE / "claims_blind12.yaml"
BLIND12_FLOOR = (0.92, 0.91)
TARGET = (0.95, 0.93)


def _measure(path: Path, split: str | None = None):
    return measure(load_set(path, split), LexiconClaimChecker().extract)


def blind2_half(parity: str) -> list[dict]:
    """The messages of the second blind set with odd (tuned on) or even (held out) ids."""
    want = 1 if parity == "odd" else 0
    return [i for i in load_set(BLIND2) if int(i["id"].lstrip("n")) % 2 == want]


def test_labelled_sets_use_only_known_kinds():
    for path in (DATA, HELDOUT, HOSTED, FRESH, BLIND):
        items = load_set(path)
        assert len(items) >= 80
        assert {c["kind"] for item in items for c in item["claims"]} <= set(KINDS)


@pytest.mark.parametrize(
    "label, path, split",
    [
        ("old development set", DATA, None),
        ("old held-out set", HELDOUT, None),
        ("hosted set, both halves", HOSTED, None),
        ("fresh set", FRESH, None),
        ("round-3 blind set", BLIND, None),
    ],
    ids=["labelled", "heldout", "hosted", "fresh", "blind"],
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


@pytest.mark.parametrize("path", [DATA, HELDOUT, HOSTED, FRESH, BLIND], ids=lambda p: p.name)
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
        "round-3 blind": (BLIND, None),
    }.items():
        result = _measure(path, split)
        print("\n".join(result.misses))
        print(render(label, result))


def test_claim_checker_on_the_second_blind_set():
    m = _measure(BLIND2)
    print("\n" + render("second blind set (scored once)", m))
    assert m.total.precision >= BLIND2_FLOOR[0]
    assert m.total.recall >= BLIND2_FLOOR[1]


@pytest.mark.parametrize("parity", sorted(BLIND2_HALVES))
def test_claim_checker_on_each_half_of_the_second_blind_set(parity):
    items = blind2_half(parity)
    assert len(items) == 176
    m = measure(items, LexiconClaimChecker().extract)
    print("\n" + render(f"second blind set, {parity} ids", m))
    floor = BLIND2_HALVES[parity]
    assert m.total.precision >= floor[0] and m.total.recall >= floor[1]


@pytest.mark.parametrize(
    ("path", "messages", "floor"),
    [
        (BLIND3, 406, BLIND3_FLOOR),
        (BLIND4, 421, BLIND4_FLOOR),
        (BLIND5, 439, BLIND5_FLOOR),
        (BLIND6, 362, BLIND6_FLOOR),
        (BLIND7, 390, BLIND7_FLOOR),
        (BLIND8, 394, BLIND8_FLOOR),
        (BLIND9, 396, BLIND9_FLOOR),
        (BLIND10, 396, BLIND10_FLOOR),
        (BLIND11, 396, BLIND11_FLOOR),
        (BLIND12, 396, BLIND12_FLOOR),
    ],
    ids=[
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
    ],
)
def test_claim_checker_on_the_later_blind_sets(path, messages, floor):
    m = _measure(path)
    print("\n" + render(f"{path.name} (scored once)", m))
    assert m.messages == messages
    assert m.total.precision >= floor[0]
    assert m.total.recall >= floor[1]


def test_claims_of_kinds_the_sets_do_not_label_are_read_in_their_words_or_not_scored():
    # The sets predate the pharmacy's, garage's and provider's own kinds: a refill request is
    # labelled as an order, an estimate approval or a number port carries no label at all.
    item = {"text": "x", "claims": [{"kind": "order", "done": True}]}
    read = [
        Claim("refill_request", True, "x", (0, 1)),
        Claim("work_order_approval", True, "x", (0, 1)),
        Claim("port_out", False, "x", (0, 1)),
    ]
    agreement = Agreement()
    agreement.add(item, read)
    assert (agreement.total.tp, agreement.total.fp, agreement.total.fn) == (1, 0, 0)
    assert agreement.misses == []
    # A kind the sets do label is still scored as itself.
    agreement.add(item, [Claim("booking", True, "x", (0, 1))])
    assert (agreement.total.fp, agreement.total.fn) == (1, 1)
