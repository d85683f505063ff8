"""Packaged YAML data (lexicons, plans, templates) parsed with libyaml where PyYAML has it.

``yaml.safe_load`` always uses the pure-Python parser, several times slower than libyaml's;
the data files load on every start, so this is start-up time. Both parsers construct with
the same safe constructor and give the same objects (``tests/test_yaml_loader.py``).

Even with libyaml, the data a first episode reads costs ≈ 0.05 s of CPU to parse and as much
again to import PyYAML. So each parse is kept: the objects, pickled, in the ``data`` folder of
OpsBench's cache root (the root :mod:`sandbox.disk_cache` describes: ``$OPSBENCH_CACHE_DIR``,
``off`` turning it off, else ``$XDG_CACHE_HOME/opsbench`` or ``~/.cache/opsbench``; this layer
cannot import ``sandbox``), named by a hash of the text and of the installed PyYAML. A text
parsed before is unpickled, which gives equal, fresh objects; PyYAML is imported only to parse
a text not yet kept. A cache entry that cannot be read is parsed again; one that cannot be
written is skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

# Bump when the file format changes in a way the hashed inputs would not catch.
_FORMAT = b"opsbench-yaml-data-1"


@cache
def _loader() -> type[yaml.SafeLoader]:
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def __getattr__(name: str) -> Any:
    # DATA_LOADER is looked up on use, so importing this module does not import PyYAML.
    if name == "DATA_LOADER":
        return _loader()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _folder() -> str | None:
    configured = os.environ.get("OPSBENCH_CACHE_DIR")
    if configured is not None:
        if configured.strip().lower() in ("", "off", "0", "none"):
            return None
        return os.path.join(configured, "data")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "opsbench", "data")


@cache
def _pyyaml_fingerprint() -> bytes:
    """The source of PyYAML's package module (its version is in it), read without importing
    it; empty when it cannot be found (then nothing is cached)."""
    from importlib.util import find_spec

    try:
        spec = find_spec("yaml")
        if spec is None or spec.origin is None:
            return b""
        with open(spec.origin, "rb") as source:
            return source.read()
    except (OSError, ImportError, ValueError):
        return b""


def _entry(text: str) -> str | None:
    folder = _folder()
    fingerprint = _pyyaml_fingerprint()
    if folder is None or not fingerprint:
        return None
    digest = hashlib.sha256(_FORMAT)
    digest.update(hashlib.sha256(fingerprint).digest())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return os.path.join(folder, f"{digest.hexdigest()}.pickle")


def _keep(path: str, value: Any) -> None:
    # Written under a name of this process's, then renamed: a reader sees no half file.
    with contextlib.suppress(OSError, pickle.PicklingError, TypeError, AttributeError):
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        try:
            with open(temporary, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def load_data(text: str) -> Any:
    """``text`` parsed as YAML with safe tags only, as ``yaml.safe_load`` does."""
    path = _entry(text)
    if path is not None:
        try:
            with open(path, "rb") as kept:
                return pickle.loads(kept.read())
        except Exception:  # absent, truncated or foreign: parse it
            pass
    import yaml

    value = yaml.load(text, Loader=_loader())
    if path is not None:
        _keep(path, value)
    return value


__all__ = ["DATA_LOADER", "load_data"]  # noqa: F822 (DATA_LOADER comes from __getattr__)
