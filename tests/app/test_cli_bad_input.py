"""Bad input never shows a traceback: every command, with a generated bad value for each of its
options and arguments (everything else good), exits 2 with one line on stderr (issue 14).

The commands and their parameters are read from the CLI itself, so an option added later without
a bad-value strategy here fails :func:`test_every_parameter_has_a_bad_value_strategy`.
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from adapters.reference import FLAWS
from businesses import PUBLIC_DIR
from opsbench.cli import app
from tests.helpers import KITS, MINI

HOSTED_CLAIMS = Path(__file__).parents[1] / "data" / "claims_hosted.yaml"

WORD = st.text(alphabet=string.ascii_letters + "_", min_size=1, max_size=12)
# Not an integer in any spelling a parser might accept.
NOT_INT = st.text(alphabet=string.ascii_letters + "!@#%&()[]{}", min_size=1, max_size=10)


class Env:
    """A directory of good and bad things to point options at."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.good_store = root / "good.db"
        self.a_dir = root / "a_dir"
        self.a_dir.mkdir()
        self.empty_dir = root / "empty"
        self.empty_dir.mkdir()
        self.text_file = root / "notes.txt"
        self.text_file.write_text("not a database\n")
        self.foreign = root / "foreign.db"
        with sqlite3.connect(self.foreign) as db:
            db.execute("CREATE TABLE runs (id TEXT, note TEXT)")
        self.bad_json = root / "script.json"
        self.bad_json.write_text("{not json")
        business = root / "one_business" / "mini_clinic"
        shutil.copytree(MINI / "mini_clinic", business)
        self.business_folder = business
        self.busy = socket.socket()
        self.busy.bind(("127.0.0.1", 0))
        self.busy.listen()
        self.busy_port = str(self.busy.getsockname()[1])

    def bad_paths(self, *, missing_ok: bool) -> st.SearchStrategy[str]:
        """Paths no command can use as a store: a directory, text, a foreign database, a
        path under a file, and (for readers) a store that does not exist."""
        options = [self.a_dir, self.text_file, self.foreign, self.text_file / "x.db"]
        paths = st.sampled_from([str(p) for p in options])
        if not missing_ok:
            return paths
        missing = WORD.map(lambda w: str(self.root / "missing" / f"{w}.db"))
        return st.one_of(paths, missing)

    def bad_sets(self) -> st.SearchStrategy[str]:
        fixed = [self.a_dir, self.empty_dir, self.text_file, self.business_folder]
        missing = WORD.map(lambda w: str(self.root / "nowhere" / w))
        return st.one_of(st.sampled_from([str(p) for p in fixed]), missing)

    def bad_outputs(self) -> st.SearchStrategy[str]:
        return st.sampled_from([str(self.a_dir), str(self.text_file / "out")])


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    root = tmp_path_factory.mktemp("bad-input")
    here = Path.cwd()
    os.chdir(root)  # a default ./opsbench-results lands here, never in the repository
    made = Env(root)
    result = CliRunner().invoke(
        app,
        [
            "run",
            "-m",
            "reference/oracle",
            "--set",
            str(MINI),
            "--limit",
            "1",
            "-q",
            "--store",
            str(made.good_store),
        ],
    )
    assert result.exit_code == 0, result.output
    try:
        yield made
    finally:
        made.busy.close()
        os.chdir(here)


def _int_below(minimum: int) -> st.SearchStrategy[str]:
    return st.one_of(NOT_INT, st.integers(max_value=minimum - 1).map(str))


def _not_model() -> st.SearchStrategy[str]:
    return st.one_of(
        WORD,  # no provider/ part
        WORD.filter(lambda w: w not in FLAWS).map(lambda w: f"reference/{w}"),
        WORD.map(lambda w: f"noprovider{w}/model"),
    )


