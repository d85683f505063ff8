"""-M options are redacted at any depth before they reach the store, a report or the run log:
by key name (Authorization, api_key, access_token) and by value shape (bearer tokens, sk- keys),
and URL-looking values lose their password and query."""

from __future__ import annotations

import json
from pathlib import Path

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
