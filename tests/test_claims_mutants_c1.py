"""The claim checker's records, normalisation, spelling, layout and extraction, read through
small behaviour cases that the labelled sets do not pin down (found by mutation testing of
sandbox/claims/: types, normalise, spelling, structure, extract, lexicon, guard, prefilter)."""

from __future__ import annotations

import re
import string

import pytest

from sandbox.claims import CheckedClaim, Claim, Details
from sandbox.claims.guard import compile_guarded, factored, first_characters
from sandbox.claims.normalise import normalise
from sandbox.claims.spelling import correct, correction
from sandbox.claims.structure import units

# -- the records (types.py) --------------------------------------------------------------------

LABELS = [
    # (details as the labelled sets write them, the same in the checker's terms)
    ({"amount": 12.5}, {"amount": 1250}),
    ({"amount": 40}, {"amount": 4000}),
    ({"amount": "full"}, {"amount": "full"}),
    ({"amount": True}, {"amount": True}),  # a flag, not one cent
    ({"date": "2026-03-14"}, {"date": "03-14"}),
    ({"date": "14"}, {"date": "14"}),
    ({"weekday": "Thursday"}, {"weekday": "thu"}),
    (
        {"channel": "SMS", "recipient": "Ana@Example.com"},
        {"channel": "sms", "recipient": "ana@example.com"},
    ),
    (
        {"time": "09:30", "staff": "Luis", "item": "#4821"},
        {"time": "09:30", "staff": "Luis", "item": "#4821"},
    ),
    ({"item": 4821}, {"item": "4821"}),
    ({"time": None, "staff": "", "colour": "red"}, {}),
    # A detail not stated, or not one the checker reads, leaves the others as they are.
    ({"time": None, "colour": "red", "staff": "Luis"}, {"staff": "Luis"}),
]


@pytest.mark.parametrize("labels, details", LABELS, ids=[str(row[0]) for row in LABELS])
def test_labelled_details_read_in_the_checkers_terms(labels, details):
    assert Details.from_labels(labels).to_dict() == details


def test_no_labelled_details_are_no_details():
    assert Details.from_labels(None) == Details()
    assert Details.from_dict(None) == Details()
    assert Details.from_dict({"time": "", "staff": None}) == Details()
    assert not Details.from_labels({})


def test_details_are_true_when_any_one_is_stated():
    assert not Details()
    for name in ("date", "weekday", "time", "staff", "amount", "item", "channel", "recipient"):
        assert Details(**{name: "x"}), name
    assert Details(recipient="a@b.c").to_dict() == {"recipient": "a@b.c"}


def test_a_claim_read_as_another_kind_keeps_the_rest():
    claim = Claim("cancellation", False, "I couldn't cancel it", (12, 18), Details(time="09:00"))
    other = claim.as_kind("subscription_cancellation")
    assert (other.kind, other.done, other.text, other.span) == (
        "subscription_cancellation",
        False,
        "I couldn't cancel it",
        (12, 18),
    )
    assert other.details == Details(time="09:00")
    assert (
        claim.fact == "cancellation_not_done" and other.fact == "subscription_cancellation_not_done"
    )


def test_a_checked_claim_is_written_out_whole():
    checked = CheckedClaim(
        "refund", True, "I've refunded $40", False, 2, True, Details(amount=4000), True, "amount"
    )
    assert checked.to_dict() == {
        "kind": "refund",
        "done": True,
        "text": "I've refunded $40",
        "true": False,
        "session": 2,
        "misstated": True,
        "details": {"amount": 4000},
        "state": True,
        "why": "amount",
    }


# -- normalisation (normalise.py) --------------------------------------------------------------

