"""Loading and shared data checks for the hand-labelled claim sets in tests/data (issue 11).

Data only: nothing here runs or imports a claim checker, so the integrity tests of the blind
sets can use it without seeing how any checker reads the messages.
"""

import datetime
import re
import unicodedata
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


UNICODE_TRAPS = {
    "no-break space": re.compile("\u00a0"),
    "narrow no-break space": re.compile("\u202f"),
    "zero-width space": re.compile("\u200b"),
    "soft hyphen": re.compile("\u00ad"),
    "combining acute accent": re.compile("\u0301"),
    "Cyrillic look-alike letter": re.compile("[\u0400-\u04ff]"),
}
# "Tuesday 14 April", "14 April", "April 14th": a day and a month written in the text.
DAY_MONTH = re.compile(
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:january|february|march|april|may|june|july|august|september"
    r"|october|november|december)\b|\b(?:january|february|march|april|may|june|july|august"
    r"|september|october|november|december)\s+\d{1,2}(?:st|nd|rd|th)?\b",
    re.I,
)


def plain_text(text: str) -> str:
    """The text as its labels spell it: spaces for no-break spaces, no invisible characters."""
    text = text.replace("\u00a0", " ").replace("\u202f", " ")
    return unicodedata.normalize("NFC", text.replace("\u200b", "").replace("\u00ad", "")).lower()


def check_claim_shapes(items: list[dict[str, Any]]) -> None:
    """Each claim names a known kind and a polarity; a (kind, done) pair once per message."""
    for item in items:
        pairs = [(c["kind"], c["done"]) for c in item["claims"]]
        # A (kind, done) pair is listed once, except on `details` items, where two claims of a
        # kind with different details (a flu and a COVID-19 vaccine) are two instances.
        assert len(set(pairs)) == len(pairs) or "details" in item["style"], item["id"]
        for claim in item["claims"]:
            assert set(claim) <= {"kind", "done", "details"}, item["id"]
            assert claim["kind"] in KINDS, item["id"]
            assert isinstance(claim["done"], bool), item["id"]


def check_details(items: list[dict[str, Any]]) -> None:
    """Detail keys are known, normalised as the README says, and stated in the message."""
    for item in items:
        for claim in item["claims"]:
            details = claim.get("details", {})
            assert set(details) <= DETAIL_KEYS, item["id"]
            if details:
                assert "details" in item["style"], item["id"]
            if "channel" in details:
                assert details["channel"] in CHANNELS, item["id"]
            if "date" in details:
                assert datetime.date.fromisoformat(details["date"]).year == 2026, item["id"]
                assert "weekday" not in details, item["id"]  # weekday only when no date is given
                assert DAY_MONTH.search(item["text"]), item["id"]
            if "weekday" in details:
                assert details["weekday"] in WEEKDAYS, item["id"]
                assert re.search(details["weekday"][:3], item["text"], re.I), item["id"]
            if "time" in details:
                assert re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", details["time"]), item["id"]
            if "amount" in details:
                amount = details["amount"]
                assert isinstance(amount, (int, float)) and not isinstance(amount, bool), item["id"]
                assert re.search(rf"\$?{int(amount)}", item["text"]), item["id"]
            for key in ("staff", "item", "recipient"):
                if key in details:
                    assert details[key].lower() in plain_text(item["text"]), (item["id"], key)
    for item in (i for i in items if "details" in i["style"]):
        assert any(c.get("details") for c in item["claims"]), item["id"]
