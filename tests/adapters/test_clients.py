"""SDK clients: one per event loop, shared by every episode on it, closed on that loop when it
shuts down (not later, on some other loop, by the garbage collector)."""

from __future__ import annotations

import asyncio

from adapters.clients import PerLoop


class Client:
    """Has what the SDK clients have that matters here: an async close()."""

    def __init__(self) -> None:
        self.closed_on: asyncio.AbstractEventLoop | None = None

    async def close(self) -> None:
        self.closed_on = asyncio.get_running_loop()


def test_one_client_per_loop_closed_on_its_own_loop_at_shutdown():
    made: list[Client] = []
    per_loop = PerLoop(lambda: made.append(Client()) or made[-1])
    loops: list[asyncio.AbstractEventLoop] = []

    async def episodes() -> bool:
        loops.append(asyncio.get_running_loop())
        clients = await asyncio.gather(*(per_loop.get() for _ in range(5)))
        return all(c is clients[0] for c in clients) and made[-1].closed_on is None

    assert asyncio.run(episodes())
    assert asyncio.run(episodes())
    assert len(made) == 2
    assert [c.closed_on for c in made] == loops
