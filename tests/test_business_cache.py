"""The compiled business cache: a hit gives the very objects a fresh load builds, any change
to a file misses, and a broken or unusable cache never changes what loads."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from businesses import PUBLIC_DIR, LoadError, load_business, load_set
from businesses import loader as loader_module

SOURCE = sorted(p for p in Path(PUBLIC_DIR).iterdir() if (p / "business.yaml").exists())[0]


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "businesses"


def _fresh(directory: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    with monkeypatch.context() as m:
        m.setenv("OPSBENCH_CACHE_DIR", "off")
        return load_business(directory)


def _no_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("parsed the YAML although the cache holds it")

    monkeypatch.setattr(loader_module, "_load_business", refuse)


def test_a_cache_hit_gives_identical_objects(cache_dir: Path, monkeypatch: pytest.MonkeyPatch):
    expected = _fresh(SOURCE, monkeypatch)
    assert not cache_dir.exists()
    first = load_business(SOURCE)  # a miss: loads and writes
    assert len(list(cache_dir.glob("*.pickle"))) == 1
    _no_loading(monkeypatch)
    hit = load_business(SOURCE)
    assert hit == expected == first
    assert pickle.dumps(hit) == pickle.dumps(expected)
    business, tasks = hit
    assert [t.version() for t in tasks] == [t.version() for t in expected[1]]
    assert all(t.business == business for t in tasks)


def test_the_whole_public_set_hits(cache_dir: Path, monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as m:
        m.setenv("OPSBENCH_CACHE_DIR", "off")
        expected = load_set(PUBLIC_DIR)
    load_set(PUBLIC_DIR)
    _no_loading(monkeypatch)
    assert load_set(PUBLIC_DIR) == expected


def test_a_changed_file_misses(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    copy = tmp_path / SOURCE.name
    shutil.copytree(SOURCE, copy)
    _, before = load_business(copy)
    tasks_file = copy / "tasks.yaml"
    text = tasks_file.read_text("utf-8")
    title = before[0].title
    assert text.count(title) >= 1
    tasks_file.write_text(text.replace(title, title + " (edited)", 1), "utf-8")
    _, after = load_business(copy)
    assert after[0].title == title + " (edited)"
    assert after == _fresh(copy, monkeypatch)[1]
    assert len(list(cache_dir.glob("*.pickle"))) == 2


def test_a_moved_folder_misses(cache_dir: Path, tmp_path: Path):
    # Tasks name their source file: a copy elsewhere must not get the original's paths.
    one, two = tmp_path / "one" / SOURCE.name, tmp_path / "two" / SOURCE.name
    shutil.copytree(SOURCE, one)
    shutil.copytree(SOURCE, two)
    assert load_business(one)[1][0].source != load_business(two)[1][0].source


def test_a_corrupt_entry_is_ignored(cache_dir: Path, monkeypatch: pytest.MonkeyPatch):
    expected = load_business(SOURCE)
    [entry] = cache_dir.glob("*.pickle")
    entry.write_bytes(entry.read_bytes()[:100])
    assert load_business(SOURCE) == expected == _fresh(SOURCE, monkeypatch)


def test_a_broken_business_is_never_cached(cache_dir: Path, tmp_path: Path):
    copy = tmp_path / SOURCE.name
    shutil.copytree(SOURCE, copy)
    (copy / "tasks.yaml").write_text("business: nobody\ntasks: []\n", "utf-8")
    for _ in range(2):
        with pytest.raises(LoadError):
            load_business(copy)
    assert not list(cache_dir.glob("*.pickle"))


def test_an_unwritable_cache_still_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", "utf-8")
    monkeypatch.setenv("OPSBENCH_CACHE_DIR", str(blocker / "cache"))
    assert load_business(SOURCE) == _fresh(SOURCE, monkeypatch)
