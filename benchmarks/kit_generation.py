"""Time of a held-out generation over the kits (not a test).

Renders and loads every kit's draws without validation, then generates them in full (every
task validated; redraws and drops counted), and prints tasks, distinct tasks, the share dropped
and both times.

    uv run python benchmarks/kit_generation.py [--kits DIR] [--variants N] [--jobs N] [--period P]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from businesses.generate import KITS_DIR
from opsbench.kitgen import generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kits", type=Path, default=KITS_DIR)
    parser.add_argument("--variants", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--period", default="2027Q1")
    args = parser.parse_args()
    secret = os.environ.get("OPSBENCH_HELDOUT_SECRET", "benchmark-secret")
    with tempfile.TemporaryDirectory() as out:
        common = dict(
            period=args.period, secret=secret, variants=args.variants, kits_root=args.kits
        )
        start = time.perf_counter()
        generate(Path(out) / "render", validate=False, **common)  # type: ignore[arg-type]
        rendered_s = time.perf_counter() - start
        start = time.perf_counter()
        result = generate(Path(out) / "full", jobs=args.jobs, **common)  # type: ignore[arg-type]
        full_s = time.perf_counter() - start
    kits = ", ".join(k.kit for k in result.kits)
    print(
        f"kits: {kits}; {args.variants} variants; {args.jobs} process(es); {os.cpu_count()} cores"
    )
    print(f"rendered and loaded {result.rendered} tasks in {rendered_s:.1f}s (no validation)")
    print(
        f"generated: {result.rendered - result.dropped} of {result.rendered} validated "
        f"({result.distinct} distinct), {result.redrawn} redraws, {result.dropped} dropped "
        f"({result.dropped / max(result.rendered, 1):.1%}), in {full_s:.1f}s "
        f"({1000 * full_s / max(result.rendered, 1):.0f} ms per task)"
    )


if __name__ == "__main__":
    main()
