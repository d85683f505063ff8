"""What was worked out about each lexicon pattern, kept on disk between processes.

Before a pattern is compiled, :mod:`.guard` rewrites its alternatives and works out the
characters a match can start with, and :mod:`.prefilter` works out the literals every match
contains. Each of these parses the pattern again with ``re``'s pure-Python parser, and together
they cost more than compiling it: about 0.8 s of CPU for the whole lexicon, a third of a fresh
process's first episode. Their results depend only on the pattern, its flags, the code of those
two modules and the Python version, so they are kept in one JSON file per such code: the
first process works them out, later ones read them.

The file's name hashes the code and the Python version, and each entry's key hashes the
analysis, the flags and the pattern, so a stale entry is never read. An unreadable, corrupt or
foreign file is ignored and an unwritable folder skipped: every value is exactly what working
it out again gives (``tests/test_claims_pattern_cache.py``). New entries are written once, when
the process exits, merged with what other processes wrote meanwhile.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar, cast

from sandbox.disk_cache import EntryFile, cache_folder

# A value JSON keeps as it is: a string, a list of strings or None.
Value = TypeVar("Value")
# Bump when the meaning or shape of an entry changes in a way the code hash would not catch.
_FORMAT = b"opsbench-pattern-analysis-1"
_HERE = Path(__file__).resolve().parent


def _file() -> Path | None:
    folder = cache_folder("claims")
    if folder is None:
        return None
    digest = hashlib.sha256(_FORMAT + sys.version.encode())
    for name in ("guard.py", "prefilter.py", "pattern_cache.py"):
        digest.update((_HERE / name).read_bytes())
    return folder / f"patterns-{digest.hexdigest()[:24]}.json"


ENTRIES = EntryFile(_file)


def _key(analysis: str, pattern: str, flags: int) -> str:
    raw = f"{analysis}\0{flags}\0{pattern}".encode("utf-8", "surrogatepass")
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def remembered(analysis: str, pattern: str, flags: int, work_out: Callable[[], Value]) -> Value:
    """The result of ``work_out()`` (a JSON string, list of strings or None), the analysis named
    ``analysis`` of ``pattern`` under ``flags``: read from the cache when an earlier process
    worked it out, else worked out now and kept for the next one."""
    if ENTRIES.path is None:
        return work_out()
    key = _key(analysis, pattern, flags)
    found, known = ENTRIES.lookup(key)
    if found:
        return cast(Value, known)
    value = work_out()
    ENTRIES.add(key, value)
    return value


def save() -> None:
    """Write the entries worked out in this process (run at exit; harmless to call twice)."""
    ENTRIES.save()


__all__ = ["ENTRIES", "remembered", "save"]
