"""CPU per offline episode of the default job (303 tasks x 8 reference assistants) through
the runner into a fresh store, parent and worker processes together (a benchmark, not a test).

    uv run python benchmarks/cpu_episode.py WORKERS
"""

import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

from businesses import PUBLIC_DIR
from opsbench.runner import RunConfig, execute, prepare_run
from opsbench.store import Store

w = int(sys.argv[1])
with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "m.db") as store:
    prepared = prepare_run(RunConfig(sets=(str(PUBLIC_DIR),)), store)
    c, t = time.process_time(), time.perf_counter()
    out = asyncio.run(execute(prepared, store, workers=w))
    wall = time.perf_counter() - t
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - c + ch.ru_utime + ch.ru_stime
print(
    f"workers={w} episodes={out.ran} wall={wall:.1f}s eps/s={out.ran / wall:.0f} cpu/episode={cpu / out.ran * 1e3:.2f}ms"
)
