"""Regular expressions compiled with a first-character guard, for speed only.

Python's ``re`` skips ahead quickly only for a pattern that opens with a literal. Most of the
lexicon's patterns open with ``\\b(?:word|word|...)``: ``re`` then tries every alternative at
every position of the clause. :func:`compile_guarded` works out the characters a match can start
with (from the parse of the pattern) and puts a one-character lookahead in front,
``(?=[bcmr...])``, which ``re`` tests in C before the alternatives. The guard only restates what
the pattern already requires, so every match is the same; a pattern whose first character
cannot be bounded (it may start with any letter, or match the empty string) is compiled as it
is. The parse uses ``re._parser`` (private, stable since 3.11); if it is missing or the walk
meets a construct it does not know, the pattern is compiled unguarded.
"""

from __future__ import annotations

import re
from typing import Any

from sandbox.claims.pattern_cache import remembered
from sandbox.claims.prefilter import Gated
from sandbox.regex_cache import compile_cached

try:  # pragma: no cover - the module exists on every supported Python
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    _sre_parse = None

# Past this many possible first characters, a guard filters too little to pay for itself.
_MAX_GUARD = 40
_ZERO_WIDTH = frozenset({"AT", "ASSERT", "ASSERT_NOT"})
_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})


class _Unbounded(Exception):
    """The pattern can start with too many characters (or ones the walk cannot list)."""


# Classes a guard may name whole: a space or a digit (a word character would filter nothing).
_CATEGORIES = {"CATEGORY_SPACE": "\\s", "CATEGORY_DIGIT": "\\d"}


def _charset(items: list[tuple[Any, Any]]) -> set[str]:
    """The class's members as guard items: single characters, or ``\\s`` / ``\\d``."""
    out: set[str] = set()
    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            out.add(chr(av))
        elif name == "RANGE" and av[1] - av[0] < _MAX_GUARD:
            out.update(chr(c) for c in range(av[0], av[1] + 1))
        elif name == "CATEGORY" and str(av) in _CATEGORIES:
            out.add(_CATEGORIES[str(av)])
        else:  # NEGATE, a word character, a wide range
            raise _Unbounded
    return out


def _first(seq: Any) -> tuple[set[str], bool]:
    """The characters a match of ``seq`` can start with, and whether it can match nothing."""
    chars: set[str] = set()
    for op, av in seq:
        name = str(op)
        if name in _ZERO_WIDTH:
            continue
        if name == "LITERAL":
            chars.add(chr(av))
            return chars, False
        if name == "IN":
            chars |= _charset(av)
            return chars, False
        if name == "BRANCH":
            nullable = False
            for alternative in av[1]:
                got, empty = _first(alternative)
                chars |= got
                nullable = nullable or empty
            if not nullable:
                return chars, False
            continue
        if name == "SUBPATTERN":
            got, empty = _first(av[3])
        elif name == "ATOMIC_GROUP":
            got, empty = _first(av)
        elif name in _REPEATS:
            got, empty = _first(av[2])
            empty = empty or av[0] == 0
        else:  # ANY, NOT_LITERAL, CATEGORY, GROUPREF ...
            raise _Unbounded
        chars |= got
        if not empty:
            return chars, False
    return chars, True


def first_characters(pattern: str, flags: int = 0) -> str | None:
    """The body of a character class every match of ``pattern`` starts with (both cases under
    IGNORECASE), or ``None`` when it cannot be bounded."""
    if _sre_parse is None:
        return None
    try:
        chars, nullable = _first(_sre_parse.parse(pattern, flags))
    except (_Unbounded, re.error, TypeError, ValueError, IndexError):
        return None
    if nullable or not chars:
        return None
    if flags & re.IGNORECASE:
        chars |= {c.lower() for c in chars if len(c) == 1} | {
            c.upper() for c in chars if len(c) == 1
        }
    if len(chars) > _MAX_GUARD:
        return None
    return "".join(c if len(c) > 1 else _escape(c) for c in sorted(chars))


def _escape(char: str) -> str:
    return "\\" + char if char in "-]\\^[" else re.escape(char)


_GROUP_OPENER = re.compile(r"\((?:\?(?:[:=!]|<[=!]|P<\w+>))?")
_QUANTIFIERS = frozenset("?*+{")


