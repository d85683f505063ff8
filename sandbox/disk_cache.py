"""Where OpsBench keeps what it can rebuild, and how it writes there.

Three accelerators keep files here: compiled businesses (:mod:`businesses.cache`), the
analysis of the claim checker's patterns (:mod:`sandbox.claims.pattern_cache`) and the code
regular expressions compile to (:mod:`sandbox.regex_cache`). Each has its
own folder under one root: ``$OPSBENCH_CACHE_DIR`` if set (``off`` turns every cache off),
else ``$XDG_CACHE_HOME/opsbench`` or ``~/.cache/opsbench``. Nothing is written in the
repository. Every entry is named by a hash of what it was built from, so a stale entry is
never read, and a cache that cannot be read or written is skipped: a cache is never a source
of errors or of different results.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def cache_folder(kind: str) -> Path | None:
    """The folder of the cache named ``kind``, or None when caching is off."""
    configured = os.environ.get("OPSBENCH_CACHE_DIR")
    if configured is not None:
        if configured.strip().lower() in ("", "off", "0", "none"):
            return None
        return Path(configured) / kind
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "opsbench" / kind


def write_atomically(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one, never half
    of one. Returns False (and leaves no temporary file) when the folder is not writable."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", delete=False) as out:
            temporary = Path(out.name)
        try:
            temporary.write_bytes(data)
            os.replace(temporary, path)
            return True
        finally:
            temporary.unlink(missing_ok=True)
    return False


__all__ = ["cache_folder", "write_atomically"]