def strategies(env: Env) -> dict[tuple[str, str], st.SearchStrategy[str]]:
    """(command, parameter) → bad values for it."""
    stores_read = env.bad_paths(missing_ok=True)
    out: dict[tuple[str, str], st.SearchStrategy[str]] = {
        ("run", "model"): _not_model(),
        ("run", "task_set"): env.bad_sets(),
        ("run", "business"): WORD.map(lambda w: f"no_{w}"),
        ("run", "task"): WORD.map(lambda w: f"no-{w}"),
        ("run", "tags"): WORD.map(lambda w: f"no-{w}"),
        ("run", "limit"): _int_below(1),
        ("run", "trials"): _int_below(1),
        ("run", "caller"): WORD.filter(lambda w: w != "scripted"),
        ("run", "judge"): _not_model(),
        ("run", "seed"): NOT_INT,
        ("run", "concurrency"): _int_below(1),
        ("run", "workers"): _int_below(1),
        ("run", "executor"): WORD.filter(lambda w: w not in ("local", "ray")),
        # With the default local executor any cluster address is refused; a malformed or
        # unreachable one with --executor ray is tests/app/test_ray_options.py's.
        ("run", "ray_address"): WORD,
        ("run", "rpm"): _int_below(1),
        ("run", "tpm"): _int_below(1),
        ("run", "model_option"): st.one_of(WORD, WORD.map(lambda w: f"{w}=1")),
        ("run", "base_url"): WORD,
        ("run", "resume"): WORD.map(lambda w: f"run-{w}"),
        ("run", "store"): env.bad_paths(missing_ok=False),
        ("run", "html"): env.bad_outputs(),
        ("run", "junit"): env.bad_outputs(),
        ("run", "fail_under"): st.one_of(st.just(""), WORD, WORD.map(lambda w: f"{w}=0.5")),
        ("report", "run"): WORD.map(lambda w: f"run-{w}"),
        ("report", "store"): stores_read,
        ("view", "run"): WORD.map(lambda w: f"run-{w}"),
        ("view", "store"): stores_read,
        ("view", "port"): st.one_of(
            NOT_INT, st.integers(max_value=-1).map(str), st.integers(min_value=65536).map(str)
        ),
        ("report", "html"): env.bad_outputs(),
        ("report", "junit"): env.bad_outputs(),
        ("report", "fail_under"): st.one_of(st.just(""), WORD, st.just("pass=80")),
        ("compare", "run_a"): WORD.map(lambda w: f"run-{w}"),
        ("compare", "run_b"): WORD.map(lambda w: f"run-{w}"),
        ("compare", "store"): stores_read,
        ("show", "episode"): WORD.map(lambda w: f"ep-none-{w}"),  # never a prefix of an id
        ("show", "store"): stores_read,
        ("export", "run"): WORD.map(lambda w: f"run-{w}"),
        ("export", "output"): env.bad_outputs(),
        ("export", "store"): stores_read,
        ("runs", "store"): stores_read,
        ("play", "business"): WORD.map(lambda w: f"no_{w}"),
        ("play", "task"): WORD.map(lambda w: f"mini_clinic/no-{w}"),
        ("play", "model"): _not_model(),
        ("play", "seat"): WORD.filter(lambda w: w not in ("caller", "assistant")),
        ("play", "caller"): WORD.filter(lambda w: w != "scripted"),
        ("play", "option"): WORD,
        ("play", "caller_option"): WORD,
        ("play", "base_url"): WORD,
        ("play", "now"): st.one_of(WORD, st.just("2026-02-30T09:00"), st.just("2026-03-02T25:00")),
        ("play", "root"): env.bad_sets(),
        ("play", "seed"): NOT_INT,
        ("serve", "port"): st.one_of(
            NOT_INT, st.integers(max_value=-1).map(str), st.integers(min_value=65536).map(str)
        ),
        ("serve", "assistant"): _not_model(),
        ("serve", "model_option"): WORD,
        ("serve", "task"): WORD.map(lambda w: f"mini_clinic/no-{w}"),
        ("serve", "root"): env.bad_sets(),
        ("serve", "script"): st.sampled_from(
            [str(env.bad_json), str(env.a_dir), str(env.root / "missing.json")]
        ),
        ("serve", "fault"): WORD.map(lambda w: f"no_{w}"),
        ("tools list", "format"): WORD.filter(lambda w: w not in ("json", "openai", "anthropic")),
        ("tools list", "business"): WORD.map(lambda w: f"no_{w}"),
        ("tools list", "task_set"): env.bad_sets(),
        ("businesses list", "root"): env.bad_sets(),
        ("businesses show", "business"): WORD.map(lambda w: f"no_{w}"),
        ("businesses show", "task"): WORD.map(lambda w: f"mini_clinic/no-{w}"),
        ("businesses show", "root"): env.bad_sets(),
        ("businesses validate", "root"): env.bad_sets(),
        ("businesses validate", "business"): WORD.map(lambda w: f"no_{w}"),
        ("run", "mitigation"): WORD.map(lambda w: f"no-{w}"),
        ("run", "episode_timeout"): st.one_of(WORD, st.just("-1"), st.just("-0.5")),
        ("mcp", "task"): WORD.map(lambda w: f"mini_clinic/no-{w}"),
        ("mcp", "root"): env.bad_sets(),
        ("mcp", "port"): st.one_of(
            NOT_INT, st.integers(max_value=-1).map(str), st.integers(min_value=65536).map(str)
        ),
        ("mcp", "seed"): NOT_INT,
        ("mcp", "record"): env.bad_outputs(),
        ("businesses new", "name"): st.one_of(
            st.just("Bad Name"), st.just("../escape"), st.just("1st"), WORD.map(str.upper)
        ),
        ("businesses new", "out"): st.sampled_from(
            [str(env.text_file), str(env.text_file / "below")]
        ),
        ("businesses generate", "out"): st.sampled_from(
            [str(env.text_file), str(env.text_file / "below"), str(PUBLIC_DIR / "heldout")]
        ),
        ("businesses generate", "period"): st.one_of(
            WORD, st.sampled_from(["2027Q5", "2027Q0", "2027-13", "27Q1", "2027q1 "])
        ),
        ("businesses generate", "variants"): st.one_of(
            NOT_INT, st.sampled_from(["0", "-1", "1000"])
        ),
        ("businesses generate", "secret"): st.sampled_from(["", " ", "\t"]),
        ("businesses generate", "kit"): WORD.map(lambda w: f"no_{w}"),
        ("businesses generate", "kits_root"): st.one_of(
            st.sampled_from([str(env.text_file), str(env.empty_dir)]),
            WORD.map(lambda w: str(env.root / "nowhere" / w)),
        ),
        ("businesses generate", "jobs"): st.one_of(NOT_INT, st.just("-1")),
        ("claims agreement", "labelled"): st.sampled_from(
            [str(env.bad_json), str(env.a_dir), str(env.root / "missing.yaml")]
        ),
        ("claims agreement", "judge"): _not_model().filter(lambda m: m != "lexicon"),
        ("claims agreement", "split"): WORD.filter(lambda w: w not in ("dev", "test")),
        ("claims agreement", "base_url"): WORD,
    }
    return out


