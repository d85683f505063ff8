"""The deterministic claim checker: from a message to its claims, each with its details.

A message is normalised (:mod:`.normalise`), misspellings corrected (:mod:`.spelling`), read
as units under the scope of their headings and labels (:mod:`.structure`) and split into
clauses. A clause then says nothing (a question, a condition, an offer, someone else's words,
a request passed on), reports an action done, reports it not done (negated; an attempt that
failed; under a not-done label) or describes the account (a state or history sentence, marked
``state``). Each kind's phrases come from the lexicon (:mod:`.lexicon`); each claim gets the
details stated nearest its words (:mod:`.details`). Linear in the length of the message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from sandbox.claims.clauses import (
    blank_others,
    consequence_free,
    first_match,
    message_kind,
    negated_kinds,
    negations_in,
    split_clauses,
    split_sentences,
    statement_before_question,
    without_premise,
)
from sandbox.claims.descriptions import (
    FIRST_PERSON,
    NOW,
    Earlier,
    as_object_kind,
    dated_past,
    described_state,
    pronoun_failure,
    visit_item,
)
from sandbox.claims.details import assign, find_details
from sandbox.claims.lexicon import Lexicon, lexicon
from sandbox.claims.normalise import normalise
from sandbox.claims.spelling import correct
from sandbox.claims.structure import Scope, units
from sandbox.claims.types import Claim, Details

_CHANGES = frozenset({"reschedule", "plan_change"})


# The details that say when: a claim states them together or takes none from elsewhere.
_WHEN = ("date", "weekday", "time")


# What opens a clause inside another: a negation after it is about what it describes.
_COMPLEMENT = re.compile(
    r"\b(?:that|saying|about|mentioning|explaining|asking|to say|which|who|where|while|"
    r"for the (?:days?|time|weeks?|hours?|period|nights?))\b",
    re.I,
)


# "is ordered and will be ready": what follows "and" after a report is its consequence.
_CONSEQUENCE = re.compile(r"\band (?:(?:it|that|they|you|this)(?:'ll)? )?$", re.I)


# "put you through to the dispatcher, who can tell you ...": what a relative clause after the
# report says someone will do is about them, not an offer of the action reported.
_RELATIVE = re.compile(r",\s*(?:who|which|where|whom)\b", re.I)


_DESTINATION = re.compile(
    r"\b(?:to|on|onto|into|in|against) (?:the|your|his|her|their|this|that|[\w-]+'s) (?:[\w'-]+ )?$",
    re.I,
)


# How far back "it" may refer: enough for the sentence before, bounded to keep reading linear.
_CONTEXT = 240


class LexiconClaimChecker:
    """The default, deterministic claim checker."""

    def __init__(self, lexicon_: Lexicon | None = None) -> None:
        self._lex = lexicon_ or lexicon()

    def extract(self, text: str) -> list[Claim]:
        """Every claim the message makes, once per (kind, done, state), with its details."""
        lex = self._lex
        found: dict[tuple[str, bool, bool], Claim] = {}
        prepared = correct(normalise(text))
        read = units(prepared)
        # The cues that occur anywhere in the message's units: each clause looks only for these.
        present = lex.present(" ".join(u.text for u in read).lower())
        for unit in read:
            before = ""  # the unit's text read so far (its tail is what "it" can refer to)
            for number, sentence in enumerate(split_sentences(unit)):
                # A label or mark scopes the item it opens; later sentences explain it.
                scope = unit.scope if number == 0 else None
                last: list[Claim] = []
                waiting: list[str] = []
                tried = False
                # Whether the clause before was an offer: looked up only when a bare verb needs it.
                offered: bool | None = False
                previous = ""
                # The sentence's clauses so far: one about before this call makes a plain past
                # after it history too ("Your last alignment was on 8 October, and you were
                # charged $90"); read only when a clause reports an action.
                earlier = Earlier(lex)
                for whole in split_clauses(sentence, lex):
                    clause = without_premise(whole, lex)
                    if not clause:
                        # A reason reports nothing, but what it names is what "it" may mean
                        # next ("Since your contract runs to May, I can't cancel it").
                        before = (before + " " + whole)[-_CONTEXT:]
                        continue
                    # "I'll note it and put you through": the second verb shares the offer.
                    shared = False
                    if offered is not False and lex.patterns["bare_verb"].match(clause):
                        if offered is None:
                            offered = bool(lex.patterns["not_a_claim"].search(previous))
                        shared = offered
                    offered, previous = (True if shared else None), clause
                    # Past the item a not-done label scopes, the assistant's own report in
                    # the first person is not under the label ("... but I've noted it").
                    own = (
                        scope == "not_done" and bool(last) and lex.patterns["agent"].search(clause)
                    )
                    claims = [
                        as_object_kind(c, clause, before, lex)
                        for c in self._read(
                            clause, None if own else scope, lex, present, shared, earlier
                        )
                    ]
                    earlier.add(clause)
                    if not claims and not last:
                        claims = (
                            pronoun_failure(clause, before, lex)
                            or described_state(clause, scope, lex)
                            or visit_item(clause, sentence, scope, lex)
                        )
                    before = (before + " " + whole)[-_CONTEXT:]
                    if last and (
                        scope == "not_done"
                        or (
                            tried
                            and not any(c.done for c in claims)
                            and not _another_refusal(claims, last, clause, lex)
                        )
                    ):
                        # "❌ Text reminder -- your number isn't taking texts": after the item
                        # a not-done label or mark scopes, the rest of the line says why; "I
                        # tried to move it, but the booking didn't save": after a failed
                        # attempt, what failed is the thing tried. The assistant's own
                        # report of another action is its own ("... so I've transferred
                        # you", "... but I've noted your request").
                        claims = _own_reports(claims, last, clause, lex)
                    elif claims and not last:
                        tried = bool(lex.patterns["attempt"].search(clause)) and not any(
                            c.done for c in claims
                        )
                    if claims and not last and waiting:
                        # "Engineer visit on 14 April -- no slots, so it isn't booked".
                        claims = [_more_details(c, " ".join(waiting), earlier=True) for c in claims]
                    if claims:
                        last = claims
                    elif not last:
                        waiting.append(clause)
                    elif last:
                        # "booked for 9am on Tuesday -- you'll be seeing Okafor": the rest of
                        # the sentence adds details to the claim it follows.
                        last = [_more_details(c, clause) for c in last]
                    for claim in claims:
                        key = (claim.kind, claim.done, claim.state)
                        found.setdefault(key, claim)
                # Claims whose details grew later in the sentence replace their first reading.
                for claim in last:
                    key = (claim.kind, claim.done, claim.state)
                    if found.get(key) is not None and found[key].text == claim.text:
                        found[key] = claim
        return _resolve_overlaps(list(found.values()), lex)

    def _read(
        self,
        clause: str,
        scope: Scope,
        lex: Lexicon,
        present: tuple[tuple[str, tuple[int, ...]], ...] | None = None,
        offered: bool = False,
        earlier: Earlier | None = None,
    ) -> list[Claim]:
        p = lex.patterns
        if clause.rstrip().endswith("?"):
            head = statement_before_question(clause.rstrip(), lex)
            if head is None:
                return []  # a question reports nothing
            clause = head
        lowered = clause.lower()
        kinds = lex.cued(lowered, present)
        if not kinds:
            return []  # no kind's words at all: most clauses stop here, cheaply
        # The caller's own earlier action, as the time of something else ("when you booked it"):
        # found before it is blanked, so the clause can still be read as history.
        # With the assistant's own first person in the clause, it is the report and the caller's
        # action only its time: blanked. Without, the clause is about then (history).
        caller_time = p["caller_past"].search(clause) is not None
        if caller_time and FIRST_PERSON.search(clause):
            clause = p["caller_past"].sub(lambda m: " " * len(m.group(0)), clause)
        clause = blank_others(clause, p["others_doing"])
        clause = p["caller_wish"].sub(lambda m: " " * len(m.group(0)), clause)
        # Each kind's words, read as done or (negated) not done, before the costlier tests.
        reports = []
        # The words a kind's `unless` claims ("you won't be charged during the pause") are
        # about that kind: a negation among them negates no other kind.
        excluded: list[tuple[int, int]] = []
        for kind_lex in kinds:
            unless = kind_lex.unless.search(clause) if kind_lex.unless is not None else None
            if unless is None:
                reports.append((kind_lex, first_match(kind_lex.done, kind_lex.any_done, clause)))
            else:
                excluded.append(unless.span())
        if all(match is None for _, match in reports) and not any(
            kind_lex.any_act is not None and kind_lex.any_act.search(clause)
            for kind_lex, _ in reports
        ):
            return []  # no kind's report and no kind's action words: negation cannot matter
        if excluded:
            # Unless another kind's own words are there too ("her plan hasn't changed").
            words = [m.span() for _, m in reports if m is not None] + [
                m.span()
                for k, _ in reports
                if k.any_act is not None and (m := k.any_act.search(clause)) is not None
            ]
            excluded = [e for e in excluded if not any(_overlap(e, w) for w in words)]
        negation = consequence_free(clause, negations_in(clause, lex, excluded), reports)
        negated = negation is not None
        if negated and p["policy"].search(clause):
            return []  # a rule for everyone, not something refused in this call
        attempt = None if negated else p["attempt"].search(clause)
        if attempt is not None:
            negated = not p["attempt_success"].search(clause)
        scoped = not negated and (scope == "not_done" or "notdonemark" in lowered)
        negated = negated or scoped
        marked_done = scope == "done" or "donemark" in lowered or bool(p["cleft"].search(clause))
        matches = []
        for kind_lex, match in reports:
            if match is None and (negated or marked_done):
                match = first_match(kind_lex.act, kind_lex.any_act, clause)
                if match is not None:
                    matches.append((kind_lex, match, False))
            elif match is not None:
                matches.append((kind_lex, match, True))
        if not matches:
            return []
        if not negated and marked_done and any(strong for _, _, strong in matches):
            # Under "Done:", a kind's bare noun beside another kind's verb is not a claim.
            matches = [m for m in matches if m[2]]
        if not negated and not any(strong for _, _, strong in matches) and len(matches) > 1:
            # Only bare words under a label or mark ("Move Friday's booking | Done"): the most
            # specific kind they name is the one meant.
            named = {m[0].kind for m in matches}
            matches = [
                m for m in matches if not (lex.more_specific.get(m[0].kind, frozenset()) & named)
            ]
        if attempt is not None and negated:
            # "I tried to add your name to the booking": what was tried follows "tried to".
            # A destination ("... to your booking") is not what was tried.
            matches = [
                m
                for m in matches
                if m[1].start() <= attempt.end() + 40
                and not _DESTINATION.search(clause, max(0, m[1].start() - 40), m[1].start())
            ]
        if negated:
            # "I couldn't apply it to the booking": a kind's bare noun as the destination of
            # what failed is not what failed.
            matches = [
                m
                for m in matches
                if m[2] or not _DESTINATION.search(clause, max(0, m[1].start() - 40), m[1].start())
            ]
            if not matches:
                return []
            if p["deferred"].search(clause):
                return []  # "I won't book it until you say": a promise, no refusal
        if negated and len(matches) > 1:
            matches = negated_kinds(matches, negation, lex.more_specific)
        if negation is not None and not any(
            m[1].start() <= at < m[1].end() for m in matches for at in negation
        ):
            # "I've added a note that there's no parking": the negation is in what was noted.
            strong = [m for m in matches if m[2]]
            complement = (
                _COMPLEMENT.search(clause, min(m[1].end() for m in strong)) if strong else None
            )
            if complement is not None and complement.start() < min(negation):
                # The bare words named after the complement are part of what it describes.
                negated = False
                matches = [m for m in strong if m[1].start() < complement.start()]
        if p["not_ours"].search(clause):
            return []  # someone else's words, or what the records do not show
        condition = p["conditional"].search(clause)
        first_words = min(m[1].start() for m in matches)
        if condition is not None and (
            condition.start() < first_words
            or not (
                p["time_clause"].match(clause, condition.start())
                or _COMPLEMENT.search(clause, first_words + 1, condition.start())
            )
        ):
            # A condition; a time clause after the action's words ("a note asking them to
            # call you when the results are in") only says when, and a condition inside what
            # was noted or sent ("a note asking for the window if it's free") is its content.
            return []
        labelled = scope is not None or "donemark" in lowered or "notdonemark" in lowered
        history = (
            not labelled
            and (
                # "..., which was paid on 20 November": a relative clause after the report
                # dates what it describes, not the report.
                dated_past(_before_relative(clause, matches), lex)
                # "nothing was charged when you booked it": the time of the caller's own action.
                or (caller_time and not FIRST_PERSON.search(clause))
                # A plain past after a clause about before the call is about then too.
                or (
                    earlier is not None
                    and not p["perfect"].search(clause)
                    and not FIRST_PERSON.search(clause)
                    and not NOW.search(clause)
                    and earlier.about_before()
                )
            )
            and not (negated and p["own_refusal"].search(clause))
        )
        if history and negated:
            return []  # "we didn't charge you last time": about before this call
        # An offer or plan makes the action's words no report ("I'll book it", "since it has
        # paused, ending it would be final"), unless it follows them after "and": then it is
        # what follows from the action ("is ordered and will be ready Tuesday").
        offer_hit = p["not_a_claim"].search(clause)
        offer_at = len(clause) + 1 if offer_hit is None else offer_hit.start()
        if offered:
            if negated:
                return []  # "we'd send a new one at no cost": the offer's terms, no report
            offer_at = -1  # the clause before offered this one's action too
        if (
            negated
            and negation is not None
            and offer_at < min(m[1].end() for m in matches)
            and p["modal"].match(clause, offer_at)
        ):
            # "nothing would be charged at the visit": a hypothetical, whatever it negates.
            return []
        # A description of the account says so before the action's words ("you currently have
        # a cleaning booked"); "the booking worked, it's showing now" reports the action.
        described = p["state"].search(clause)
        described_at = (
            len(clause) + 1
            if described is None or p["action"].search(clause)
            else described.start()
        )
        claims: list[Claim] = []
        for kind_lex, match, _ in matches:
            offer = scope == "future" or (
                offer_at <= len(clause)
                and (
                    offer_at < match.end()
                    or not (
                        _CONSEQUENCE.search(clause, match.end(), offer_at)
                        or _RELATIVE.search(clause, match.end(), offer_at)
                        or _COMPLEMENT.search(clause, match.start() + 1, offer_at)
                    )
                )
            )
            if (
                negated
                and negation is not None
                and offer_hit is not None
                and offer_hit.end() + 1 < min(negation)
            ):
                continue  # "I can put you on Monday with no fee": a hypothetical, not a report
            if not negated and offer and not (kind_lex.future and kind_lex.future.search(clause)):
                continue
            kind = message_kind(clause, lex) if kind_lex.kind == "message" else kind_lex.kind
            claims.append(
                Claim(
                    kind,
                    not negated,
                    clause,
                    match.span(),
                    state=(scope == "state" or history or described_at < match.end())
                    and not negated,
                )
            )
        if not claims:
            return []
        change = any(c.kind in _CHANGES for c in claims)
        details = assign(find_details(clause, change), [c.span for c in claims])
        return [
            Claim(c.kind, c.done, c.text, c.span, d, c.state)
            for c, d in zip(claims, details, strict=True)
        ]


def _before_relative(clause: str, matches: list[Any]) -> str:
    """The clause up to a relative clause (", which ...") that opens after its first report."""
    relative = _RELATIVE.search(clause, min(m[1].end() for m in matches))
    return clause if relative is None else clause[: relative.start()]


def _own_reports(claims: list[Claim], last: list[Claim], clause: str, lex: Lexicon) -> list[Claim]:
    """Of the claims read after a not-done item or a failed attempt, the assistant's reports of
    another kind of action done, in its own first person ("I've noted", "I've transferred")."""
    if not claims or not lex.patterns["agent"].search(clause):
        return []
    tried = {c.kind for c in last}
    return [c for c in claims if c.done and not c.state and c.kind not in tried]


def _another_refusal(claims: list[Claim], last: list[Claim], clause: str, lex: Lexicon) -> bool:
    """After a failed attempt, "... and I couldn't refund anything": the assistant's own refusal
    of another kind of action is a report of its own, not the reason the attempt failed."""
    tried = {c.kind for c in last}
    return any(c.kind not in tried for c in claims) and bool(
        lex.patterns["own_refusal"].search(clause)
    )


def _more_details(claim: Claim, clause: str, earlier: bool = False) -> Claim:
    """``claim`` with the details ``clause`` states that it does not state itself. From an
    ``earlier`` clause, when the claim says when itself (a day, a date or a time), none of the
    earlier clause's is taken: "your cut is on Thursday the 12th at 11, and on Friday at 10 you
    have a blow-dry" -- the 12th is the cut's date, not the blow-dry's."""
    extra = assign(find_details(clause, claim.kind in _CHANGES), [(0, 0)])[0].to_dict()
    own = claim.details.to_dict()
    if earlier and any(own.get(k) for k in _WHEN):
        extra = {k: v for k, v in extra.items() if k not in _WHEN}
    if not extra:
        return claim
    merged = {**extra, **own}
    return replace(claim, details=Details.from_dict(merged))


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _resolve_overlaps(claims: list[Claim], lex: Lexicon) -> list[Claim]:
    """Drop a claim when a more specific kind was read from the same words of the same clause."""
    out = []
    for claim in claims:
        # A refusal names its object loosely ("the reminder failed to schedule"): any more
        # specific kind in the clause wins. A report of success is read from its own words, so
        # "booked your cleaning with a text reminder" is two claims, not one.
        rivals = lex.more_specific.get(claim.kind, frozenset())
        beaten = any(
            rival.kind in rivals
            and rival.text == claim.text
            and rival.done == claim.done
            and (not claim.done or _overlap(rival.span, claim.span))
            for rival in claims
        )
        if not beaten:
            out.append(claim)
    return out


