"""How much the harness adds to the model's own latency, as a ratio measured in one run.

Every public task runs through the real OpenAI SDK (``openai/…`` adapter, Chat Completions) to
the local provider server on 127.0.0.1, which answers with the task's reference plan at once: the
fastest "model" there can be. Per episode the episode loop records the time spent inside
``assistant.respond`` (SDK, HTTP, server) apart from everything else (tools, ledger, state,
caller); the scorer is timed after. A real model takes 0.5–5 s per turn, so these ratios are
upper bounds. Not a test.

    uv run python benchmarks/overhead_ratio.py
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time

from adapters.registry import make_factory
from adapters.server.local import LocalServer
from businesses import PUBLIC_DIR, initial_tables, load_set
from callers import scripted_caller_factory
from opsbench.commands.serve import task_assistant
from sandbox.episode import run_episode
from sandbox.scorer import score_episode


async def _episode(task, factory) -> tuple[float, float, float, int]:  # type: ignore[no-untyped-def]
    result = await run_episode(task, initial_tables(task), factory, scripted_caller_factory)
    tick = time.perf_counter()
    score_episode(task, result)
    score_s = time.perf_counter() - tick
    turns = result.usage.requests
    return result.timings["model_s"], result.timings["harness_s"], score_s, turns


def main() -> None:
    os.environ.setdefault("OPENAI_API_KEY", "not-needed-for-the-local-server")
    _, tasks = load_set(PUBLIC_DIR)
    model_s = harness_s = score_s = 0.0
    turns = 0
    per_turn: list[float] = []
    with LocalServer() as server:
        factory = make_factory("openai/local-reference", {}, server.openai_base_url)
        for task in tasks:
            server.reset(task_assistant(task, "reference/oracle"))
            m, h, s, n = asyncio.run(_episode(task, factory))
            model_s, harness_s, score_s, turns = model_s + m, harness_s + h, score_s + s, turns + n
            per_turn.append(m / max(n, 1))
    n = len(tasks)
    print(
        f"{n} public tasks, {turns} model requests through openai SDK -> local server (reference/oracle)"
    )
    print(
        f"model side (SDK + HTTP + server):  {model_s / n * 1e3:8.2f} ms per episode, "
        f"{statistics.median(per_turn) * 1e3:.2f} ms per request (median)"
    )
    print(f"harness during the call:           {harness_s / n * 1e3:8.2f} ms per episode")
    print(f"scoring after the call:            {score_s / n * 1e3:8.2f} ms per episode")
    print(f"harness / model time (this run):   {harness_s / model_s:8.3f}")
    print(f"(harness + scoring) / model time:  {(harness_s + score_s) / model_s:8.3f}")
    typical = 1.0 * turns / n  # one second per request, a fast hosted model
    print(
        f"(harness + scoring) / a 1 s-per-request model: {(harness_s + score_s) / n / typical:.5f}"
    )


if __name__ == "__main__":
    main()
