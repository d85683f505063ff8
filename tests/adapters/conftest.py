"""Shared fixtures for the adapter tests: one local provider server, a loopback-only network,
no API keys, and a retry clock that records instead of sleeping."""

from __future__ import annotations

import ipaddress
import random
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from adapters.retry import RetryPolicy
from adapters.server import LocalServer
from tests.adapters.support import NetworkGuardError

PROVIDER_ENV = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_PROFILE",
    "ANTHROPIC_CUSTOM_HEADERS",
    "ANTHROPIC_IDENTITY_TOKEN",
    "ANTHROPIC_IDENTITY_TOKEN_FILE",
)


def _ip(host: Any) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if isinstance(host, bytes):
        host = host.decode()
    try:
        return ipaddress.ip_address(str(host).split("%")[0])
    except ValueError:
        return None


def _is_loopback(host: Any) -> bool:
    if host in (None, "localhost", b"localhost"):
        return True
    ip = _ip(host)
    return ip is not None and ip.is_loopback


def guard_network() -> Iterator[list[str]]:
    """Refuse, and remember, every connection or name lookup that leaves the machine.

    SDKs wrap connection errors, so a refused attempt might not fail its test; the record
    makes the session fail anyway (see the teardown below).
    """
    attempts: list[str] = []
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def check(address: Any) -> None:
        if isinstance(address, tuple) and not _is_loopback(address[0]):
            attempts.append(f"connect {address!r}")
            raise NetworkGuardError(
                f"the adapter tests may only connect to loopback, not {address!r}"
            )

    def connect(self: socket.socket, address: Any) -> None:
        check(address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        # An address literal needs no DNS; connect() judges it. A name other than localhost
        # would be a DNS query leaving the machine.
        if _ip(host) is None and not _is_loopback(host):
            attempts.append(f"getaddrinfo {host!r}")
            raise NetworkGuardError(f"the adapter tests may not look up {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]
    try:
        yield attempts
    finally:
        socket.socket.connect = real_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = real_connect_ex  # type: ignore[method-assign]
        socket.getaddrinfo = real_getaddrinfo
    # Attempts a test provoked on purpose (test_network_guard) are cleared by that test.
    assert not attempts, f"the adapter tests tried to leave loopback: {attempts}"


@pytest.fixture(scope="session", autouse=True)
def loopback_only(network_guard: list[str]) -> list[str]:
    """The session's one loopback-only guard (``tests/conftest.py``), on for this folder.

    Folders that turn it on share the instance: with two, a test process running the other
    folder first would install a second guard over the first, and each would miss the other's
    record."""
    return network_guard


@pytest.fixture(autouse=True)
def no_provider_credentials(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No test may need, or accidentally use, a real key, endpoint or on-disk profile."""
    for name in PROVIDER_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path_factory.getbasetemp() / "anthropic"))


@pytest.fixture(scope="session")
def local_server() -> Iterator[LocalServer]:
    """One local provider server for the whole suite."""
    with LocalServer() as server:
        yield server


@pytest.fixture
def server(local_server: LocalServer) -> LocalServer:
    """The shared server, with no requests, faults or cache left from another test."""
    local_server.reset()
    return local_server


class RecordingSleep:
    """Stands in for ``asyncio.sleep`` in retry policies: records the delay, returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def sleeps() -> RecordingSleep:
    return RecordingSleep()


@pytest.fixture
def retry(sleeps: RecordingSleep) -> RetryPolicy:
    """Four attempts, 1 s doubling backoff without jitter, a recording clock."""
    return RetryPolicy(
        max_attempts=4, initial_delay=1.0, jitter=0.0, sleep=sleeps, rng=random.Random(0)
    )
