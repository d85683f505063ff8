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
import time
from pathlib import Path

import yaml

from sandbox.claims import LexiconClaimChecker

DATA = Path(__file__).parents[1] / "tests" / "data"
SETS = ("claims_labelled.yaml", "claims_heldout.yaml", "claims_hosted.yaml")
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


if __name__ == "__main__":
    main()
