"""Integrity of the hand-labelled hosted-assistant message set (tests/data/claims_hosted.yaml).

These tests check the data file only (schema, ids, kinds, split balance); they do not run any
claim checker.
"""

import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.claim_sets import DETAIL_KEYS, STATE_KINDS, STYLES
from tests.claim_sets import KINDS as CLAIM_KINDS

DATA = Path(__file__).parent / "data" / "claims_hosted.yaml"

# The hosted set names two businesses by older ids (vet_clinic, telecom).
BUSINESSES = {
    "dental_clinic",
    "hair_salon",
    "vet_clinic",
    "restaurant",
    "auto_repair",
    "home_services",
    "fitness_gym",
    "boutique_hotel",
    "online_store",
    "telecom",
    "pharmacy",
}
WEEKDAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
ITEM_KEYS = {"id", "split", "business", "style", "text", "claims", "states"}


@pytest.fixture(scope="module")
def items() -> list[dict[str, Any]]:
    with DATA.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    assert isinstance(data, list)
    return data


def test_size_and_unique_ids(items: list[dict[str, Any]]) -> None:
    assert len(items) >= 340
    ids = [it["id"] for it in items]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"h\d{3}", i) for i in ids)


def test_item_schema(items: list[dict[str, Any]]) -> None:
    for it in items:
        assert set(it) <= ITEM_KEYS, it["id"]
        assert {"id", "split", "business", "style", "text", "claims"} <= set(it), it["id"]
        assert it["business"] in BUSINESSES, it["id"]
        assert isinstance(it["text"], str) and it["text"].strip(), it["id"]
        assert it["style"] and set(it["style"]) <= STYLES, it["id"]
        assert len(it["style"]) == len(set(it["style"])), it["id"]
        assert isinstance(it["claims"], list), it["id"]


def test_texts_unique(items: list[dict[str, Any]]) -> None:
    texts = Counter(it["text"] for it in items)
    assert [t for t, n in texts.items() if n > 1] == []


def test_claims(items: list[dict[str, Any]]) -> None:
    for it in items:
        pairs = set()
        for claim in it["claims"]:
            assert set(claim) <= {"kind", "done", "details"}, it["id"]
            assert claim["kind"] in CLAIM_KINDS, it["id"]
            assert isinstance(claim["done"], bool), it["id"]
            pair = (claim["kind"], claim["done"])
            assert pair not in pairs, f"{it['id']}: {pair} listed twice"
            pairs.add(pair)


def _check_details(item_id: str, details: dict[str, Any]) -> None:
    assert details and set(details) <= DETAIL_KEYS, item_id
    if "date" in details:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(details["date"])), item_id
    if "weekday" in details:
        assert details["weekday"] in WEEKDAYS, item_id
    if "time" in details:
        assert re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", str(details["time"])), item_id
    if "amount" in details:
        amount = details["amount"]
        assert isinstance(amount, (int, float)) and not isinstance(amount, bool), item_id
        assert amount >= 0, item_id
    if "channel" in details:
        assert details["channel"] in {"sms", "email", "phone"}, item_id
    for key in ("staff", "item", "recipient"):
        if key in details:
            assert isinstance(details[key], str) and details[key].strip(), item_id


def test_details(items: list[dict[str, Any]]) -> None:
    with_details = 0
    for it in items:
        has = False
        for claim in it["claims"]:
            if "details" in claim:
                _check_details(it["id"], claim["details"])
                has = True
        # Details are labelled exactly on the items tagged `details` (see tests/data/README.md).
        assert has == ("details" in it["style"]), it["id"]
        with_details += has
    assert with_details >= 20


def test_states(items: list[dict[str, Any]]) -> None:
    for it in items:
        for state in it.get("states", []):
            assert set(state) == {"kind", "text"}, it["id"]
            assert state["kind"] in STATE_KINDS, it["id"]
            assert state["text"] in it["text"], f"{it['id']}: state text not verbatim"


def test_split_balance(items: list[dict[str, Any]]) -> None:
    splits = Counter(it["split"] for it in items)
    assert set(splits) == {"dev", "test"}
    assert abs(splits["dev"] - splits["test"]) <= 2
    per_style: dict[str, Counter[str]] = {}
    for it in items:
        for style in it["style"]:
            per_style.setdefault(style, Counter())[it["split"]] += 1
    assert set(per_style) == STYLES
    for style, counts in per_style.items():
        assert counts["dev"] > 0 and counts["test"] > 0, style
        # Per-style figures are reported for both halves, so each style is split about evenly.
        assert abs(counts["dev"] - counts["test"]) <= 3, (style, counts)


def test_typographic_negations(items: list[dict[str, Any]]) -> None:
    # The set must exercise negations written with the typographic apostrophe (U+2019).
    negated = [it for it in items if re.search(r"n\u2019t\b", it["text"])]
    assert len(negated) >= 60


def test_every_business_present(items: list[dict[str, Any]]) -> None:
    assert {it["business"] for it in items} == BUSINESSES


def _has_odd_unicode(text: str) -> bool:
    invisible = "\u00a0\u200b\u00ad\u202f\ufeff"
    return any(
        c in invisible or unicodedata.combining(c) or "CYRILLIC" in unicodedata.name(c, "")
        for c in text
    )


# What each surface-style tag promises about the text; a tag that lies would skew per-style figures.
STYLE_MARKERS = {
    "unicode": _has_odd_unicode,
    "typographic": lambda t: any(c in t for c in "\u2018\u2019\u201c\u201d"),
    "checkmarks": lambda t: "\u2705" in t or "\u274c" in t,
    "table": lambda t: bool(re.search(r"^\|[-| ]+\|$", t, re.M)),
    "emoji": lambda t: any(ord(c) >= 0x2600 and unicodedata.category(c) == "So" for c in t),
    "markdown": lambda t: "**" in t or bool(re.search(r"^#+ ", t, re.M)),
    "numbered": lambda t: bool(re.search(r"^\d+[.)] ", t, re.M)),
    "bullets": lambda t: bool(re.search(r"^[-\u2022] ", t, re.M)),
    "long": lambda t: len(t) >= 600,
}


def test_style_tags_match_text(items: list[dict[str, Any]]) -> None:
    for it in items:
        for style, present in STYLE_MARKERS.items():
            if style in it["style"]:
                assert present(it["text"]), f"{it['id']}: tagged {style} but text lacks it"
        if _has_odd_unicode(it["text"]):
            assert "unicode" in it["style"], f"{it['id']}: odd Unicode not tagged"
        if any(c in it["text"] for c in "\u2018\u2019\u201c\u201d"):
            assert "typographic" in it["style"], f"{it['id']}: typographic quotes not tagged"
