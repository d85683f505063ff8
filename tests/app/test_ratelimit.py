"""Client-side rate limits, driven by a fake clock (no real waiting)."""

from __future__ import annotations

import asyncio

import pytest

from contract.assistant import EpisodeContext
from contract.messages import AssistantTurn, TurnRequest, Usage
from opsbench.ratelimit import RateLimiter, rate_limited


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_requests_per_minute_waits_for_the_oldest_request_to_leave_the_window():
    clock = FakeClock()
    limiter = RateLimiter(rpm=3, clock=clock, sleep=clock.sleep)

    async def go() -> None:
        for _ in range(3):
            await limiter.acquire()
            clock.now += 1
        await limiter.acquire()

    asyncio.run(go())
    assert clock.sleeps == [57.0]  # the first request (t=0) leaves the window at t=60


def test_tokens_per_minute_waits_until_spent_tokens_drain():
    clock = FakeClock()
    limiter = RateLimiter(tpm=1000, clock=clock, sleep=clock.sleep)

    async def go() -> None:
        await limiter.acquire()
        limiter.record(1200)  # one big request overshoots the budget
        clock.now += 10
        await limiter.acquire()

    asyncio.run(go())
    assert clock.sleeps == [50.0]


def test_no_limits_means_no_wrapper_and_no_waiting():
    def factory(context: EpisodeContext):
        return object()

    assert rate_limited(factory, RateLimiter()) is factory
    with pytest.raises(ValueError, match="must be positive"):
        RateLimiter(rpm=0)


def test_a_limited_assistant_counts_the_tokens_it_spent():
    clock = FakeClock()
    limiter = RateLimiter(rpm=100, tpm=10_000, clock=clock, sleep=clock.sleep)

    class Priced:
        async def respond(self, request: TurnRequest) -> AssistantTurn:
            return AssistantTurn("hi", usage=Usage(input_tokens=300, output_tokens=50))

    assistant = rate_limited(lambda context: Priced(), limiter)(EpisodeContext("t", "b"))
    turn = asyncio.run(assistant.respond(TurnRequest("", (), ())))
    assert turn.text == "hi"
    assert sum(t for _, t in limiter._tokens) == 350
