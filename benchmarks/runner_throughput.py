"""Harness overhead per scripted episode and runner throughput (a benchmark, not a test).

    uv run python benchmarks/runner_throughput.py [--trials K] [--set DIR]

Three figures, all with reference assistants and scripted callers (no model time at all, so
everything measured is harness):

1. bare episode: ``run_episode`` + ``score_episode`` in a loop, per episode;
2. runner episode: the same episodes through the batch runner into a fresh SQLite store
   (diff, canonical JSON, one WAL transaction each), per episode;
3. throughput of the runner in episodes per second, and the runner's own overhead per episode
   (2 minus 1): what the store, the scheduling and the bookkeeping cost.

Loading the task set (done once per run) is timed apart.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from adapters.reference import FLAWS, reference_factory
from businesses import PUBLIC_DIR, initial_tables, load_set
from callers.scripted import scripted_caller_factory
from opsbench.runner import RunConfig, execute, prepare_run
from opsbench.store import Store
from sandbox.episode import run_episode
from sandbox.scorer import score_episode


def bare(tasks, trials: int) -> tuple[int, float]:
    async def go() -> int:
        count = 0
        for flaw in FLAWS:
            factory = reference_factory(flaw)
            for task in tasks:
                for trial in range(trials):
                    result = await run_episode(
                        task, initial_tables(task), factory, scripted_caller_factory, trial=trial
                    )
                    score_episode(task, result)
                    count += 1
        return count

    start = time.perf_counter()
    count = asyncio.run(go())
    return count, time.perf_counter() - start


def through_runner(root: Path, trials: int, concurrency: int) -> tuple[int, float, float]:
    """Episodes run, seconds to prepare (load and validate the task set), seconds to execute."""
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.db") as store:
        config = RunConfig(sets=(str(root),), trials=trials, concurrency=concurrency)
        start = time.perf_counter()
        prepared = prepare_run(config, store)
        loaded = time.perf_counter()
        outcome = asyncio.run(execute(prepared, store))
        return outcome.ran, loaded - start, time.perf_counter() - loaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default=str(PUBLIC_DIR), help="directory of businesses")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    tasks = load_set(args.set)[1]
    print(f"{len(tasks)} tasks x {len(FLAWS)} reference assistants x {args.trials} trials")
    bare_times, runner_times, prepare_times = [], [], []
    for _ in range(args.repeat):
        n, seconds = bare(tasks, args.trials)
        bare_times.append(seconds / n)
        m, prepare_s, seconds = through_runner(Path(args.set), args.trials, args.concurrency)
        runner_times.append(seconds / m)
        prepare_times.append(prepare_s)
    b, r = statistics.median(bare_times), statistics.median(runner_times)
    print(f"episodes per pass:                  {n}")
    print(
        f"prepare (load + validate the set):  {statistics.median(prepare_times):.2f} s once per run"
    )
    print(f"bare episode + score:               {b * 1000:.2f} ms/episode")
    print(f"through the runner (store incl.):   {r * 1000:.2f} ms/episode")
    print(f"runner + store overhead:            {(r - b) * 1000:.2f} ms/episode")
    print(f"runner throughput:                  {1 / r:,.0f} episodes/s")


if __name__ == "__main__":
    main()