NORMALISED = [
    # ASCII text: carriage returns dropped, tabs and runs of spaces one space, line breaks kept.
    ("a\r\nb\tc  d", "a\nb c d"),
    ("one\n\ntwo", "one\n\ntwo"),
    # A done mark closing a statement mid-line ends it, with or without a variation selector.
    ("texts are off now 👍 no more pings", "texts are off now. no more pings"),
    ("it is done ✔ thanks", "it is done. thanks"),
    ("(done) 👍 I also", "(done). I also"),
    ("x 👍\ufe0f Thanks", "x. Thanks"),
    # A mark not followed by a statement is the mark's word.
    ("ab👍no", "ab donemark no"),
    ("I\u2019ve set it ⏳ x", "I've set it pendingmark x"),
    ("❌ not sent", " notdonemark not sent"),
    # NFKC, and the tables again on what NFKC makes (a triple prime is three primes).
    ("Ｙｏｕｒ ｒｅｆｕｎｄ", "Your refund"),
    ("Ｉ’ve ﬁxed it", "I've fixed it"),
    ("x‴", "x'''"),
    # Accents dropped, written as one code point or as a combining mark.
    ("é", "e"),
    ("re\u0301fund\u00a0✅", "refund donemark "),
    ("x\u0308\u20d0y", "xy"),
    # An emoji before a word that opens a statement is a full stop; elsewhere a space.
    ("today 😔 Your refund", "today. Your refund"),
    ("booked 😊 with Priya", "booked with Priya"),
    ("a 🎉\u00a0b", "a b"),
    ("ok\r\t💸 hi", "ok hi"),
]


@pytest.mark.parametrize("text, expected", NORMALISED, ids=[repr(r[0]) for r in NORMALISED])
def test_text_is_normalised_to_the_lexicons_spelling(text, expected):
    assert normalise(text) == expected


# -- spelling (spelling.py) --------------------------------------------------------------------

CORRECTED = [
    # Text-speak written out, capitalised as written.
    ("Ive resheduled ur appt", "I've rescheduled your appointment"),
    ("U can", "You can"),
    ("Cant do it", "Can't do it"),
    ("ur", "your"),
    ("x it's  refnd", "x it's  refund"),
    # A dropped letter is put back; a swap or a doubled letter is one edit. Four letters
    # allow one edit, nine allow two.
    ("orderd", "ordered"),
    ("ordr", "order"),
    ("movd", "moved"),
    ("refil", "refill"),
    ("cancelld", "cancelled"),
    ("bookd", "booked"),
    ("placd", "placed"),
    ("Reschedulled", "rescheduled"),
    ("resheduld", "rescheduled"),
    ("reminderr", "reminders"),
    # Other forms of vocabulary words are words, not typos: a stem and an ending, or the same
    # stem with two endings.
    ("charge", "charge"),
    ("cancels", "cancels"),
    ("refunding", "refunding"),
    ("Refunded", "Refunded"),
    ("refundes", "refundes"),
    ("unfortunates", "unfortunates"),
    ("chargs", "chargs"),
    # Words of three letters are never corrected.
    ("bok", "bok"),
]


@pytest.fixture
def afresh():
    """Each word's correction worked out in the test, not read from an earlier test's cache."""
    correction.cache_clear()
    yield
    correction.cache_clear()


@pytest.mark.usefixtures("afresh")
@pytest.mark.parametrize("text, expected", CORRECTED, ids=[r[0] for r in CORRECTED])
def test_misspelt_action_words_are_corrected(text, expected):
    assert correct(text) == expected


# -- the first-character guard and the factored alternatives (guard.py) -------------------------

