"""Faults the local server injects, to test how adapters and episodes cope.

Faults wait in a first-in, first-out queue; each request looks only at the head:

====================  ===================================================================
``http``              answer with an HTTP error (429, 500, 529 …) in the provider's error
                      format, with ``retry-after`` / ``retry-after-ms`` headers if given and
                      an error ``code`` (``insufficient_quota`` for an exhausted quota)
``slow``              answer normally after ``delay`` seconds
``hang``              never answer; hold the connection until the client gives up
``trickle``           answer normally, but send the body one byte every ``delay`` seconds
                      (headers at once), as a stuck proxy or a throttled stream does: a
                      client that only limits the wait between bytes never times out
``truncated_arguments``  cut each tool call's arguments in half (``{"a": 1`` …)
``invalid_arguments``    add a trailing comma to each tool call's arguments
``dict_arguments``    send arguments as a JSON object instead of a string (OpenAI wire;
                      Anthropic ``input`` is always an object, so there it changes nothing)
``missing_ids``       leave the tool call ids out
``empty_completion``  no text and no tool calls
``no_choices``        a Chat Completions reply with ``choices: []`` (a broken gateway; on the
                      other wire formats it changes nothing)
====================  ===================================================================

The argument and id faults wait, at the head of the queue, for a reply that has tool calls.
Each fault applies to ``times`` requests, optionally only on one ``endpoint``
(``openai``, ``responses`` or ``anthropic``).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, cast, get_args

Kind = Literal[
    "http",
    "slow",
    "hang",
    "trickle",
    "truncated_arguments",
    "invalid_arguments",
    "dict_arguments",
    "missing_ids",
    "empty_completion",
    "no_choices",
]
Endpoint = Literal["openai", "responses", "anthropic"]
TRANSPORT_KINDS = frozenset({"http", "slow", "hang", "trickle"})
CALL_KINDS = frozenset(
    {"truncated_arguments", "invalid_arguments", "dict_arguments", "missing_ids"}
)
KINDS: frozenset[str] = frozenset(get_args(Kind))
ENDPOINTS: frozenset[str] = frozenset(get_args(Endpoint))


@dataclass(frozen=True)
class Fault:
    """One injected fault; build with the class methods."""

    kind: Kind
    status: int = 0
    code: str | None = None
    retry_after: float | None = None
    retry_after_ms: float | None = None
    delay: float = 0.0
    times: int = 1
    endpoint: Endpoint | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown fault {self.kind!r}; expected one of {sorted(KINDS)}")
        if self.times < 1:
            raise ValueError(f"a fault applies to at least 1 request, got times={self.times}")
        if self.kind == "http" and not 400 <= self.status <= 599:
            raise ValueError(f"an http fault needs a 4xx or 5xx status, got {self.status}")

    @classmethod
    def http(
        cls,
        status: int,
        *,
        retry_after: float | None = None,
        retry_after_ms: float | None = None,
        code: str | None = None,
        times: int = 1,
        endpoint: Endpoint | None = None,
    ) -> Fault:
        """An HTTP error reply, e.g. ``Fault.http(429, retry_after=2, times=3)``."""
        return cls(
            "http", status, code, retry_after, retry_after_ms, times=times, endpoint=endpoint
        )

    @classmethod
    def quota_exhausted(cls, *, times: int = 1, endpoint: Endpoint | None = None) -> Fault:
        """A 429 that waiting will not fix: the account is out of credit."""
        return cls.http(429, code="insufficient_quota", times=times, endpoint=endpoint)

    @classmethod
    def slow(cls, delay: float, *, times: int = 1, endpoint: Endpoint | None = None) -> Fault:
        """A normal reply after ``delay`` seconds."""
        return cls("slow", delay=delay, times=times, endpoint=endpoint)

    @classmethod
    def trickle(
        cls, delay: float = 0.05, *, times: int = 1, endpoint: Endpoint | None = None
    ) -> Fault:
        """A normal reply whose body arrives one byte every ``delay`` seconds."""
        if not delay > 0:
            raise ValueError(f"a trickle needs a delay above 0 seconds, got {delay}")
        return cls("trickle", delay=delay, times=times, endpoint=endpoint)

    @classmethod
    def hang(cls, *, times: int = 1, endpoint: Endpoint | None = None) -> Fault:
        """No reply at all."""
        return cls("hang", times=times, endpoint=endpoint)

    @classmethod
    def output(cls, kind: Kind, *, times: int = 1, endpoint: Endpoint | None = None) -> Fault:
        """A malformed model output: one of the argument/id kinds or ``empty_completion``."""
        if kind in TRANSPORT_KINDS:
            raise ValueError(f"{kind!r} is not an output fault")
        return cls(kind, times=times, endpoint=endpoint)

    @classmethod
    def parse(cls, spec: str) -> Fault:
        """From ``KIND[,name=value…]``: ``429,retry_after=2,times=3``, ``slow,delay=1.5``,
        ``hang``, ``trickle,delay=0.05``, ``quota``, ``dict_arguments``. A bare status number is an ``http`` fault."""
        head, *pairs = [p.strip() for p in spec.split(",") if p.strip()] or [""]
        values: dict[str, str] = {}
        for pair in pairs:
            name, sep, value = pair.partition("=")
            if not sep:
                raise ValueError(f"fault {spec!r}: expected name=value, got {pair!r}")
            values[name.strip().replace("-", "_")] = value.strip()
        unknown = set(values) - {
            "retry_after",
            "retry_after_ms",
            "code",
            "delay",
            "times",
            "endpoint",
        }
        if unknown:
            raise ValueError(f"fault {spec!r}: unknown settings {sorted(unknown)}")
        times = int(values.get("times", "1"))
        given = values.get("endpoint")
        if given is not None and given not in ENDPOINTS:
            raise ValueError(f"fault {spec!r}: endpoint must be openai, responses or anthropic")
        endpoint = cast("Endpoint | None", given)
        head = head.replace("-", "_")
        if head.isdigit():
            return cls.http(
                int(head),
                retry_after=_float(values.get("retry_after")),
                retry_after_ms=_float(values.get("retry_after_ms")),
                code=values.get("code"),
                times=times,
                endpoint=endpoint,
            )
        if head == "quota":
            return cls.quota_exhausted(times=times, endpoint=endpoint)
        if head == "slow":
            return cls.slow(float(values.get("delay", "1")), times=times, endpoint=endpoint)
        if head == "trickle":
            return cls.trickle(float(values.get("delay", "0.05")), times=times, endpoint=endpoint)
        if head == "hang" or (head in KINDS and head not in TRANSPORT_KINDS):
            return cls(cast(Kind, head), times=times, endpoint=endpoint)
        raise ValueError(
            f"unknown fault {spec!r}; expected a status (429, 500, 529 …), quota, slow, hang, "
            "trickle, "
            f"or one of {sorted(KINDS - TRANSPORT_KINDS)}"
        )


def _float(text: str | None) -> float | None:
    return None if text is None else float(text)


@dataclass
class _Pending:
    fault: Fault
    remaining: int


class FaultQueue:
    """Faults waiting to be applied, first in first out. Thread-safe."""

    def __init__(self) -> None:
        self._queue: deque[_Pending] = deque()
        self._lock = threading.Lock()

    def add(self, *faults: Fault) -> None:
        with self._lock:
            self._queue.extend(_Pending(f, f.times) for f in faults)

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()

    def pending(self) -> list[Fault]:
        with self._lock:
            return [p.fault for p in self._queue]

    def take_transport(self, endpoint: Endpoint) -> Fault | None:
        """The head fault if it is a transport fault for ``endpoint`` (and count it used)."""
        return self._take(endpoint, lambda f: f.kind in TRANSPORT_KINDS)

    def take_output(self, endpoint: Endpoint, *, has_calls: bool) -> Fault | None:
        """The head fault if it is an output fault that applies to this reply."""
        return self._take(
            endpoint,
            lambda f: (
                f.kind in ("empty_completion", "no_choices") or (f.kind in CALL_KINDS and has_calls)
            ),
        )

    def _take(self, endpoint: Endpoint, applies: Callable[[Fault], bool]) -> Fault | None:
        with self._lock:
            if not self._queue:
                return None
            head = self._queue[0]
            if head.fault.endpoint not in (None, endpoint) or not applies(head.fault):
                return None
            head.remaining -= 1
            if head.remaining <= 0:
                self._queue.popleft()
            return head.fault
