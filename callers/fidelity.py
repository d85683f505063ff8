"""Caller fidelity: did the simulated caller state a fact it was never given? (DESIGN §6)

An LLM caller that invents an account number, a date, an amount or a promise tests the
assistant on a different task than the one written, so such an episode is flagged
``caller_error`` and reported apart instead of being scored as the assistant's failure.

What the caller may state (the *given* facts), per session:

- the values in the session's ``caller.knows``;
- the session's ``caller.goal`` text -- it is in the persona prompt, so a date or amount the
  goal names ("the $25 fee", "Tuesday's cleaning") is given. (Decided: the goal is the task
  author's word to the caller; facts in it are the caller's to use.)
- the parameters of the session's tactics, defaults included (they are in the prompt too);
- anything the assistant said earlier in the transcript, in any session (the greeting counts);
- dates implied by what was given: a weekday named in given text stands for its next date
  from the session's simulated ``now``; "today" and "tomorrow" likewise. The other way round,
  a weekday is derived only from a given date about the call's own days: within
  ``derived_weekday_window_days`` (``callers/lexicon/conduct.yaml``) of ``now`` and not an
  identity detail -- a date of birth in 1962 that fell on a Tuesday does not make "Tuesday"
  known for an appointment. Nothing else is derived from an identity detail either
  (``identity_fact_keys``): a phone number's digits are no amount of money, a date of birth
  without its year is no appointment day.

What is checked in each caller line:

========== ==================================================================================
identifier codes (``APT-1043``), e-mail addresses, numbers of five or more digits (account,
           phone, postcode), four-digit numbers that are not years or that follow "ending in",
           "#", "number", "account", "card" -- compared on their characters or digits
date       ISO and numeric dates, "June 12(, 1984)", "12th of June", "the 5th", weekday names
           -- compared on month and day (and year when both have one)
amount     money ("$25", "25 dollars", "twenty-five bucks") and percentages -- compared exactly
promise    "promised", "told me I'd", "was told", "guaranteed", "agreed to" ... not negated and
           not asked as a question -- given only if the caller's goal/tactics/knows speak of a
           promise, or an earlier assistant line shares two content words with it
========== ==================================================================================

Times of day are not checked: a caller choosing "two o'clock" within "Thursday afternoon" is
elaborating on its goal, not inventing a fact. Caller flags from the episode
(``broke_character: ...``) are reported as fidelity problems too. Limits, known and measured by
the labelled set in ``tests/callers/data``: a promise is checked as "some promise was given",
not which one; spelled-out numbers beyond simple forms ("one-five-five") are not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Literal

from callers.conduct import check_conduct, identity_fact
from callers.scripted import move_text
from callers.tactics import given_values
from callers.turns import lexicon
from sandbox.episode import EpisodeResult, Utterance
from sandbox.task import Session, Task
from tools.timefmt import parse_time

Kind = Literal["identifier", "date", "amount", "promise"]

MONTHS = {
    name: index + 1
    for index, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for name in names
}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "twenty-first": 21, "twenty-second": 22,
    "twenty-third": 23, "twenty-fourth": 24, "twenty-fifth": 25, "twenty-sixth": 26,
    "twenty-seventh": 27, "twenty-eighth": 28, "twenty-ninth": 29, "thirtieth": 30,
    "thirty-first": 31,
}  # fmt: skip
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "a": 1,
}  # fmt: skip

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
_RELATIVE = re.compile(r"\b(today|tonight|tomorrow)\b", re.I)

_CODE = re.compile(
    r"\b[A-Z]{1,5}-?\d{2,}[A-Z0-9]*\b|\b(?=[A-Z0-9]*\d[A-Z0-9]*\d[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6,}\b"
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_DIGITS = re.compile(r"(?<![\w.$€£])\+?\d[\d\s().-]*\d(?![\w$%])|(?<![\w.$€£])\d{4,}\b")
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
_PLAIN_NUMBER = re.compile(r"(?<![\w-])(?P<num>\d+)(?:\.(?P<cents>\d{2}))?(?![\w-])")

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
_PROMISE_SOURCE = re.compile(r"promis|guarant|assur|agreed|offered|told|said", re.I)
_STOPWORDS = set(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "but",
        "to",
        "of",
        "for",
        "in",
        "on",
        "at",
        "by",
        "with",
        "from",
        "that",
        "this",
        "it",
        "its",
        "you",
        "your",
        "i",
        "me",
        "my",
        "we",
        "our",
        "they",
        "them",
        "he",
        "she",
        "his",
        "her",
        "was",
        "were",
        "is",
        "are",
        "be",
        "been",
        "will",
        "would",
        "could",
        "should",
        "can",
        "did",
        "do",
        "does",
        "had",
        "have",
        "has",
        "said",
        "told",
        "promised",
        "promise",
        "going",
        "get",
        "got",
        "just",
        "some",
        "any",
        "about",
        "last",
        "time",
        "when",
        "what",
        "which",
        "then",
        "there",
        "here",
        "also",
        "very",
        "really",
        "okay",
        "yes",
        "well",
    ]
)


@dataclass(frozen=True)
class Mention:
    """One checkable fact stated in a line: its kind, the words, and a comparison key."""

    kind: Kind
    text: str
    key: Any
    start: int = -1


@dataclass
class Given:
    """What a caller may state at one point of the call; grows as the assistant speaks."""

    texts: list[str] = field(default_factory=list)
    identifiers: set[str] = field(default_factory=set)
    digit_runs: set[str] = field(default_factory=set)
    dates: set[tuple[int | None, int, int | None]] = field(default_factory=set)
    weekdays: set[int] = field(default_factory=set)
    # Dates a named weekday may be derived from: about the call's own days (not a birth date).
    weekday_dates: set[tuple[int | None, int, int | None]] = field(default_factory=set)
    # Dates of identity details: stated only whole, with their year.
    identity_dates: set[tuple[int | None, int, int | None]] = field(default_factory=set)
    amounts: set[Any] = field(default_factory=set)
    promise: bool = False
    assistant_words: list[set[str]] = field(default_factory=list)

    def add(
        self, text: str, now: date, *, spoken_by_assistant: bool = False, identity: bool = False
    ) -> None:
        """Take in given ``text``.

        ``identity``: it is an identity detail (a date of birth, a phone number, an id). Its
        characters may be repeated, but nothing is derived from it about anything else: its
        date stands for no weekday and for no day without its year, its numbers for no amount.
        """
        self.texts.append(text)
        self.identifiers.update(_alnum(m.group(0)) for m in _CODE.finditer(text.upper()))
        self.identifiers.update(m.group(0).lower() for m in _EMAIL.finditer(text))
        self.digit_runs.update(
            d for d in (_only_digits(m.group(0)) for m in _DIGITS.finditer(text)) if d
        )
        self.digit_runs.update(re.findall(r"\d+", text))
        for mention in _dates(text):
            if mention.key[0] == "weekday":
                self.weekdays.add(mention.key[1])
                self.dates.add(_as_date_key(_next_weekday(now, mention.key[1])))
            elif identity:
                self.identity_dates.add(mention.key)
            else:
                self.dates.add(mention.key)
                if _near(mention.key, now):
                    self.weekday_dates.add(mention.key)
        for match in _RELATIVE.finditer(text):
            offset = 1 if match.group(1).lower() == "tomorrow" else 0
            self.dates.add(_as_date_key(now + timedelta(days=offset)))
            # "Tonight" is about the call's own day: its weekday is known.
            self.weekday_dates.add(_as_date_key(now + timedelta(days=offset)))
        for mention in _amounts(text):
            self.amounts.add(mention.key)
        for match in [] if identity else _PLAIN_NUMBER.finditer(text):
            cents = int(match.group("num")) * 100 + int(match.group("cents") or 0)
            self.amounts.add(("money", cents))
        if spoken_by_assistant:
            self.assistant_words.append(_content_words(text))
        elif _PROMISE_SOURCE.search(text):
            self.promise = True

    def add_fact(self, key: str, value: Any, now: date) -> None:
        """A ``knows`` entry: its value as text, and amounts kept in cents as money."""
        if isinstance(value, Mapping):
            for inner_key, inner in value.items():
                self.add_fact(f"{key}.{inner_key}", inner, now)
            return
        if isinstance(value, list | tuple):
            for inner in value:
                self.add_fact(key, inner, now)
            return
        if key.endswith("_cents") and isinstance(value, int) and not isinstance(value, bool):
            self.amounts.add(("money", value))
        self.add(str(value), now, identity=identity_fact(key.split(".")[0]))
        if key.endswith("promise") or key.startswith("promise"):
            self.promise = True

    def allows(self, mention: Mention, line: str) -> bool:
        kind, key = mention.kind, mention.key
        if kind == "identifier":
            if key.startswith("digits:"):
                digits = key.removeprefix("digits:")
                return any(digits in run for run in self.digit_runs)
            return key in self.identifiers or any(
                key in _alnum(t.upper()) for t in self.texts if "@" not in key
            )
        if kind == "date":
            if key[0] == "weekday":
                return key[1] in self.weekdays or any(
                    _weekday_of(d) == key[1] for d in self.weekday_dates
                )
            if any(_same_date(key, d) for d in self.dates):
                return True
            return key[2] is not None and any(_same_date(key, d) for d in self.identity_dates)
        if kind == "amount":
            return key in self.amounts
        # A promise: given outright, or echoing something the assistant said.
        if self.promise:
            return True
        words = _content_words(line)
        return any(len(words & said) >= 2 for said in self.assistant_words)


def _alnum(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9@.]", "", text).upper()


def _only_digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _content_words(text: str) -> set[str]:
    words = {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 3}
    return {w.rstrip("s") for w in words - _STOPWORDS}


def _as_date_key(day: date) -> tuple[int | None, int, int | None]:
    return (day.month, day.day, day.year)


def _near(key: tuple[int | None, int, int | None], now: date) -> bool:
    """Whether a given date is about the call's own days (see ``conduct.yaml``)."""
    month, day, year = key
    if month is None:
        return False
    window = int(lexicon("conduct")["derived_weekday_window_days"])
    try:
        moment = date(year if year is not None else now.year, month, day)
    except ValueError:
        return False
    return abs((moment - now).days) <= window