FIRST = [
    # (pattern, the guard under IGNORECASE, the guard case-sensitive); None: no guard
    (r"\bno\b", "Nn", "n"),
    (r"(?:ab|cd)", "ACac", "ac"),
    # An alternative or a repeat that can match nothing lets what follows start the match.
    (r"(?:a|)c", "ACac", "ac"),
    (r"(?:ab|c)?d", "ACDacd", "acd"),
    (r"a*b", "ABab", "ab"),
    (r"a{0,2}b", "ABab", "ab"),
    (r"a*?b", "ABab", "ab"),
    (r"a+b", "Aa", "a"),
    (r"(?:a|b*)c", "ABCabc", "abc"),
    (r"(?:ab)*c", "ACac", "ac"),
    (r"(?>ab|cd)e", "ACac", "ac"),
    (r"(?P<g>ab)", "Aa", "a"),
    (r"(a)\1", "Aa", "a"),
    # What may come first is every optional part before the first required one.
    (r"a?[bc]", "ABCabc", "abc"),
    (r"a?(bx|cy)d", "ABCabc", "abc"),
    # Upper-case letters of the pattern: both cases under IGNORECASE.
    (r"Dr\.", "Dd", "D"),
    # Look-arounds and anchors consume nothing.
    (r"(?=x)ab", "Aa", "a"),
    (r"^\s*if", "I\\si", "\\si"),
    (r"(?:\s|x)y", "X\\sx", "\\sx"),
    # Classes: their members, a space or a digit whole, characters a class must escape.
    (r"[a-e]x", "ABCDEabcde", "abcde"),
    (r"[\d-]x", "\\-\\d", "\\-\\d"),
    (r"[-\]^\[\\]", "\\-\\[\\\\\\]\\^", "\\-\\[\\\\\\]\\^"),
    (r"[.?]", "\\.\\?", "\\.\\?"),
    # Unbounded: any letter, a negated class, any character, nothing required at all.
    (r"[a-z]x", None, "abcdefghijklmnopqrstuvwxyz"),
    (r"[^a]x", None, None),
    (r"\wx", None, None),
    (r".x", None, None),
    (r"(?:a|b)?", None, None),
    (r"(?:a|b*)", None, None),
    (r"x*", None, None),
    (r"(?=a)", None, None),
    (r"(?:)", None, None),
    (r"[a-\x28]", None, None),  # does not compile
]


@pytest.mark.parametrize("pattern, folded, exact", FIRST, ids=[row[0] for row in FIRST])
def test_a_guard_names_the_characters_a_match_can_start_with(pattern, folded, exact):
    assert first_characters(pattern, re.IGNORECASE) == folded
    assert first_characters(pattern) == exact


def test_a_guard_names_at_most_forty_characters():
    twenty = "|".join(string.ascii_lowercase[:20])
    assert first_characters(twenty, re.IGNORECASE) == string.ascii_uppercase[:20] + twenty[::2]
    assert first_characters(twenty + "|u", re.IGNORECASE) is None
    assert first_characters("[ -G]") == "".join(_guard_escape(chr(c)) for c in range(0x20, 0x48))
    assert first_characters("[ -H]") is None


def test_a_verbose_pattern_starts_where_its_first_character_is_not_a_space():
    assert first_characters("  a b", re.VERBOSE) == "a"


def test_a_case_sensitive_pattern_keeps_both_spellings_of_its_alternatives():
    gated = compile_guarded("Ab|ab")
    assert [m.group(0) for m in gated.finditer("ab Ab AB")] == ["ab", "Ab"]


def _guard_escape(char: str) -> str:
    return "\\" + char if char in "-]\\^[" else re.escape(char)


