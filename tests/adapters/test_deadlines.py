"""Every request has a total deadline: a server that trickles its body a byte at a time (which
keeps the SDKs' between-bytes timeouts happy forever) is cut off at ``-M timeout`` on every
route, retried like any timeout, and every failed attempt is reported to the open retry log."""

from __future__ import annotations

import pytest

from adapters.errors import ProviderError
from adapters.retry import RetryPolicy, recording_retries
from adapters.server import Fault, ScriptedAssistant
from tests.adapters.support import PROVIDER_MODELS, assistant, first_request, respond

# One byte every 0.2 s: the ~600-byte reply would take two minutes to arrive in full.
TRICKLE = 0.2


@pytest.fixture(params=PROVIDER_MODELS)
def model(request: pytest.FixtureRequest) -> str:
    return request.param


def test_a_trickling_reply_is_cut_off_at_the_request_deadline(server, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."] * 3))
    server.inject(Fault.trickle(TRICKLE, times=2))
    policy = RetryPolicy(max_attempts=2, jitter=0, sleep=sleeps)
    with pytest.raises(ProviderError, match=r"request deadline of 0\.6 s") as caught:
        # The SDK's own timeout (between bytes) is never reached: each byte comes in 0.2 s.
        respond(assistant(server, model, policy, timeout=0.6), first_request())
    assert (caught.value.status, caught.value.attempts) == (None, 2)
    assert caught.value.stop_reason is None  # a slow server may recover: no stop
    assert sleeps.delays == [1.0]


def test_a_trickle_then_a_good_reply_is_retried_and_recorded(server, sleeps, model):
    server.reset(ScriptedAssistant(["Hello."] * 3))
    server.inject(Fault.trickle(TRICKLE), Fault.http(429, retry_after=2))
    policy = RetryPolicy(max_attempts=4, jitter=0, sleep=sleeps)
    with recording_retries() as log:
        turn = respond(assistant(server, model, policy, timeout=0.6), first_request())
    assert turn.text == "Hello."
    assert [(a.attempt, a.status, a.wait_s) for a in log.attempts] == [
        (1, None, 1.0),
        (2, 429, 2.0),
    ]
    assert "request deadline" in log.attempts[0].reason
    assert all(a.label == model for a in log.attempts)


def test_the_trickle_fault_parses_from_the_command_line():
    fault = Fault.parse("trickle,delay=0.5,times=3")
    assert (fault.kind, fault.delay, fault.times) == ("trickle", 0.5, 3)
    with pytest.raises(ValueError, match="delay above 0"):
        Fault.parse("trickle,delay=0")
