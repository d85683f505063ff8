"""Integration tests run offline: the adapter suite's loopback-only guard and credential scrub
apply here too (an agent framework that phones home fails its test), plus shared helpers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.adapters.conftest import (  # noqa: F401  (fixtures, re-exported for this folder)
    local_server,
    loopback_only,
    no_provider_credentials,
    retry,
    server,
    sleeps,
)

TESTS = Path(__file__).resolve().parents[1]


def _inside_tests(path: str) -> bool:
    try:
        return Path(path or ".").resolve().is_relative_to(TESTS)
    except OSError:
        return False


@pytest.fixture(autouse=True)
def real_framework_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    """The frameworks' own packages, not test modules of the same name.

    pytest's default import mode puts each test folder on ``sys.path``, so a test module such
    as ``tests/app/agents.py`` would shadow the OpenAI Agents SDK's top-level ``agents``
    package when an example imports it. The repository root stays on the path (tests import
    ``tests.…``), the test folders are taken off it for these tests.
    """
    monkeypatch.setattr(sys, "path", [p for p in sys.path if not _inside_tests(p)])
    for name, module in list(sys.modules.items()):
        origin = getattr(module, "__file__", None)
        if "." not in name and origin and _inside_tests(origin) and name != "conftest":
            monkeypatch.delitem(sys.modules, name)