FACTORED = [
    # (pattern, factored under IGNORECASE, case-sensitive); None: unchanged, the same
    ("(?:not|never|no)", "(?:n(?:ot|ever|o))", "(?:n(?:ot|ever|o))"),
    # Case-sensitive, "C" and "c" are two letters.
    (
        r"\b(?:cancel|refund|Credit)",
        r"\b(?:c(?:ancel|redit)|refund)",
        r"\b(?:cancel|refund|Credit)",
    ),
    ("Ab|ab", "A(?:b|b)", "Ab|ab"),
    # A letter from another group of alternatives may move ahead: it cannot match where they do.
    ("(?:x|ab|y|ac)", "(?:x|a(?:b|c)|y)", None),
    ("(?P<n>ab|ac)|(?=ad|ae)", "(?P<n>a(?:b|c))|(?=a(?:d|e))", None),
    ("a[]b]c|ad", "a(?:[]b]c|d)", None),
    ("a[^]b]c|ad", "a(?:[^]b]c|d)", None),
    (r"(?:a\\x|ab)", r"(?:a(?:\\x|b))", None),
    (r"(?:a\(|ab)", r"(?:a(?:\(|b))", None),
    # Never across an alternative that opens otherwise, nor a quantified first letter.
    (r"(?:a|\d|ab)", None, None),
    ("(?:ab|b?c|ac)", None, None),
    ("(?:ab|a*|ac)", None, None),
    ("(?:ab|a{2}|ac)", None, None),
    ("(?:ab|a+c)", None, None),
    ("(?:ab|(?:c)|ad)", None, None),
    ("(?:ab|1|ac)", None, None),
    ("(?:éa|éb)", None, None),
    (r"[a\]]b|[a\]]c", None, None),
    ("(?<=x)ab|ac", None, None),
    # Constructs the scan does not know, and patterns that do not parse, are left as they are.
    ("(?#c)a|ab", None, None),
    ("(?i)a|ab", None, None),
    ("(?m)ab|ac", None, None),
    ("(?(1)a|b)", None, None),
    ("(?:ab|ac", None, None),
    ("ab|ac)", None, None),
    ("a(", None, None),
]


@pytest.mark.parametrize("pattern, folded, exact", FACTORED, ids=[row[0] for row in FACTORED])
def test_alternatives_opening_with_one_letter_are_written_once(pattern, folded, exact):
    folded = pattern if folded is None else folded
    assert factored(pattern) == folded
    assert factored(pattern, ignore_case=False) == (folded if exact is None else exact)


# -- the literal prefilter (prefilter.py) ------------------------------------------------------

GATE_PATTERNS = [
    r"\brefund(?:ed)?\b",
    r"(\w+) (?:moved|refunded)",
    r"\b(?:you were told|was told)\b",
]
# Texts without the patterns' words (the gate turns them away) and with them.
WITHOUT = ["I've booked you in for Thursday.", "See you soon!", "", "No change to the plan."]
WITH = [
    "We refunded $40 and moved the visit.",
    "REFUNDED: you were told it was free.",
    "refund",
    "I’ve refunded it, you were told so.",  # not ASCII: the gate is bypassed
]


@pytest.mark.parametrize("share", ["rare", "common"])
@pytest.mark.parametrize("pattern", GATE_PATTERNS)
def test_a_gated_pattern_matches_as_the_pattern_before_and_after_its_trial(pattern, share):
    """Past its trial a gate that turns most texts away is kept, one that turns few away is
    dropped; either way every method returns what the pattern itself returns."""
    plain = re.compile(pattern, re.IGNORECASE)
    gated = compile_guarded(pattern, re.IGNORECASE)
    texts = (WITHOUT * 3 + WITH) if share == "rare" else (WITH * 3 + WITHOUT)
    for _ in range(4):  # well past the trial of 64 calls
        for text in texts:
            for pos, end in ((0, len(text)), (2, max(2, len(text) - 3))):
                assert _span(gated.search(text, pos, end)) == _span(plain.search(text, pos, end))
                assert _span(gated.match(text, pos, end)) == _span(plain.match(text, pos, end))
                assert _span(gated.fullmatch(text, pos, end)) == _span(
                    plain.fullmatch(text, pos, end)
                )
                assert [m.span() for m in gated.finditer(text, pos, end)] == [
                    m.span() for m in plain.finditer(text, pos, end)
                ]
                assert gated.findall(text, pos, end) == plain.findall(text, pos, end)
            assert _span(gated.search(text)) == _span(plain.search(text))
            assert _span(gated.match(text)) == _span(plain.match(text))
            assert _span(gated.fullmatch(text)) == _span(plain.fullmatch(text))
            assert [m.span() for m in gated.finditer(text)] == [
                m.span() for m in plain.finditer(text)
            ]
            assert gated.findall(text) == plain.findall(text)
            assert gated.sub("#", text) == plain.sub("#", text)
            assert gated.sub("#", text, 1) == plain.sub("#", text, 1)
            assert gated.split(text) == plain.split(text)
            assert gated.split(text, 1) == plain.split(text, 1)


