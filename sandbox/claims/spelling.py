"""Misspelt action words corrected before matching ("resheduled", "refnd", "cancelld").

A word is corrected towards the lexicon's fuzzy vocabulary when it is not a known word, shares
the first letter of the correction and is within the allowed edit distance (rapidfuzz's optimal string alignment: a swap of two
letters is one edit).
Real words one edit away from a vocabulary word ("tested", "looked") are listed as ``keep``.
Each distinct word is looked up once (cached): the cost stays linear in the text.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz import process
from rapidfuzz.distance import OSA

from sandbox.claims.guard import compile_guarded
from sandbox.claims.lexicon import lexicon
from sandbox.claims.prefilter import Gated

_WORD = re.compile(r"(?<!')\b[A-Za-z]{4,}\b(?!')")


def _allowed(length: int) -> int:
    allowed = 0
    for minimum, distance in lexicon().fuzzy_distance:
        if length >= minimum:
            allowed = distance
    return allowed


@lru_cache(maxsize=8192)
def correction(word: str) -> str | None:
    """The vocabulary word ``word`` (lower case) is a misspelling of, or ``None``."""
    lex = lexicon()
    if word in lex.fuzzy_keep or word in lex.fuzzy_vocabulary:
        return None
    allowed = _allowed(len(word))
    if not allowed:
        return None
    candidates = [w for w in lex.fuzzy_vocabulary if w[0] == word[0]]
    found = process.extract(word, candidates, scorer=OSA.distance, score_cutoff=allowed, limit=None)
    if not found:
        return None
    nearest = min(distance for _, distance, _ in found)
    tied = [str(w) for w, distance, _ in found if distance == nearest]
    if any(_inflection(word, w) for w in tied):
        return None  # another form of a vocabulary word ("charge" of "charged"), not a typo
    # Typing drops letters more often than it adds them: "orderd" is "ordered", not "order".
    longer = [w for w in tied if len(w) >= len(word)]
    return (longer or tied)[0]


_ENDINGS = frozenset({"s", "d", "r", "e", "y", "ed", "er", "es", "ing", "ly"})
_SUFFIXES = frozenset({"", "s", "ed", "er", "es", "ing", "ly"})


def _inflection(word: str, target: str) -> bool:
    """Whether ``word`` is another form of ``target`` ("charge" of "charged"), not a typo."""
    if word.startswith(target) or target.startswith(word):
        # "charge" of "charged", but "refil" is a typo of "refill"; "-d" and "-r" follow an
        # "e" ("placed", "charger"), so "orderd" is a typo.
        stem, tail = (
            (target, word[len(target) :])
            if word.startswith(target)
            else (word, target[len(word) :])
        )
        return tail in _ENDINGS and (tail not in ("d", "r") or stem.endswith("e"))
    common = 0
    for a, b in zip(word, target, strict=False):
        if a != b:
            break
        common += 1
    return word[common:] in _SUFFIXES and target[common:] in _SUFFIXES


@lru_cache(maxsize=1)
def _shorthand() -> tuple[Gated, dict[str, str]]:
    words = lexicon().shorthand
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return compile_guarded(rf"(?<![\w'])(?:{alternatives})(?![\w'])", re.IGNORECASE), words


def _expand(match: re.Match[str]) -> str:
    word = match.group(0)
    full = _shorthand()[1][word.lower()]
    return full[0].upper() + full[1:] if word[0].isupper() else full


def correct(text: str) -> str:
    """``text`` with text-speak written out ("ur" -> "your", "cant" -> "can't") and each
    misspelt vocabulary word replaced by its correction."""
    pattern, _ = _shorthand()
    text = pattern.sub(_expand, text)
    fixes = {}
    for word in set(_WORD.findall(text)):
        fixed = correction(word.lower())
        if fixed is not None:
            fixes[word] = fixed
    if not fixes:
        return text
    return _WORD.sub(lambda m: fixes.get(m.group(0), m.group(0)), text)
