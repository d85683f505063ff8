"""The simulated clock: business-local time that only the episode moves."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from tools.timefmt import format_time, parse_time


class SimClock:
    """A clock that starts at the task's ``now`` and moves only when told to.

    Nothing in OpsBench reads the wall clock for state: every timestamp in a record or a ledger
    entry comes from here, so the same seed and script give the same bytes.
    """

    def __init__(self, now: datetime | str) -> None:
        self._now = (
            parse_time(now) if isinstance(now, str) else now.replace(second=0, microsecond=0)
        )

    @property
    def now(self) -> datetime:
        """The current simulated time."""
        return self._now

    def iso(self) -> str:
        """The current simulated time as ``YYYY-MM-DDTHH:MM``."""
        return format_time(self._now)

    def today(self) -> date:
        """The current simulated date."""
        return self._now.date()

    def advance(self, delta: timedelta) -> None:
        """Move the clock forward (between sessions of a multi-session task)."""
        if delta < timedelta(0):
            raise ValueError(f"the simulated clock only moves forward; got a delta of {delta}")
        self._now = self._now + delta

    def set(self, moment: datetime | str) -> None:
        """Jump to a later moment."""
        target = parse_time(moment) if isinstance(moment, str) else moment
        self.advance(target - self._now)
