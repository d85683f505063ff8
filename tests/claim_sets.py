"""Loading and shared data checks for the hand-labelled claim sets in tests/data (issue 11).

Data only: nothing here runs or imports a claim checker, so the integrity tests of the blind
sets can use it without seeing how any checker reads the messages.
"""

import datetime
import re
from pathlib import Path
from typing import Any

import yaml

DATA_DIR = Path(__file__).parent / "data"

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = [
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
]
# "Tuesday 14 April": a weekday written next to a day and month must be that date's weekday in 2026.
WEEKDAY_DATE = re.compile(
    r"\b(" + "|".join(WEEKDAYS) + r")\s+(\d{1,2})\s+(" + "|".join(MONTHS) + r")\b", re.I
)


def load_items(path: Path) -> list[dict[str, Any]]:
    """The items of a labelled claim set (a YAML list of mappings), read as UTF-8."""
    with path.open(encoding="utf-8") as f:
        items = yaml.safe_load(f)
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a YAML list of items, found {type(items).__name__}")
    return items


def weekday_date_mismatches(items: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    """(id, weekday, day, month) for every "Weekday D Month" in a text that is not that weekday in 2026."""
    found = []
    for item in items:
        for weekday, day, month in WEEKDAY_DATE.findall(item["text"]):
            date = datetime.date(2026, MONTHS.index(month.lower()) + 1, int(day))
            if WEEKDAYS[date.weekday()] != weekday.lower():
                found.append((item["id"], weekday, day, month))
    return found


# The vocabulary of tests/data/README.md (claim kinds, `states` kinds, `details` keys, style tags),
# as the README defines it for claims_hosted.yaml and the sets written after it.
KINDS = frozenset(
    [
        "booking",
        "reschedule",
        "cancellation",
        "reminder",
        "reminder_cancellation",
        "reservation",
        "release",
        "order",
        "order_cancellation",
        "return",
        "charge",
        "refund",
        "credit",
        "fee_waiver",
        "plan_change",
        "pause",
        "subscription_cancellation",
        "message",
        "note",
        "contact_update",
        "transfer",
        "overall",
    ]
)
STATE_KINDS = KINDS | {"plan", "subscription", "other"}
DETAIL_KEYS = frozenset(
    ["date", "weekday", "time", "staff", "amount", "item", "channel", "recipient"]
)
CHANNELS = frozenset({"sms", "email", "phone"})
STYLES = frozenset(
    [
        "markdown",
        "bullets",
        "checkmarks",
        "numbered",
        "table",
        "casual",
        "typos",
        "typographic",
        "unicode",
        "emoji",
        "state",
        "history",
        "attempt",
        "reported",
        "idiom",
        "question",
        "offer",
        "wrong_kind",
        "long",
        "plain",
        "hedged",
        "details",
    ]
)
BUSINESSES = frozenset(
    [
        "dental_clinic",
        "hair_salon",
        "veterinary_clinic",
        "restaurant",
        "auto_repair",
        "home_services",
        "fitness_gym",
        "boutique_hotel",
        "online_store",
        "internet_provider",
        "pharmacy",
    ]
)
