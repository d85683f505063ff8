"""The OpenAI client the examples share: a base URL (the local server, any compatible one) or
the provider's own, and OpenAI's errors seen as OpsBench infrastructure errors."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import TypeVar

import openai

from contract.errors import ProviderError

T = TypeVar("T")


def async_client(base_url: str | None) -> openai.AsyncOpenAI:
    """An ``AsyncOpenAI`` for ``base_url`` (any key works locally) or for OpenAI itself."""
    key = os.environ.get("OPENAI_API_KEY") or ("local" if base_url else None)
    return openai.AsyncOpenAI(base_url=base_url, api_key=key, max_retries=2, timeout=120)


async def as_provider_errors(call: Callable[[], Awaitable[T]]) -> T:
    """``await call()``, an unreachable, overloaded or refusing provider raised as
    :class:`ProviderError` (the episode is an infrastructure error, not the agent's fault); a
    request the provider calls malformed is re-raised as the agent's own error."""
    try:
        return await call()
    except openai.APIStatusError as exc:
        if exc.status_code in _REQUEST_FAULTS:
            raise  # the agent's own request is wrong: a bug to fix, not an outage to retry
        raise ProviderError(f"{type(exc).__name__}: {exc}", status=exc.status_code) from exc
    except openai.APIConnectionError as exc:  # includes timeouts
        raise ProviderError(f"{type(exc).__name__}: {exc}") from exc


# 4xx statuses that mean the request itself was malformed or refused as sent.
_REQUEST_FAULTS = frozenset({400, 404, 413, 422})
