"""A message's layout: markdown headings and labels that scope the lines below them, bullets,
numbered recaps, tables and done / not-done marks.

The result is a list of :class:`Unit`: a run of text with the scope it is read under --
``done`` ("**Done:**", a line opened by a done mark), ``not_done`` ("What I couldn't do:",
a not-done mark), ``future`` ("Next steps:"), ``state`` ("Your account:") or ``None``. A
label's scope lasts until the next label or heading, or until a plain paragraph follows a blank
line. One pass over the lines: linear in the length of the message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sandbox.claims.lexicon import lexicon

Scope = str | None

_BULLET = re.compile(r"^\s*(?:[-*+•·▪‣◦]|\d{1,3}[.)]|[a-z][.)](?=\s)|\(\d{1,3}\))\s+")
_HEADING = re.compile(r"^\s*#{1,6}\s*")
_QUOTE = re.compile(r"^\s*>+\s*")
_EMPHASIS = re.compile(r"\*\*|__|`+|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")
_RULE = re.compile(r"^\s*(?:[-*_=]\s*){3,}$")
_TABLE_SEPARATOR = re.compile(r"^[\s|:\-]+$")
# "Label: rest of the line", the label short and free of sentence punctuation.
_INLINE_LABEL = re.compile(r"^([^:.!?]{1,48}):\s+(\S.*)$")
_MARK_FIRST = re.compile(r"^\s*(donemark|notdonemark|pendingmark)\b\s*", re.IGNORECASE)
_MARK_SCOPE = {"donemark": "done", "notdonemark": "not_done", "pendingmark": "future"}


@dataclass(frozen=True)
class Unit:
    """Text read under one scope (``None``: no label applies)."""

    text: str
    scope: Scope = None


def _label_scope(label: str) -> tuple[bool, Scope]:
    """Whether ``label`` is a recognised label, and the scope it opens."""
    patterns = lexicon().structure
    for scope in ("not_done", "done", "future", "state"):
        if patterns[f"{scope}_labels"].search(label):
            return True, scope
    return False, None


def _clean(line: str) -> tuple[str, bool, bool]:
    """The line without markdown; whether it was a heading; whether it was a bullet."""
    heading = bool(_HEADING.match(line))
    line = _HEADING.sub("", line)
    line = _QUOTE.sub("", line)
    bullet = bool(_BULLET.match(line))
    line = _BULLET.sub("", line)
    bold_only = line.strip().startswith("**") and line.strip().endswith("**")
    line = _EMPHASIS.sub("", line).strip()
    return line, heading or (bold_only and len(line) <= 60), bullet


def units(text: str) -> list[Unit]:
    """The message as units of text with their scopes."""
    out: list[Unit] = []
    scope: Scope = None
    blank_before = False
    for raw in text.split("\n"):
        if not raw.strip() or _RULE.match(raw):
            blank_before = True
            continue
        stripped = raw.strip()
        if stripped.startswith("|") or stripped.count("|") >= 2:
            if _TABLE_SEPARATOR.match(stripped):
                continue
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            # A row is one statement: "Reminder | Text set for Monday" -> "Reminder is Text set ...".
            line = " is ".join(_EMPHASIS.sub("", c).replace(" — ", ", ") for c in cells if c)
            out.append(_marked(line, scope))
            blank_before = False
            continue
        line, heading, bullet = _clean(raw)
        if not line:
            continue
        if blank_before and not bullet and not heading:
            scope = None
        blank_before = False
        if (line.endswith(":") or heading) and len(line) <= 60:
            # A heading or a label line: it opens a scope (None for one it does not know).
            scope = _label_scope(line.rstrip(":"))[1]
            continue
        inline = _INLINE_LABEL.match(line)
        if inline:
            known, label_scope = _label_scope(inline.group(1))
            if known and len(inline.group(1).split()) <= 3:
                out.append(_marked(inline.group(2), label_scope))
                continue
            if len(inline.group(1).split()) <= 3:
                # "Reminder: not set" is one statement about the reminder, not two.
                line = f"{inline.group(1)} is {inline.group(2)}"
        out.append(_marked(line, scope if (bullet or scope is None or not heading) else None))
    return out


def _marked(line: str, scope: Scope) -> Unit:
    """A line opened by a done / not-done mark takes that mark's scope."""
    mark = _MARK_FIRST.match(line)
    if mark:
        return Unit(line, _MARK_SCOPE[mark.group(1).lower()])
    return Unit(line, scope)