def good_args(env: Env, command: str, param: str) -> list[str]:
    """Good values for everything else, so the one bad value is what gets refused."""
    store = str(env.root / "new.db") if command == "run" else str(env.good_store)
    mini = ["--set", str(MINI)]
    base: dict[str, list[str]] = {
        "run": ["-m", "reference/oracle", *mini, "--limit", "1", "-q", "--store", store],
        "report": ["--store", store],
        "compare": ["--store", store],
        "show": ["--store", store],
        "export": ["--jsonl", "--store", store],
        "runs": ["--store", store],
        "play": ["-b", "mini_clinic", *mini, "-m", "reference/oracle"],
        "serve": ["--port", env.busy_port],
        # A busy port: were a bad value ever let through, the command still fails, never serves.
        "view": ["--store", store, "--port", env.busy_port],
        "tools list": ["-b", "mini_clinic", *mini],
        "businesses list": mini,
        "businesses show": mini,
        "businesses validate": mini,
        "mcp": [
            "--set",
            str(MINI),
            "--task",
            "mini_clinic/waive-fee-exception",
            "--port",
            env.busy_port,
        ],
        "businesses new": ["--out", str(env.root / "new_businesses")],
        "businesses generate": [
            "--kits",
            str(KITS),
            "--period",
            "2027Q1",
            "--secret",
            "a-test-secret",
            "--out",
            str(env.root / "heldout"),
        ],
        "claims agreement": ["--set", str(HOSTED_CLAIMS)],
    }
    args = list(base[command])
    # Options that only mean something together with another need their partner.
    if command == "serve" and param in ("task", "root", "model_option"):
        args += ["--assistant", "reference/oracle"]
        if param != "task":
            args += ["--task", "mini_clinic/waive-fee-exception"]
        if param != "root":
            args += mini
    if command == "play" and param == "caller":
        args += ["--seat", "assistant", "--task", "mini_clinic/waive-fee-exception"]
    return _drop(args, param)


