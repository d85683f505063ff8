"""Reading the checkable facts in a line of speech: identifiers, dates, amounts, promises.

Used by :mod:`callers.fidelity` both ways: to take in what a caller was given and to find what
a caller line states. Which words name months, weekdays, ordinal days, spoken numbers and
content-free words is data, in ``callers/lexicon/mentions.yaml``. Dates are keyed
``(month, day, year)`` with ``None`` for a part not said; a named weekday is
``("weekday", 0..6)``; money is ``("money", cents)`` and a percentage ``("percent", value)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, Literal

from callers.turns import lexicon
from sandbox.text_cache import TEXT_CACHE

Kind = Literal["identifier", "date", "amount", "promise"]

_WORDS = lexicon("mentions")
MONTHS: dict[str, int] = {
    name: index + 1 for index, names in enumerate(_WORDS["months"]) for name in names
}
WEEKDAYS: tuple[str, ...] = tuple(_WORDS["weekdays"])
_ORDINAL_WORDS: dict[str, int] = {w: i + 1 for i, w in enumerate(_WORDS["ordinal_days"])}
_NUMBER_WORDS: dict[str, int] = dict(_WORDS["number_words"])
_STOPWORDS: frozenset[str] = frozenset(_WORDS["stopwords"])

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_ORD = r"(?P<word>" + "|".join(sorted(_ORDINAL_WORDS, key=len, reverse=True)) + r")"
_YEAR = r"(?:,?\s+(?P<year>(?:19|20)\d{2}))?"
_DATE_PATTERNS = (
    re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})"),
    re.compile(r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<year>\d{2,4}))?\b"),
    re.compile(rf"\b{_MONTH}\s+(?:the\s+)?(?:{_DAY}|{_ORD})\b{_YEAR}", re.I),
    re.compile(rf"\b(?:{_DAY}|{_ORD})\s+(?:of\s+)?{_MONTH}\b{_YEAR}", re.I),
    re.compile(rf"\bthe\s+(?:{_DAY}|{_ORD})\b(?!\s+(?:of\s+)?{_MONTH[:-3]})", re.I),
)
_WEEKDAY = re.compile(r"\b(" + "|".join(WEEKDAYS) + r")s?\b", re.I)
RELATIVE = re.compile(r"\b(today|tonight|tomorrow)\b", re.I)

CODE = re.compile(
    r"\b[A-Z]{1,5}-?\d{2,}[A-Z0-9]*\b|\b(?=[A-Z0-9]*\d[A-Z0-9]*\d[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6,}\b"
)
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
DIGITS = re.compile(r"(?<![\w.$€£])\+?\d[\d\s().-]*\d(?![\w$%])|(?<![\w.$€£])\d{4,}\b")
_ID_CUE = re.compile(
    r"(?:ending in|ends in|last (?:four|4)(?: digits)?(?: are| is)?|#|number|account|card|"
    r"member(?:ship)?|ref(?:erence)?|id|code|pin)\s*:?\s*$",
    re.I,
)
_TIME_SHAPE = re.compile(r"^\d{1,2}[:.]\d{2}$")

_AMOUNT_PATTERNS = (
    re.compile(r"[$€£]\s?(?P<num>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<cents>\d{1,2}))?"),
    re.compile(
        r"\b(?P<num>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<cents>\d{1,2}))?\s*"
        r"(?:dollars?|bucks|euros?|pounds?|usd|eur|gbp|quid)\b",
        re.I,
    ),
)
_WORD_AMOUNT = re.compile(
    r"\b(?P<words>(?:(?:" + "|".join(_NUMBER_WORDS) + r")[\s-]*(?:and\s+)?)+)"
    r"(?:dollars?|bucks|euros?|pounds?|quid)\b",
    re.I,
)
_PERCENT = re.compile(r"\b(?P<num>\d{1,3}(?:\.\d+)?)\s*(?:%|per ?cent)", re.I)
PLAIN_NUMBER = re.compile(r"(?<![\w-])(?P<num>\d+)(?:\.(?P<cents>\d{2}))?(?![\w-])")

_SUBJECT = r"(?:I|we|you|it|they|he|she)"
_MODAL = r"(?:'d| would| will| could| can|'ll| was going to| were going to| get| gets| had| have| should)"
_PROMISE = re.compile(
    r"\b(?:promised|promises|guaranteed|assured me|gave me (?:your|their|his|her|a) word|"
    rf"(?:told|said to) me(?: \w+){{0,3}}? (?:that )?{_SUBJECT}{_MODAL}\b|"
    rf"said (?:that )?{_SUBJECT}{_MODAL}\b|"
    r"(?:was|were|been) (?:told|promised|offered|guaranteed)\b|agreed to\b|offered (?:me|to)\b)",
    re.I,
)
_NEGATED = re.compile(
    r"\b(?:no one|nobody|never|didn't|did not|wasn't|weren't|not|haven't|hasn't)\b", re.I
)
_QUESTION_START = re.compile(
    r"^\s*(?:so\s+|and\s+|but\s+)?(?:can|could|will|would|do|does|did|is|are|should|may)\b",
    re.I,
)


@dataclass(frozen=True)
class Mention:
    """One checkable fact stated in a line: its kind, the words, and a comparison key."""

    kind: Kind
    text: str
    key: Any
    start: int = -1


def alnum(text: str) -> str:
    """Letters and digits of ``text`` (``@`` and ``.`` kept for e-mail), upper-cased."""
    return re.sub(r"[^A-Za-z0-9@.]", "", text).upper()


def only_digits(text: str) -> str:
    """The digits of ``text``."""
    return re.sub(r"\D", "", text)


def content_words(text: str) -> set[str]:
    """The words of three letters or more that carry content, singular-ish."""
    words = {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 3}
    return {w.rstrip("s") for w in words - _STOPWORDS}


def date_key(day: date) -> tuple[int | None, int, int | None]:
    """``day`` as a date key ``(month, day, year)``."""
    return (day.month, day.day, day.year)


def next_weekday(now: date, weekday: int) -> date:
    """The next date on ``weekday`` from ``now`` (``now`` itself if it is one)."""
    return now + timedelta(days=(weekday - now.weekday()) % 7)


def weekday_of(key: tuple[int | None, int, int | None]) -> int | None:
    """The weekday of a date key with month and year, else ``None``."""
    month, day, year = key
    if month is None or year is None:
        return None
    try:
        return date(year, month, day).weekday()
    except ValueError:
        return None


def same_date(
    mentioned: tuple[int | None, int, int | None], given: tuple[int | None, int, int | None]
) -> bool:
    """Whether a mentioned date can be the given one (parts either leaves out match)."""
    month, day, year = mentioned
    if day != given[1]:
        return False
    if month is not None and given[0] is not None and month != given[0]:
        return False
    return year is None or given[2] is None or year == given[2]


def _year(text: str | None) -> int | None:
    if not text:
        return None
    value = int(text)
    return value + 2000 if value < 100 else value


def dates_in(text: str) -> list[Mention]:
    """Every date and weekday named in ``text``."""
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for index, pattern in enumerate(_DATE_PATTERNS):
        for match in pattern.finditer(text):
            span = match.span()
            if any(a <= span[0] < b or a < span[1] <= b for a, b in taken):
                continue
            groups = match.groupdict()
            year = _year(groups.get("year"))
            if index == 1:  # a/b: read as month/day, and as day/month when it cannot be.
                a, b = int(groups["a"]), int(groups["b"])
                month, day = (a, b) if a <= 12 else (b, a)
                if month > 12 or day > 31:
                    continue
                keys: list[tuple[int | None, int, int | None]] = [(month, day, year)]
            else:
                day = (
                    int(groups["day"])
                    if groups.get("day")
                    else _ORDINAL_WORDS[groups["word"].lower()]
                )
                raw_month = groups.get("month")
                named: int | None = (
                    None
                    if raw_month is None
                    else (int(raw_month) if raw_month.isdigit() else MONTHS[raw_month.lower()])
                )
                if day > 31 or (named is not None and named > 12):
                    continue
                keys = [(named, day, year)]
            taken.append(span)
            found.extend(Mention("date", match.group(0), key, span[0]) for key in keys)
    for match in _WEEKDAY.finditer(text):
        weekday = WEEKDAYS.index(match.group(1).lower())
        found.append(Mention("date", match.group(0), ("weekday", weekday), match.start()))
    return found


def _words_to_number(words: str) -> int | None:
    total, current = 0, 0
    found = re.findall(r"[a-z]+", words.lower())
    for index, word in enumerate(found):
        # "a" is a number only in "a hundred"; "a thirty dollar credit" is thirty.
        if word == "and" or (word == "a" and found[index + 1 : index + 2] != ["hundred"]):
            continue
        value = _NUMBER_WORDS.get(word)
        if value is None:
            return None
        if value == 100:
            current = max(current, 1) * 100
        else:
            current += value
    total += current
    return total or None


def amounts_in(text: str) -> list[Mention]:
    """Every amount of money and percentage in ``text``, one per key."""
    found: list[Mention] = []
    for pattern in _AMOUNT_PATTERNS:
        for match in pattern.finditer(text):
            whole = int(match.group("num").replace(",", ""))
            cents = int((match.group("cents") or "0").ljust(2, "0"))
            found.append(Mention("amount", match.group(0), ("money", whole * 100 + cents)))
    for match in _WORD_AMOUNT.finditer(text):
        value = _words_to_number(match.group("words"))
        if value is not None:
            found.append(Mention("amount", match.group(0).strip(), ("money", value * 100)))
    for match in _PERCENT.finditer(text):
        found.append(Mention("amount", match.group(0), ("percent", float(match.group("num")))))
    # One amount can match two patterns ("$25 dollars"): keep one mention per key and place.
    unique: dict[Any, Mention] = {}
    for mention in found:
        unique.setdefault(mention.key, mention)
    return list(unique.values())


def _identifiers(text: str, covered: Iterable[tuple[int, int]]) -> list[Mention]:
    spans = list(covered)
    found: list[Mention] = []

    def free(span: tuple[int, int]) -> bool:
        return not any(a < span[1] and span[0] < b for a, b in spans)

    for match in EMAIL.finditer(text):
        found.append(Mention("identifier", match.group(0), match.group(0).lower()))
        spans.append(match.span())
    for match in CODE.finditer(text):
        if free(match.span()):
            found.append(Mention("identifier", match.group(0), alnum(match.group(0))))
            spans.append(match.span())
    for match in DIGITS.finditer(text):
        raw = match.group(0).strip(" .-()")
        digits = only_digits(raw)
        if not free(match.span()) or _TIME_SHAPE.match(raw):
            continue
        cue = bool(_ID_CUE.search(text[: match.start()]))
        if (
            len(digits) >= 5
            or (len(digits) >= 3 and cue and not (len(digits) == 4 and 1900 <= int(digits) <= 2099))
            or (len(digits) == 4 and not 1900 <= int(digits) <= 2099)
        ):
            found.append(Mention("identifier", raw, f"digits:{digits}"))
    return found


def _promises(text: str) -> list[Mention]:
    found = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        match = _PROMISE.search(sentence)
        if match is None:
            continue
        if _NEGATED.search(sentence[: match.start()]) or (
            sentence.rstrip().endswith("?") and _QUESTION_START.match(sentence)
        ):
            continue
        found.append(Mention("promise", sentence.strip(), "promise"))
    return found


def _asked(text: str, start: int) -> bool:
    """Whether position ``start`` is in the last clause of a question ("so, the 19th?")."""
    end = re.search(r"[.!?]", text[start:])
    if end is None or end.group(0) != "?":
        return False
    return not re.search(r"[,;:]", text[start : start + end.start()])


def mentions(text: str) -> list[Mention]:
    """Every identifier, date, amount and promise stated in ``text``.

    A date asked about in the last clause of a question ("was that Sunday?", "so the 19th?")
    states nothing and is left out.
    """
    return list(_mentions(text))


# Scripted callers say the same lines in many episodes; a Mention is immutable and depends on
# the text alone. Bounded, so that memory stays flat.
@lru_cache(maxsize=TEXT_CACHE)
def _mentions(text: str) -> tuple[Mention, ...]:
    dates = [d for d in dates_in(text) if not _asked(text, d.start)]
    amounts = amounts_in(text)
    covered: list[tuple[int, int]] = []
    for pattern in (*_DATE_PATTERNS, *_AMOUNT_PATTERNS, _WORD_AMOUNT, _PERCENT):
        covered.extend(m.span() for m in pattern.finditer(text))
    covered.extend(
        m.span() for m in re.finditer(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)", text, re.I)
    )
    covered.extend(m.span() for m in re.finditer(r"\b\d{1,2}:\d{2}\b", text))
    return (*_identifiers(text, covered), *dates, *amounts, *_promises(text))
