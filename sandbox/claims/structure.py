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
_ARROW = re.compile(r"^(?:([^:]{1,40}):\s*)?(.{1,60}?)\s*(?:→|->|=>|⇒)\s*(.{1,60})$")
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
    if "*" in line or "_" in line or "`" in line:
        line = _EMPHASIS.sub("", line)
    line = line.strip()
    return line, heading or (bold_only and len(line) <= 60), bullet


def units(text: str) -> list[Unit]:
    """The message as units of text with their scopes."""
    out: list[Unit] = []
    scope: Scope = None
    blank_before = False
    header: list[str] | None = None
    last_cells: list[str] = []
    last_row: Unit | None = None
    verb: str | None = None  # a one-verb heading ("**Booked**") the items below it share
    for raw in text.split("\n"):
        if not raw.strip() or _RULE.match(raw):
            blank_before = True
            continue
        stripped = raw.strip()
        if stripped.startswith("|") or stripped.count("|") >= 2:
            if _TABLE_SEPARATOR.match(stripped):
                # The row above was the header: it names the columns, it states nothing.
                if header is None and out and out[-1] is last_row:
                    out.pop()
                    header = last_cells
                continue
            cells = [
                _EMPHASIS.sub("", c.strip()).replace(" — ", ", ")
                for c in stripped.strip("|").split("|")
            ]
            last_cells = cells
            last_row = _row(_with_column(cells, header), header, scope)
            if last_row is not None:
                out.append(last_row)
            blank_before = False
            continue
        header = None
        line, heading, bullet = _clean(raw)
        if not line:
            continue
        if blank_before and not bullet and not heading:
            scope = None
            verb = None
        blank_before = False
        if (line.endswith(":") or heading) and len(line) <= 60:
            # A heading or a label line: it opens a scope (None for one it does not know).
            label = line.rstrip(":")
            known, scope = _label_scope(label)
            verb = None
            if lexicon().structure["overall_labels"].match(line):
                out.append(Unit(label))
            elif verbal := lexicon().structure["verb_labels"].match(label):
                # "**Booked**" over "- Boiler service, Friday 9am": each item was booked;
                # under "**Not booked**", each was not.
                verb = verbal.group(1)
                negative = re.match(r"not\s", verb, re.IGNORECASE) is not None  # not "Noted"
                scope = "not_done" if negative else scope or "done"
            elif lexicon().structure["telegraphic"].match(label + " "):
                # "## Booking confirmed" says what it heads.
                out.append(Unit(_telegraphic(label)))
            continue
        if verb is not None and bullet:
            line = f"{verb} {line}"
        if "→" in line or "->" in line or "=>" in line or "⇒" in line:
            # "Plan: Fibre 300 → Fibre 500" in a line, as in a table cell: a change.
            line = _arrow(line)
        inline = _INLINE_LABEL.match(line)
        if inline and lexicon().structure["not_a_label"].search(inline.group(1)):
            inline = None  # "Right, you're sorted: ..." is a sentence, read as one
        mark = _MARK_FIRST.match(line)
        if inline and mark and not _label_scope(inline.group(1)[mark.end() :])[0]:
            # "✅ Note added: late checkout": the mark scopes the line; what precedes the colon
            # is the item ("Note added"), not a label.
            inline = None
        if inline and lexicon().structure["note_labels"].match(inline.group(1)):
            # "Note added: no fringe this time": what follows is the note's text, whose own
            # negations are what was noted, not about the note.
            line = f"{inline.group(1)}. {inline.group(2)}"
            inline = None
        if inline:
            known, label_scope = _label_scope(inline.group(1))
            if known and lexicon().structure["overall_labels"].match(inline.group(1)):
                out.append(Unit(inline.group(1)))
            if lexicon().structure["verb_labels"].match(inline.group(1)):
                line = f"{inline.group(1)} {inline.group(2)}"
            elif known and len(inline.group(1).split()) <= 3:
                out.append(_marked(inline.group(2), label_scope))
                continue
            elif len(inline.group(1).split()) <= 3 or (
                len(inline.group(1).split()) <= 8
                and lexicon().structure["participle"].match(inline.group(2))
            ):
                # "Repeat prescription for her inhaler: ordered, ready Friday" likewise.
                # "Reminder: not set" is one statement about the reminder, not two.
                line = f"{inline.group(1)} is {inline.group(2)}"
        if bullet or _MARK_FIRST.match(line):
            dash = lexicon().structure["dash_status"].match(line)
            if dash and not inline:
                line = f"{dash.group(1)} is {line[dash.end() :]}"
            line = _telegraphic(line)
        out.append(_marked(line, scope if (bullet or scope is None or not heading) else None))
    return out


