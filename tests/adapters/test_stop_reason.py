"""The one stop policy, seen through every route: which provider failures say that every later
request will fail too (and so stop a model's queue), and which may pass on a retry."""

from __future__ import annotations

import pytest

from adapters.errors import ProviderError
from adapters.server import Fault, ScriptedAssistant
from tests.adapters.support import PROVIDER_MODELS, assistant, first_request, respond


@pytest.fixture(params=PROVIDER_MODELS)
def model(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        (Fault.http(401), "refused the API key"),
        (Fault.http(403), "lacks permission"),
        (Fault.http(404, code="model_not_found"), "does not know this model"),
        (Fault.quota_exhausted(), "quota or spend limit is exhausted"),
    ],
)
def test_failures_that_will_repeat_carry_a_stop_reason(server, retry, model, fault, reason):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(fault)
    with pytest.raises(ProviderError) as caught:
        respond(assistant(server, model, retry), first_request())
    assert reason in (caught.value.stop_reason or ""), caught.value
    assert caught.value.attempts == 1  # none of them is retried


@pytest.mark.parametrize("fault", [Fault.http(429, times=2), Fault.http(500, times=2)])
def test_failures_that_may_pass_carry_none(server, sleeps, model, fault):
    from adapters.retry import RetryPolicy

    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(fault)
    policy = RetryPolicy(max_attempts=2, jitter=0, sleep=sleeps)
    with pytest.raises(ProviderError) as caught:
        respond(assistant(server, model, policy), first_request())
    assert caught.value.stop_reason is None and caught.value.attempts == 2