@pytest.mark.parametrize(
    "method, args",
    [
        ("search", ("refunded it", 1, 8)),
        ("match", ("xrefunded", 1, 9)),
        ("fullmatch", ("xrefund", 1, 7)),
        ("finditer", ("refund, refund", 1, 14)),
        ("findall", ("refund, refund", 1, 14)),
        ("sub", ("#", "refund, refund", 1)),
        ("split", ("a refund b refund c", 1)),
    ],
)
def test_each_method_of_a_fresh_gated_pattern_is_the_patterns_own(method, args):
    # The first call of any one method compiles the pattern and installs the others.
    plain = re.compile(r"\brefund(?:ed)?\b", re.IGNORECASE)
    gated = compile_guarded(r"\brefund(?:ed)?\b", re.IGNORECASE)
    got, expected = getattr(gated, method)(*args), getattr(plain, method)(*args)
    if method == "finditer":
        got, expected = [m.span() for m in got], [m.span() for m in expected]
    elif method in ("search", "match", "fullmatch"):
        got, expected = _span(got), _span(expected)
    assert got == expected
    assert repr(gated) == "Gated('\\\\brefund(?:ed)?\\\\b')"


def _span(match: re.Match[str] | None) -> tuple[int, int] | None:
    return None if match is None else match.span()


def test_every_lexicon_pattern_compiled_afresh_matches_as_written():
    """The factored, guarded and gated form of each lexicon pattern, worked out again in this
    test, finds exactly the matches of the pattern as the lexicon writes it."""
    from tests.test_claims_classes import ROWS as CLASS_ROWS
    from tests.test_claims_prefilter import lexicon_patterns
    from tests.test_claims_round6 import ROWS as ROUND6_ROWS

    texts = [correct(normalise(row[0])) for row in (*CLASS_ROWS, *ROUND6_ROWS)]
    assert len(texts) > 100
    for pattern, flags in sorted({(p.pattern, p.flags) for p in lexicon_patterns()}):
        plain, gated = re.compile(pattern, flags), compile_guarded(pattern, flags)
        for text in texts:
            expected = [m.span() for m in plain.finditer(text)]
            assert [m.span() for m in gated.finditer(text)] == expected, (pattern, text)


# -- the lexicon, built from its data files (lexicon.py) ---------------------------------------


def test_a_checker_on_a_lexicon_built_afresh_reads_the_messages_as_labelled():
    """Everything the lexicon works out from its data files (each kind's patterns, the
    state-description frames with their nouns, the cues) read again from those files: a
    checker given that lexicon reads each message's actions and descriptions as labelled."""
    import tests.test_claims as unit
    from sandbox.claims import LexiconClaimChecker
    from sandbox.claims.lexicon import lexicon
    from tests.test_claims_classes import ROWS as CLASS_ROWS

    checker = LexiconClaimChecker(lexicon.__wrapped__())
    rows = [(text, claims, None) for text, claims in CLASS_ROWS]
    rows += unit.PLAIN + unit.STATES + unit.HISTORY_AND_STATE + unit.STRUCTURE
    for text, claims, states in rows:
        read = checker.extract(text)
        assert {(c.kind, c.done) for c in read if not c.state} == claims, text
        if states is not None:
            assert {c.kind for c in read if c.state} == states, text


# -- the analysis cache (pattern_cache.py) -----------------------------------------------------


