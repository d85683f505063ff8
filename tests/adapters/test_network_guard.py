"""The adapter suite never leaves the machine: a guard refuses, and records, any connection or
name lookup that is not loopback (see ``loopback_only`` in conftest.py)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from tests.adapters.support import NetworkGuardError


@pytest.fixture
def attempts(loopback_only: list[str]):
    """The guard's record, emptied after a test that trips it on purpose."""
    yield loopback_only
    loopback_only.clear()


def test_a_connection_outside_loopback_is_refused_and_recorded(attempts):
    with pytest.raises(NetworkGuardError, match="only connect to loopback"):
        socket.create_connection(("192.0.2.1", 443), timeout=1)
    assert attempts == ["connect ('192.0.2.1', 443)"]


def test_a_name_lookup_is_refused_before_it_reaches_dns(attempts):
    with pytest.raises(NetworkGuardError, match=r"may not look up 'api.openai.com'"):
        socket.getaddrinfo("api.openai.com", 443)
    assert attempts == ["getaddrinfo 'api.openai.com'"]


def test_an_sdk_aimed_at_the_real_api_never_gets_out(attempts):
    import openai

    async def call() -> None:
        async with openai.AsyncOpenAI(api_key="sk-not-real", max_retries=0, timeout=5) as client:
            await client.chat.completions.create(
                model="gpt-4.1", messages=[{"role": "user", "content": "hi"}]
            )

    # The SDK wraps network errors, but not the guard's, which is not one.
    with pytest.raises((NetworkGuardError, openai.APIConnectionError)):
        asyncio.run(call())
    assert attempts and all("api.openai.com" in a for a in attempts)


def test_loopback_is_allowed(server):
    with socket.create_connection(server.address, timeout=5):
        pass
