"""Client-side rate limits, so a run stays under a provider's limits instead of living on 429s.

A :class:`RateLimiter` keeps a sliding one-minute window of requests and tokens for one model.
Before each request it waits until both are under their limits; after the response it records
the tokens spent. Tokens are only known after the fact, so a burst can overshoot the token
limit by one request's worth; the next requests then wait for the window to drain.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Protocol

from adapters.registry import AnyFactory
from contract.assistant import Assistant
from contract.messages import AssistantTurn, TurnRequest
from sandbox.briefing import wrapped

WINDOW_S = 60.0


class RateLimiter:
    """Requests-per-minute and tokens-per-minute limits for one model (``None``: unlimited).

    ``clock`` and ``sleep`` are injectable so tests can drive it without waiting for real;
    ``window_s`` too (the limits are per minute; a test of a cluster-wide limit measured at a
    server shortens the minute rather than wait for several).
    """

    def __init__(
        self,
        rpm: int | None = None,
        tpm: int | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        window_s: float = WINDOW_S,
    ) -> None:
        if (rpm is not None and rpm <= 0) or (tpm is not None and tpm <= 0):
            raise ValueError(f"rate limits must be positive, got rpm={rpm} tpm={tpm}")
        self.rpm, self.tpm = rpm, tpm
        self.window_s = window_s
        self._clock, self._sleep = clock, sleep
        self._requests: deque[float] = deque()
        self._tokens: deque[tuple[float, int]] = deque()
        self._lock = asyncio.Lock()
        self.waited_s = 0.0

    @property
    def active(self) -> bool:
        return self.rpm is not None or self.tpm is not None

    def _drop_old(self, now: float) -> None:
        while self._requests and self._requests[0] <= now - self.window_s:
            self._requests.popleft()
        while self._tokens and self._tokens[0][0] <= now - self.window_s:
            self._tokens.popleft()

    def _delay(self, now: float) -> float:
        """Seconds until one more request fits, 0 if it fits now."""
        self._drop_old(now)
        delay = 0.0
        if self.rpm is not None and len(self._requests) >= self.rpm:
            delay = max(delay, self._requests[0] + self.window_s - now)
        if self.tpm is not None:
            used = sum(t for _, t in self._tokens)
            # Wait until enough old tokens leave the window to bring usage under the limit.
            for at, tokens in self._tokens:
                if used < self.tpm:
                    break
                used -= tokens
                delay = max(delay, at + self.window_s - now)
        return delay

    async def acquire(self) -> None:
        """Wait until one more request fits in the window, then count it."""
        if not self.active:
            return
        async with self._lock:
            while (delay := self._delay(self._clock())) > 0:
                self.waited_s += delay
                await self._sleep(delay)
            self._requests.append(self._clock())

    def record(self, tokens: int) -> None:
        """Count the tokens a finished request used."""
        if self.tpm is not None and tokens > 0:
            self._tokens.append((self._clock(), tokens))


class Limiter(Protocol):
    """What a rate-limited assistant needs of its limiter: :class:`RateLimiter` in one process,
    a proxy to one limiter shared by every worker of a cluster (:mod:`opsbench.ray_limits`)."""

    @property
    def active(self) -> bool: ...

    async def acquire(self) -> None: ...

    def record(self, tokens: int) -> None: ...


class RateLimitedAssistant:
    """Wraps an assistant so every request waits for its model's limiter."""

    def __init__(self, inner: Assistant, limiter: Limiter) -> None:
        self.inner, self.limiter = inner, limiter

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        await self.limiter.acquire()
        turn = await self.inner.respond(request)
        self.limiter.record(turn.usage.input_tokens + turn.usage.output_tokens)
        return turn


def rate_limited(factory: AnyFactory, limiter: Limiter) -> AnyFactory:
    """``factory`` with every assistant it makes behind ``limiter`` (unchanged if unlimited)."""
    if not limiter.active:
        return factory

    # A mitigation's tool-call gate inside stays in force: the loop finds it through ``inner``.
    return wrapped(factory, lambda assistant: RateLimitedAssistant(assistant, limiter))