def factored(pattern: str, ignore_case: bool = True) -> str:
    """``pattern`` with the alternatives of each group that open with the same letter written
    once: ``(?:not|never|no)`` becomes ``(?:n(?:ot|ever|o))``. ``re`` then tries one branch per
    first letter instead of every alternative at every position. Only alternatives that open
    with a plain letter (not quantified) are grouped, and never across an alternative that opens
    otherwise (which could match at the same place): the first alternative that matches at a
    position is the same, so every match is. Patterns with constructs the scan does not know are
    returned as they are."""
    if "(?#" in pattern or "(?(" in pattern or re.search(r"\(\?[aiLmsux-]+\)", pattern):
        return pattern
    try:
        text, end = _alternatives(pattern, 0, ignore_case)
    except IndexError:
        return pattern
    return text if end == len(pattern) else pattern


def _alternatives(pattern: str, i: int, ignore_case: bool) -> tuple[str, int]:
    """The alternation starting at ``i`` (up to the ``)`` closing its group), factored."""
    alternatives: list[str] = []
    current: list[str] = []
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            current.append(pattern[i : i + 2])
            i += 2
        elif char == "[":
            end = i + 1
            if pattern[end] == "^":
                end += 1
            if pattern[end] == "]":
                end += 1
            while pattern[end] != "]":
                end += 2 if pattern[end] == "\\" else 1
            current.append(pattern[i : end + 1])
            i = end + 1
        elif char == "(":
            opener = _GROUP_OPENER.match(pattern, i)
            assert opener is not None
            inner, i = _alternatives(pattern, opener.end(), ignore_case)
            if i >= len(pattern) or pattern[i] != ")":
                raise IndexError(i)
            current.append(opener.group(0) + inner + ")")
            i += 1
        elif char == ")":
            break
        elif char == "|":
            alternatives.append("".join(current))
            current = []
            i += 1
        else:
            current.append(char)
            i += 1
    alternatives.append("".join(current))
    return _grouped(alternatives, ignore_case), i


def _grouped(alternatives: list[str], ignore_case: bool) -> str:
    groups: list[tuple[str | None, list[str]]] = []
    open_: dict[str, int] = {}
    for alternative in alternatives:
        first = alternative[:1]
        plain = first.isalpha() and first.isascii() and alternative[1:2] not in _QUANTIFIERS
        if not plain:
            groups.append((None, [alternative]))
            open_.clear()  # what follows must not move before this one
            continue
        key = first.lower() if ignore_case else first
        if key in open_:
            groups[open_[key]][1].append(alternative)
        else:
            open_[key] = len(groups)
            groups.append((key, [alternative]))
    parts = []
    for head, members in groups:
        if head is None or len(members) == 1:
            parts.append(members[0])
        else:
            parts.append(members[0][0] + "(?:" + "|".join(m[1:] for m in members) + ")")
    return "|".join(parts)


def compile_guarded(pattern: str, flags: int = 0) -> Gated:
    """``pattern`` behind a literal prefilter (:mod:`.prefilter`), compiled on first use with
    its alternatives :func:`factored` and a lookahead on the first character when that helps;
    the matches (and their groups) are those of the pattern itself. Nothing is parsed until
    then, so a lexicon costs little at start-up (``tests/test_claims_prefilter.py`` compiles
    every pattern of the lexicon, so a pattern that does not compile fails there)."""
    return Gated(pattern, flags, lambda: _compile(pattern, flags))


def _compile(pattern: str, flags: int) -> re.Pattern[str]:
    rewritten = remembered(
        "factored", pattern, flags, lambda: factored(pattern, bool(flags & re.IGNORECASE))
    )
    chars = remembered("first", rewritten, flags, lambda: first_characters(rewritten, flags))
    for candidate in (
        *((f"(?=[{chars}])(?:{rewritten})",) if chars is not None else ()),
        rewritten,
    ):
        try:
            return compile_cached(candidate, flags)
        except re.error:  # pragma: no cover - e.g. inline global flags, which must open it
            continue
    return compile_cached(pattern, flags)


__all__ = ["compile_guarded", "first_characters"]
