"""Literal prefilters for the lexicon's regular expressions, for speed only.

Most clauses contain none of the words a given pattern needs: "if", "told", "currently" ...
A search with ``re`` still walks the whole alternation at every position of the clause (about
10-25 us for a long case-insensitive pattern), while one search for a few plain lower-case
literals in the lowered text is about 1.5 us. :func:`necessary_literals` works out, from the parse
of a pattern, a set of literal strings one of which every match must contain (as RE2's
prefilter does); :class:`Gated` searches for them first and runs the pattern only when one
occurs. The gate only restates what the pattern requires, so every result is the pattern's own:
when the text contains none of the literals, no match exists anywhere in it. A pattern whose
matches need no literal of at least :data:`_MIN_LITERAL` characters is not gated.

``Gated`` also compiles its pattern on first use, so a lexicon of several hundred patterns
costs nothing at start-up for the ones a process never needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from sandbox.claims.pattern_cache import remembered

try:  # pragma: no cover - the module exists on every supported Python
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    _sre_parse = None

# A gate of one-letter literals filters nothing; past this many literals it costs too much.
_MIN_LITERAL = 2
_MAX_LITERALS = 20
_ZERO_WIDTH = frozenset({"AT", "ASSERT", "ASSERT_NOT"})
_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})
Literals = frozenset[str]


def _weakest(literals: Literals) -> tuple[int, int]:
    """How well a set filters: its shortest literal (longer is better), then fewer literals."""
    return (min(len(s) for s in literals), -len(literals))


def _sequence(seq: Any, fold: bool) -> Literals | None:
    """Literals one of which every match of the sequence ``seq`` contains, or ``None``."""
    best: Literals | None = None
    run: list[str] = []

    def offer(candidate: Literals | None) -> None:
        nonlocal best
        if candidate and (best is None or _weakest(candidate) > _weakest(best)):
            best = candidate

    def close_run() -> None:
        if run:
            offer(frozenset({"".join(run)}))
            run.clear()

    for op, av in seq:
        name = str(op)
        if name == "LITERAL":
            char = chr(av)
            if not char.isascii():
                close_run()  # case folding of other scripts is not str.lower()
                continue
            run.append(char.lower() if fold else char)
            continue
        if name in _ZERO_WIDTH:
            continue  # consumes nothing: the literals either side are adjacent in the text
        close_run()
        if name == "SUBPATTERN":
            offer(_sequence(av[3], fold))
        elif name == "ATOMIC_GROUP":
            offer(_sequence(av, fold))
        elif name == "BRANCH":
            offer(_branch(av[1], fold))
        elif name in _REPEATS and av[0] >= 1:
            offer(_sequence(av[2], fold))
        # Anything else (a class, any character, an optional part) requires no literal.
    close_run()
    return best


def _branch(alternatives: list[Any], fold: bool) -> Literals | None:
    out: set[str] = set()
    for alternative in alternatives:
        got = _sequence(alternative, fold)
        if not got:
            return None  # this alternative needs no literal, so the branch needs none
        out |= got
    return frozenset(out)


def necessary_literals(pattern: str, flags: int = 0) -> Literals | None:
    """Strings (lower case under IGNORECASE) one of which every match of ``pattern`` contains,
    or ``None`` when no useful set can be worked out."""
    if _sre_parse is None:
        return None
    try:
        found = _sequence(_sre_parse.parse(pattern, flags), bool(flags & re.IGNORECASE))
    except (re.error, TypeError, ValueError, IndexError, AttributeError):
        return None
    if not found or len(found) > _MAX_LITERALS or _weakest(found)[0] < _MIN_LITERAL:
        return None
    # A literal that contains another is implied by it: keep the shorter only.
    return frozenset(s for s in found if not any(t != s and t in s for t in found))


_END = 1 << 62
# A gate that turns away fewer than this share of the first texts it sees is dropped.
_TRIAL = 64
_KEEP = 0.4
_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "split")


class Gated:
    """A compiled pattern (compiled on first use) behind a literal prefilter.

    Offers the methods of :class:`re.Pattern` the checker uses; each returns what the pattern
    itself returns. On first use each method is replaced on the instance by the compiled
    pattern's own (no prefilter) or by one closure around it, so a call costs one Python call
    at most. Non-ASCII text bypasses the gate (its case folding is not ``str.lower``).
    """

    def __init__(
        self,
        pattern: str,
        flags: int,
        make: Callable[[], re.Pattern[str]],
    ) -> None:
        self.pattern = pattern
        self.flags = flags
        self._make = make
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The pattern itself, compiled."""
        if self._compiled is None:
            self._load()
        assert self._compiled is not None
        return self._compiled

    def _load(self) -> None:
        # Idempotent, so two threads racing here compile the same pattern twice at worst.
        try:
            compiled = self._make()
        except re.error as exc:
            raise re.error(f"lexicon pattern {self.pattern!r} does not compile: {exc}") from None
        self._compiled = compiled
        literals = remembered("literals", self.pattern, self.flags, self._literals)
        if not literals:
            self._direct()
            return
        gate = re.compile(
            "|".join(re.escape(s) for s in sorted(literals, key=len, reverse=True))
        ).search
        fold = bool(self.flags & re.IGNORECASE)
        tally = [0, 0]  # calls, texts the gate turned away

        def lean(text: str) -> bool:
            return text.isascii() and gate(text.lower() if fold else text) is None

        def trial(text: str) -> bool:
            out = lean(text)
            tally[0] += 1
            tally[1] += out
            if tally[0] == _TRIAL:
                if tally[1] < _TRIAL * _KEEP:
                    # The pattern's words are in most texts it is asked about: the gate
                    # costs more than it saves, so the pattern is used directly from now on.
                    # Results are the same either way; only the time differs.
                    self._direct()
                else:
                    self._gated(compiled, lean, gate, fold)
            return out

        self._gated(compiled, trial, gate, fold)

    def _literals(self) -> list[str] | None:
        found = necessary_literals(self.pattern, self.flags)
        return None if found is None else sorted(found)

    def _gated(
        self,
        compiled: re.Pattern[str],
        absent: Callable[[str], bool],
        gate: Callable[[str], Any],
        fold: bool,
    ) -> None:
        search, match, fullmatch = compiled.search, compiled.match, compiled.fullmatch
        finditer, findall, sub, split = (
            compiled.finditer,
            compiled.findall,
            compiled.sub,
            compiled.split,
        )

        # The hot two test the gate inline: one Python call per search.
        def gated_search(t: str, p: int = 0, e: int = _END) -> re.Match[str] | None:
            if t.isascii() and gate(t.lower() if fold else t) is None:
                return None
            return search(t, p, e)

        def gated_match(t: str, p: int = 0, e: int = _END) -> re.Match[str] | None:
            if t.isascii() and gate(t.lower() if fold else t) is None:
                return None
            return match(t, p, e)

        trial = getattr(absent, "__name__", "") == "trial"
        fast: dict[str, Callable[..., Any]] = {
            "search": (lambda t, p=0, e=_END: None if absent(t) else search(t, p, e))
            if trial
            else gated_search,
            "match": (lambda t, p=0, e=_END: None if absent(t) else match(t, p, e))
            if trial
            else gated_match,
            "fullmatch": lambda t, p=0, e=_END: None if absent(t) else fullmatch(t, p, e),
            "finditer": lambda t, p=0, e=_END: iter(()) if absent(t) else finditer(t, p, e),
            "findall": lambda t, p=0, e=_END: [] if absent(t) else findall(t, p, e),
            "sub": lambda r, t, c=0: t if absent(t) else sub(r, t, c),
            "split": lambda t, m=0: [t] if absent(t) else split(t, m),
        }
        for name, method in fast.items():
            setattr(self, name, method)  # shadows the class's method on this instance

    def _direct(self) -> None:
        compiled = self.compiled
        for name in _METHODS:
            setattr(self, name, getattr(compiled, name))

    # The first call of each method compiles the pattern and installs the fast methods above.
    def search(self, text: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        self._load()
        return self.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        self._load()
        return self.match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        self._load()
        return self.fullmatch(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = _END) -> Iterator[re.Match[str]]:
        self._load()
        return self.finditer(text, pos, endpos)

    def findall(self, text: str, pos: int = 0, endpos: int = _END) -> list[Any]:
        self._load()
        return self.findall(text, pos, endpos)

    def sub(self, repl: Any, text: str, count: int = 0) -> str:
        self._load()
        return self.sub(repl, text, count)

    def split(self, text: str, maxsplit: int = 0) -> list[Any]:
        self._load()
        return self.split(text, maxsplit)

    def __repr__(self) -> str:
        return f"Gated({self.pattern!r})"


__all__ = ["Gated", "necessary_literals"]
