"""Per-model limits that hold across a Ray cluster: one limiter actor per model.

Every shard of a run, on whatever node, asks its model's :class:`ModelLimits` actor before each
request (``--rpm``, ``--tpm``: the same sliding window as :class:`~opsbench.ratelimit.
RateLimiter`, which the actor holds) and before each episode (``--concurrency``: slots). A
slot is leased to a shard by its id, so when a worker dies the driver gives back whatever that
shard held and the cluster's concurrency does not shrink for the rest of the run.

Imported only by the Ray executor (it imports Ray).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import ray

from opsbench.ratelimit import RateLimiter


@ray.remote(num_cpus=0, max_restarts=0)
class ModelLimits:
    """One model's ``--concurrency`` (None: not limited here), ``--rpm`` and ``--tpm``.

    An async actor: waiting calls do not block the others.
    """

    def __init__(
        self, concurrency: int | None, rpm: int | None, tpm: int | None, window_s: float
    ) -> None:
        self._limiter = RateLimiter(rpm, tpm, window_s=window_s)
        self._slots = None if concurrency is None else asyncio.Semaphore(concurrency)
        self._held: dict[str, int] = {}
        self._peak = 0

    async def acquire(self) -> None:
        """Wait until one more request of this model fits the window, then count it."""
        await self._limiter.acquire()

    async def record(self, tokens: int) -> None:
        """Count the tokens a finished request used."""
        self._limiter.record(tokens)

    async def take_slot(self, shard: str) -> None:
        """Wait for one of the model's episode slots and lease it to ``shard``."""
        if self._slots is not None:
            await self._slots.acquire()
        self._held[shard] = self._held.get(shard, 0) + 1
        self._peak = max(self._peak, sum(self._held.values()))

    async def give_slot(self, shard: str) -> None:
        """``shard`` finished an episode: its slot goes back."""
        if self._held.get(shard, 0) > 0:
            self._held[shard] -= 1
            if self._slots is not None:
                self._slots.release()

    async def give_back(self, shard: str) -> int:
        """Every slot ``shard`` still holds (its worker died) goes back; returns how many."""
        held = self._held.pop(shard, 0)
        if self._slots is not None:
            for _ in range(held):
                self._slots.release()
        return held

    async def stats(self) -> dict[str, Any]:
        """Seconds waited for the window, and the most episodes ever in flight at once."""
        return {"waited_s": self._limiter.waited_s, "peak_in_flight": self._peak}


class ClusterLimiter:
    """A shard's view of its model's actor, as a :class:`~opsbench.ratelimit.Limiter`."""

    def __init__(self, actor: Any, rpm: int | None, tpm: int | None) -> None:
        self._actor, self._rpm, self._tpm = actor, rpm, tpm

    @property
    def active(self) -> bool:
        return self._rpm is not None or self._tpm is not None

    async def acquire(self) -> None:
        await self._actor.acquire.remote()

    def record(self, tokens: int) -> None:
        # Not awaited: the count reaches the actor before any later request of this shard asks.
        if self._tpm is not None and tokens > 0:
            self._actor.record.remote(tokens)


@asynccontextmanager
async def slot(actor: Any | None, shard: str) -> AsyncIterator[None]:
    """Hold one of the model's cluster-wide episode slots (none to hold: ``actor`` None)."""
    if actor is None:
        yield
        return
    await actor.take_slot.remote(shard)
    try:
        yield
    finally:
        actor.give_slot.remote(shard)


__all__ = ["ClusterLimiter", "ModelLimits", "slot"]