def _drop(args: list[str], param: str) -> list[str]:
    """The option under test replaces its good value (e.g. run's --store or --set)."""
    flag = {"root": "--set", "task_set": "--set", "store": "--store", "port": "--port"}.get(param)
    flag = flag or {"labelled": "--set", "out": "--out"}.get(param)
    flag = flag or {"task": "--task"}.get(param)
    flag = flag or {"business": "-b", "model": "-m", "limit": "--limit"}.get(param)
    if flag and flag in args:
        index = args.index(flag)
        del args[index : index + 2]
    return args


def positional(env: Env, command: str) -> list[str]:
    """Good values for the arguments of a command (the run and episode of the good store)."""
    with sqlite3.connect(env.good_store) as db:
        run_id = db.execute("SELECT id FROM runs").fetchone()[0]
        episode = db.execute("SELECT id FROM episodes").fetchone()[0]
    return {
        "report": [run_id],
        "view": [run_id],
        "compare": [run_id, run_id],
        "show": [episode],
        "export": [run_id],
        "businesses show": ["mini_clinic"],
        "businesses new": ["good_business"],
    }.get(command, [])


def commands() -> list[tuple[str, Any]]:
    """Every leaf command as (its path, the click command)."""
    root = typer.main.get_command(app)
    found = []

    def walk(command, path):  # type: ignore[no-untyped-def]
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                walk(sub, [*path, name])
        else:
            found.append((" ".join(path), command))

    walk(root, [])
    return found


def parameters() -> list[tuple[str, str]]:
    """Every (command, parameter) that takes a value; flags cannot be given a bad value and
    hidden test hooks (--run-id) are not user input."""
    return [
        (path, p.name)
        for path, command in commands()
        for p in command.params
        if not getattr(p, "is_flag", False) and not getattr(p, "hidden", False)
    ]


def test_every_parameter_has_a_bad_value_strategy(env: Env):
    assert sorted(set(parameters()) - set(strategies(env))) == []


def invoke(args: list[str]):
    return CliRunner().invoke(app, args, env={"COLUMNS": "200"})


def assert_one_line_refusal(result, args: list[str]) -> None:
    shown = f"opsbench {' '.join(args)}\nstdout: {result.stdout!r}\nstderr: {result.stderr!r}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        shown + f"\nraised {result.exception!r}"
    )
    assert result.exit_code == 2, shown
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, shown
    assert "Traceback" not in result.output, shown
    # serve's good args point at a busy port: reaching it means the bad value was ignored.
    assert "Address already in use" not in lines[0], shown


@pytest.mark.parametrize("command, param", parameters(), ids=lambda x: x)
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
@given(data=st.data())
def test_a_bad_value_is_refused_in_one_line(env: Env, command: str, param: str, data):
    value = data.draw(strategies(env)[(command, param)], label=f"{command} {param}")
    (cmd,) = [c for path, c in commands() if path == command]
    spec = next(p for p in cmd.params if p.name == param)
    args = [*command.split(), *good_args(env, command, param)]
    arguments = positional(env, command)
    if getattr(spec, "param_type_name", "") == "argument":
        names = [p.name for p in cmd.params if getattr(p, "param_type_name", "") == "argument"]
        arguments[names.index(param)] = value
    else:
        args.append(f"{spec.opts[0]}={value}")
    args += ["--", *arguments] if arguments else []
    assert_one_line_refusal(invoke(args), args)
