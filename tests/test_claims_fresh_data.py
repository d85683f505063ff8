"""Integrity checks for the fresh held-out claim set, tests/data/claims_fresh.yaml (issue 11).

These check the data only (shape, counts, verbatim states); no claim checker is run here.
"""

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.claim_sets import BUSINESSES, DETAIL_KEYS, KINDS, STATE_KINDS, STYLES

DATA = Path(__file__).parent / "data" / "claims_fresh.yaml"

# A negation written with the typographic apostrophe: couldn’t, wasn’t, can’t, won’t …
TYPOGRAPHIC_NEGATION = re.compile(r"n\u2019t\b")
# Characters the `unicode` style stands for: no-break and zero-width spaces, soft hyphen,
# Cyrillic look-alikes, combining marks.
UNICODE_TRAPS = re.compile(
    "[\u00a0\u202f\u2007\u200b\u200c\u200d\u2060\u00ad\u0400-\u04ff\u0300-\u036f]"
)


@pytest.fixture(scope="module")
def items() -> list[dict]:
    with DATA.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def test_size_ids_and_texts(items: list[dict]) -> None:
    assert len(items) >= 240
    ids = [i["id"] for i in items]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"f\d{3}", i) for i in ids)
    texts = [i["text"].strip() for i in items]
    assert len(set(texts)) == len(texts)


def test_fields(items: list[dict]) -> None:
    for item in items:
        assert set(item) <= {"id", "business", "style", "text", "claims", "states"}, item["id"]
        assert "split" not in item, item["id"]
        assert item["business"] in BUSINESSES, item["id"]
        assert item["style"] and set(item["style"]) <= STYLES, item["id"]
        assert isinstance(item["claims"], list), item["id"]


def test_claim_kinds_and_details(items: list[dict]) -> None:
    for item in items:
        pairs = [(c["kind"], c["done"]) for c in item["claims"]]
        assert len(set(pairs)) == len(pairs) or "details" in item["style"], item["id"]
        for claim in item["claims"]:
            assert claim["kind"] in KINDS, item["id"]
            assert isinstance(claim["done"], bool), item["id"]
            details = claim.get("details", {})
            assert set(details) <= DETAIL_KEYS, item["id"]
            if details:
                assert "details" in item["style"], item["id"]
            if "channel" in details:
                assert details["channel"] in {"sms", "email", "phone"}, item["id"]
            if "date" in details:
                assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", details["date"]), item["id"]
            if "time" in details:
                assert re.fullmatch(r"[0-2]\d:[0-5]\d", details["time"]), item["id"]
            if "amount" in details:
                assert isinstance(details["amount"], (int, float)), item["id"]


def test_details_items(items: list[dict]) -> None:
    tagged = [i for i in items if "details" in i["style"]]
    assert len(tagged) >= 30
    for item in tagged:
        assert any(c.get("details") for c in item["claims"]), item["id"]


def test_every_style_has_eight_items(items: list[dict]) -> None:
    counts = Counter(s for i in items for s in i["style"])
    assert {s: counts[s] for s in STYLES if counts[s] < 8} == {}


def test_surface_styles_match_text(items: list[dict]) -> None:
    for item in items:
        text, style = item["text"], set(item["style"])
        if "typographic" in style:
            assert re.search("[\u2018\u2019\u201c\u201d]", text), item["id"]
        if "unicode" in style:
            assert UNICODE_TRAPS.search(text), item["id"]
        if "checkmarks" in style:
            assert "\u2705" in text or "\u274c" in text, item["id"]
        if "table" in style:
            assert re.search(r"^\|.*\|\s*$", text, re.M), item["id"]
        if "numbered" in style:
            assert re.search(r"^\s*\d+[.)] ", text, re.M), item["id"]
        if "long" in style:
            assert len(text) >= 600, item["id"]


def test_typographic_negations(items: list[dict]) -> None:
    assert sum(bool(TYPOGRAPHIC_NEGATION.search(i["text"])) for i in items) >= 50


def test_states_are_verbatim(items: list[dict]) -> None:
    for item in items:
        for state in item.get("states", []):
            assert state["kind"] in STATE_KINDS, item["id"]
            assert state["text"] in item["text"], item["id"]
