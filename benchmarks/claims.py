"""Benchmark of the claim checker: time per message length (is it linear?) and messages per
second on the labelled sets.

Not a test (timings on shared machines are noisy). Run:  uv run python benchmarks/claims.py
Times are CPU time of this process (``time.process_time``), the median of several repeats, so
other load on the machine disturbs them less than wall-clock time would.

The long messages are the worst case the issue names: a model stuck repeating itself, with no
punctuation, so that the whole text is one clause. Linear means the time per 1,000 characters
stays flat as the message grows.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

from sandbox.claims import LexiconClaimChecker

DATA = Path(__file__).parents[1] / "tests" / "data"
# Development sets only: a held-out set is read once, by the lead, never by the benchmark.
SETS = ("claims_labelled.yaml", "claims_hosted.yaml", "claims_fresh.yaml")
# A run-on that names many kinds without ever completing a clause, and a punctuated one.
RUN_ON = "the reminder text for your appointment order payment refund credit fee plan note number "
PUNCTUATED = (
    "I've moved your cleaning to Thursday at 9:00 with Luis, and I couldn't set the reminder. "
)


def _cpu(function, repeats: int = 5) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        samples.append(time.process_time() - start)
    return statistics.median(samples)


# A fresh process: the checker's first use (import, building the lexicon, the first messages,
# whose patterns compile then), in CPU time of that process.
FIRST_USE = """
import time
t0 = time.process_time()
from sandbox.claims import LexiconClaimChecker
t1 = time.process_time()
checker = LexiconClaimChecker()
t2 = time.process_time()
checker.extract("I've moved your cleaning to Thursday at 9:00 with Luis, and sent a text.")
t3 = time.process_time()
for text in TEXTS:
    checker.extract(text)
t4 = time.process_time()
print(f"{(t1 - t0) * 1000:.0f} {(t2 - t1) * 1000:.0f} {(t3 - t2) * 1000:.0f} {(t4 - t3) * 1000:.0f}")
"""


def first_use(texts: list[str]) -> None:
    code = f"TEXTS = {texts[:50]!r}\n" + FIRST_USE
    runs = [
        [
            float(x)
            for x in subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout.split()
        ]
        for _ in range(3)
    ]
    imp, build, first, fifty = (statistics.median(r[i] for r in runs) for i in range(4))
    print(
        f"first use in a fresh process (CPU, median of 3): import {imp:.0f} ms, "
        f"build the checker {build:.0f} ms, first message {first:.0f} ms, next 50 messages "
        f"{fifty:.0f} ms"
    )


def main() -> None:
    checker = LexiconClaimChecker()
    checker.extract("warm up: load and compile the lexicon")
    print("message length -> checker CPU time (median of 5)")
    for name, unit in (("run-on, no punctuation", RUN_ON), ("punctuated", PUNCTUATED)):
        for length in (1_000, 20_000, 40_000):
            text = (unit * (length // len(unit) + 1))[:length]
            seconds = _cpu(lambda text=text: checker.extract(text))
            print(
                f"  {name:24} {length:6d} chars  {seconds * 1000:8.1f} ms"
                f"  ({seconds * 1e6 / length * 1000:6.1f} us per 1,000 chars)"
            )
    texts = [item["text"] for name in SETS for item in yaml.safe_load((DATA / name).read_text())]
    seconds = _cpu(lambda: [checker.extract(t) for t in texts], repeats=3)
    print(
        f"labelled sets: {len(texts)} messages in {seconds:.3f} s CPU: {len(texts) / seconds:,.0f} messages/s"
    )
    first_use(texts)


if __name__ == "__main__":
    main()
