"""The claim checker's lexicon, loaded once from the data files beside this module.

``data/kinds.yaml`` holds the phrases of each action kind; ``data/language.yaml`` everything
else (normalisation tables, structure labels, negation, offers, reported speech, attempts, state
descriptions, the fuzzy vocabulary). Patterns are compiled case-insensitively; ``{GAP}``,
``{STATE}`` and ``{SUBS}`` expand to the macros of ``kinds.yaml``. Every gap is bounded, so no
pattern costs more than linear time in the length of a clause.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from contract.yamldata import load_data
from sandbox.claims.frames import frame_patterns
from sandbox.claims.guard import compile_guarded
from sandbox.claims.prefilter import Gated

_FLAGS = re.IGNORECASE


class LazyPatterns:
    """Patterns compiled on first use, in order.

    A kind's ``done`` and ``act`` patterns are searched one by one only after their combined
    pattern matched a clause, so most are never needed in a call; compiling all of them up
    front was most of the cost of a process's first episode.
    """

    def __init__(self, texts: tuple[str, ...], compile_: Callable[[str], Gated]):
        self._texts = texts
        self._compile = compile_
        self._compiled: list[Gated | None] = [None] * len(texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __iter__(self) -> Iterator[Gated]:
        for i, pattern in enumerate(self._compiled):
            if pattern is None:
                # Idempotent, so two threads racing here compile the same pattern twice at worst.
                pattern = self._compiled[i] = self._compile(self._texts[i])
            yield pattern


@dataclass(frozen=True)
class KindLexicon:
    """How one kind of action is said.

    ``done`` forms report it; ``act`` words name it, so a negated clause that names it says it
    was not done. ``cues`` are substrings one of which every pattern needs (a cheap pre-check).
    """

    kind: str
    cues: tuple[str, ...]
    done: LazyPatterns
    act: LazyPatterns
    future: Gated | None
    # Words that make the kind's words mean something else ("moved the direct debit date").
    unless: Gated | None = None
    # All ``done`` (``act``) patterns in one: a single search tells whether any of them can
    # match, so the patterns are tried one by one only in clauses that use the kind's words.
    any_done: Gated | None = None
    any_act: Gated | None = None


@dataclass(frozen=True)
class Lexicon:
    """Everything the checker reads a message with."""

    kinds: tuple[KindLexicon, ...]
    more_specific: dict[str, frozenset[str]]
    cancel_kinds: tuple[str, ...]
    cancel_objects: dict[str, Gated]
    pronoun_objects: dict[str, Gated]
    # A visit or service named by an item under a label or mark, and when or with whom.
    visit_names: Gated
    visit_when: Gated
    visit_verb_first: Gated
    visit_unavailable: Gated
    # The assistant's own refusal with a pronoun object, and the kinds each verb can act on.
    pronoun_refusal: Gated
    pronoun_verbs: dict[str, tuple[str, ...]]
    # specific kind -> (the general kinds it refines, the words that name it in a clause)
    specialise: dict[str, tuple[tuple[str, ...], Gated]]
    patterns: dict[str, Gated]
    normalise: dict[str, Any]
    structure: dict[str, Gated]
    max_clause_chars: int
    fuzzy_vocabulary: tuple[str, ...]
    fuzzy_keep: frozenset[str]
    # Text-speak and apostrophe-less forms, written out before anything else reads the text.
    shorthand: dict[str, str]
    fuzzy_distance: tuple[tuple[int, int], ...]
    checked_details: dict[str, tuple[str, ...]]
    state_records: dict[str, dict[str, Any]]
    # A description of the account without action words: per kind, its frames in one pattern.
    state_frames: dict[str, Gated] | None = None
    # Each distinct cue and the kinds (by index) that list it.
    cue_kinds: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def present(self, lowered: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The (cue, kinds) pairs whose cue occurs in ``lowered``: a clause of that text can
        only contain these, so :meth:`cued` need not try the others."""
        return tuple(pair for pair in self.cue_kinds if pair[0] in lowered)

    def cued(
        self, lowered: str, present: tuple[tuple[str, tuple[int, ...]], ...] | None = None
    ) -> list[KindLexicon]:
        """The kinds one of whose cues occurs in ``lowered`` (lower-case text), in lexicon order.
        ``present``: the cues of the text ``lowered`` is part of (default: all cues)."""
        hit: set[int] = set()
        for cue, owners in self.cue_kinds if present is None else present:
            if cue in lowered:
                hit.update(owners)
        return [self.kinds[i] for i in sorted(hit)]


def _load(name: str) -> dict[str, Any]:
    text = resources.files("sandbox.claims").joinpath("data", name).read_text("utf-8")
    data: dict[str, Any] = load_data(text)
    return data


def _flat(pattern: str) -> str:
    # Long patterns are literal YAML blocks wrapped over lines: the line breaks are not part of them.
    return re.sub(r"\n\s*", "", pattern.strip())