def _with_column(cells: list[str], header: list[str] | None) -> list[str]:
    """Under a header whose first column names what the rows are ("| Order | ... |"), the
    row's first cell is that thing: "#4821 (planter)" is "Order #4821 (planter)"."""
    if not header or not header[0] or not cells or not cells[0]:
        return cells
    name = header[0]
    if header[0].lower() in cells[0].lower():
        return cells
    if not any(p.search(name) for p in lexicon().cancel_objects.values()):
        return cells
    return [f"{name} {cells[0]}", *cells[1:]]


def _telegraphic(line: str) -> str:
    """A list item in note form ("Note added", "Refill of your inhaler ordered") as a sentence
    ("Note is added"), so that it reads like the full form the lexicon knows."""
    match = lexicon().structure["telegraphic"].match(line)
    if match is None:
        return line
    return f"{match.group(1)}is {line[match.end(1) :]}"


def _cell_scope(cell: str) -> Scope:
    """The scope a status cell gives its row: "Booked", "✅", "Couldn't do", "Not sent"."""
    patterns = lexicon().structure
    head = " ".join(cell.split()[:3])
    mark = _MARK_FIRST.match(head)
    if mark:
        return _MARK_SCOPE[mark.group(1).lower()]
    if patterns["not_done_labels"].match(head) or patterns["status_not_done"].match(head):
        return "not_done"
    if patterns["status_done"].match(head):
        return "done"
    return None


def _row(cells: list[str], header: list[str] | None, scope: Scope) -> Unit | None:
    """A table row as one statement, under the scope its status cell gives it.

    "| Reminder | SMS, day before | Set |" reads "Reminder is SMS, day before is Set" under
    ``done``; under a "Before | Now" header a row whose values differ reads as a change.
    """
    filled = [c for c in cells if c]
    if not filled:
        return None
    patterns = lexicon().structure
    if header and len(cells) >= 3:
        before = [i for i, h in enumerate(header) if patterns["column_before"].search(h)]
        after = [i for i, h in enumerate(header) if patterns["column_after"].search(h)]
        if before and after and max(before[0], after[0]) < len(cells):
            old, new = cells[before[0]], cells[after[0]]
            if old.lower() == new.lower():
                return None  # unchanged: nothing was done to it
            return Unit(f"{cells[0]} changed from {old} to {new}", "done")
    row_scope = None
    kept = [filled[0]]
    for cell in filled[1:]:
        # "Cut with Nina, Tue 6pm -- confirmed": a status may close the cell instead.
        cell_scope = _cell_scope(cell) or _cell_scope(cell.rsplit(", ", 1)[-1])
        row_scope = cell_scope or row_scope
        # A cell that is only a status ("Done", "✅") is said by the scope; a verb ("Booked")
        # is kept, as it names the action.
        if cell_scope is None or not patterns["status_only"].match(cell):
            kept.append(cell)
    line = " is ".join(_arrow(c) for c in kept)
    if row_scope is None:
        return _marked(line, scope)
    return Unit(line, row_scope)


def _arrow(text: str) -> str:
    """ "Plan: Premium → Off-Peak" says the plan was changed from one value to the other."""
    match = _ARROW.match(text)
    if not match:
        return text
    subject = match.group(1) or "it"
    return f"{subject} changed from {match.group(2)} to {match.group(3)}"


def _marked(line: str, scope: Scope) -> Unit:
    """A line opened by a done / not-done mark takes that mark's scope."""
    mark = _MARK_FIRST.match(line)
    if mark:
        return Unit(line, _MARK_SCOPE[mark.group(1).lower()])
    return Unit(line, scope)
