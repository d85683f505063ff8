"""The details a clause states: day, date, time, staff member, amount, item, channel, recipient.

Each detail is found with its position, so that a clause making two claims ("booked your
cleaning for Thursday at 2pm with a text reminder") gives each claim the details nearest its
own words. What a clause says was *before* ("moved from Monday to Wednesday", "instead of 9")
is not a detail of the claim. Every pattern is bounded: linear in the length of the clause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sandbox.claims.guard import compile_guarded
from sandbox.claims.types import Details

WEEKDAYS = {
    "mon": "mon",
    "tue": "tue",
    "wed": "wed",
    "thu": "thu",
    "fri": "fri",
    "sat": "sat",
    "sun": "sun",
}
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_NUMBER_WORDS = {
    w: i + 1
    for i, w in enumerate(
        [
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
}
_WEEKDAY = compile_guarded(
    r"\b(mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|urday|\.)?\b(?!-)", re.I
)
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_DATE_MONTH_DAY = compile_guarded(rf"\b{_MONTH} (?:the )?{_DAY}\b(?!:|\d)", re.I)
_DATE_DAY_MONTH = compile_guarded(rf"\b(?:the )?{_DAY}(?: of)? {_MONTH}(?=\W|$)", re.I)
# "9–11 October": a stay or window of days gives its first day.
_DATE_RANGE = compile_guarded(
    rf"\b(?:the )?{_DAY}\s?(?:[–—-]|to|until|till)\s?\d{{1,2}}(?:st|nd|rd|th)?(?: of)? {_MONTH}(?=\W|$)",
    re.I,
)
_DATE_ORDINAL = compile_guarded(r"\b(?:the )?(\d{1,2})(?:st|nd|rd|th)\b", re.I)
_DATE_ISO = re.compile(r"\b20\d\d-(\d\d)-(\d\d)\b")
# Money named after its number ("30 dollars", "12.50 euros").
_CURRENCY_WORDS = r"(?:dollars|bucks|pounds|quid|euros|usd|gbp|eur)\b"
_TIME_CLOCK = re.compile(
    r"(?<![$£€\d.,])\b(\d{1,2})[:.](\d{2})\s*(a\.?m\.?|p\.?m\.?)?(?![\d%])"
    # "12.50 euros" is an amount, not ten to one.
    rf"(?!\s*{_CURRENCY_WORDS})",
    re.I,
)
_TIME_HOUR = re.compile(r"(?<![$£€\d.,])\b(\d{1,2})\s*(a\.?m\.?|p\.?m\.?)(?=\W|$)", re.I)
_TIME_WORDS = compile_guarded(
    r"\b(half|quarter past|quarter to) (one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|\d{1,2})\b|\b(noon|midday|midnight)\b|"
    r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2}) o'?clock\b|"
    r"\bat (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})"
    r"(?: (?:in the )?(morning|afternoon|evening|tonight))?\b(?![:.,]?\d|\s*(?:a\.?m|p\.?m|st|nd|rd|th|%|"
    r"people|guests|items|boxes|days|hours|minutes|weeks|of|\$))",
    re.I,
)
_AMOUNT = compile_guarded(
    r"([$£€])\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\b|"
    rf"\b(\d+)(?:\.(\d{{2}}))? ?{_CURRENCY_WORDS}",
    re.I,
)
_FULL = compile_guarded(
    r"\b(?:full refund|refunded in full|in full|the full amount|full amount|"
    r"everything back|the whole (?:amount|thing)|fully refunded|all of it back)\b",
    re.I,
)
_STAFF = compile_guarded(
    r"\b(?:with|by|see|seeing|sees) (?:(?:our |the )?(?:hygienist|dentist|doctor|vet|stylist|"
    r"technician|mechanic|engineer|trainer|nurse|pharmacist|therapist) )?"
    # A numbered resource ("Table 7", "Bay 2") keeps its number.
    r"((?:[Dd]r\.? |[Dd]octor )?[A-Z][a-z'-]+(?: [A-Z][a-z'-]+| \d{1,3}\b(?![:.]\d))?)|"
    r"\b((?:[Dd]r\.?|[Dd]octor) [A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?)|"
    # "booked Anna for 10am"; "Jade's fully booked": a name as the object of a booking, or
    # whose diary the clause is about.
    r"\b(?:book(?:ed)?|got|put) ([A-Z][a-z'-]+) (?=for|on|at|in)\b|"
    r"\b([A-Z][a-z'-]+)'s (?=(?:fully booked|diary|calendar|schedule|column|chair|"
    r"availability|off|away|out|not (?:in|available|free)|on (?:leave|holiday))\b)"
)
_NOT_NAMES = frozenset(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "visa",
        "mastercard",
        "amex",
        "paypal",
        "you",
        "your",
        "the",
        "a",
        "an",
        "us",
        "me",
        "it",
        "this",
        "that",
        "our",
        "email",
        "text",
        "sms",
        "i",
    ]
)
_ITEM = compile_guarded(
    r"\b((?:ord|apt|pay|sub|res|ret|rma|inv)-?\d{3,})\b|(?:order|#)\s?(?:number |no\.? )?#?(\d{4,})\b",
    re.I,
)
_SMS = compile_guarded(r"\b(?:text(?:ed|s|ing)?|sms|txt)\b", re.I)
_EMAIL = compile_guarded(r"\b(?:e-?mail(?:ed|s|ing)?|inbox)\b", re.I)
_ADDRESS = re.compile(r"\b[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,4}\b")
_PHONE = re.compile(r"(?<![\w$£€])\+?\d[\d ()-]{7,18}\d\b")
# What was before: "from Monday at 9 to ...", "instead of 9", "rather than Tuesday".
_BEFORE = compile_guarded(
    r"\bfrom\b.{0,48}?(?=\bto\b|\bonto\b|$)|\b(?:instead of|rather than|was (?:on|at|for)|"
    r"originally|previously)\b.{0,32}?(?=[,;]|\bto\b|\bnow\b|$)",
    re.I,
)
# Substrings one of which each pattern needs (without a digit in the clause).
_TIME_WORD_CUES = ("noon", "midday", "midnight", "clock", "half", "quarter", "at ")
_WEEKDAY_CUES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_CHANNEL_CUES = ("text", "sms", "txt", "mail", "inbox")
_FULL_CUES = ("full", "whole", "back")
_AM = re.compile(r"a\.?m", re.I)
_DIGIT = re.compile(r"\d")
_AFTERNOON = ("afternoon", "evening", "tonight")


@dataclass(frozen=True)
class Found:
    """One detail, where it was said."""

    field: str
    value: str | int
    start: int


def _clock(hour: int, minute: int, meridiem: str | None) -> str | None:
    if hour > 23 or minute > 59:
        return None
    if meridiem:
        if hour > 12:
            return None
        hour = hour % 12 + (0 if _AM.match(meridiem) else 12)
        return f"{hour:02d}:{minute:02d}"
    if hour > 12 or hour == 0:
        return f"{hour:02d}:{minute:02d}"
    # No am or pm: the hour on either half of the day.
    return f"~{hour % 12:02d}:{minute:02d}"


def _times(clause: str, digits: bool = True) -> list[Found]:
    out = []
    for m in _TIME_CLOCK.finditer(clause) if digits else ():
        value = _clock(int(m.group(1)), int(m.group(2)), m.group(3))
        if value:
            out.append(Found("time", value, m.start()))
    for m in _TIME_HOUR.finditer(clause) if digits else ():
        value = _clock(int(m.group(1)), 0, m.group(2))
        if value:
            out.append(Found("time", value, m.start()))
    for m in _TIME_WORDS.finditer(clause):
        if m.group(3):
            value = "12:00" if m.group(3).lower() != "midnight" else "00:00"
        elif m.group(1):
            hour = _word_hour(m.group(2))
            kind = m.group(1).lower()
            value = _clock(*_quarter(kind, hour), None) if hour else None
        else:
            word = m.group(4) or m.group(5)
            hour = _word_hour(word)
            part = (m.group(6) or "").lower()
            meridiem = "pm" if part in _AFTERNOON else "am" if part == "morning" else None
            value = _clock(hour, 0, meridiem) if hour else None
        if value:
            out.append(Found("time", value, m.start()))
    return out


def _word_hour(word: str) -> int:
    if word.isdigit():
        return int(word)
    return _NUMBER_WORDS.get(word.lower(), 0)


def _quarter(kind: str, hour: int) -> tuple[int, int]:
    if kind == "half":
        return hour, 30
    if kind == "quarter past":
        return hour, 15
    return (hour - 1) % 12 or 12, 45


def _weekdays(clause: str) -> list[Found]:
    return [
        Found("weekday", WEEKDAYS[m.group(1).lower()], m.start()) for m in _WEEKDAY.finditer(clause)
    ]


def _dates(clause: str) -> list[Found]:
    out = _weekdays(clause)
    taken: list[tuple[int, int]] = []
    for pattern, month_group, day_group in (
        (_DATE_ISO, 1, 2),
        (_DATE_RANGE, 2, 1),
        (_DATE_MONTH_DAY, 1, 2),
        (_DATE_DAY_MONTH, 2, 1),
    ):
        for m in pattern.finditer(clause):
            if any(a <= m.start() < b for a, b in taken):
                continue
            month_text = m.group(month_group).lower()
            month = int(month_text) if month_text.isdigit() else MONTHS.index(month_text[:3]) + 1
            day = int(m.group(day_group))
            if 1 <= month <= 12 and 1 <= day <= 31:
                out.append(Found("date", f"{month:02d}-{day:02d}", m.start()))
                taken.append(m.span())
    for m in _DATE_ORDINAL.finditer(clause):
        if not any(a <= m.start() < b for a, b in taken) and 1 <= int(m.group(1)) <= 31:
            out.append(Found("date", f"{int(m.group(1)):02d}", m.start()))
    return out


def _amounts(clause: str) -> list[Found]:
    out = []
    for m in _AMOUNT.finditer(clause):
        whole, cents = (m.group(2), m.group(3)) if m.group(1) else (m.group(4), m.group(5))
        value = int(whole.replace(",", "")) * 100 + (int((cents or "0").ljust(2, "0")))
        out.append(Found("amount", value, m.start()))
    out.extend(Found("amount", "full", m.start()) for m in _FULL.finditer(clause))
    return out


def _staff(clause: str) -> list[Found]:
    out = []
    for m in _STAFF.finditer(clause):
        group = next(i for i in range(1, 5) if m.group(i))
        name, start = m.group(group), m.start(group)
        words = [w for w in re.split(r"[ .]+", name) if w]
        if words and words[0].lower() not in _NOT_NAMES and words[-1].lower() not in _NOT_NAMES:
            out.append(Found("staff", name.strip(), start))
    return out


def _channels(clause: str) -> list[Found]:
    out = [Found("channel", "sms", m.start()) for m in _SMS.finditer(clause)]
    out.extend(Found("channel", "email", m.start()) for m in _EMAIL.finditer(clause))
    return out


def _recipients(clause: str) -> list[Found]:
    out = [Found("recipient", m.group(0).lower(), m.start()) for m in _ADDRESS.finditer(clause)]
    for m in _PHONE.finditer(clause):
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) >= 9:
            out.append(Found("recipient", digits, m.start()))
    return out


def _items(clause: str) -> list[Found]:
    return [
        Found("item", (m.group(1) or m.group(2)).upper().replace("#", ""), m.start())
        for m in _ITEM.finditer(clause)
    ]


def find_details(clause: str, change: bool = False) -> list[Found]:
    """Every detail stated in ``clause`` in order; for a ``change`` (a move), not what it says
    was before ("from Monday to Wednesday"), while "from 1 July" starts a pause or a stay."""
    before = [m.span() for m in _BEFORE.finditer(clause)] if change else []
    # Most details need a digit, a name a capital letter, the others one of a few words:
    # skipping the patterns a clause cannot match keeps this cheap.
    digits = bool(_DIGIT.search(clause))
    lowered = clause.lower()
    words = digits or any(w in lowered for w in _TIME_WORD_CUES)
    days = digits or any(w in lowered for w in _WEEKDAY_CUES)
    found = [
        *(_times(clause, digits) if words else ()),
        *(_dates(clause) if digits else _weekdays(clause) if days else ()),
        *(_amounts(clause) if digits or any(w in lowered for w in _FULL_CUES) else ()),
        *(_staff(clause) if clause[1:] != lowered[1:] or "'s " in clause else ()),
        *(_channels(clause) if any(w in lowered for w in _CHANNEL_CUES) else ()),
        *(_recipients(clause) if digits or "@" in clause else ()),
        *(_items(clause) if digits else ()),
    ]
    kept = [f for f in found if not any(a <= f.start < b for a, b in before)]
    return sorted(kept, key=lambda f: f.start)


def assign(found: list[Found], spans: list[tuple[int, int]]) -> list[Details]:
    """Details for each claim span. A claim owns what follows its words up to the next claim
    that does not overlap it (claims read from the same words share); details before every
    claim go to the first; the first value of a field wins."""
    if not spans:
        return []
    per: list[dict[str, str | int]] = [{} for _ in spans]
    first = min(start for start, _ in spans)
    regions = []
    for i, (start, end) in enumerate(spans):
        later = [s for j, (s, _) in enumerate(spans) if j != i and s >= max(end, start + 1)]
        regions.append((start, min(later) if later else 1 << 30))
    for detail in found:
        owners = [i for i, (a, b) in enumerate(regions) if a <= detail.start < b]
        if not owners and detail.start < first:
            owners = [i for i, (a, _) in enumerate(regions) if a == first]
        for owner in owners:
            per[owner].setdefault(detail.field, detail.value)
    return [Details.from_dict(d) for d in per]


__all__ = ["Found", "assign", "find_details"]