def test_a_pattern_with_a_lone_surrogate_is_remembered_too(tmp_path, monkeypatch):
    from sandbox.claims import pattern_cache

    monkeypatch.setenv("OPSBENCH_CACHE_DIR", str(tmp_path / "cache"))
    pattern_cache.ENTRIES.forget()
    try:
        pattern = "\ud83d|refund"  # half of a surrogate pair: a str, but no UTF-8
        assert pattern_cache.remembered("literals", pattern, 0, lambda: ["refund"]) == ["refund"]
        pattern_cache.save()
        pattern_cache.ENTRIES.forget()
        assert pattern_cache.remembered("literals", pattern, 0, lambda: None) == ["refund"]
    finally:
        monkeypatch.setenv("OPSBENCH_CACHE_DIR", "off")
        pattern_cache.ENTRIES.forget()


# -- the layout (structure.py) -----------------------------------------------------------------

LAYOUTS = [
    # A change in a line: "it" when no label names what changed.
    ("- Fibre 300 → Fibre 500", [("it changed from Fibre 300 to Fibre 500", None)]),
    ("Plan: Fibre 300 → Fibre 500", [("Plan changed from Fibre 300 to Fibre 500", None)]),
    # Under a header whose first column names the rows' thing, a row's first cell is that thing
    # (unless it already says so); an empty first cell is left empty.
    (
        "| Order | Status |\n|---|---|\n| #4821 (planter) | Cancelled |\n"
        "| order #4822 | Cancelled |\n| | Cancelled |",
        [
            ("Order #4821 (planter) is Cancelled", "done"),
            ("order #4822 is Cancelled", "done"),
            ("Cancelled", None),
        ],
    ),
    (
        "| Order | Note |\n|---|---|\n| #4821 | order shipped |",
        [("Order #4821 is order shipped", None)],
    ),
    ("| Item | Order |\n|---|---|\n| lamp | order #9 |", [("lamp is order #9", None)]),
    # A status cell of several words scopes its row.
    (
        "| Request | Status |\n|---|---|\n| Refund of $40 | Couldn't do |\n| Credit | Not sent |",
        [("Refund of $40 is Couldn't do", "not_done"), ("Credit is Not sent", "not_done")],
    ),
    # A heading no label list knows opens no scope.
    (
        "**Extras**\nYour cleaning is booked for Friday.",
        [("Your cleaning is booked for Friday.", None)],
    ),
]


@pytest.mark.parametrize("text, expected", LAYOUTS, ids=[row[0][:40] for row in LAYOUTS])
def test_a_layout_is_read_as_units_under_their_scopes(text, expected):
    assert [(u.text, u.scope) for u in units(normalise(text))] == expected


# -- details stated later in the sentence (extract.py) -----------------------------------------

LATER_DETAILS = [
    # The rest of the sentence adds details to the claim it follows.
    (
        "Your cut is booked for 9am on Tuesday, and you will be seeing Okafor.",
        ("booking", True, {"weekday": "tue", "time": "09:00", "staff": "Okafor"}),
    ),
    (
        "I have booked you in for Thursday -- you will be seeing Dr. Okafor at 10am.",
        ("booking", True, {"weekday": "thu", "time": "10:00", "staff": "Dr. Okafor"}),
    ),
    # What an earlier clause says is the claim's when it says none itself.
    (
        "Engineer visit on 14 April -- no slots, so it is not booked.",
        ("booking", False, {"date": "04-14"}),
    ),
]


@pytest.mark.parametrize("text, expected", LATER_DETAILS, ids=[r[0][:40] for r in LATER_DETAILS])
def test_details_said_elsewhere_in_the_sentence_join_the_claim(text, expected):
    from tests.claim_rows import CHECKER

    [claim] = CHECKER.extract(text)
    assert (claim.kind, claim.done, claim.details.to_dict()) == expected
