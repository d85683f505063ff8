"""Business-local time and date formats shared by tools, state and tasks."""

from __future__ import annotations

from datetime import date, datetime
from functools import lru_cache

TIME_FORMAT = "%Y-%m-%dT%H:%M"
DATE_FORMAT = "%Y-%m-%d"
TIME_PATTERN = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$"
DATE_PATTERN = r"^\d{4}-\d{2}-\d{2}$"


def parse_time(text: str) -> datetime:
    """Parse a business-local ``YYYY-MM-DDTHH:MM`` time (seconds are tolerated and dropped)."""
    text = text.strip()
    if len(text) > 16 and text[16] == ":":
        text = text[:16]
    if len(text) != 16 or text[10] != "T":
        raise ValueError(f"time data {text!r} does not match format 'YYYY-MM-DDTHH:MM'")
    # fromisoformat is C and ~20x faster than strptime; the length check keeps the format strict.
    return datetime.fromisoformat(text)


def format_time(moment: datetime) -> str:
    """Format a business-local time as ``YYYY-MM-DDTHH:MM``."""
    if moment.tzinfo is None:
        return _format_naive(moment)
    # Aware times that are equal can print differently (10:00+01:00 == 09:00Z): never cached.
    return moment.strftime(TIME_FORMAT)


# Availability listings format the same slots over and over (strftime is the cost); a naive
# datetime is immutable, hashable, and equal only to one that prints the same. Bounded, so
# memory stays flat.
@lru_cache(maxsize=8192)
def _format_naive(moment: datetime) -> str:
    return moment.strftime(TIME_FORMAT)


def parse_date(text: str) -> date:
    """Parse a ``YYYY-MM-DD`` date."""
    return datetime.strptime(text.strip(), DATE_FORMAT).date()


WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def weekday_key(day: date) -> str:
    """``mon`` … ``sun`` for a date (the keys of a staff member's ``hours``)."""
    return WEEKDAYS[day.weekday()]
