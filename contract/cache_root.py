"""The root folder of OpsBench's caches and the one way a cache file is written.

``$OPSBENCH_CACHE_DIR`` if set (``off``, ``0``, ``none`` or empty turns every cache off), else
``$XDG_CACHE_HOME/opsbench`` or ``~/.cache/opsbench``; each cache has its own folder under it
(:mod:`sandbox.disk_cache` says what keeps files there). It lives in the contract layer so that
the YAML data cache of :mod:`contract.yamldata` can use it too.
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
