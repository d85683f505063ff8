"""Harness time of one scripted episode, scoring included (not a test).

Runs reference/oracle with scripted callers over every task of a set, many times, and prints
the median time per episode for the loop alone and for loop + scorer. The reference assistant
answers instantly, so everything measured is harness time.

    uv run python benchmarks/episode.py [--set DIR] [--repeat N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from adapters.reference import reference_factory
from businesses import PUBLIC_DIR, initial_tables, load_set
from callers import scripted_caller_factory
from sandbox.episode import run_episode
from sandbox.scorer import score_episode


async def _one_pass(tasks, tables, factory) -> tuple[float, float, int]:
    loop_s = score_s = 0.0
    turns = 0
    for task in tasks:
        start = time.perf_counter()
        result = await run_episode(task, tables[task.id], factory, scripted_caller_factory)
        middle = time.perf_counter()
        score_episode(task, result)
        end = time.perf_counter()
        loop_s += middle - start
        score_s += end - middle
        turns += len(result.transcript)
    return loop_s, score_s, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=PUBLIC_DIR)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    _, tasks = load_set(args.set)
    tables = {t.id: initial_tables(t) for t in tasks}
    factory = reference_factory("oracle")
    passes = [asyncio.run(_one_pass(tasks, tables, factory)) for _ in range(args.repeat)]
    loop = statistics.median(p[0] for p in passes) / len(tasks) * 1e3
    score = statistics.median(p[1] for p in passes) / len(tasks) * 1e3
    lines = passes[0][2] / len(tasks)
    print(
        f"{len(tasks)} tasks from {args.set}, {args.repeat} passes, {lines:.1f} transcript lines per episode"
    )
    print(f"episode loop (tools, ledger, caller, assistant turns)  {loop:6.2f} ms per episode")
    print(f"scorer (diff, assertions, rules, revert copy, claims)  {score:6.2f} ms per episode")
    print(
        f"total harness time                                     {loop + score:6.2f} ms per episode"
    )


if __name__ == "__main__":
    main()
