"""How many readings of a text each per-text cache keeps (claims, turn kinds, mentions).

Within an episode the same assistant or caller line is read several times (the caller reacts
to it, the scorer reads its claims, the privacy rule its mentions), so each reading is cached
by the text. Across episodes a hosted model hardly ever says the same thing twice: beyond the
lines of the episodes in flight, a larger cache holds text that will not come again, and a
process's memory would grow with the run until the cap (a 40,000-episode run reached 1.2× the
memory of a 1,000-episode one at 4,096–8,192 entries). 1,024 covers a hundred episodes in flight
at ten lines each, and keeps peak memory flat from the first thousand episodes on.
"""

from __future__ import annotations

TEXT_CACHE = 1024
"""The bound of every cache keyed by a line of the conversation."""

__all__ = ["TEXT_CACHE"]