@cache
def lexicon() -> Lexicon:
    """The lexicon (read and compiled on first use, then shared)."""
    kinds_data = _load("kinds.yaml")
    language = _load("language.yaml")
    macros = kinds_data["macros"]

    def compile_(pattern: str) -> Gated:
        text = _flat(pattern)
        for name, value in macros.items():
            text = text.replace("{" + name + "}", value)
        return compile_guarded(text, _FLAGS)

    future = kinds_data.get("future_result", {})
    frames = frame_patterns(_load("frames.yaml"))
    for kind, made in frames.items():
        spec = kinds_data["kinds"][kind]
        spec["done"] = [*spec["done"], *made["done"]]
        spec["act"] = [*spec["act"], *made["act"]]
        spec["cues"] = [*spec["cues"], *made["cues"]]

    def any_of(patterns: list[str]) -> Gated:
        return compile_("|".join(f"(?:{_flat(p)})" for p in patterns))

    kinds = tuple(
        KindLexicon(
            kind,
            tuple(c.lower() for c in spec["cues"]),
            LazyPatterns(tuple(spec["done"]), compile_),
            LazyPatterns(tuple(spec["act"]), compile_),
            compile_(future[kind]) if kind in future else None,
            compile_(spec["unless"]) if spec.get("unless") else None,
            any_of(spec["done"]),
            any_of(spec["act"]),
        )
        for kind, spec in kinds_data["kinds"].items()
    )
    pattern_names = (
        "negation",
        "pleasantry",
        "conditional",
        "not_a_claim",
        "reported",
        "attempt",
        "attempt_success",
        "cleft",
        "state",
        "action",
        "agent",
        "history",
        "perfect",
        "past_passive",
        "no_record",
        "own_refusal",
        "pronoun_failed",
        "premise",
        "premise_own",
        "premise_main",
        "premise_failed",
        "caller_wish",
        "caller_past",
        "deferred",
        "others_doing",
        "policy",
        "sms_words",
        "email_words",
    )
    patterns = {name: compile_(language[name]) for name in pattern_names}
    patterns["split"] = compile_(language["clauses"]["split"])
    # One search for "this clause is not the assistant's report" instead of two.
    patterns["not_ours"] = compile_(
        "|".join(f"(?:{_flat(language[k])})" for k in ("reported", "no_record"))
    )
    patterns["modal"] = compile_(language["modal"])
    patterns["time_clause"] = compile_(language["time_clause"])
    patterns["bare_verb"] = compile_(language["bare_verb"])
    structure = {k: compile_(v) for k, v in language["structure"].items()}
    fuzzy = language["fuzzy"]
    cues = sorted({c for k in kinds for c in k.cues})
    cue_kinds = tuple((cue, tuple(i for i, k in enumerate(kinds) if cue in k.cues)) for cue in cues)
    return Lexicon(
        kinds=kinds,
        more_specific={k: frozenset(v) for k, v in kinds_data["more_specific"].items()},
        cancel_kinds=tuple(kinds_data["cancel_kinds"]),
        cancel_objects={k: compile_(v) for k, v in kinds_data["cancel_objects"].items()},
        pronoun_objects={k: compile_(v) for k, v in kinds_data["pronoun_objects"].items()},
        visit_names=compile_(kinds_data["visit_items"]["names"]),
        visit_when=compile_(kinds_data["visit_items"]["when"]),
        visit_verb_first=compile_(kinds_data["visit_items"]["verb_first"]),
        visit_unavailable=compile_(kinds_data["visit_items"]["unavailable"]),
        pronoun_refusal=compile_(kinds_data["pronoun_refusals"]["refusal"]),
        pronoun_verbs={k: tuple(v) for k, v in kinds_data["pronoun_refusals"]["verbs"].items()},
        specialise={
            k: (tuple(v["of"]), compile_(v["names"]))
            for k, v in kinds_data.get("specialise", {}).items()
        },
        patterns=patterns,
        normalise=language["normalise"],
        structure=structure,
        max_clause_chars=int(language["clauses"]["max_clause_chars"]),
        fuzzy_vocabulary=tuple(dict.fromkeys(w.lower() for w in fuzzy["vocabulary"])),
        fuzzy_keep=frozenset(w.lower() for w in fuzzy["keep"]),
        shorthand={str(k).lower(): str(v) for k, v in language["shorthand"].items()},
        fuzzy_distance=tuple(sorted((int(k), int(v)) for k, v in fuzzy["max_distance"].items())),
        checked_details={k: tuple(v) for k, v in kinds_data["checked_details"].items()},
        state_records=dict(kinds_data["state_records"]),
        cue_kinds=cue_kinds,
        state_frames=_state_frames(language["state_description"], compile_),
    )


def _state_frames(data: dict[str, Any], compile_: Callable[[str], Gated]) -> dict[str, Gated]:
    """Per kind, its state-description frames with its nouns, as one pattern."""
    out = {}
    for kind, noun in data["nouns"].items():
        frames = [
            _flat(frame)
            .replace("{DET}", data["determiners"])
            .replace("{MODS}", data["modifiers"])
            .replace(
                "{NOUN}", "(?P<noun>" + _flat(noun) + ")" if i == 0 else "(?:" + _flat(noun) + ")"
            )
            for i, frame in enumerate(data["frames"])
        ]
        out[kind] = compile_("|".join(f"(?:{f})" for f in frames))
    return out
