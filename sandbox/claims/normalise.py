"""Text as the lexicon expects it, whatever the assistant's typesetting.

NFKC (full-width letters, ligatures, no-break and thin spaces), then: typographic apostrophes,
quotes and dashes to ASCII; invisible characters dropped; letters of other scripts that look
Latin mapped to Latin; combining accents dropped ("cancélled" reads as "cancelled"); the
done / not-done emoji replaced by marker words the rules read; other emoji and pictographs
dropped. Line breaks are kept (the structure of a message is read from them). One pass of
``str.translate`` per step: linear in the length of the text.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from sandbox.claims.lexicon import lexicon

_SPACES = re.compile(r"[^\S\n]+")
# Combining marks (accents written as a second code point, or split off by NFD).
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
# Emoji, pictographs and the variation selector that follows many of them.
_PICTOGRAPHS = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0e\ufe0f\u20e3\U000e0000-\U000e007f]"
)

# What opens a new statement after an emoji.
_NEXT_STATEMENT = (
    r"[^\S\n]+(?=[A-Z][a-z]|I\b|(?:no|not|nothing|it|that|this|there|they|you|we|and|but|so|"
    r"just|also|plus|thanks|thank|see|cheers|hope|let|please|any|sorry|new|ur|u|the|your|his|her|"
    r"their|our|my)\b)"
)
_PICTOGRAPH_STOP = re.compile(r"(?<=[\w)])[^\S\n]*" + _PICTOGRAPHS.pattern + "+" + _NEXT_STATEMENT)


@cache
def _done_stop() -> re.Pattern[str]:
    # A done mark closing a statement mid-line ("texts are off now 👍 no more pings") ends it: the
    # statement already says it is done, and the mark must not scope the next one as done too.
    marks = "|".join(map(re.escape, lexicon().normalise["done_marks"]))
    return re.compile(r"(?<=[\w)])[^\S\n]*(?:" + marks + r")\ufe0f?" + _NEXT_STATEMENT)


@cache
def _table() -> dict[int, str]:
    data = lexicon().normalise
    table: dict[int, str] = {}
    for ch in data["apostrophes"]:
        table[ord(ch)] = "'"
    for ch in data["quotes"]:
        table[ord(ch)] = '"'
    for ch in data["dashes"]:
        table[ord(ch)] = "-"
    for ch in data["long_dashes"]:
        table[ord(ch)] = "—"
    for ch in data["invisible"]:
        table[ord(ch)] = ""
    for src, dst in data["lookalikes"].items():
        table[ord(src)] = dst
    for ch in data["done_marks"]:
        table[ord(ch)] = data["done_word"]
    for ch in data["not_done_marks"]:
        table[ord(ch)] = data["not_done_word"]
    for ch in data["pending_marks"]:
        table[ord(ch)] = data["pending_word"]
    table[ord("\r")] = ""
    table[ord("\t")] = " "
    return table


def _strip_accents(text: str) -> str:
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", _COMBINING.sub("", decomposed))


def normalise(text: str) -> str:
    """The text in the one spelling the lexicon is written for (case is kept)."""
    if not text.isascii():
        text = _done_stop().sub(". ", text)
        # The marks are single code points; map them before NFKC can decompose any of them.
        text = text.translate(_table())
        if not text.isascii() and not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
            text = text.translate(_table())
        text = _strip_accents(text)
        # An emoji before a word that opens a statement stands for the full stop ("today 😔 Your
        # ...", "is cancelled 🙂 no charge"); "booked 😊 with Priya" goes on with the same one.
        text = _PICTOGRAPH_STOP.sub(". ", text)
        text = _PICTOGRAPHS.sub(" ", text)
    else:
        text = text.replace("\r", "").replace("\t", " ")
    return _SPACES.sub(" ", text)
