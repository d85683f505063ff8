"""The Ray executor against the local one, in one run (a benchmark, not a test).

    uv run --extra ray python benchmarks/ray_executor.py [--quick] [--json PATH]

Two workloads, each run by the local executor and by ``--executor ray`` on a local Ray instance
of two worker processes, on the same machine and in the same run (so the load of the moment
is shared by both): reference episodes (offline; the local executor's process pool of two
workers), and episodes of an ``openai/`` model against the local provider server, which waits
a simulated latency before each reply (the server runs in its own process, as in
``benchmarks/run_all.py``). Printed: wall time of each, the Ray instance's start-up apart,
and the overhead per episode, (Ray wall - local wall) / episodes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FULL = {"reference": 4000, "server": 1000, "latency_s": 0.5, "concurrency": 64}
QUICK = {"reference": 80, "server": 20, "latency_s": 0.05, "concurrency": 8}
WORKERS = 2


def _config(episodes: int, **extra: Any):  # type: ignore[no-untyped-def]
    """A run of about ``episodes`` episodes over the public set (tasks × models × trials)."""
    from businesses import PUBLIC_DIR, load_set
    from opsbench.runner import DEFAULT_MODELS, RunConfig

    models = extra.pop("models", DEFAULT_MODELS)
    tasks = len(load_set(PUBLIC_DIR)[1])
    trials = max(1, -(-episodes // (tasks * len(models))))
    limit = min(tasks, -(-episodes // (trials * len(models))))
    return RunConfig(models=models, trials=trials, limit=limit, episode_timeout=None, **extra)


def _timed(config: Any, **how: Any) -> dict[str, Any]:
    from opsbench.runner import run_evaluation
    from opsbench.store import Store

    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.db") as store:
        start = time.perf_counter()
        outcome = run_evaluation(config, store, **how)
        wall = time.perf_counter() - start
    return {"episodes": outcome.ran, "statuses": outcome.statuses, "wall_s": wall}


class _Server:
    """The local provider server with ``latency`` in its own process (run_all.py's child)."""

    def __init__(self, latency: float) -> None:
        self.latency = latency

    def __enter__(self) -> str:
        script = ROOT / "benchmarks" / "run_all.py"
        self.process = subprocess.Popen(
            [sys.executable, str(script), "--child", "server", str(self.latency)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def __exit__(self, *exc: object) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def measure(sizes: dict[str, Any], say: Any) -> dict[str, Any]:
    """Both workloads, local then Ray, with the Ray instance started once in between."""
    from opsbench import ray_executor

    # Worker processes take the environment the Ray instance starts with.
    os.environ.setdefault("OPENAI_API_KEY", "not-needed-for-the-local-server")
    out: dict[str, Any] = {
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "cores": os.cpu_count(),
        "sizes": sizes,
    }
    reference = _config(sizes["reference"])
    with _Server(sizes["latency_s"]) as url:
        served = _config(
            sizes["server"],
            models=("openai/bench",),
            base_url=url,
            concurrency=sizes["concurrency"],
        )
        say(f"local: {sizes['reference']} reference episodes, {WORKERS} processes")
        out["reference_local"] = _timed(reference, workers=WORKERS)
        say(f"local: {sizes['server']} episodes against the server")
        out["server_local"] = _timed(served, workers=1)
        say(f"starting a local Ray instance of {WORKERS} workers")
        start = time.perf_counter()
        with ray_executor.connected(None, WORKERS):
            out["ray_start_s"] = time.perf_counter() - start
            say("ray: reference episodes")
            out["reference_ray"] = _timed(reference, executor="ray", workers=WORKERS)
            say("ray: episodes against the server")
            out["server_ray"] = _timed(served, executor="ray", workers=WORKERS)
    for name in ("reference", "server"):
        local, ray = out[f"{name}_local"], out[f"{name}_ray"]
        out[f"{name}_overhead_ms"] = (ray["wall_s"] - local["wall_s"]) / ray["episodes"] * 1e3
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return out


def markdown(out: dict[str, Any]) -> str:
    """The figures as the README's table."""
    s = out["sizes"]
    rows = [
        "| workload | local executor | Ray, 2 workers | overhead per episode |",
        "|---|---|---|---|",
    ]
    for name, label in (
        ("reference", f"{out['reference_local']['episodes']:,} reference episodes"),
        (
            "server",
            f"{out['server_local']['episodes']:,} episodes, local server, "
            f"{s['latency_s']:g} s latency, --concurrency {s['concurrency']}",
        ),
    ):
        local, ray = out[f"{name}_local"], out[f"{name}_ray"]
        rows.append(
            f"| {label} | {local['wall_s']:.1f} s ({local['episodes'] / local['wall_s']:.0f} "
            f"eps/s) | {ray['wall_s']:.1f} s ({ray['episodes'] / ray['wall_s']:.0f} eps/s) | "
            f"{out[f'{name}_overhead_ms']:+.1f} ms |"
        )
    rows.append(
        f"\nRay instance start-up (not in the walls above): {out['ray_start_s']:.1f} s. "
        f"Load average {out['load_average_before']} before, {out['load_average_after']} after, "
        f"{out['cores']} cores."
    )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    out = measure(QUICK if args.quick else FULL, lambda text: print(text, file=sys.stderr))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(markdown(out))


if __name__ == "__main__":
    main()