def in_context(claims: Iterable[Claim], relevant: set[str]) -> list[Claim]:
    """Read a bare "cancellation" as the one kind of cancellation this call is about.

    "I'm unable to process the cancellation" names no object; when the task and the ledger
    concern cancelling a subscription (say) and no appointment, that is what it means.
    """
    cancel_kinds = lexicon().cancel_kinds
    out = []
    for claim in claims:
        if claim.kind == "cancellation" and "cancellation" not in relevant:
            candidates = [k for k in cancel_kinds if k in relevant]
            if len(candidates) == 1:
                claim = claim.as_kind(candidates[0])
        out.append(_specialised(claim, relevant))
    return out


def _specialised(claim: Claim, relevant: set[str]) -> Claim:
    """A general claim as the specific action the call concerns ("your refill's been ordered"
    in a call about refill requests), or a specific one as the general kind the call concerns
    (a refill in a business that takes refills as orders); ``specialise`` in ``kinds.yaml``."""
    specialise = lexicon().specialise
    for kind, (general, names) in specialise.items():
        if claim.kind in general and kind in relevant and names.search(claim.text):
            return claim.as_kind(kind)
    if claim.kind in specialise and claim.kind not in relevant:
        for kind in specialise[claim.kind][0]:
            if kind in relevant:
                return claim.as_kind(kind)
    return claim
