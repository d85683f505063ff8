"""Claims read without a kind's report in the clause: a description of the account, an item
under a done or not-done label that only names a visit, "it didn't go through" about the last
thing named, and whether a clause is about before this call (history, not an action).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sandbox.claims.details import assign, find_details
from sandbox.claims.lexicon import Lexicon
from sandbox.claims.structure import Scope
from sandbox.claims.types import Claim

# "..., and the refund was processed today": this call's time, whatever came before.
NOW = re.compile(
    r"\b(?:today|just now|this morning|this afternoon|tonight|now|on this call)\b", re.I
)


# The assistant speaking of itself: "I haven't cancelled it yet" after "yesterday" is about now.
FIRST_PERSON = re.compile(r"\b(?:i|we)\b|\b(?:i|we)'", re.I)


def described_state(clause: str, scope: Scope, lex: Lexicon) -> list[Claim]:
    """ "You're already down for a cleaning on the 14th": a description of the account that
    uses no action words (a state frame of ``language.yaml``), as a state claim of its kind."""
    frames = lex.state_frames
    if not frames or scope in ("future", "not_done", "done") or clause.rstrip().endswith("?"):
        return []
    named = [
        (m.start(), kind, m) for kind, pattern in frames.items() if (m := pattern.search(clause))
    ]
    if not named:
        return []
    p = lex.patterns
    if (
        p["negation"].search(clause)
        or p["not_a_claim"].search(clause)
        or p["conditional"].search(clause)
        or p["not_ours"].search(clause)
        or p["history"].search(clause)
    ):
        return []
    _, kind, match = min(named, key=lambda n: n[0])
    details = assign(find_details(clause, False), [match.span()])[0]
    return [Claim(kind, True, clause, match.span(), details, state=True)]


def dated_past(clause: str, lex: Lexicon) -> bool:
    """Whether ``clause`` says when before this call ("last time", "was charged on the 3rd")."""
    p = lex.patterns
    return bool(
        (p["history"].search(clause) and not p["perfect"].search(clause))
        or (p["past_passive"].search(clause) and not p["agent"].search(clause))
    )


def _about_before(clause: str, lex: Lexicon) -> bool:
    """Whether ``clause`` is about before this call, not the assistant's own account of it."""
    if FIRST_PERSON.search(clause) and not _OPENS_WITH_BEFORE.match(clause):
        return False  # "I went to cancel the delivery you'd requested": about this call
    return dated_past(clause, lex)


class Earlier:
    """A sentence's clauses so far, and whether one is about before this call: each clause is
    read at most once, and only when a later clause reports an action, so a long sentence stays
    linear."""

    def __init__(self, lex: Lexicon) -> None:
        self._lex = lex
        self._clauses: list[str] = []
        self._read = 0
        self._found = False

    def add(self, clause: str) -> None:
        self._clauses.append(clause)

    def about_before(self) -> bool:
        while not self._found and self._read < len(self._clauses):
            self._found = _about_before(self._clauses[self._read], self._lex)
            self._read += 1
        return self._found


_OPENS_WITH_BEFORE = re.compile(
    r"\W*(?:last (?:time|week|month|year)|previously|back in|originally|earlier this)\b", re.I
)


def visit_item(clause: str, sentence: str, scope: Scope, lex: Lexicon) -> list[Claim]:
    """ "- Vaccination visit with Jess on Monday at 2:00" under "Done:", "❌ Warranty visit --
    over 90 days": an item naming a visit or service and no action, under a done or not-done
    label or mark, is a booking made (when it also says when or with whom) or not made."""
    lowered = clause.lower()
    if "notdonemark" in lowered or scope == "not_done":
        done = False
    elif "donemark" in lowered or scope == "done":
        done = True
    else:
        return []
    if clause.rstrip().endswith("?") or lex.visit_verb_first.match(clause):
        return []
    named = lex.visit_names.search(clause)
    if named is None and not done and lex.visit_unavailable.search(sentence, len(clause)):
        # The reason after the item says no one or no time was free: a booking not made.
        return [Claim("booking", False, clause, (0, len(clause)))]
    if named is None or (done and lex.visit_when.search(clause) is None):
        return []
    details = assign(find_details(clause, False), [named.span()])[0]
    return [Claim("booking", done, clause, named.span(), details)]


def pronoun_failure(clause: str, before: str, lex: Lexicon) -> list[Claim]:
    """ "..., so it looks like it didn't go through", "so I haven't applied it": a not-done
    claim of the last thing named (that the refusal's verb can act on)."""
    failed = lex.patterns["pronoun_failed"].search(clause)
    objects: Iterable[str] = lex.pronoun_objects
    if failed is None:
        failed = lex.pronoun_refusal.search(clause)
        if failed is None:
            return []
        objects = lex.pronoun_verbs.get(failed.group("verb").lower(), ())
    last, kind = -1, None
    for candidate in objects:
        pattern = lex.pronoun_objects.get(candidate)
        if pattern is None:
            continue
        for match in pattern.finditer(before):
            if match.start() > last:
                last, kind = match.start(), candidate
    return [] if kind is None else [Claim(kind, False, clause, failed.span())]


def as_object_kind(claim: Claim, clause: str, before: str, lex: Lexicon) -> Claim:
    """A bare cancellation ("couldn't cancel it") as the kind of the last thing named."""
    if claim.kind != "cancellation":
        return claim
    objects = lex.cancel_objects
    named = {kind for kind, pattern in objects.items() if pattern.search(clause)}
    if named:
        # The clause names what it cancels: one kind of thing is that kind's cancellation
        # ("cancelled the flowers you'd ordered", "cancelled now: order HH-21055"); several
        # leave the reading as it is.
        return claim.as_kind(named.pop()) if len(named) == 1 else claim
    last, kind = -1, claim.kind
    for candidate, pattern in objects.items():
        for match in pattern.finditer(before):
            if match.start() > last:
                last, kind = match.start(), candidate
    return claim.as_kind(kind)
