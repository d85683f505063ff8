"""contract.yamldata keeps each parse in the cache: the same objects as PyYAML's, fresh on
every call, read back from the cache, and a broken entry or a cache turned off changes
nothing but the speed."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
import yaml

from contract import yamldata
from contract.yamldata import load_data

TEXT = """
dates: [2026-03-02, 2026-03-02 09:30:00]
numbers: [1, -2, 3.5, 1e3, 0x1F, .inf]
flags: [yes, no, ~]
anchor: &a {x: 1, y: [1, 2]}
alias: *a
merged: {<<: *a, z: 3}
unicode: "Zoë — naïve ☎"
"""


def _parsed(text: str) -> object:
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", str(tmp_path))
    return tmp_path / "data"


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle")) if folder.exists() else []


def test_a_parse_is_kept_and_read_back_equal_and_fresh(cache_dir: Path) -> None:
    first = load_data(TEXT)
    assert first == _parsed(TEXT)
    assert len(_entries(cache_dir)) == 1
    second = load_data(TEXT)
    assert second == first and second is not first
    # Shared nodes (the anchor and its alias) stay shared, as PyYAML builds them.
    assert second["alias"] is second["anchor"]
    assert len(_entries(cache_dir)) == 1


def test_the_kept_entry_is_what_is_read(cache_dir: Path) -> None:
    load_data(TEXT)
    (entry,) = _entries(cache_dir)
    entry.write_bytes(pickle.dumps({"read": "from the cache"}))
    assert load_data(TEXT) == {"read": "from the cache"}
    assert load_data(TEXT + "\n# another text\n") == _parsed(TEXT)


def test_a_broken_entry_is_parsed_again_and_replaced(cache_dir: Path) -> None:
    load_data(TEXT)
    (entry,) = _entries(cache_dir)
    entry.write_bytes(b"not a pickle")
    assert load_data(TEXT) == _parsed(TEXT)
    assert pickle.loads(entry.read_bytes()) == _parsed(TEXT)


def test_no_entry_when_the_cache_is_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert load_data(TEXT) == _parsed(TEXT)
    assert list(tmp_path.rglob("*.pickle")) == []


def test_the_loader_is_libyamls_where_pyyaml_has_it() -> None:
    assert yamldata.DATA_LOADER is getattr(yaml, "CSafeLoader", yaml.SafeLoader)
