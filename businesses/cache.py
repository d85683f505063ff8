"""A compiled cache of loaded businesses, keyed by the content of their files.

Loading a business (strict YAML, schema checks, building the task objects) costs far more
than unpickling what it built. The cache file for a business is named by a hash of
everything the result depends on: the bytes of its ``business.yaml`` and ``tasks.yaml``, and
the source of the code that parses, checks and builds them (this package, ``sandbox``,
``tools``, the schemas). Change any of them and the name changes, so a stale entry is never
read; it is simply never looked up again.

Where: the ``businesses`` folder of :func:`sandbox.disk_cache.cache_folder`
(``$OPSBENCH_CACHE_DIR/businesses``, ``off`` turning it off, else
``~/.cache/opsbench/businesses``). A cache that cannot be read or written is skipped silently:
it is an accelerator, never a source of errors. Only loads that succeed are cached; a broken
business is checked again every time, so its errors stay the loader's.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import pickle
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from sandbox.disk_cache import cache_folder, write_atomically

# Bump when the file format changes in a way the code fingerprint would not catch.
FORMAT = b"opsbench-business-cache-1"
_PACKAGES = ("businesses", "sandbox", "tools", "contract")
_ROOT = Path(__file__).resolve().parent.parent


def cache_dir() -> Path | None:
    """Where compiled businesses are kept, or None when the cache is off."""
    return cache_folder("businesses")


@cache
def code_fingerprint() -> bytes:
    """A hash of the source and schemas that turn files into objects (once per process)."""
    digest = hashlib.sha256(FORMAT)
    for package in _PACKAGES:
        folder = _ROOT / package
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(_ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.digest()


def key(files: list[tuple[str, bytes]]) -> str:
    """The cache name for a business built from ``files`` (name, bytes) by this code."""
    digest = hashlib.sha256(code_fingerprint())
    for name, data in files:
        digest.update(name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def read(name: str) -> Any | None:
    """The object cached under ``name``, or None (absent, unreadable, or the cache is off)."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        data = (folder / f"{name}.pickle").read_bytes()
        with _collector_paused():
            return pickle.loads(data)
    except Exception:  # a missing, truncated or foreign file: load from the YAML instead
        return None


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    # Unpickling a business allocates tens of thousands of containers and no garbage; with
    # the collector on, each allocation burst triggers collections that walk every object
    # loaded so far, so a set of hundreds of businesses loaded in a row costs a third more.
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def write(name: str, value: Any) -> None:
    """Keep ``value`` under ``name``, atomically (a reader never sees half a file)."""
    folder = cache_dir()
    if folder is None:
        return
    with contextlib.suppress(pickle.PicklingError, TypeError, AttributeError):
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        write_atomically(folder / f"{name}.pickle", data)


__all__ = ["cache_dir", "code_fingerprint", "key", "read", "write"]
