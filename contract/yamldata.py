"""Packaged YAML data (lexicons, plans, templates) parsed with libyaml where PyYAML has it.

``yaml.safe_load`` always uses the pure-Python parser, several times slower than libyaml's;
the data files load on every start, so this is start-up time. Both parsers construct with
the same safe constructor and give the same objects (``tests/test_yaml_loader.py``).

Even with libyaml, the data a first episode reads costs ≈ 0.05 s of CPU to parse and as much
again to import PyYAML. So each parse is kept: the objects, pickled, in the ``data`` folder of
OpsBench's cache root (:mod:`contract.cache_root`), named by a hash of the text and of the
installed PyYAML. A text parsed before is unpickled, which gives equal, fresh objects; PyYAML is imported only to parse
a text not yet kept. A cache entry that cannot be read is parsed again; one that cannot be
written is skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contract.cache_root import cache_folder, write_atomically

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


def _entry(text: str) -> Path | None:
    folder = cache_folder("data")
    fingerprint = _pyyaml_fingerprint()
    if folder is None or not fingerprint:
        return None
    digest = hashlib.sha256(_FORMAT)
    digest.update(hashlib.sha256(fingerprint).digest())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return folder / f"{digest.hexdigest()}.pickle"


def _keep(path: Path, value: Any) -> None:
    with contextlib.suppress(pickle.PicklingError, TypeError, AttributeError):
        write_atomically(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


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
