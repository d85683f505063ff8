"""Business-local time formats (tools/timefmt.py): strict parsing, seconds dropped, and aware
times printed as themselves, never from the cache of naive ones."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from tools.timefmt import format_time, parse_time


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-03-10T10:00", datetime(2026, 3, 10, 10, 0)),
        (" 2026-03-10T10:00 ", datetime(2026, 3, 10, 10, 0)),
        ("2026-03-10T10:00:30", datetime(2026, 3, 10, 10, 0)),  # seconds are dropped
        ("2026-03-10T10:00:", datetime(2026, 3, 10, 10, 0)),  # a bare colon too
    ],
)
def test_a_time_parses_to_the_minute(text, expected):
    assert parse_time(text) == expected


@pytest.mark.parametrize(
    "text",
    ["2026-03-10 10:00", "2026-03-10T10:0", "2026-03-10T10:00Z", "2026-03-10", "10:00"],
)
def test_anything_but_the_format_is_refused_with_the_format_named(text):
    with pytest.raises(ValueError) as raised:
        parse_time(text)
    assert str(raised.value) == (
        f"time data {text.strip()!r} does not match format 'YYYY-MM-DDTHH:MM'"
    )


def test_naive_and_aware_times_print_as_themselves():
    assert format_time(datetime(2026, 3, 10, 9, 5)) == "2026-03-10T09:05"
    utc = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
    paris = datetime(2026, 3, 10, 10, 0, tzinfo=timezone(timedelta(hours=1)))
    assert utc == paris  # equal instants that print differently: no cache may answer for one
    assert [format_time(utc), format_time(paris)] == ["2026-03-10T09:00", "2026-03-10T10:00"]
