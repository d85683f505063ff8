"""The claim checker's regular expressions behind literal prefilters and compiled on first use
(sandbox/claims/prefilter.py, guard.py): the same matches as the patterns themselves."""

from __future__ import annotations

import re

import pytest

from sandbox.claims.guard import compile_guarded
from sandbox.claims.lexicon import lexicon
from sandbox.claims.prefilter import Gated, necessary_literals

# (pattern, the literals one of which every match contains; None: no useful set)
LITERALS = [
    (r"\b(?:you were told|was told)\b", {"you were told", "was told"}),
    (r"^\s*if\b|\bin case\b", {"if", "in case"}),
    # A sequence needs its most selective part: "refund" over the optional words before it.
    (r"\b(?:full |partial )?refund(?:ed)?\b", {"refund"}),
    (r"\bno (?:[\w-]+ ){0,2}(?:fee|charge)s?\b", {"no "}),
    # A repeated letter ends the literal; an alternative that needs no literal makes the whole
    # branch need none.
    (r"\bcancel+ed\b|\d+ items?", {"cance", " item"}),
    (r"\bcancel+ed\b|\d+", None),
    (r"[a-z]+\b", None),
    # Case-insensitive literals are compared lower case; the longer part of a sequence is kept.
    (r"Dr\.? (?:Lee|Patel)", {"lee", "patel"}),
]


# Ids by pytest.param: a list of ids is escaped again in each session of one process (mutmut's).
@pytest.mark.parametrize("pattern, expected", [pytest.param(p, e, id=p) for p, e in LITERALS])
def test_necessary_literals_are_what_every_match_needs(pattern, expected):
    found = necessary_literals(pattern, re.IGNORECASE)
    assert found == (None if expected is None else frozenset(expected))


TEXTS = [
    "I've moved your cleaning to Thursday at 9:00 with Luis.",
    "YOU WERE TOLD the fee would be waived, if I remember right",
    "No late fee was charged; we've refunded $40 in full.",
    "The parcel hasn’t shipped — nothing to cancel.",  # non-ASCII: the gate is bypassed
    "",
]
PATTERNS = [p for p, _ in LITERALS] + [r"(\w+) (?:moved|refunded)", r"\bfee\b"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_gated_pattern_matches_what_the_pattern_matches(pattern):
    plain = re.compile(pattern, re.IGNORECASE)
    gated = compile_guarded(pattern, re.IGNORECASE)
    for text in TEXTS:
        assert _span(gated.search(text)) == _span(plain.search(text))
        assert _span(gated.match(text)) == _span(plain.match(text))
        assert [m.span() for m in gated.finditer(text)] == [m.span() for m in plain.finditer(text)]
        assert gated.findall(text) == plain.findall(text)
        assert gated.sub("#", text) == plain.sub("#", text)
        assert gated.split(text) == plain.split(text)


def _span(match: re.Match[str] | None) -> tuple[int, int] | None:
    return None if match is None else match.span()


def _gated(value: object) -> list[Gated]:
    if isinstance(value, Gated):
        return [value]
    if isinstance(value, dict):
        return [g for v in value.values() for g in _gated(v)]
    if isinstance(value, tuple | list):
        return [g for v in value for g in _gated(v)]
    return []


def lexicon_patterns() -> list[Gated]:
    """Every pattern of the lexicon."""
    lex = lexicon()
    patterns = _gated([lex.patterns, lex.structure, lex.cancel_objects, lex.pronoun_objects])
    patterns += _gated([names for _, names in lex.specialise.values()])
    for kind in lex.kinds:
        patterns += _gated([kind.future, kind.unless, kind.any_done, kind.any_act])
        patterns += list(kind.done) + list(kind.act)
    return patterns


def test_every_pattern_of_the_lexicon_compiles():
    # Patterns compile on first use, so a broken one would otherwise fail only in the call that
    # first needs it.
    patterns = lexicon_patterns()
    assert len(patterns) > 150
    for pattern in patterns:
        assert isinstance(pattern.compiled, re.Pattern), pattern.pattern


def test_a_pattern_that_does_not_compile_names_itself():
    broken = compile_guarded(r"(?<=a+)b")  # a look-behind must have a fixed width
    with pytest.raises(re.error, match=r"\(\?<=a\+\)b"):
        broken.search("aab")
