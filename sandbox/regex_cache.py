"""Regular expressions compiled once per machine, not once per process.

``re.compile`` parses a pattern and generates its matcher code in pure Python; for the claim
checker's long lexicon patterns that is most of a fresh process's first episode (about 0.08 s
of CPU for the 47 patterns it uses). The generated code depends only on the pattern, its flags
and the interpreter's ``re`` module, so it is kept in one JSON file per interpreter under the
``regex`` folder of :func:`sandbox.disk_cache.cache_folder`, and later processes hand it
straight to the matcher engine (``_sre.compile``, what ``re.compile`` itself ends with).

The file's name hashes the Python version, the engine's magic number and the source of
``re``'s parser and compiler and of this module, so code from another interpreter is never
read. An entry is written only after the pattern it builds was compared equal to
``re.compile``'s (same pattern, flags and code) with the same groups; an entry the engine
rejects, an unreadable or foreign file and an unwritable folder are ignored, and the pattern
is compiled as usual (``tests/test_regex_cache.py``). New entries are written once, at exit,
merged with what other processes wrote meanwhile.
"""

from __future__ import annotations

import base64
import hashlib
import re
import sys
from array import array
from collections.abc import Callable
from pathlib import Path
from re import _compiler, _parser  # type: ignore[attr-defined]
from typing import Any

from sandbox.disk_cache import EntryFile, cache_folder

# Bump when the shape of an entry changes in a way the hashed sources would not catch.
_FORMAT = b"opsbench-regex-code-1"
# The engine's constructor: (pattern, flags, code, groups, groupindex, indexgroup).
_BUILD: Callable[..., re.Pattern[str]] = _compiler._sre.compile
# Code words are kept as the bytes of an array of the engine's word size (a JSON list of
# thousands of integers per pattern would cost more to read than the compiling it saves).
_WORD = next((t for t in "IL" if array(t).itemsize == _compiler._sre.CODESIZE), None)


def _file() -> Path | None:
    folder = cache_folder("regex")
    if folder is None:
        return None
    digest = hashlib.sha256(_FORMAT + sys.version.encode())
    engine = _compiler._sre
    digest.update(f"{engine.MAGIC} {engine.CODESIZE} {engine.MAXREPEAT}".encode())
    for source in (_parser.__file__, _compiler.__file__, __file__):
        digest.update(Path(source).read_bytes())
    return folder / f"code-{digest.hexdigest()[:24]}.json"


ENTRIES = EntryFile(_file)


def _key(pattern: str, flags: int) -> str:
    raw = f"{flags}\0{pattern}".encode("utf-8", "surrogatepass")
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def _work_out(pattern: str, flags: int) -> list[Any]:
    """What ``re._compiler.compile`` hands the engine: final flags, code, groups, names."""
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    state = parsed.state
    assert _WORD is not None
    words = base64.b64encode(array(_WORD, code).tobytes()).decode("ascii")
    return [flags | state.flags, words, state.groups - 1, sorted(state.groupdict.items())]


def _build(pattern: str, entry: list[Any]) -> re.Pattern[str]:
    assert _WORD is not None
    final_flags, words, groups, names = entry
    code = array(_WORD, base64.b64decode(words)).tolist()
    groupindex = {str(name): int(index) for name, index in names}
    indexgroup: list[str | None] = [None] * (groups + 1)
    for name, index in groupindex.items():
        indexgroup[index] = name
    return _BUILD(pattern, final_flags, code, groups, groupindex, tuple(indexgroup))


def compile_cached(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, its code read from the cache when an earlier process
    generated it, else generated now (checked against ``re.compile``) and kept for the next."""
    if ENTRIES.path is None or _WORD is None or flags & re.DEBUG:
        return re.compile(pattern, flags)
    key = _key(pattern, flags)
    found, entry = ENTRIES.lookup(key)
    if found:
        try:
            return _build(pattern, entry)
        except Exception:  # a broken or foreign entry: compile as usual, and replace it
            pass
    compiled = re.compile(pattern, flags)
    try:
        entry = _work_out(pattern, flags)
        faithful = (built := _build(pattern, entry)) == compiled
        faithful = faithful and (built.groups, built.groupindex) == (
            compiled.groups,
            compiled.groupindex,
        )
    except Exception:  # an interpreter whose re works otherwise: no entry, same pattern
        return compiled
    if faithful:
        ENTRIES.add(key, entry)
    return compiled


def save() -> None:
    """Write the entries generated in this process (run at exit; harmless to call twice)."""
    ENTRIES.save()


__all__ = ["ENTRIES", "compile_cached", "save"]
