"""Where OpsBench keeps what it can rebuild, and how it writes there.

Four accelerators keep files here: compiled businesses (:mod:`businesses.cache`), the
analysis of the claim checker's patterns (:mod:`sandbox.claims.pattern_cache`), the code
regular expressions compile to (:mod:`sandbox.regex_cache`) and parsed YAML data files
(:mod:`contract.yamldata`). Each has its own folder under one root: ``$OPSBENCH_CACHE_DIR`` if set (``off`` turns every cache off),
else ``$XDG_CACHE_HOME/opsbench`` or ``~/.cache/opsbench``. Nothing is written in the
repository. Every entry is named by a hash of what it was built from, so a stale entry is
never read, and a cache that cannot be read or written is skipped: a cache is never a source
of errors or of different results.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

# The cache root and the atomic write live in the contract layer, which the YAML data cache
# (:mod:`contract.yamldata`) uses too and which cannot import this package.
from contract.cache_root import cache_folder, write_atomically


class EntryFile:
    """A dictionary of JSON entries kept in one file and shared by every process.

    The file is read on first use; entries added in this process are written once, at exit,
    merged with what other processes wrote meanwhile. Past ``max_entries`` the file is rewritten
    with the entries this process used or added only, so entries nobody asks for any more do not
    pile up. ``locate`` names the file (None when caching is off); it is asked once. An unreadable
    or foreign file reads as empty and an unwritable folder is skipped.
    """

    def __init__(self, locate: Callable[[], Path | None], max_entries: int = 5000) -> None:
        self._locate = cache(locate)
        self._max_entries = max_entries
        self._lock = threading.Lock()
        self._known: dict[str, Any] = {}
        self.new: dict[str, Any] = {}  # added in this process, not yet saved
        self._used: set[str] = set()
        self._loaded = False
        self._registered = False
        # A process forked while another thread held the lock would wait on it for ever.
        os.register_at_fork(after_in_child=self._new_lock)

    def _new_lock(self) -> None:
        self._lock = threading.Lock()

    @property
    def path(self) -> Path | None:
        """The file, or None when caching is off."""
        return self._locate()

    def lookup(self, key: str) -> tuple[bool, Any]:
        """(True, the entry) when some process added ``key``, else (False, None)."""
        path = self.path
        if path is None:
            return False, None
        with self._lock:
            if not self._loaded:
                self._known.update(_read_json(path))
                self._loaded = True
            self._used.add(key)
            if key in self._known:
                return True, self._known[key]
        return False, None

    def add(self, key: str, value: Any) -> None:
        """Keep ``value`` (JSON) under ``key``, for this process now and for later ones."""
        if self.path is None:
            return
        with self._lock:
            self._known[key] = self.new[key] = value
            if not self._registered:
                atexit.register(self.save)
                self._registered = True

    def save(self) -> None:
        """Write the entries added in this process (run at exit; harmless to call twice)."""
        path = self.path
        with self._lock:
            if path is None or not self.new:
                return
            merged = _read_json(path)
            if len(merged) + len(self.new) > self._max_entries:
                merged = {k: v for k, v in merged.items() if k in self._used}
            merged.update(self.new)
            self.new.clear()
        write_atomically(path, json.dumps(merged, sort_keys=True).encode())

    def forget(self) -> None:
        """Drop what this process read, added and located (for tests that move the cache)."""
        with self._lock:
            self._locate.cache_clear()
            self._known.clear()
            self.new.clear()
            self._used.clear()
            self._loaded = False


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


__all__ = ["EntryFile", "cache_folder", "write_atomically"]
