"""Verb + object frames (``data/frames.yaml``) as patterns of their kinds.

A frame says how an action is told with a verb, its particle and its object; the patterns made
here read every arrangement of them the same way: active ("took off the reminder text", "took
the reminder off"), passive ("the late fee has been taken off") and, for negation, any form of
the verb ("I haven't placed any order"). They join the kind's own patterns of ``kinds.yaml``,
so the rest of the checker (negation, offers, state, details) reads them as it reads those.
Every gap is bounded, so each pattern stays linear in the length of a clause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_DET = r"(?:the|a|an|your|that|this|those|these|any|its|his|her|their|our|some|one|another)"
# Up to three modifiers ("the $45 late fee"); a preposition or conjunction ends the phrase, so
# "added a note about the discount" is not "added ... discount".
_MODS = (
    r"(?:(?!(?:about|for|to|on|onto|with|from|in|into|at|of|that|which|who|so|and|but|or|"
    r"because|as|by|after|before|until)\b)[\w$£€.'-]+ ){0,3}"
)
# "moved you over to the", "switched your line down to a": the caller or their thing, then where.
_DESTINATION = r"(?:(?:you|your [\w-]+) (?:(?:over|down|up|back|across) )?(?:on)?to )?"
_NOT_AFTER_PREPOSITION = "".join(
    rf"(?<!\b{p} )" for p in ("for", "of", "on", "to", "from", "with", "about", "in", "at", "by")
)
_STATE = r"(?:is|are|was|were|'s|'re|has been|have been|'s been|got|been|should (?:now )?be)"


@dataclass(frozen=True)
class Verb:
    """One verb of a frame: its forms and the particle it takes ("" for none)."""

    base: str
    past: str
    participle: str
    particle: str

    @classmethod
    def parse(cls, text: str) -> Verb:
        forms, _, particle = text.partition(" ")
        parts = forms.split("|")
        if len(parts) != 3:
            raise ValueError(f"frame verb {text!r}: expected 'base|past|participle [particle]'")
        return cls(parts[0], parts[1], parts[2], particle.strip())

    def any_form(self) -> str:
        stem = _stem(self)
        forms = {self.base, self.past, self.participle, self.base + "s", stem + "ing"}
        return "(?:" + "|".join(sorted(map(re.escape, forms), key=lambda p: (-len(p), p))) + ")"

    def done_form(self) -> str:
        forms = {self.past, self.participle}
        return "(?:" + "|".join(sorted(map(re.escape, forms), key=lambda p: (-len(p), p))) + ")"


def _alternatives(words: list[str]) -> str:
    return "(?:" + "|".join(sorted(map(re.escape, words), key=lambda p: (-len(p), p))) + ")"


def _stem(verb: Verb) -> str:
    return verb.base[:-1] if verb.base.endswith("e") else verb.base


def _either(parts: set[str]) -> str:
    # Longest first; ties by text, so the pattern (and its cache keys) is the same in every
    # process rather than in set order, which changes with the hash seed.
    return "(?:" + "|".join(sorted(parts, key=lambda p: (-len(p), p))) + ")"


def _with_particle(form: str, verb: Verb) -> str:
    return f"{form} {re.escape(verb.particle)}" if verb.particle else form


def frame_patterns(data: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    """Per kind, the ``done`` and ``act`` patterns its frames make: per frame one pattern per
    arrangement, its verbs in one alternation (one search per arrangement, not per verb); and
    the ``cues`` (lower-case substrings) one of which each of them needs."""
    out: dict[str, dict[str, list[str]]] = {}
    for frame in data.get("frames", []):
        kind = frame["kind"]
        words = list(frame.get("objects", []))
        if frame.get("you"):
            words.append("you")
        if not words:
            raise ValueError(f"frame of {kind}: expected objects (or `you: true`)")
        objects = _alternatives(words)
        verbs = [Verb.parse(v) for v in frame["verbs"]]
        made = out.setdefault(kind, {"done": [], "act": [], "cues": []})
        done, act = made["done"], made["act"]
        # Every arrangement needs one of the objects and one of the verbs: a frame is cued by
        # its objects, or (`cued_by: verbs`) by its verbs where its objects would wake the
        # kind's other patterns in clauses about something else ("your membership is paused").
        if frame.get("you") or frame.get("cued_by") == "verbs":
            made["cues"] += sorted({_stem(v) for v in verbs} | {v.past for v in verbs})
        else:
            made["cues"] += [w.lower() for w in frame.get("objects", [])]
        phrase = rf" {_DESTINATION}(?:{_DET} )?{_MODS}{objects}\b"
        done.append(rf"\b{_either({_with_particle(v.done_form(), v) for v in verbs})}{phrase}")
        act.append(rf"\b{_either({_with_particle(v.any_form(), v) for v in verbs})}{phrase}")
        split = [v for v in verbs if v.particle]
        if split:
            # "took the old reminder off": the particle after the object.
            particles = _either({re.escape(v.particle) for v in split})
            tail = rf" (?:{_DET} )?{_MODS}{objects} {particles}\b"
            done.append(rf"\b{_either({v.done_form() for v in split})}{tail}")
            act.append(rf"\b{_either({v.any_form() for v in split})}{tail}")
        if not frame.get("you"):
            participles = _either({_with_particle(re.escape(v.participle), v) for v in verbs})
            # The object heads the subject: its phrase opens with a determiner that follows no
            # preposition ("the credit for the missed appointment has been added" is not the
            # appointment's), and the verb follows within a few words.
            done.append(
                rf"{_NOT_AFTER_PREPOSITION}\b{_DET} {_MODS}{objects}\b(?: [\w'-]+){{0,3}}? "
                rf"{_STATE} (?:now |also |already )?{participles}\b"
            )
    for frame in data.get("now_frames", []):
        objects = _alternatives(list(frame["objects"]))
        made = out.setdefault(frame["kind"], {"done": [], "act": [], "cues": []})
        made["cues"] += list(frame["objects"])
        done = made["done"]
        done.append(
            rf"\b(?:your|the) (?:[\w-]+ ){{0,2}}{objects} (?:is now|'s now|should now be|"
            rf"will now be|is (?:also )?now on|has now (?:moved|changed|switched))\b"
            # "now paused", "now cancelled", "now active": a state of the plan, not a new plan.
            r"(?! (?:\w+ed|\w+ing|set|frozen|active|inactive|live|on hold|off|over|due|free)\b)"
        )
    results = "|".join(f"(?:{r})" for r in data.get("results", []))
    failures = "|".join(f"(?:{r})" for r in data.get("failures", []))
    for frame in data.get("result_frames", []):
        objects = _alternatives(list(frame["objects"]))
        made = out.setdefault(frame["kind"], {"done": [], "act": [], "cues": []})
        made["cues"] += [w.lower() for w in frame["objects"]]
        subject = (
            rf"(?:^\W*|{_NOT_AFTER_PREPOSITION}\b{_DET} ){_MODS}{objects}\b(?: [\w'$.,-]+){{0,4}}?"
        )
        # "the deposit's gone on the card": the verb may be joined to its subject.
        made["done"].append(rf"{subject}(?: |(?='))(?:{results})\b")
        made["act"].append(rf"{subject} (?:{failures})\b")
    return out


__all__ = ["Verb", "frame_patterns"]
