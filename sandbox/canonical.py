"""Canonical JSON: one byte string per value, so states and results can be hashed and compared."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    """Serialise ``value`` with sorted keys and no insignificant whitespace.

    Floats are allowed but discouraged in state (money is integer cents), because two floats
    that print differently are different bytes.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_bytes(value: Any) -> bytes:
    """UTF-8 bytes of :func:`canonical_json`."""
    return canonical_json(value).encode("utf-8")


def content_hash(value: Any) -> str:
    """Hex SHA-256 of the canonical bytes of ``value``."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()
