"""What the assistant told the caller it did or did not do, and whether the ledger agrees.

The default checker is deterministic: per action kind, phrases for the action in a completed
form ("I've booked", "is confirmed", "has been refunded") and negation cues in the same clause
("couldn't", "wasn't able to", "didn't go through"). Offers, questions and future tense are not
claims ("I'll book that", "shall I cancel?"). Its agreement with a hand-labelled set is measured
in ``tests/test_claims_accuracy.py`` and published in the README, not assumed.

An LLM judge can replace it through the :class:`ClaimChecker` protocol.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

# Which tools perform which kind of action (one tool, one kind).
TOOL_KINDS: dict[str, str] = {
    "book_appointment": "booking",
    "reschedule_appointment": "reschedule",
    "cancel_appointment": "cancellation",
    "set_reminder": "reminder",
    "cancel_reminder": "reminder_cancellation",
    "reserve_stock": "reservation",
    "release_stock": "release",
    "place_order": "order",
    "cancel_order": "order_cancellation",
    "start_return": "return",
    "charge": "charge",
    "refund": "refund",
    "apply_credit": "credit",
    "waive_fee": "fee_waiver",
    "change_plan": "plan_change",
    "pause_subscription": "pause",
    "cancel_subscription": "subscription_cancellation",
    "send_sms": "message",
    "send_email": "message",
    "add_note": "note",
    "update_customer_contact": "contact_update",
    "transfer_to_human": "transfer",
}
KINDS: tuple[str, ...] = (*dict.fromkeys(TOOL_KINDS.values()), "overall")


@dataclass(frozen=True)
class Claim:
    """One statement: the action ``kind`` was (``done``) or was not done. ``text`` is the clause."""

    kind: str
    done: bool
    text: str = ""

    @property
    def fact(self) -> str:
        """The disclosure-fact name this claim states (``reminder_not_done``)."""
        return f"{self.kind}_{'done' if self.done else 'not_done'}"


class ClaimChecker(Protocol):
    """Extracts claims from what the assistant said."""

    def extract(self, text: str) -> list[Claim]: ...


# -- the lexicon ---------------------------------------------------------------------------

_NEG = re.compile(
    r"\b(?:not|never|no longer|unable|couldn'?t|could not|can'?t|cannot|wasn'?t|weren'?t|"
    r"isn'?t|aren'?t|didn'?t|did not|doesn'?t|hasn'?t|haven'?t|won'?t|failed|fail|"
    r"unfortunately|nothing|no)\b|\bn't\b|n't\b",
    re.IGNORECASE,
)
# "no problem", "not a problem", "no worries", "not at all" are pleasantries, not negation.
_PLEASANTRY = re.compile(
    r"\b(?:no problem|not a problem|no worries|not at all|no trouble|no bother|"
    r"nothing else|no charge for|not to worry|never mind)\b",
    re.IGNORECASE,
)
_NOT_A_CLAIM = re.compile(
    r"\b(?:i'?ll|i will|we'?ll|we will|i'?m going to|we'?re going to|going to|"
    r"would you like|do you want|shall i|should i|can i|could i|may i|i can|we can|"
    r"i could|we could|if you|if we|once you|when you|let me know|want me to|"
    r"happy to|able to help|usually|normally|typically|in order to)\b",
    re.IGNORECASE,
)
# Completed forms: perfect, past, passive, stative ("you're booked", "it's confirmed", "done").
_DONE = (
    r"(?:i'?ve|i have|we'?ve|we have|has|have|'s|had|i|we|just|now|already|been|is|are|was|were|"
    r"you'?re|you are|it'?s|that'?s|all|gone ahead and|went ahead and)"
)

_LEXICON: dict[str, list[str]] = {
    "booking": [
        r"\b(?:booked|book(?:ing)? (?:is|was) (?:confirmed|made|set)|scheduled|pencilled|penciled|"
        r"put you (?:down|in)|got you (?:in|down|booked)|reserved (?:a|the|your) (?:table|room|slot|spot)|"
        r"(?:appointment|booking|reservation|visit|slot|table|room) (?:is|has been|was|'s been) "
        r"(?:confirmed|made|set|reserved|secured|locked in)|you'?re (?:all )?(?:set|confirmed) for)",
    ],
    "reschedule": [
        r"\b(?:rescheduled|re-scheduled|rebooked|re-booked|moved (?:your|the|it|you)|"
        r"(?:has|have|'s) been moved|switched (?:your|the|it) (?:appointment|booking|slot|visit)|"
        r"changed (?:your|the) (?:appointment|booking|time|slot|visit)|now (?:on|at|for) (?:mon|tue|wed|thu|fri|sat|sun))",
        r"\b(?:reschedul\w*|mov(?:e|ing) (?:your|the) (?:appointment|booking|visit))",
    ],
    "cancellation": [
        r"\b(?:cancel+ed|cancel+ation (?:is|has been) (?:done|processed|confirmed)|called off)\b"
        r"(?![^.]*\b(?:subscription|membership|plan|service|line|contract|account|order|reminder)s?\b)",
        r"\bcancel+(?:ing|ation)?\b(?![^.]*\b(?:subscription|membership|plan|service|line|contract|account|order|reminder)s?\b)",
    ],
    "reminder": [
        r"\b(?:reminder|text the day before|text (?:you )?(?:a|the) day before|"
        r"(?:text|email|message) (?:reminder|before (?:your|the) (?:appointment|visit)))",
        r"\byou'?ll (?:get|receive) (?:a )?(?:text|sms|email|message)\b[^.]*\b(?:before|ahead)",
    ],
    "reminder_cancellation": [
        r"\b(?:cancel+ed|removed|turned off|stopped|switched off)\b[^.]*\breminders?\b",
        r"\breminders?\b[^.]*\b(?:cancel+ed|removed|turned off|switched off)",
    ],
    "reservation": [
        r"\b(?:put (?:aside|on hold|by)|set aside|held|holding|on hold for you|reserved)\b"
        r"(?![^.]*\b(?:table|room|slot|appointment)\b)",
    ],
    "release": [r"\b(?:released|back (?:in|into) stock|let go of the hold|freed up)\b"],
    "order": [
        r"\b(?:order (?:has been|is|was|'s been) (?:placed|in|submitted|confirmed|put through)|"
        r"placed (?:the|your|an|a new) order|ordered (?:it|that|them|you|the|a)|"
        r"put (?:the|your|an) order (?:in|through))",
        r"\bplac(?:e|ing) (?:the|your|an|a new) order|\border (?:didn'?t|did not|couldn'?t) go through",
    ],
    "order_cancellation": [
        r"\border\b[^.]*\bcancel+(?:ed|led)?\b|\bcancel+(?:ed|led)?\b[^.]*\border\b",
    ],
    "return": [
        r"\b(?:return (?:has been|is|was|'s been) (?:started|opened|set up|processed|authori[sz]ed|created|logged)|"
        r"(?:started|opened|set up|processed|authori[sz]ed|created|logged|issued) (?:a|the|your) return|"
        r"return label|returns? (?:is|are) (?:open|underway|in progress)|rma)",
        r"\b(?:start|open|process|accept)(?:ing)? (?:a|the|your) return|\breturn\b[^.]*\b(?:window|period)\b",
    ],
    "charge": [
        r"\b(?:charged|billed|taken (?:the )?(?:payment|deposit)|payment (?:has been|is|was|'s been) "
        r"(?:taken|processed|made|received|completed)|put (?:it|that|the \w+) on your card|"
        r"(?:took|processed|collected) (?:the|your|a) (?:payment|deposit|fee))",
        r"\b(?:charg(?:e|ing) (?:you|your card)|nothing (?:has been|was) (?:charged|taken))",
    ],
    "refund": [r"\brefund(?:ed|s)?\b|\bmoney back\b|\breimburs\w*"],
    "credit": [
        r"\b(?:credit(?:ed)?\b(?![^.]*\bcard\b)|goodwill (?:gesture|credit)|account credit|store credit)",
    ],
    "fee_waiver": [
        r"\b(?:waived?|waiving|wiped|removed (?:the|that|your) (?:\w+ )?(?:fee|charge)|"
        r"(?:fee|charge) (?:has been|is|was|'s been) (?:removed|dropped|cancel+ed|taken off|written off)|"
        r"written off|let you off)",
    ],
    "plan_change": [
        r"\b(?:upgraded|downgraded|switched (?:you|your plan|your package|your subscription)|"
        r"changed (?:you|your) (?:plan|package|tier|subscription)|moved you (?:to|onto) (?:the|a)\b|"
        r"(?:plan|package|tier) (?:has been|is|was|'s been) (?:changed|switched|updated|upgraded|downgraded)|"
        r"you'?re now on)",
        r"\b(?:upgrad|downgrad|chang(?:e|ing) (?:your|the) plan|switch(?:ing)? (?:your|the) plan)\w*",
    ],
    "pause": [
        r"\b(?:paused|frozen|froze|on hold until|put (?:on|your \w+ on) (?:hold|pause)|paus(?:e|ing)|freez(?:e|ing))\b"
    ],
    "subscription_cancellation": [
        r"\b(?:subscription|membership|plan|service|line|contract|account|broadband|package)s?\b[^.]*\bcancel+\w*"
        r"|\bcancel+\w*\b[^.]*\b(?:subscription|membership|plan|service|line|contract|broadband|package)s?\b",
        r"\b(?:terminated|closed (?:your|the) account|ended (?:your|the) (?:subscription|membership|contract))",
    ],
    "message": [
        r"\b(?:sent|texted|emailed|e-mailed|messaged|fired off|dropped you)\b"
        r"(?![^.]*\b(?:day before|before your|ahead of)\b)",
        r"\b(?:confirmation|receipt|details|message|text|email|sms)\b[^.]*\b(?:on (?:its|the) way|in your inbox)",
        r"\b(?:send|sending|text|email)(?:ing)? (?:you|it|that|a|the)\b",
    ],
    "note": [
        r"\b(?:(?:added|left|made|put|popped) (?:a )?(?:note|comment)|noted (?:it|that|on|down|this)|"
        r"note (?:on|to) (?:your|the) (?:account|file|record)|on your (?:file|record|account) (?:that|so))"
    ],
    "contact_update": [
        r"\b(?:(?:updated|changed|corrected|amended)\b[^.]*\b(?:number|phone|email|address|contact|details)|"
        r"(?:number|phone|email|address|contact details|details)\b[^.]*\b(?:updated|changed|corrected|amended))",
    ],
    "transfer": [
        r"\b(?:transferr?(?:ing|ed)?|put(?:ting)? you through|connect(?:ing|ed)? you|hand(?:ing)? (?:you|this|the call) (?:over|to)|"
        r"pass(?:ing)? you (?:over|to|on)|escalat(?:ed|ing)|get (?:a|my) (?:manager|supervisor|colleague) on)",
    ],
    "overall": [
        r"\b(?:you'?re all (?:set|sorted|done|good)|all (?:set|sorted|done|taken care of)|"
        r"(?:that'?s|it'?s|everything'?s|everything is|everything has been) "
        r"(?:all )?(?:sorted|done|taken care of|handled|complete|completed|set)|"
        r"(?:that|which) (?:covers|is) everything|good to go)\b",
    ],
}
_PATTERNS = {kind: [re.compile(p, re.IGNORECASE) for p in ps] for kind, ps in _LEXICON.items()}
# Kinds whose first pattern is the completed form and later patterns only count when negated.
_NEGATION_ONLY_FROM = {kind: 1 for kind in _LEXICON}
_NEGATION_ONLY_FROM["refund"] = 0
_NEGATION_ONLY_FROM["credit"] = 0
_NEGATION_ONLY_FROM["reminder"] = 0

# "refund" and "credit" are nouns as often as verbs: they are a claim only with a completed verb.
_NOUN_KINDS_DONE = {
    "refund": re.compile(
        r"\b(?:refunded|issued|processed|sent|put through|gone through|went through|on (?:its|the) way|"
        r"done|approved|back (?:on|to) your|you'?ll (?:see|get|receive)|(?:has|have|'s) been)\b",
        re.IGNORECASE,
    ),
    "credit": re.compile(
        r"\b(?:credited|added|applied|put|issued|on your account|(?:has|have|'s) been|you'?ll (?:see|have))\b",
        re.IGNORECASE,
    ),
    "reminder": re.compile(
        r"\b(?:set|scheduled|added|booked|in place|on (?:its|the) way|you'?ll (?:get|receive)|"
        r"(?:has|have|'s) been|i'?ve|we'?ve|set up|sorted|arranged|go out|goes out|will go out|"
        r"you'?ll be reminded|a text the day before|text (?:you )?(?:a|the) day before)\b",
        re.IGNORECASE,
    ),
}

_CLAUSE_SPLIT = re.compile(
    r"(?<=[.!?])\s+|;\s*|\s+[—–-]{1,2}\s+|,?\s+\b(?:but|however|although|though|whereas|yet|"
    r"unfortunately|sadly|except)\b,?\s*|,\s+(?:and|so|plus)\s+|\s+and\s+(?=(?:i|we|the|your|it|that|a|you)\b)",
    re.IGNORECASE,
)


def _clauses(text: str) -> list[str]:
    # Keep the contrastive word with the clause it opens: "unfortunately" is itself a negation cue.
    parts: list[str] = []
    last = 0
    for match in _CLAUSE_SPLIT.finditer(text):
        parts.append(text[last : match.start()])
        word = match.group(0).strip(" ,;—–-").lower()
        last = match.start() if word in ("unfortunately", "sadly") else match.end()
    parts.append(text[last:])
    return [p.strip() for p in parts if p and p.strip()]


def _negated(clause: str) -> bool:
    cleaned = _PLEASANTRY.sub(" ", clause)
    return bool(_NEG.search(cleaned))


class LexiconClaimChecker:
    """The default, deterministic claim checker."""

    def extract(self, text: str) -> list[Claim]:
        found: dict[tuple[str, bool], Claim] = {}
        for clause in _clauses(text):
            if clause.rstrip().endswith("?"):
                continue
            negated = _negated(clause)
            for kind, patterns in _PATTERNS.items():
                hit = None
                for index, pattern in enumerate(patterns):
                    if pattern.search(clause):
                        hit = index
                        break
                if hit is None:
                    continue
                if negated:
                    claim = Claim(kind, False, clause)
                elif hit >= _NEGATION_ONLY_FROM[kind] and kind not in _NOUN_KINDS_DONE:
                    continue  # a mention of the action, not a report of it
                elif (kind in _NOUN_KINDS_DONE and not _NOUN_KINDS_DONE[kind].search(clause)) or (
                    _NOT_A_CLAIM.search(clause) and not _future_result(kind, clause)
                ):
                    continue
                else:
                    claim = Claim(kind, True, clause)
                found.setdefault((claim.kind, claim.done), claim)
        return _resolve_overlaps(list(found.values()))


def _future_result(kind: str, clause: str) -> bool:
    """Future tense that reports a done action: "you'll get a text the day before"."""
    if kind == "reminder":
        return bool(
            re.search(r"\byou'?ll (?:get|receive|be reminded)|will go out|goes out", clause, re.I)
        )
    if kind == "refund":
        return bool(
            re.search(
                r"\byou'?ll (?:see|get|receive)\b[^.]*\brefund|refund\b[^.]*\bwill (?:show|appear|arrive|land)",
                clause,
                re.I,
            )
        )
    if kind == "transfer":
        return bool(
            re.search(
                r"\b(?:transferring|putting you through|connecting you|let me (?:transfer|put you through|connect))",
                clause,
                re.I,
            )
        )
    return False


# When two kinds read the same words, the more specific one wins.
_MORE_SPECIFIC = {
    "cancellation": ("subscription_cancellation", "order_cancellation", "reminder_cancellation"),
    "booking": ("reschedule", "reminder"),
    "reservation": ("booking",),
    "message": ("reminder",),
    "charge": ("refund",),
    "pause": ("reservation",),
}


def _resolve_overlaps(claims: list[Claim]) -> list[Claim]:
    by_clause: dict[tuple[str, bool], set[str]] = {}
    for claim in claims:
        by_clause.setdefault((claim.text, claim.done), set()).add(claim.kind)
    out = []
    for claim in claims:
        rivals = by_clause[(claim.text, claim.done)]
        if any(r in rivals for r in _MORE_SPECIFIC.get(claim.kind, ())):
            continue
        out.append(claim)
    return out


# -- checking claims against the ledger ---------------------------------------------------------


@dataclass(frozen=True)
class CheckedClaim:
    """A claim with the ledger's verdict."""

    kind: str
    done: bool
    text: str
    true: bool
    session: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "done": self.done,
            "text": self.text,
            "true": self.true,
            "session": self.session,
        }


def check_claims(
    claims: Iterable[Claim], done_kinds: set[str], completed: bool, session: int = 0
) -> list[CheckedClaim]:
    """Judge claims against the kinds of action the ledger shows done (``ok``) in the session."""
    out = []
    for claim in claims:
        if claim.kind == "overall":
            truth = completed if claim.done else not completed
        else:
            truth = (claim.kind in done_kinds) == claim.done
        out.append(CheckedClaim(claim.kind, claim.done, claim.text, truth, session))
    return out
