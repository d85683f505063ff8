"""What the assistant just did, in the caller's terms: the kinds of its last turn.

The scripted caller (:mod:`callers.scripted`) and the fidelity check (:mod:`callers.fidelity`)
read the assistant's turn the same way. The patterns are data, in ``callers/lexicon/turns.yaml``;
reports of done and failed actions come from the deterministic claim checker
(:mod:`sandbox.claims`), so "I've booked you for 9:00" is a ``done`` turn of kind ``booking``.

Kinds: ``identity`` (asks for an identity detail; :attr:`Turn.asked` says which),
``verify_retry``, ``confirm``, ``offer``, ``refusal``, ``done``, ``failed``, ``anything_else``,
``transfer``, ``question`` (any other question), ``info`` (anything else said) and ``silence``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from contract.yamldata import load_data
from sandbox.claim_cache import default_claims
from sandbox.regex_cache import compile_cached
from sandbox.text_cache import TEXT_CACHE

TURN_KINDS = (
    "identity",
    "verify_retry",
    "confirm",
    "offer",
    "refusal",
    "done",
    "failed",
    "anything_else",
    "transfer",
    "question",
    "info",
    "silence",
)
# Kinds that hand the caller the floor for its next move (everything but silence and transfer).
FLOOR = frozenset(TURN_KINDS) - {"silence", "transfer"}


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@cache
def lexicon(name: str) -> Any:
    """``callers/lexicon/<name>.yaml`` parsed."""
    text = resources.files("callers.lexicon").joinpath(f"{name}.yaml").read_text(encoding="utf-8")
    return load_data(text)


def _compile(patterns: list[str]) -> tuple[re.Pattern[str], ...]:
    # Through the regex cache: compiling the lexicon's patterns afresh is a tenth of a fresh
    # process's first episode.
    return tuple(compile_cached(p, re.IGNORECASE) for p in patterns)


@cache
def _patterns() -> tuple[
    dict[str, tuple[re.Pattern[str], ...]], dict[str, tuple[re.Pattern[str], ...]]
]:
    raw = lexicon("turns")
    identity = {fact: _compile(patterns) for fact, patterns in raw["identity"].items()}
    kinds = {
        kind: _compile(patterns)
        for kind, patterns in raw.items()
        if kind not in ("identity", "identity_request")
    }
    unknown = set(kinds) - set(TURN_KINDS)
    if unknown:
        raise ValueError(
            f"callers/lexicon/turns.yaml: unknown turn kinds {sorted(unknown)}; "
            f"expected some of {', '.join(TURN_KINDS)}"
        )
    return identity, kinds


@cache
def _request() -> re.Pattern[str]:
    return compile_cached("|".join(lexicon("turns")["identity_request"]), re.IGNORECASE)


@dataclass(frozen=True)
class Turn:
    """One assistant turn as the caller hears it."""

    text: str
    kinds: frozenset[str]
    asked: tuple[str, ...] = ()
    done: frozenset[str] = field(default_factory=frozenset)
    failed: frozenset[str] = field(default_factory=frozenset)

    def has(self, *kinds: str) -> bool:
        """Whether the turn is of any of ``kinds``."""
        return bool(self.kinds.intersection(kinds))


# The scripted caller reads each assistant turn as it is said, and the fidelity check reads the
# same turns again after the episode; reference assistants repeat their turns across tasks and
# trials. A Turn is immutable and depends on the text alone, so one reading serves them all.
# Bounded, so that memory stays flat over any number of episodes.
@lru_cache(maxsize=TEXT_CACHE)
def classify(text: str) -> Turn:
    """The kinds of the assistant turn ``text`` (empty text is ``silence``)."""
    text = text.strip()
    if not text:
        return Turn(text, frozenset({"silence"}))
    identity, patterns = _patterns()
    kinds: set[str] = set()
    # An identity detail is asked for only in a question or a request, not in a report
    # ("the phone number on the account has not been changed").
    asking = [s for s in _SENTENCE.split(text) if s.rstrip().endswith("?") or _request().search(s)]
    asked = tuple(f for f, ps in identity.items() if any(p.search(s) for p in ps for s in asking))
    if asked:
        kinds.add("identity")
    for kind, kind_patterns in patterns.items():
        if any(p.search(text) for p in kind_patterns):
            kinds.add(kind)
    claims = default_claims(text)
    done = frozenset(c.kind for c in claims if c.done)
    failed = frozenset(c.kind for c in claims if not c.done)
    if done:
        kinds.add("done")
    if failed:
        kinds.add("failed")
    if "?" in text and not kinds & {"identity", "confirm", "offer", "anything_else"}:
        kinds.add("question")
    if not kinds:
        kinds.add("info")
    return Turn(text, frozenset(kinds), asked, done, failed)


def satisfied(kinds: tuple[str, ...], done: set[str] | frozenset[str]) -> bool:
    """Whether every entry of ``kinds`` (``a|b`` accepts either) is among ``done``."""
    return all(any(k in done for k in entry.split("|")) for entry in kinds)
