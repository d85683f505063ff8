"""Caller conduct: did the simulated caller play its part, turn by turn? (DESIGN §6)

Beside the facts it states (:mod:`callers.fidelity`), a faithful caller does not:

- **agree against its goal**: say yes to a read-back, offer or report that its spec says to
  correct (a ``corrections`` move's ``heard`` matching, its ``unless`` not);
- **ask for something already done**: ask for an action of a kind the assistant reported done
  earlier in the same session ("Yes please, book it" after "I've booked you in"), unless the
  line changes what was done;
- **answer a question that was not asked**: give a verification fact (date of birth, postcode)
  when the assistant's last turn did not ask for one.

The assistant's turns are read by :func:`callers.turns.classify`, the same reading the scripted
caller uses; the caller's lines by the patterns in ``callers/lexicon/conduct.yaml``. The checks
apply to every caller, scripted, LLM or human.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from callers.turns import Turn, classify, lexicon
from sandbox.episode import Utterance
from sandbox.task import CallerSpec, Session
from sandbox.text_cache import TEXT_CACHE


# Caller lines repeat across tasks and trials, and the lexicon's patterns are few. Bounded.
@lru_cache(maxsize=TEXT_CACHE)
def _search(pattern: str | None, text: str) -> bool:
    return pattern is not None and re.search(pattern, text, re.IGNORECASE) is not None


def agrees(line: str) -> bool:
    """Whether caller ``line`` says yes (and takes nothing back in the same breath)."""
    rules = lexicon("conduct")
    return _search(rules["agree"], line) and not _search(rules["deny"], line)


def verification_fact(key: str) -> str | None:
    """The verification fact a ``knows`` key holds (``dob_claimed`` -> ``dob``), or ``None``."""
    base = key.removesuffix("_claimed")
    facts = lexicon("conduct")["verification_facts"]
    return base if base in facts else ("dob" if "birth" in base else None)


def identity_fact(key: str) -> bool:
    """Whether ``knows`` key ``key`` holds an identity detail (``identity_fact_keys``)."""
    return any(part in key.lower() for part in lexicon("conduct")["identity_fact_keys"])


def _fact_forms(key: str, value: Any) -> tuple[re.Pattern[str], ...]:
    """Ways a verification fact's value shows in a line (a date several ways, digits as-is)."""
    return _value_forms(str(value))


# Compiled once per value: every caller line of every episode is checked against them.
@lru_cache(maxsize=4096)
def _value_forms(text: str) -> tuple[re.Pattern[str], ...]:
    iso = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    if iso is None:
        digits = re.sub(r"\D", "", text)
        return (re.compile(rf"(?<!\d){re.escape(digits)}(?!\d)"),) if len(digits) >= 4 else ()
    year, month, day = iso.group(1), int(iso.group(2)), int(iso.group(3))
    names = f"{calendar.month_name[month]}|{calendar.month_abbr[month]}"
    return (
        re.compile(re.escape(text)),
        re.compile(rf"\b(?:{names})\.?\s+(?:the\s+)?{day}(?:st|nd|rd|th)?\b,?\s+{year}", re.I),
        re.compile(rf"\b{day}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{names})\b,?\s+{year}", re.I),
    )


def _turns(transcript: Sequence[Utterance], session: int) -> Iterator[tuple[int, Turn, str]]:
    """``(caller line number, the assistant turn before it, the caller line)`` of a session."""
    heard: list[str] = []
    number = 0
    for line in transcript:
        if line.session != session:
            continue
        if line.speaker == "assistant":
            heard.append(line.text)
            continue
        number += 1
        yield number, classify(" ".join(t for t in heard if t)), line.text
        heard = []


def _against_goal(spec: CallerSpec, turn: Turn, line: str) -> str | None:
    if not agrees(line):
        return None
    for correction in spec.corrections:
        kinds = correction.turn or ("confirm", "offer", "done", "anything_else")
        if (
            turn.has(*kinds)
            and _search(correction.heard, turn.text)
            and not _search(correction.unless, turn.text)
        ):
            return f"agrees to {turn.text[-80:]!r}, which its goal says to correct"
    return None


def _already_done(done: set[str], line: str) -> str | None:
    rules = lexicon("conduct")
    if _search(rules["change"], line):
        return None
    for kind, patterns in rules["requests"].items():
        if kind in done and any(_search(p, line) for p in patterns):
            return f"asks for {kind} ({line[:60]!r}), which the assistant had already reported done"
    return None


def _unasked(spec: CallerSpec, turn: Turn, line: str, number: int) -> str | None:
    if number == 1 or turn.has("identity", "verify_retry"):
        return None
    for key, value in spec.knows.items():
        fact = verification_fact(str(key))
        if fact is not None and any(p.search(line) for p in _fact_forms(str(key), value)):
            return f"gives its {fact} ({line[:60]!r}) though the assistant had not asked for it"
    return None


def check_conduct(sessions: Sequence[Session], transcript: Sequence[Utterance]) -> list[str]:
    """Why the caller's turns in ``transcript`` are not faithful to its spec; ``[]`` if they are."""
    problems: list[str] = []
    for index, session in enumerate(sessions):
        done: set[str] = set()
        for number, turn, line in _turns(transcript, index):
            done.update(turn.done)
            for problem in (
                _against_goal(session.caller, turn, line),
                _already_done(done, line),
                _unasked(session.caller, turn, line, number),
            ):
                if problem is not None:
                    problems.append(f"caller_error: session {index} caller line {number} {problem}")
    return problems
