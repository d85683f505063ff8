"""One SDK client per event loop, closed on that loop when it shuts down.

An SDK's async client holds a connection pool bound to the event loop that first used it. A
factory makes assistants for many episodes, possibly on different loops (one ``asyncio.run``
per test, say), so it keeps one client per running loop and reuses it, connections and all,
for every episode on that loop.

Closing: the client must be closed on its own loop, before that loop closes. asyncio offers one
hook for that: ``loop.shutdown_asyncgens()``, which ``asyncio.run`` (and every well-behaved
runner) awaits before closing the loop, finalises every live async generator. So each client
is paired with a small async generator, suspended at its ``yield``, whose ``finally`` closes it.
Left to the SDK's own ``__del__``, the close would be scheduled on whatever loop runs when the
client is collected, and fail there with "Event loop is closed".
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncGenerator, Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class PerLoop(Generic[T]):
    """A lazily made ``T`` for each running event loop, with its ``close()`` awaited at loop
    shutdown when it has one."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._by_loop: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, tuple[T, AsyncGenerator[None, None]]
        ] = weakref.WeakKeyDictionary()

    async def get(self) -> T:
        """The ``T`` of the running loop, made on first use."""
        loop = asyncio.get_running_loop()
        entry = self._by_loop.get(loop)
        if entry is None:
            value = self._make()
            closer = _close_at_shutdown(value)
            # Stored before the first await, so concurrent first calls share one client.
            entry = self._by_loop[loop] = (value, closer)
            await closer.asend(None)  # now suspended at its yield until the loop shuts down
        return entry[0]


async def _close_at_shutdown(value: Any) -> AsyncGenerator[None, None]:
    try:
        yield
    finally:
        close = getattr(value, "close", None)
        if close is not None:
            with contextlib.suppress(Exception):
                result = close()
                if asyncio.iscoroutine(result):
                    await result
