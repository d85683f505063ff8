"""The one JSON entry file both pattern caches keep (sandbox/disk_cache.py's EntryFile): entries
added by several processes merge, a file past its size keeps only what was used, and a file that
cannot be read or a cache that is off is never an error."""

from pathlib import Path

from sandbox.disk_cache import EntryFile


def _entries(path: Path | None, max_entries: int = 5000) -> EntryFile:
    return EntryFile(lambda: path, max_entries)


def test_entries_added_by_two_processes_are_both_kept(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "entries.json"
    first, second = _entries(path), _entries(path)
    assert first.lookup("a") == (False, None)
    assert second.lookup("b") == (False, None)  # both read the file before either wrote
    first.add("a", ["one"])
    second.add("b", None)
    first.save()
    second.save()
    later = _entries(path)
    assert later.lookup("a") == (True, ["one"])
    assert later.lookup("b") == (True, None)  # a stored None is found, not missing
    assert later.new == {}


def test_saving_twice_writes_nothing_new(tmp_path: Path) -> None:
    path = tmp_path / "entries.json"
    entries = _entries(path)
    entries.add("a", "x")
    entries.save()
    path.write_text('{"other": 1}')
    entries.save()  # nothing added since: the file is left as it is
    assert path.read_text() == '{"other": 1}'


def test_a_full_file_keeps_only_the_entries_this_process_used(tmp_path: Path) -> None:
    path = tmp_path / "entries.json"
    path.write_text('{"old": 1, "kept": 2, "stale": 3}')
    entries = _entries(path, max_entries=3)
    assert entries.lookup("kept") == (True, 2)
    entries.add("fresh", 4)  # 3 on file + 1 new is past 3
    entries.save()
    assert _entries(path).lookup("old") == (False, None)
    again = _entries(path)
    assert [again.lookup(k) for k in ("kept", "fresh", "stale")] == [
        (True, 2),
        (True, 4),
        (False, None),
    ]


def test_an_unreadable_or_foreign_file_reads_as_empty(tmp_path: Path) -> None:
    path = tmp_path / "entries.json"
    for content in (b"\xff\xfe not json", b"[1, 2]", b""):
        path.write_bytes(content)
        assert _entries(path).lookup("a") == (False, None)
    entries = _entries(path)
    entries.add("a", 1)
    entries.save()  # and the file is whole again
    assert _entries(path).lookup("a") == (True, 1)


def test_a_cache_that_is_off_keeps_nothing(tmp_path: Path) -> None:
    entries = _entries(None)
    entries.add("a", 1)
    assert entries.lookup("a") == (False, None)
    assert entries.new == {}
    entries.save()
    assert list(tmp_path.iterdir()) == []


def test_forget_starts_again_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "entries.json"
    entries = _entries(path)
    entries.add("a", 1)
    entries.forget()  # not saved: as a process that exited without writing
    assert entries.lookup("a") == (False, None)
