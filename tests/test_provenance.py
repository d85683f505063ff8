"""The scorer version changes with every file of the scoring code and its data, and only then."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from opsbench import provenance
from opsbench.provenance import effective_base_url, hash_files, scoring_files, sdks_of

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def core(tmp_path: Path) -> list[Path]:
    roots = []
    for name in provenance.SCORING_PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        roots.append(tmp_path / name)
    return roots


def test_the_version_covers_the_scorer_rules_matchers_claims_diff_and_tools():
    names = {p.relative_to(ROOT).as_posix() for p in scoring_files(ROOT / "sandbox")}
    names |= {p.relative_to(ROOT).as_posix() for p in scoring_files(ROOT / "tools")}
    for module in ("scorer", "rules", "rules_money", "assertions", "claims/extract", "diff"):
        assert f"sandbox/{module}.py" in names
    assert {"sandbox/ledger.py", "sandbox/episode.py", "sandbox/claims/data/kinds.yaml"} <= names
    assert "tools/payments.py" in names
    assert provenance.scorer_version() == hash_files([ROOT / "sandbox", ROOT / "tools"])


@pytest.mark.parametrize(
    "path",
    [
        "sandbox/scorer.py",
        "sandbox/rules.py",
        "sandbox/assertions.py",
        "sandbox/claims/extract.py",
        "sandbox/claims/data/kinds.yaml",
        "sandbox/diff.py",
        "tools/payments.py",
    ],
)
def test_any_change_to_a_scoring_file_changes_the_version(core: list[Path], path: str):
    before = hash_files(core)
    target = core[0].parent / path
    target.write_text(target.read_text().replace("return", "return ", 1))
    assert hash_files(core) != before


@pytest.mark.parametrize("new", ["sandbox/effect_rules.py", "sandbox/lexicon/refund.yaml"])
def test_a_new_rule_module_or_lexicon_file_changes_the_version(core: list[Path], new: str):
    before = hash_files(core)
    path = core[0].parent / new
    path.parent.mkdir(exist_ok=True)
    path.write_text("x: 1\n")
    assert hash_files(core) != before


def test_a_renamed_file_changes_the_version(core: list[Path]):
    before = hash_files(core)
    (core[0] / "diff.py").rename(core[0] / "diff2.py")
    assert hash_files(core) != before


def test_bytecode_caches_do_not_change_the_version(core: list[Path]):
    before = hash_files(core)
    (core[0] / "__pycache__").mkdir()
    (core[0] / "__pycache__" / "scorer.cpython-311.pyc").write_bytes(b"\0")
    (core[0] / "stray.pyc").write_bytes(b"\0")
    assert hash_files(core) == before


@pytest.mark.parametrize(
    ("model", "flag", "env", "expected"),
    [
        ("openai/gpt-4.1", None, {"OPENAI_BASE_URL": "http://a/v1"}, "http://a/v1"),
        ("openai/gpt-4.1", "http://flag/v1", {"OPENAI_BASE_URL": "http://a/v1"}, "http://flag/v1"),
        ("openai/gpt-4.1", None, {}, None),
        ("openai/gpt-4.1", None, {"ANTHROPIC_BASE_URL": "http://b"}, None),
        ("anthropic/claude-x", None, {"ANTHROPIC_BASE_URL": "http://b"}, "http://b"),
        ("anthropic/claude-x", None, {"OPENAI_BASE_URL": "http://a/v1"}, None),
        ("litellm/openai/m", None, {"OPENAI_BASE_URL": "http://a/v1"}, "http://a/v1"),
        ("litellm/groq/m", None, {"OPENAI_BASE_URL": "http://a/v1"}, None),
        ("reference/oracle", None, {"OPENAI_BASE_URL": "http://a/v1"}, None),
        ("python:pkg.mod:make", "http://flag/v1", {}, "http://flag/v1"),
    ],
)
def test_the_effective_base_url_is_the_flag_else_the_providers_variable(
    monkeypatch, model, flag, env, expected
):
    for name in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert effective_base_url(model, flag) == expected


def test_sdks_are_those_the_model_goes_through():
    assert sdks_of("openai/x") == ("openai",)
    assert sdks_of("anthropic/x") == ("anthropic",)
    assert sdks_of("litellm/openai/x") == ("litellm", "openai")
    assert sdks_of("litellm/groq/x") == ("litellm",)
    assert sdks_of("reference/oracle") == () and sdks_of("python:a.b:c") == ()
