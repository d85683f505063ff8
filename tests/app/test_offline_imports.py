"""The offline path imports only what it runs: no provider SDK, HTTP client or schema validator.

Time to first episode is mostly import time, and a heavy module creeps back in with one
top-level import anywhere below the runner. These checks run the real path in a fresh
interpreter (with a warm business cache, as a second run has) and read ``sys.modules``: they
fail on the import itself, whatever the machine's speed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Never needed without a model: provider SDKs and their HTTP stacks, MCP, Ray.
SDKS = ("openai", "anthropic", "litellm", "httpx", "httpcore", "mcp", "ray")
# Needed only to validate a business that is not in the compiled cache yet.
VALIDATION = ("jsonschema", "referencing")

_EPISODE = """
import asyncio, json, sys
from adapters.reference import reference_factory
from businesses import PUBLIC_DIR, initial_tables, load_set
from callers import scripted_caller_factory
from sandbox.episode import run_episode
from sandbox.scorer import score_episode

_, tasks = load_set(PUBLIC_DIR)
task = tasks[0]
result = asyncio.run(
    run_episode(task, initial_tables(task), reference_factory("oracle"), scripted_caller_factory)
)
assert score_episode(task, result) is not None
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""

_RUN = """
import json, sys
from opsbench.cli import main

sys.argv = ["opsbench", "run", "--limit", "2", "--workers", "1", "--quiet", "--json",
            "--store", sys.argv[1]]
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})), file=sys.stderr)
"""


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose business cache holds the public set (loaded once, cold)."""
    env = {**os.environ, "OPSBENCH_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    warm = "from businesses import PUBLIC_DIR, load_set; load_set(PUBLIC_DIR)"
    subprocess.run([sys.executable, "-c", warm], env=env, check=True)
    return env


def _imported(code: str, env: dict[str, str], *args: str, stream: str = "stdout") -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-2000:]
    text = getattr(out, stream).strip().splitlines()[-1]
    return set(json.loads(text))


def test_first_episode_imports_no_sdk_validator_or_cli(warm_cache: dict[str, str]) -> None:
    modules = _imported(_EPISODE, warm_cache)
    # The package names the check relies on are the ones Python records.
    assert {"sandbox", "businesses", "callers", "adapters", "asyncio"} <= modules
    heavy = (*SDKS, *VALIDATION, "typer", "click", "rich", "pydantic", "tenacity")
    assert sorted(modules & set(heavy)) == []


def test_offline_run_command_imports_no_sdk_or_validator(
    warm_cache: dict[str, str], tmp_path: Path
) -> None:
    modules = _imported(_RUN, warm_cache, str(tmp_path / "r.db"), stream="stderr")
    assert {"opsbench", "sandbox", "typer"} <= modules
    assert sorted(modules & {*SDKS, *VALIDATION}) == []


def test_a_second_first_episode_parses_no_yaml(warm_cache: dict[str, str]) -> None:
    """The data files' parses are kept (contract.yamldata): once one episode has run, the next
    process reads them without importing PyYAML."""
    _imported(_EPISODE, warm_cache)
    modules = _imported(_EPISODE, warm_cache)
    assert "yaml" not in modules


def test_a_warm_cache_is_what_keeps_the_validator_out(tmp_path: Path) -> None:
    """The control: loading with the cache off validates and parses, so the checks above can
    fail."""
    env = {**os.environ, "OPSBENCH_CACHE_DIR": "off"}
    modules = _imported(_EPISODE, env)
    assert "jsonschema" in modules
    assert "yaml" in modules
