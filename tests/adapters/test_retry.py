"""Retries: each injected fault, through each official SDK over HTTP, is retried the right number
of times with the right waits (recorded, not slept), or surfaces as one ProviderError."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from adapters.errors import ProviderError
from adapters.retry import CallFailure, RetryPolicy
from adapters.server import Fault, ScriptedAssistant
from tests.adapters.support import (
    PROVIDER_MODELS,
    assistant,
    first_request,
    respond,
)


@pytest.fixture(params=PROVIDER_MODELS)
def model(request: pytest.FixtureRequest) -> str:
    """Each wire path: OpenAI chat, OpenAI responses, Anthropic, litellm."""
    return request.param


def _answered(server) -> int:
    return len(server.requests)


def test_429_waits_as_long_as_retry_after_says(server, retry, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.http(429, retry_after=2, times=2))
    turn = respond(assistant(server, model, retry), first_request())
    assert turn.text == "Hello."
    assert sleeps.delays == [2.0, 2.0]
    assert [r.status for r in server.requests] == [429, 429, 200]


def test_retry_after_ms_is_preferred_to_retry_after(server, retry, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.http(429, retry_after=3, retry_after_ms=1500))
    respond(assistant(server, model, retry), first_request())
    assert sleeps.delays == [1.5]


@pytest.mark.parametrize("status", [408, 409, 500, 502, 503, 529])
def test_server_errors_back_off_exponentially(server, retry, sleeps, model, status):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.http(status, times=3))
    respond(assistant(server, model, retry), first_request())
    assert sleeps.delays == [1.0, 2.0, 4.0]
    assert _answered(server) == 4


def test_the_budget_ends_in_one_provider_error(server, retry, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.http(503, times=10))
    with pytest.raises(ProviderError, match=r"HTTP 503.*gave up after 4 attempts") as caught:
        respond(assistant(server, model, retry), first_request())
    assert (caught.value.status, caught.value.attempts) == (503, 4)
    assert sleeps.delays == [1.0, 2.0, 4.0]
    assert _answered(server) == 4


def test_an_exhausted_quota_is_not_retried(server, retry, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.quota_exhausted())
    with pytest.raises(ProviderError, match="quota or spend limit exhausted") as caught:
        respond(assistant(server, model, retry), first_request())
    assert (caught.value.status, caught.value.attempts, sleeps.delays) == (429, 1, [])


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_other_client_errors_are_never_retried(server, retry, sleeps, model, status):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.http(status))
    with pytest.raises(ProviderError, match=f"HTTP {status}.*not retryable") as caught:
        respond(assistant(server, model, retry), first_request())
    assert (caught.value.status, caught.value.attempts, sleeps.delays) == (status, 1, [])


def test_a_wait_longer_than_the_limit_is_not_waited_for(server, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.http(429, retry_after=3600))
    policy = RetryPolicy(max_retry_after=60, sleep=sleeps)
    with pytest.raises(ProviderError, match="asked to wait 3600 s") as caught:
        respond(assistant(server, model, policy), first_request())
    assert (caught.value.attempts, sleeps.delays) == (1, [])


def test_a_hang_times_out_and_is_retried(server, retry, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.hang())
    turn = respond(assistant(server, model, retry, timeout=0.3), first_request())
    assert turn.text == "Hello."
    assert sleeps.delays == [1.0]
    assert [r.status for r in server.requests] == [0, 200]  # 0: never answered


def test_hanging_every_time_ends_as_a_connection_failure(server, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.hang(times=2))
    policy = RetryPolicy(max_attempts=2, jitter=0, sleep=sleeps)
    with pytest.raises(ProviderError, match=r"no response.*gave up after 2 attempts") as caught:
        respond(assistant(server, model, policy, timeout=0.2), first_request())
    assert (caught.value.status, caught.value.attempts) == (None, 2)


def test_a_slow_answer_within_the_timeout_is_simply_awaited(server, retry, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.slow(0.05))
    assert respond(assistant(server, model, retry, timeout=5), first_request()).text == "Hello."
    assert sleeps.delays == [] and _answered(server) == 1


def test_x_should_retry_false_stops_at_once(server, retry, sleeps, model):
    server.reset(ScriptedAssistant([]))  # exhausted: the server says retrying will not help
    with pytest.raises(ProviderError, match="script has 0 replies") as caught:
        respond(assistant(server, model, retry), first_request())
    assert (caught.value.status, caught.value.attempts, sleeps.delays) == (500, 1, [])


def test_max_attempts_is_a_model_option(server, retry, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.http(500, times=5))
    with pytest.raises(ProviderError) as caught:
        respond(assistant(server, model, retry, max_attempts=2), first_request())
    assert caught.value.attempts == 2 and sleeps.delays == [1.0]


# ------------------------------------------------------------ the policy on its own


def test_jittered_backoff_stays_within_its_bounds():
    policy = RetryPolicy(initial_delay=1.0, max_delay=10.0, jitter=0.5, rng=random.Random(7))
    for retry_number, ceiling in [(1, 1.0), (2, 2.0), (3, 4.0), (5, 10.0), (9, 10.0)]:
        delays = {policy.backoff(retry_number) for _ in range(50)}
        assert all(ceiling * 0.5 <= d <= ceiling for d in delays)
        assert len(delays) > 1  # jitter actually varies the wait


def test_retry_after_may_be_an_http_date():
    when = datetime.now(UTC) + timedelta(seconds=30)
    failure = CallFailure("slow down", 429, {"retry-after": format_datetime(when, usegmt=True)})
    assert 25 <= (failure.retry_after() or 0) <= 30


@pytest.mark.parametrize(
    ("failure", "retryable"),
    [
        (CallFailure("rate limited", 429), True),
        (CallFailure("x", 429, code="insufficient_quota"), False),
        (CallFailure("You exceeded your current quota, please check your plan", 429), False),
        (CallFailure("Quota exceeded for requests per minute", 429), True),
        (CallFailure("overloaded", 529), True),
        (CallFailure("bad", 400), False),
        (CallFailure("conflict", 409), True),
        (CallFailure("gone", None, connection=True), True),
        (CallFailure("budget", None, code="budget_exceeded"), False),
        (CallFailure("no", 503, {"x-should-retry": "false"}), False),
    ],
)
def test_which_failures_are_retried(failure, retryable):
    assert failure.retryable is retryable


def test_a_policy_refuses_a_budget_below_one_attempt():
    with pytest.raises(ValueError, match="max_attempts must be at least 1"):
        replace(RetryPolicy(), max_attempts=0)