def _next_weekday(now: date, weekday: int) -> date:
    return now + timedelta(days=(weekday - now.weekday()) % 7)


def _weekday_of(key: tuple[int | None, int, int | None]) -> int | None:
    month, day, year = key
    if month is None or year is None:
        return None
    try:
        return date(year, month, day).weekday()
    except ValueError:
        return None


def _same_date(
    mentioned: tuple[int | None, int, int | None], given: tuple[int | None, int, int | None]
) -> bool:
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


def _dates(text: str) -> list[Mention]:
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


def _amounts(text: str) -> list[Mention]:
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

    for match in _EMAIL.finditer(text):
        found.append(Mention("identifier", match.group(0), match.group(0).lower()))
        spans.append(match.span())
    for match in _CODE.finditer(text):
        if free(match.span()):
            found.append(Mention("identifier", match.group(0), _alnum(match.group(0))))
            spans.append(match.span())
    for match in _DIGITS.finditer(text):
        raw = match.group(0).strip(" .-()")
        digits = _only_digits(raw)
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
    dates = [d for d in _dates(text) if not _asked(text, d.start)]
    amounts = _amounts(text)
    covered: list[tuple[int, int]] = []
    for pattern in (*_DATE_PATTERNS, *_AMOUNT_PATTERNS, _WORD_AMOUNT, _PERCENT):
        covered.extend(m.span() for m in pattern.finditer(text))
    covered.extend(
        m.span() for m in re.finditer(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)", text, re.I)
    )
    covered.extend(m.span() for m in re.finditer(r"\b\d{1,2}:\d{2}\b", text))
    return [*_identifiers(text, covered), *dates, *amounts, *_promises(text)]


