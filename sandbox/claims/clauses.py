"""Reading a message's sentences and clauses: where they split, what a question keeps, where
a clause is negated and which of its kinds a negation is about, and what a clause says that is
not the assistant's own report (a reason it opens with, what someone else did). The pieces
:class:`.extract.LexiconClaimChecker` reads each clause with.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from sandbox.claims.lexicon import Lexicon
from sandbox.claims.prefilter import Gated
from sandbox.claims.structure import Unit

_SENTENCE = re.compile(
    r"(?<=[.!?])(?<!\bdr\.)(?<!\bmr\.)(?<!\bmrs\.)(?<!\bms\.)(?<!\bst\.)(?<!\bno\.)\s+", re.I
)


def split_sentences(unit: Unit) -> list[str]:
    return [s for s in _SENTENCE.split(unit.text) if s.strip()]


def split_clauses(sentence: str, lex: Lexicon) -> Iterable[str]:
    for part in lex.patterns["split"].split(sentence):
        part = part.strip() if part else ""
        if not part:
            continue
        if len(part) <= lex.max_clause_chars:
            yield part
            continue
        # A run-on without punctuation: read it in windows cut at spaces.
        start = 0
        while start < len(part):
            end = min(len(part), start + lex.max_clause_chars)
            if end < len(part):
                space = part.rfind(" ", start + 1, end)
                end = space if space > start else end
            yield part[start:end].strip()
            start = end


_TAIL_SPLIT = re.compile(r",\s+|\s+[—-]\s+")


def statement_before_question(clause: str, lex: Lexicon) -> str | None:
    """For a clause ending in "?": the statement before a closing question, or ``None``."""
    pieces = list(_TAIL_SPLIT.finditer(clause))
    if not pieces:
        return None
    head = clause[: pieces[-1].start()]
    tail = clause[pieces[-1].end() :]
    opener = lex.structure["question_openers"]
    if opener.search(head) or not opener.search(tail):
        return None
    return head


def negations_in(
    clause: str, lex: Lexicon, excluded: Iterable[tuple[int, int]] = ()
) -> tuple[int, ...] | None:
    """Where the clause's negations are (``None`` when it has none; pleasantries are none, and
    so are negations inside the ``excluded`` spans)."""
    if not lex.patterns["negation"].search(clause):
        return None
    # Same-length blanks keep positions: "no problem, I've cancelled it" is not negated.
    blanked = lex.patterns["pleasantry"].sub(lambda m: " " * len(m.group(0)), clause)
    found = tuple(
        m.start()
        for m in lex.patterns["negation"].finditer(blanked)
        if not any(start <= m.start() < end for start, end in excluded)
    )
    return found or None


def negated_kinds(
    matches: list[Any],
    negation: tuple[int, ...] | None,
    more_specific: Mapping[str, frozenset[str]],
) -> list[Any]:
    """Of several kinds in a negated clause, those it negates: when the clause was negated by
    its own words, the kinds nearest the negation ("couldn't be refunded, as it's within 24
    hours of the booking"), and those joined to them by "or" ("I can't move it or cancel it");
    when only by a label or mark, the first kind named."""
    first = min(m[1].start() for m in matches)
    if negation is None or all(m[1].end() <= min(negation) for m in matches):
        # "Refund of June's payment -- not possible": when every kind is named before the
        # negation, the first is the head of what it negates.
        return [m for m in matches if m[1].start() == first]

    def distance(m) -> int:  # type: ignore[no-untyped-def]
        start, end = m[1].span()
        return min(
            0 if start <= at < end else min(abs(start - at), abs(end - at)) for at in negation
        )

    own = [m for m in matches if not m[2] and distance(m) == 0]
    if own:
        # "The pause didn't cost anything": a kind whose own action words carry the negation
        # is what it negates; a kind merely named beside it is not. (A report's longer span
        # can take in a negation that is not its own: "the refund nor the credit has gone".)
        # A more specific kind read from the same words stays ("the order cancellation didn't
        # go through" is the cancellation's, not the order's).
        narrower = {k for m in own for k in more_specific.get(m[0].kind, ())}
        kept = own + [m for m in matches if m[0].kind in narrower and m not in own]
    else:
        best = min(distance(m) for m in matches)
        kept = [m for m in matches if distance(m) <= best + 12]
    for m in sorted(matches, key=lambda m: m[1].start()):
        if m not in kept and any(_or_joined(k[1], m[1]) for k in kept):
            kept.append(m)
    return kept


# Between two verbs one negation governs: "cancel it or refund it", "moved or cancelled".
_OR_JOINED = re.compile(
    r"(?:\s+(?:it|that|them|this|anything|(?:the|your|any) [\w-]+))?,?\s+(?:or|nor)\s+"
    r"(?:(?:have|had|been|even|i|we)\s+)?",
    re.I,
)


def _or_joined(kept: re.Match[str], other: re.Match[str]) -> bool:
    between = kept.string[kept.end() : other.start()]
    return 0 < len(between) <= 40 and _OR_JOINED.fullmatch(between) is not None


def first_match(patterns: Iterable[Gated], any_: Gated | None, clause: str) -> re.Match[str] | None:
    """The match of the first of ``patterns`` that matches (in lexicon order)."""
    if any_ is not None and any_.search(clause) is None:
        return None  # none of them can match: one search instead of one per pattern
    for pattern in patterns:
        match = pattern.search(clause)
        if match:
            return match
    return None


def message_kind(clause: str, lex: Lexicon) -> str:
    """``sms`` or ``email`` when the clause names one channel only, else ``message``."""
    sms = bool(lex.patterns["sms_words"].search(clause))
    email = bool(lex.patterns["email_words"].search(clause))
    return "sms" if sms and not email else "email" if email and not sms else "message"


def without_premise(clause: str, lex: Lexicon) -> str:
    """The clause without the reason it opens with, when the reason reports nothing: "since the
    booking was cancelled on the day" is a premise (empty), "because the clinic moved it, the
    fee is waived" its main clause (so is "... made I'm not able to refund it"); the assistant's own reason ("since I've moved it") and a
    reason's failure ("because the deposit didn't go through") are read as they stand."""
    premise = lex.patterns["premise"].match(clause)
    if premise is None:
        return clause
    rest = clause[premise.end() :]
    if lex.patterns["premise_own"].match(clause):
        return rest
    comma = rest.find(", ")
    if comma >= 0:
        return rest[comma + 2 :]
    # "because it's been made I'm not able to refund it": the main clause, unmarked by a comma,
    # opens where the assistant becomes the subject.
    main = lex.patterns["premise_main"].search(rest)
    if main is not None:
        return rest[main.end() :]
    return rest if lex.patterns["premise_failed"].search(rest) else ""


def blank_others(clause: str, others: Gated) -> str:
    """The clause with what someone else did blanked out, positions kept ("the class you
    cancelled on Monday" reads as "the class"...)."""
    if others.search(clause) is None:
        return clause
    return others.sub(
        lambda m: m.group(0)[: m.start(1) - m.start()] + " " * len(m.group(1)), clause
    )


_AND_THEN = re.compile(r"\s(?:and|so)\s", re.I)


def consequence_free(
    clause: str, negation: tuple[int, ...] | None, reports: list[Any]
) -> tuple[int, ...] | None:
    """The negations that are about the clause's report: "Order #2098 is cancelled and won't
    ship" -- a negation after "and", past a report of an action, that names no kind's action
    itself says what follows from the report, not that it failed."""
    if negation is None:
        return None
    ends = [match.end() for _, match in reports if match is not None]
    if not ends:
        return negation
    conj = _AND_THEN.search(clause, min(ends))
    if conj is None or conj.end() > min(negation):
        return negation
    tail = clause[conj.end() :]
    if any(k.any_act is not None and k.any_act.search(tail) for k, _ in reports):
        return negation
    if any(match is not None and match.start() >= conj.end() for _, match in reports):
        return negation
    return None
