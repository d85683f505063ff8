"""-M options are redacted at any depth before they reach the store, a report or the run log:
by key name (Authorization, api_key, access_token) and by value shape (bearer tokens, sk- keys),
and URL-looking values lose their password and query."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from opsbench.cli import app
from opsbench.runner import REDACTED, RunConfig, redact_options
from opsbench.store import Store
from tests.app.conftest import MINI_SET

NESTED = "sk-NESTED-999"


def test_nested_options_are_redacted_by_key_name_and_by_value_shape():
    options = {
        "headers": {"Authorization": f"Bearer {NESTED}", "X-Api-Key": "abc", "X-Tenant": "t1"},
        "extra": [{"access_token": "tok-1"}, "Bearer opaque.token.value", "see sk-abcdef123"],
        "proxy": "https://user:pw@proxy.example:8443/v1?sig=abc",
        "temperature": 0,
        "max_tokens": 500,
    }
    assert redact_options(options) == {
        "headers": {"Authorization": REDACTED, "X-Api-Key": REDACTED, "X-Tenant": "t1"},
        "extra": [{"access_token": REDACTED}, REDACTED, f"see {REDACTED}"],
        "proxy": "https://proxy.example:8443/v1",
        "temperature": 0,
        "max_tokens": 500,
    }


def test_an_option_holding_a_redacted_secret_is_not_replayed():
    config = RunConfig(options={"headers": {"Authorization": "Bearer x"}, "temperature": 0})
    assert dict(RunConfig.from_dict(config.to_dict()).options) == {"temperature": 0}


def test_a_nested_bearer_token_reaches_neither_the_store_nor_the_run_log(tmp_path: Path):
    db = tmp_path / "o.db"
    header = json.dumps({"Authorization": f"Bearer {NESTED}", "X-Trace": "Bearer sk-TRACE-42"})
    result = CliRunner().invoke(
        app,
        [
            *("run", "-m", "testagent/Tunable", "--set", MINI_SET, "--limit", "1"),
            *("-M", f"headers={header}", "--store", str(db), "-q", "--json"),
        ],
    )
    assert result.exit_code == 0, result.output
    run_id = json.loads(result.stdout)["run"]["id"]
    assert NESTED not in result.output and "sk-TRACE-42" not in result.output
    with Store(db, create=False) as store:
        options = store.run(run_id).config["options"]
    assert options == {"headers": {"Authorization": REDACTED, "X-Trace": REDACTED}}
    assert not any(NESTED.encode() in f.read_bytes() for f in tmp_path.glob("o.db*"))
    log = (tmp_path / "logs" / f"{run_id}.log").read_text()
    assert REDACTED in log and NESTED not in log and "sk-TRACE-42" not in log


# -- the planted keys: every way text leaves the process -------------------------------------

PLANTED = "sk-planted-0p5b3nch-d0-n0t-l34k-7f3a9c"  # the providers' own variables
URL_KEY = "sk-url-key-for-that-server-only-5e1d"  # OPSBENCH_BASE_URL_KEY
PASSWORD = "Pl4nted-URL-passw0rd"


@pytest.fixture(scope="module")
def server():
    server_module = pytest.importorskip("adapters.server")
    with server_module.LocalServer(server_module.EchoAssistant()) as running:
        yield running


def _invoke(*args: str, env: dict[str, str]):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **env})


def test_planted_keys_and_url_passwords_appear_nowhere(server, tmp_path: Path):
    """Four runs into one results directory, each down a path a secret could take out: a
    provider error quoting the key, a custom agent whose own SDK error quotes it (the crash
    path and its traceback), a failing judge, and a base URL with a password (sent as Basic
    credentials, and quoted back). None of it may reach the store, the run logs, the HTML,
    JSONL and JUnit files or the terminal."""
    from adapters.server import Fault

    env = {
        "OPENAI_API_KEY": PLANTED,
        "ANTHROPIC_API_KEY": PLANTED,
        "OPSBENCH_BASE_URL_KEY": URL_KEY,
    }
    results = tmp_path / "results"
    db = str(results / "opsbench.db")
    port = server.url.rsplit(":", 1)[1]
    with_password = f"http://opsuser:{PASSWORD}@127.0.0.1:{port}/v1"
    basic = base64.b64encode(f"opsuser:{PASSWORD}".encode()).decode()
    runs = {
        "provider": ("-m", "openai/local-test", "--base-url", server.openai_base_url),
        "custom": ("-m", "python:tests.app.agents:OwnSDKAgent", "--base-url", server.url + "/v1"),
        "judge": ("-m", "reference/oracle", "--judge", "openai/j", "--base-url", server.url),
        "password": ("-m", "openai/local-test", "--base-url", with_password),
    }
    outputs = []
    for name, args in runs.items():
        server.reset()
        # Refused keys are quoted back; a 429 and a 500 first, so the retry record has text.
        if name != "custom":  # the custom agent does its own retrying, or none
            server.inject(Fault.http(429, retry_after=0), Fault.http(500, retry_after=0))
        server.inject(Fault.http(401, times=50))
        result = _invoke(
            *("run", *args, "--set", MINI_SET, "--store", db, "--concurrency", "1"),
            *("--html", str(results / f"{name}.html"), "--junit", str(results / f"{name}.xml")),
            env=env,
        )
        assert result.exit_code == 1, result.output  # stopped by the 401, or crashed
        outputs.append(result)
        sent = " ".join(" ".join(r.headers.values()) for r in server.requests)
        # The secrets did reach the server (so their absence below means something) ...
        if name == "custom":
            assert PLANTED in sent  # the agent's own choice, with its own SDK
            assert "raised AuthenticationError" in result.stderr
        elif name == "password":
            assert basic in sent
        else:
            assert URL_KEY in sent
            # ... and the providers' own key never went to a --base-url through OpsBench.
            assert PLANTED not in sent
    with Store(db, create=False) as store:
        run_ids = store.run_ids()
        assert any(e.retries for r in run_ids for e in store.episodes(r))
    for run_id in run_ids:
        outputs.append(
            _invoke(
                "export",
                run_id,
                "--jsonl",
                "-o",
                str(results / f"{run_id}.jsonl"),
                "--store",
                db,
                env=env,
            )
        )
        outputs.append(_invoke("report", run_id, "--store", db, env=env))
        outputs.append(_invoke("report", run_id, "--store", db, "--json", env=env))
    files = [p for p in results.rglob("*") if p.is_file()]
    suffixes = {p.suffix for p in files}
    assert {".db", ".html", ".xml", ".jsonl", ".log"} <= suffixes
    assert len([p for p in files if p.suffix == ".log"]) == len(runs)
    secrets = (PLANTED, URL_KEY, PASSWORD, basic)
    for path in files:
        data = path.read_bytes()
        for secret in secrets:
            assert secret.encode() not in data, f"{secret} leaked into {path}"
    for result in outputs:
        for secret in secrets:
            assert secret not in result.output, f"{secret} leaked to the terminal"
    logs = " ".join(p.read_text() for p in files if p.suffix == ".log")
    assert "Traceback" in logs and "AuthenticationError" in logs  # the crash path was taken
    assert "Incorrect API key provided: Bearer [redacted]" in logs


def test_an_uncaught_traceback_and_unhandled_log_records_are_redacted_too():
    import os
    import subprocess
    import sys

    script = (
        "import logging; from opsbench.cli import _redact_last_words; _redact_last_words(); "
        f"logging.getLogger('somewhere').error('key %s', {PLANTED!r}); "
        f"raise RuntimeError('Incorrect API key provided: {PLANTED}')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "OPENAI_API_KEY": PLANTED},
        timeout=120,
    )
    assert done.returncode == 1
    assert "RuntimeError: Incorrect API key provided: [redacted]" in done.stderr
    assert "key [redacted]" in done.stderr and PLANTED not in done.stderr
