"""Integrity checks for the blind held-out claim set, tests/data/claims_blind.yaml (issue 11).

These check the data only (shape, kinds, styles, businesses, verbatim states, dates that name a
weekday); no claim checker is run or imported here.
"""

import datetime
import re
from collections import Counter

import pytest

from tests.claim_sets import DATA_DIR, WEEKDAYS, load_items, weekday_date_mismatches

# The vocabulary of tests/data/README.md, shared with the other labelled sets' checks.
from tests.test_claims_fresh_data import (
    BUSINESSES,
    DETAIL_KEYS,
    KINDS,
    STATE_KINDS,
    STYLES,
    TYPOGRAPHIC_NEGATION,
    UNICODE_TRAPS,
)

DATA = DATA_DIR / "claims_blind.yaml"


@pytest.fixture(scope="module")
def items() -> list[dict]:
    return load_items(DATA)


def test_size_ids_and_texts(items: list[dict]) -> None:
    assert len(items) >= 360
    ids = [i["id"] for i in items]
    assert ids == [f"b{n:03d}" for n in range(1, len(items) + 1)]
    texts = [i["text"].strip() for i in items]
    assert len(set(texts)) == len(texts)


def test_fields_businesses_and_styles(items: list[dict]) -> None:
    for item in items:
        assert set(item) <= {"id", "business", "style", "text", "claims", "states"}, item["id"]
        assert item["business"] in BUSINESSES, item["id"]
        assert item["style"] and set(item["style"]) <= STYLES, item["id"]
        assert len(set(item["style"])) == len(item["style"]), item["id"]
        assert isinstance(item["claims"], list), item["id"]
    per_business = Counter(i["business"] for i in items)
    assert set(per_business) == BUSINESSES
    assert min(per_business.values()) >= 25


def test_every_kind_and_style_present(items: list[dict]) -> None:
    kinds = Counter(c["kind"] for i in items for c in i["claims"])
    assert set(kinds) == KINDS
    styles = Counter(s for i in items for s in i["style"])
    assert {s: styles[s] for s in STYLES if styles[s] < 8} == {}
    assert sum(not i["claims"] for i in items) >= 0.1 * len(items)


def test_claims_and_details(items: list[dict]) -> None:
    for item in items:
        pairs = [(c["kind"], c["done"]) for c in item["claims"]]
        assert len(set(pairs)) == len(pairs) or "details" in item["style"], item["id"]
        for claim in item["claims"]:
            assert set(claim) <= {"kind", "done", "details"}, item["id"]
            assert claim["kind"] in KINDS, item["id"]
            assert isinstance(claim["done"], bool), item["id"]
            details = claim.get("details", {})
            assert set(details) <= DETAIL_KEYS, item["id"]
            if details:
                assert "details" in item["style"], item["id"]
            if "channel" in details:
                assert details["channel"] in {"sms", "email", "phone"}, item["id"]
            if "date" in details:
                assert datetime.date.fromisoformat(details["date"]).year == 2026, item["id"]
            if "weekday" in details:
                assert details["weekday"] in WEEKDAYS, item["id"]
            if "time" in details:
                assert re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", details["time"]), item["id"]
            if "amount" in details:
                assert isinstance(details["amount"], (int, float)), item["id"]
                assert not isinstance(details["amount"], bool), item["id"]
    tagged = [i for i in items if "details" in i["style"]]
    assert len(tagged) >= 30
    for item in tagged:
        assert any(c.get("details") for c in item["claims"]), item["id"]


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
        if "bullets" in style:
            assert re.search(r"^\s*[-*] ", text, re.M), item["id"]
        if "markdown" in style:
            assert re.search(r"^#+ |\*\*[^*]+\*\*", text, re.M), item["id"]
        if "long" in style:
            assert len(text) >= 600, item["id"]


def test_typographic_negations(items: list[dict]) -> None:
    assert sum(bool(TYPOGRAPHIC_NEGATION.search(i["text"])) for i in items) >= 60


def test_states_are_verbatim(items: list[dict]) -> None:
    for item in items:
        for state in item.get("states", []):
            assert set(state) == {"kind", "text"}, item["id"]
            assert state["kind"] in STATE_KINDS, item["id"]
            assert state["text"] in item["text"], item["id"]


def test_weekdays_match_dates(items: list[dict]) -> None:
    assert weekday_date_mismatches(items) == []