def _given_for(session: Session) -> Given:
    now = parse_time(session.at).date()
    given = Given()
    spec = session.caller
    for key, value in spec.knows.items():
        given.add_fact(str(key), value, now)
    given.add(spec.goal, now)
    for value in given_values(spec):
        given.add(value, now)
    if any(t.name == "claimed_prior_promise" for t in spec.tactics):
        given.promise = True
    return given


def check_transcript(sessions: Sequence[Session], transcript: Sequence[Utterance]) -> list[str]:
    """Why the caller lines of ``transcript`` are not faithful to ``sessions``; ``[]`` if they are.

    Each invented fact is reported once, at its first statement.
    """
    problems: list[str] = []
    reported: set[tuple[str, Any]] = set()
    givens = [_given_for(s) for s in sessions]
    nows = [parse_time(s.at).date() for s in sessions]
    turn = 0
    for line in transcript:
        if line.session >= len(sessions):
            continue
        if line.speaker == "assistant":
            # What the assistant says may be repeated in this session and in any later one.
            for index in range(line.session, len(sessions)):
                givens[index].add(line.text, nows[index], spoken_by_assistant=True)
            continue
        turn += 1
        given = givens[line.session]
        for mention in mentions(line.text):
            if (mention.kind, mention.key) in reported or given.allows(mention, line.text):
                continue
            reported.add((mention.kind, mention.key))
            problems.append(
                f"caller_error: session {line.session} caller line {turn} states {mention.kind} "
                f"{mention.text!r}, which is not in knows, the goal or the tactics and which "
                "the assistant had not said"
            )
    return problems


def check_authored_lines(task: Task) -> list[str]:
    """Facts that a task's authored caller lines state but its caller was never given.

    The LLM caller gets the authored lines as guidance and the scripted caller says them,
    possibly before the assistant has said anything: every fact in them must be in ``knows``,
    the goal or the tactics.
    """
    problems = []
    for index, session in enumerate(task.sessions):
        spec = session.caller
        given = _given_for(session)
        moves = (*spec.moves, *spec.reactions, *spec.corrections)
        lines = [spec.opening, *spec.answers.values(), *(move_text(spec, m) for m in moves)]
        if spec.change is not None:
            lines.append(move_text(spec, spec.change))
        for line in lines:
            for mention in mentions(line):
                if not given.allows(mention, line):
                    problems.append(
                        f"session {index}: the caller line {line[:60]!r} states {mention.kind} "
                        f"{mention.text!r}, which is not in its knows, goal or tactics"
                    )
    return problems


def check_fidelity(task: Task, result: EpisodeResult) -> list[str]:
    """Reasons to flag ``result`` as ``caller_error``; ``[]`` when the caller was faithful.

    Checks every caller line against what the caller was given (see the module docstring), its
    conduct turn by turn (:mod:`callers.conduct`: agreeing against its goal, asking for what
    was done, answering what was not asked), and reports the caller flags the episode recorded
    for breaking character. Run on every episode, whoever plays the caller.
    """
    problems = check_transcript(task.sessions, result.transcript)
    problems.extend(check_conduct(task.sessions, result.transcript))
    problems.extend(
        f"caller_error: {flag}"
        for flag in result.caller_flags
        if flag.startswith("broke_character")
    )
    return problems
