"""The one JSON entry file both pattern caches keep (sandbox/disk_cache.py's EntryFile): entries
added by several processes merge, a file past its size keeps only what was used, and a file that
cannot be read or a cache that is off is never an error."""

import json
import os
import subprocess
import sys
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


def test_by_default_a_file_keeps_up_to_5000_entries(tmp_path: Path) -> None:
    path = tmp_path / "entries.json"
    path.write_text(json.dumps({f"old{i}": i for i in range(4999)}))
    entries = EntryFile(lambda: path)
    entries.add("new", 1)
    entries.save()
    assert len(json.loads(path.read_text())) == 5000  # at the limit: nothing dropped
    again = EntryFile(lambda: path)
    again.add("newer", 2)
    again.save()
    assert json.loads(path.read_text()) == {"newer": 2}  # past it: only what this one used


def test_entries_added_in_a_process_are_written_when_it_exits(tmp_path: Path) -> None:
    path = tmp_path / "entries.json"
    script = (
        "import sys; from pathlib import Path; from sandbox.disk_cache import EntryFile; "
        "e = EntryFile(lambda: Path(sys.argv[1])); e.add('a', [1])"
    )
    subprocess.run([sys.executable, "-c", script, str(path)], check=True, cwd=Path.cwd())
    assert json.loads(path.read_text()) == {"a": [1]}


def test_a_process_forked_from_one_using_the_file_can_use_it(tmp_path: Path) -> None:
    path = tmp_path / "entries.json"
    path.write_text('{"a": 1}')
    entries = _entries(path)
    assert entries.lookup("a") == (True, 1)
    child = os.fork()
    if child == 0:  # the child: its lock is a fresh one
        ok = entries.lookup("a") == (True, 1)
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_process_that_added_nothing_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "entries.json"
    entries = _entries(path)
    assert entries.lookup("a") == (False, None)
    entries.save()
    assert not path.exists()
