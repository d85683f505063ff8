"""How long a trickling server holds one request, per route, under ``-M timeout``.

The local provider server sends each reply's body one byte every ``TRICKLE`` seconds (headers
at once), as a stuck proxy or a throttled stream does: the SDKs' own timeouts, which bound the
wait between two bytes, never fire. The request deadline (``adapters/retry.py``) should cut each
attempt at ``timeout`` seconds whatever the route. One attempt, no retries. Not a test.

    uv run python benchmarks/trickle_deadline.py
"""

from __future__ import annotations

import asyncio
import time

from adapters.errors import ProviderError
from adapters.registry import make_factory
from adapters.retry import RetryPolicy
from adapters.server import Fault, LocalServer, ScriptedAssistant
from contract.assistant import EpisodeContext
from contract.messages import Message, TurnRequest

TRICKLE = 0.05  # seconds per byte, as in the report
TIMEOUT = 2.0
ROUTES = (
    "openai/gpt-4.1",
    "openai/o3",  # with -M api=responses
    "anthropic/claude-sonnet-4-5",
    "litellm/openai/local",
    "litellm/anthropic/claude-sonnet-4-5",
)


def main() -> None:
    request = TurnRequest("You answer the phone.", (), (Message("user", "Hello?"),))
    with LocalServer(ScriptedAssistant(["Hello, how can I help?"] * len(ROUTES))) as server:
        for model in ROUTES:
            options = {"timeout": TIMEOUT, **({"api": "responses"} if "o3" in model else {})}
            factory = make_factory(model, options, server.url, retry=RetryPolicy(max_attempts=1))
            server.inject(Fault.trickle(TRICKLE))
            tick = time.perf_counter()
            try:
                asyncio.run(factory(EpisodeContext("bench")).respond(request))
                outcome = "answered"
            except ProviderError as exc:
                outcome = "deadline" if "request deadline" in str(exc) else f"error: {exc}"
            print(f"{model:40s} {time.perf_counter() - tick:6.2f} s  {outcome}")


if __name__ == "__main__":
    main()
