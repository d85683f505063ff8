"""Integrity checks for the second blind held-out claim set, tests/data/claims_blind2.yaml (issue 11).

These check the data only (shape, kinds, styles, businesses, details, verbatim states, the
characters the surface tags promise, and that the README's tables are the file's counts); no
claim checker is run or imported here, so running them does not unblind the set.
"""

import re
from collections import Counter

import pytest

from tests.claim_sets import (
    BUSINESSES,
    DATA_DIR,
    KINDS,
    STATE_KINDS,
    STYLES,
    UNICODE_TRAPS,
    check_claim_shapes,
    check_details,
    load_items,
    weekday_date_mismatches,
)

DATA = DATA_DIR / "claims_blind2.yaml"
README = DATA_DIR / "README.md"

# What the set was written to contain (the brief of its author, repeated in the README).
MIN_ITEMS = 330
PER_BUSINESS = range(28, 35)
MIN_PER_STYLE = 12
MIN_TYPOGRAPHIC_NEGATIONS = 100
MIN_DETAILS_ITEMS = 50
MIN_RUN_ONS = 4  # messages of 1,500+ characters with (almost) no sentence punctuation

TYPOGRAPHIC_NEGATION = re.compile(r"\w+n\u2019t\b|\bcan\u2019t\b|\bwon\u2019t\b", re.I)


# The invisible or look-alike characters the `unicode` items are written with, by name.
@pytest.fixture(scope="module")
def items() -> list[dict]:
    return load_items(DATA)


def test_size_ids_and_texts(items: list[dict]) -> None:
    assert len(items) >= MIN_ITEMS
    ids = [i["id"] for i in items]
    assert ids == [f"n{n:03d}" for n in range(1, len(items) + 1)]
    texts = [i["text"].strip() for i in items]
    assert len(set(texts)) == len(texts)


def test_fields_and_businesses(items: list[dict]) -> None:
    for item in items:
        assert set(item) <= {"id", "business", "style", "text", "claims", "states"}, item["id"]
        assert item["business"] in BUSINESSES, item["id"]
        assert item["style"] and set(item["style"]) <= STYLES, item["id"]
        assert len(set(item["style"])) == len(item["style"]), item["id"]
        assert isinstance(item["claims"], list), item["id"]
    per_business = Counter(i["business"] for i in items)
    assert set(per_business) == BUSINESSES
    assert {b: n for b, n in per_business.items() if n not in PER_BUSINESS} == {}


def test_every_kind_and_style_present(items: list[dict]) -> None:
    kinds = Counter(c["kind"] for i in items for c in i["claims"])
    assert set(kinds) == KINDS
    styles = Counter(s for i in items for s in i["style"])
    assert {s: styles[s] for s in STYLES if styles[s] < MIN_PER_STYLE} == {}
    assert styles["details"] >= MIN_DETAILS_ITEMS
    # The no-claim items (offers, questions, state, reported speech) are deliberate traps.
    assert sum(not i["claims"] for i in items) >= 0.1 * len(items)


def test_claims_shape(items: list[dict]) -> None:
    check_claim_shapes(items)


def test_details_keys_and_normalisation(items: list[dict]) -> None:
    check_details(items)


def test_surface_styles_match_text(items: list[dict]) -> None:
    for item in items:
        text, style = item["text"], set(item["style"])
        if "typographic" in style:
            assert "\u2019" in text or re.search("[\u2018\u201c\u201d]", text), item["id"]
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


def test_typographic_items_write_negations_with_curly_apostrophes(items: list[dict]) -> None:
    typographic = [i for i in items if "typographic" in i["style"]]
    assert all("\u2019" in i["text"] for i in typographic)
    negations = [i["id"] for i in typographic if TYPOGRAPHIC_NEGATION.search(i["text"])]
    assert len(negations) >= MIN_TYPOGRAPHIC_NEGATIONS


def test_unicode_items_contain_the_characters_and_others_do_not(items: list[dict]) -> None:
    seen: Counter[str] = Counter()
    for item in items:
        found = {name for name, trap in UNICODE_TRAPS.items() if trap.search(item["text"])}
        if "unicode" in item["style"]:
            assert found, item["id"]
            seen.update(found)
        else:
            assert not found, (item["id"], found)  # only tagged items carry the traps
    assert {name for name in UNICODE_TRAPS if seen[name] < 2} == set()


def test_run_on_messages(items: list[dict]) -> None:
    run_ons = [
        i["id"]
        for i in items
        if len(i["text"]) >= 1500 and len(re.findall(r"[.!?;:]", i["text"])) <= 3
    ]
    assert len(run_ons) >= MIN_RUN_ONS
    assert all("long" in i["style"] for i in items if i["id"] in run_ons)


def test_states_are_verbatim(items: list[dict]) -> None:
    for item in items:
        for state in item.get("states", []):
            assert set(state) == {"kind", "text"}, item["id"]
            assert state["kind"] in STATE_KINDS, item["id"]
            assert state["text"] in item["text"], item["id"]


def test_weekdays_match_dates(items: list[dict]) -> None:
    assert weekday_date_mismatches(items) == []


def _readme_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## `claims_blind2.yaml`")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _table_counts(section: str, heading: str) -> dict[str, str]:
    """`name -> cell` for every `name` cell of the table that starts at `heading` (rows may hold
    several name/value pairs side by side)."""
    after = section[section.index(heading) :]
    rows: dict[str, str] = {}
    for line in after.splitlines()[1:]:
        if rows and not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for at, name in enumerate(cells[:-1]):
            if name.startswith("`"):
                rows[name.strip("`")] = cells[at + 1]
    return rows


def test_readme_tables_are_the_file_counts(items: list[dict]) -> None:
    section = _readme_section()
    styles = Counter(s for i in items for s in i["style"])
    assert _table_counts(section, "| style |") == {s: str(n) for s, n in styles.items()}
    kinds = Counter((c["kind"], c["done"]) for i in items for c in i["claims"])
    expected = {k: f"{kinds[(k, True)]} / {kinds[(k, False)]}" for k in KINDS}
    assert _table_counts(section, "| kind |") == expected
    businesses = Counter(i["business"] for i in items)
    assert _table_counts(section, "| business |") == {b: str(n) for b, n in businesses.items()}
    assert f"**{len(items)} assistant messages" in section
