"""Files and ports the user names that cannot be used fail in one line, `error: <path>: <why>`,
never with a traceback; report paths are checked before a run starts."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from opsbench.cli import app
from tests.app.conftest import MINI_SET
from tests.helpers import MINI


def invoke(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def _one_error(result, expected: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr.splitlines() == [expected]


@pytest.mark.parametrize("flag", ["--html", "--junit"])
def test_a_report_path_that_is_a_directory_fails_before_the_run(tmp_path: Path, flag: str):
    db = tmp_path / "o.db"
    result = invoke("run", "--set", MINI_SET, "--store", str(db), "-q", flag, str(tmp_path))
    _one_error(result, f"error: {tmp_path}: Is a directory")
    assert not db.exists()  # nothing ran, no store was made


@pytest.mark.parametrize("flag", ["--html", "--junit"])
def test_a_report_path_under_a_file_fails_before_the_run(tmp_path: Path, flag: str):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    db = tmp_path / "o.db"
    args = ("run", "--set", MINI_SET, "--store", str(db), "-q", flag, str(blocker / "r" / "x"))
    _one_error(invoke(*args), f"error: {blocker}: Not a directory")
    assert not db.exists()


def test_report_paths_in_new_directories_are_created(tmp_path: Path):
    html, junit = tmp_path / "a" / "report.html", tmp_path / "b" / "c" / "junit.xml"
    args = ("run", "-m", "reference/oracle", "--set", MINI_SET, "--limit", "1", "-q")
    result = invoke(
        *args, "--store", str(tmp_path / "o.db"), "--html", str(html), "--junit", str(junit)
    )
    assert result.exit_code == 0, result.output
    assert html.is_file() and junit.is_file()


def test_export_to_a_missing_directory_is_one_line(tmp_path: Path):
    db = str(tmp_path / "o.db")
    run = invoke(
        "run",
        "-m",
        "reference/oracle",
        "--set",
        MINI_SET,
        "--limit",
        "1",
        "--store",
        db,
        "-q",
        "--json",
    )
    run_id = json.loads(run.stdout)["run"]["id"]
    target = tmp_path / "missing" / "dir" / "x.jsonl"
    result = invoke("export", run_id, "--jsonl", "-o", str(target), "--store", db)
    _one_error(result, f"error: {target}: No such file or directory")


def test_a_store_path_under_a_file_is_one_line(tmp_path: Path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    result = invoke("run", "--set", MINI_SET, "--store", str(blocker / "results" / "o.db"), "-q")
    _one_error(result, f"error: {blocker}: Not a directory")


def test_serve_on_a_port_in_use_is_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = invoke("serve", "--port", str(port))
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [f"error: 127.0.0.1:{port}: Address already in use"]


def test_play_with_an_unknown_business_lists_the_business_ids():
    result = invoke("play", "--business", "pizzeria", "--set", str(MINI))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"unknown business 'pizzeria' in {MINI}; known: ['mini_clinic']"
