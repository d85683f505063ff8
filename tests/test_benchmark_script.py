"""benchmarks/run_all.py works end to end at --quick sizes (no figure is checked: timings on
a shared machine are not test material)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "run_all.py"


def test_quick_run_prints_markdown_and_json_and_a_before_after_table(tmp_path: Path):
    out = tmp_path / "r.json"
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--quick",
            "--only",
            "offline,client,first,rss",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (
        "| offline, 2 processes |" in done.stdout
        and "| client CPU per model request |" in done.stdout
    )
    assert "τ²-bench" in done.stdout
    data = json.loads(out.read_text())
    assert data["quick"] is True and data["offline"]["2"]["episodes"] > 0
    assert data["client"]["adapter_ms"] > 0 and data["client"]["raw_httpx_ms"] > 0
    assert data["first_episode"]["tasks"] == data["first_episode_cold"]["tasks"] > 0
    generated = data["generated"]
    assert generated["tasks"] == data["first_episode_generated"]["tasks"] > 0
    assert "| time to first episode, generated set (2 variants of 1 kit," in done.stdout
    assert data["viewer"]["episodes"] == data["rss"][-1]["episodes"] > 0
    assert "| `opsbench view` at " in done.stdout
    table = subprocess.run(
        [sys.executable, str(SCRIPT), "--table", str(out), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert table.returncode == 0, table.stderr
    assert "| figure | before | after |" in table.stdout
    assert "| offline episodes/s, 1 process |" in table.stdout


def test_an_unknown_section_is_one_line_exit_2():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--only", "nope"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 2 and "--only: unknown section 'nope'" in done.stderr


def _run_all():  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_all", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("requests", "latency", "connections", "makespan"),
    [
        ([3, 3, 3], 0.5, 3, 1.5),  # one wave, every slot busy to the end
        ([3, 3, 3], 0.5, 1, 4.5),  # one slot: the requests one after another
        ([1] * 10, 1.0, 4, 3.0),  # ten on four slots: a last wave of two
        ([4, 1, 1, 1, 1], 1.0, 2, 4.0),  # the long first episode is the critical path
        ([1, 1, 1, 1, 4], 1.0, 2, 6.0),  # the same episodes, the long one queued last
        ([], 1.0, 8, 0.0),
    ],
)
def test_the_zero_overhead_schedule_is_plan_order_on_free_slots(
    requests: list[int], latency: float, connections: int, makespan: float
):
    assert _run_all().zero_overhead_makespan(requests, latency, connections) == makespan
