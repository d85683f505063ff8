"""Reading a business or task file's bytes, bounded, without parsing them.

Apart from :mod:`businesses.yamlfile` so that a load the compiled cache answers
(:mod:`businesses.cache`) does not import PyYAML: it only needs the bytes for the cache key.
"""

from __future__ import annotations

from pathlib import Path

MAX_FILE_BYTES = 8 * 1024 * 1024


def read_small_file(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a regular file within :data:`MAX_FILE_BYTES`, else None
    (:func:`businesses.yamlfile.read_yaml` then names the problem)."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        return path.read_bytes()
    except OSError:
        return None
