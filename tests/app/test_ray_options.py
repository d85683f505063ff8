"""The Ray executor's options, without starting Ray: the local executor never imports it, every
bad option is one line and exit status 2 (no run left behind), and ``-M node_base_url``
resolves per node."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from opsbench.cli import app
from opsbench.errors import SelectionError
from opsbench.nodes import check_node_option, node_base_url
from opsbench.ray_executor import shards
from opsbench.runner import plan, prepare_run
from opsbench.store import Store
from tests.app.conftest import MINI_SET, mini_config

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "RAY_ADDRESS": ""})


def _one_line_exit_2(result, *needles: str) -> str:
    assert result.exit_code == 2, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ")
    for needle in needles:
        assert needle in line, line
    return line


def _run(db: Path, *args: str):
    return invoke("run", "--set", MINI_SET, "--store", str(db), "-q", *args)


def test_the_local_executor_never_imports_ray(tmp_path: Path):
    script = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from opsbench.cli import app\n"
        f"r = CliRunner().invoke(app, ['run', '--set', {MINI_SET!r}, '--store', "
        f"{str(tmp_path / 'o.db')!r}, '-q', '-m', 'reference/oracle', '--limit', '2'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print('ray' in sys.modules, 'opsbench.ray_executor' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_executor_ray_without_ray_installed_is_one_line(tmp_path: Path):
    # sys.modules["ray"] = None makes `import ray` fail as if Ray were not installed.
    script = (
        "import sys\n"
        "sys.modules['ray'] = None\n"
        "from opsbench.cli import main\n"
        f"sys.argv = ['opsbench', 'run', '--set', {MINI_SET!r}, '--store', "
        f"{str(tmp_path / 'o.db')!r}, '-q', '--executor', 'ray']\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("error: --executor ray needs Ray") and "opsbench[ray]" in line


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--executor", "spark"], ["--executor must be one of local, ray"]),
        (["--ray-address", "10.0.0.1:6379"], ["--ray-address", "only --executor ray"]),
        (
            [
                "-m",
                "python:tests.app.agents:OwnSDKAgent",
                "-M",
                "node_base_url=http://{node_ip}/v1",
            ],
            ["node_base_url", "needs --executor ray"],
        ),
        (
            ["--executor", "ray", "--ray-address", "not-an-address"],
            ["--ray-address 'not-an-address' is not host:port"],
        ),
        (
            ["--executor", "ray", "--ray-address", "127.0.0.1:1"],
            ["cannot reach the Ray cluster at 127.0.0.1:1"],
        ),
        (
            [
                "--executor",
                "ray",
                "-m",
                "python:tests.app.agents:OwnSDKAgent",
                "-M",
                "node_base_url=http://{node}:8000/v1",
            ],
            ["unknown field {node}"],
        ),
    ],
)
def test_bad_executor_options_are_one_line_and_leave_no_run(
    tmp_path: Path, args: list[str], needles: list[str]
):
    db = tmp_path / "o.db"
    _one_line_exit_2(_run(db, *args), *needles)
    if db.exists():
        with Store(db) as store:
            assert store.run_ids() == []


def test_node_base_url_templates_and_maps_resolve_per_node():
    node = {"node_ip": "10.0.0.5", "hostname": "gpu-2", "node_id": "abc"}
    template = "http://{node_ip}:8000/v1"
    check_node_option(template)
    assert node_base_url(template, **node) == "http://10.0.0.5:8000/v1"
    assert node_base_url("http://{hostname}:9000/v1", **node) == "http://gpu-2:9000/v1"
    by_node = {"gpu-2": "http://a:1/v1", "10.0.0.9": "http://b:1/v1", "*": "http://c:1/v1"}
    check_node_option(by_node)
    assert node_base_url(by_node, **node) == "http://a:1/v1"  # by hostname
    assert node_base_url(by_node, **{**node, "hostname": "x", "node_ip": "10.0.0.9"}) == (
        "http://b:1/v1"  # by IP address
    )
    assert node_base_url(by_node, **{**node, "hostname": "x"}) == "http://c:1/v1"  # the rest
    with pytest.raises(SelectionError, match=r"no server for node x \(10\.0\.0\.5\)"):
        node_base_url({"gpu-2": "http://a:1/v1"}, **{**node, "hostname": "x"})


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("http://127.0.0.1:8000/v1", "names no node field"),
        ("http://{node_ip}:{port}/v1", "unknown field {port}"),
        ("{node_ip}:8000", "is not a URL"),
        ({"gpu-1": "not a url"}, "is not a URL"),
        ({"gpu-1": 8000}, "each entry maps"),
        ({}, "must be a URL template"),
        (8000, "must be a URL template"),
    ],
)
def test_a_bad_node_base_url_is_refused(value, message: str):
    with pytest.raises(SelectionError, match=message):
        check_node_option(value)


def test_shards_cut_the_plan_by_model_business_task_and_trial(tmp_path: Path):
    with Store(tmp_path / "s.db") as store:
        keys = plan(prepare_run(mini_config(trials=3), store))
    cut = shards(list(reversed(keys)), 4)
    assert [len(s) for s in cut[:-1]] == [4] * (len(cut) - 1) and 1 <= len(cut[-1]) <= 4
    flat = [k for shard in cut for k in shard]
    assert sorted(k.store_key for k in flat) == sorted(k.store_key for k in keys)  # each once
    order = [(k.model, k.task.business.id, k.task.id, k.trial) for k in flat]
    assert order == sorted(order)
