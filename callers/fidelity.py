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
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from callers.conduct import check_conduct, identity_fact
from callers.mentions import (
    CODE,
    DIGITS,
    EMAIL,
    PLAIN_NUMBER,
    RELATIVE,
    Mention,
    alnum,
    amounts_in,
    content_words,
    date_key,
    dates_in,
    mentions,
    next_weekday,
    only_digits,
    same_date,
    weekday_of,
)
from callers.scripted import move_text
from callers.tactics import given_values
from callers.turns import lexicon
from sandbox.episode import EpisodeResult, Utterance
from sandbox.task import Session, Task
from sandbox.text_cache import TEXT_CACHE
from tools.timefmt import parse_time

_PROMISE_SOURCE = re.compile(r"promis|guarant|assur|agreed|offered|told|said", re.I)


@dataclass(frozen=True)
class _Reading:
    """What :meth:`Given.add` takes from a text, before the call's ``now`` is applied."""

    identifiers: frozenset[str]
    digit_runs: frozenset[str]
    dates: tuple[Any, ...]  # date keys, weekday keys included, in order
    relative: tuple[int, ...]  # day offsets of "today"/"tonight" (0) and "tomorrow" (1)
    amounts: frozenset[Any]
    plain_amounts: frozenset[Any]  # bare numbers read as money (not for identity details)
    words: frozenset[str]
    promise_source: bool


# Assistant turns repeat across the sessions of a call, the tasks and the trials of a run; a
# reading depends on the text alone. Bounded, so that memory stays flat.
@lru_cache(maxsize=TEXT_CACHE)
def _read(text: str) -> _Reading:
    identifiers = {alnum(m.group(0)) for m in CODE.finditer(text.upper())}
    identifiers.update(m.group(0).lower() for m in EMAIL.finditer(text))
    digit_runs = {d for d in (only_digits(m.group(0)) for m in DIGITS.finditer(text)) if d}
    digit_runs.update(re.findall(r"\d+", text))
    relative = tuple(
        1 if match.group(1).lower() == "tomorrow" else 0 for match in RELATIVE.finditer(text)
    )
    plain = set()
    for match in PLAIN_NUMBER.finditer(text):
        plain.add(("money", int(match.group("num")) * 100 + int(match.group("cents") or 0)))
    return _Reading(
        frozenset(identifiers),
        frozenset(digit_runs),
        tuple(mention.key for mention in dates_in(text)),
        relative,
        frozenset(mention.key for mention in amounts_in(text)),
        frozenset(plain),
        frozenset(content_words(text)),
        _PROMISE_SOURCE.search(text) is not None,
    )


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
    assistant_words: list[frozenset[str]] = field(default_factory=list)

    def copy(self) -> Given:
        """An independent copy (its sets and lists are new)."""
        return Given(
            list(self.texts),
            set(self.identifiers),
            set(self.digit_runs),
            set(self.dates),
            set(self.weekdays),
            set(self.weekday_dates),
            set(self.identity_dates),
            set(self.amounts),
            self.promise,
            list(self.assistant_words),
        )

    def add(
        self, text: str, now: date, *, spoken_by_assistant: bool = False, identity: bool = False
    ) -> None:
        """Take in given ``text``.

        ``identity``: it is an identity detail (a date of birth, a phone number, an id). Its
        characters may be repeated, but nothing is derived from it about anything else: its
        date stands for no weekday and for no day without its year, its numbers for no amount.
        """
        reading = _read(text)
        self.texts.append(text)
        self.identifiers.update(reading.identifiers)
        self.digit_runs.update(reading.digit_runs)
        for key in reading.dates:
            if key[0] == "weekday":
                self.weekdays.add(key[1])
                self.dates.add(date_key(next_weekday(now, key[1])))
            elif identity:
                self.identity_dates.add(key)
            else:
                self.dates.add(key)
                if _near(key, now):
                    self.weekday_dates.add(key)
        for offset in reading.relative:
            self.dates.add(date_key(now + timedelta(days=offset)))
            # "Tonight" is about the call's own day: its weekday is known.
            self.weekday_dates.add(date_key(now + timedelta(days=offset)))
        self.amounts.update(reading.amounts)
        if not identity:
            self.amounts.update(reading.plain_amounts)
        if spoken_by_assistant:
            self.assistant_words.append(reading.words)
        elif reading.promise_source:
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
                key in alnum(t.upper()) for t in self.texts if "@" not in key
            )
        if kind == "date":
            if key[0] == "weekday":
                return key[1] in self.weekdays or any(
                    weekday_of(d) == key[1] for d in self.weekday_dates
                )
            if any(same_date(key, d) for d in self.dates):
                return True
            return key[2] is not None and any(same_date(key, d) for d in self.identity_dates)
        if kind == "amount":
            return key in self.amounts
        # A promise: given outright, or echoing something the assistant said.
        if self.promise:
            return True
        words = content_words(line)
        return any(len(words & said) >= 2 for said in self.assistant_words)


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


# What a session's spec gives, built once per session object (a run checks each task's
# sessions in every episode); an entry goes when its session is collected.
_SPEC_GIVEN: dict[int, Given] = {}


def _given_for(session: Session) -> Given:
    """What ``session``'s caller is given before the assistant speaks (a copy to grow)."""
    given = _SPEC_GIVEN.get(id(session))
    if given is None:
        given = _SPEC_GIVEN[id(session)] = _spec_given(session)
        weakref.finalize(session, _SPEC_GIVEN.pop, id(session), None)
    return given.copy()


def _spec_given(session: Session) -> Given:
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
    # What the assistant has said, not yet taken into each session's given facts. Taking a
    # line in costs more than most checks need: a mention is usually allowed by the spec alone,
    # and a given only grows (``allows`` is monotone in it), so the assistant's lines are taken
    # in only when a mention is not allowed without them. The verdicts are the same.
    pending: list[list[str]] = [[] for _ in sessions]
    turn = 0
    for line in transcript:
        if line.session >= len(sessions):
            continue
        if line.speaker == "assistant":
            # What the assistant says may be repeated in this session and in any later one.
            for index in range(line.session, len(sessions)):
                pending[index].append(line.text)
            continue
        turn += 1
        given, waiting, now = givens[line.session], pending[line.session], nows[line.session]
        for mention in mentions(line.text):
            if (mention.kind, mention.key) in reported or given.allows(mention, line.text):
                continue
            if waiting:
                for text in waiting:
                    given.add(text, now, spoken_by_assistant=True)
                waiting.clear()
                if given.allows(mention, line.text):
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
