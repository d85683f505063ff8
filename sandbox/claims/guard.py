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
        chars |= {c.lower() for c in chars if len(c) == 1} | {c.upper() for c in chars if len(c) == 1}
    if len(chars) > _MAX_GUARD:
        return None
    return "".join(c if len(c) > 1 else _escape(c) for c in sorted(chars))


def _escape(char: str) -> str:
    return "\\" + char if char in "-]\\^[" else re.escape(char)


def compile_guarded(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, with a lookahead on the first character when that helps;
    the matches (and their groups) are those of the pattern itself."""
    chars = first_characters(pattern, flags)
    if chars is None:
        return re.compile(pattern, flags)
    try:
        return re.compile(f"(?=[{chars}])(?:{pattern})", flags)
    except re.error:  # e.g. inline global flags, which must open the pattern
        return re.compile(pattern, flags)


__all__ = ["compile_guarded", "first_characters"]
