"""Redaction of what a run stores: secret-looking options, URL passwords and queries, tokens.

A run's config is written to the store, reports and logs; nothing secret may reach them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from contract.redact import MASK, redact

# Words of option names whose values are never written to the store, a report or a log.
_SECRET_WORDS = frozenset(
    ("key", "token", "secret", "password", "passwd", "authorization", "auth", "cookie")
)
_SECRET_JOINED = frozenset(("apikey", "accesstoken", "authtoken", "secretkey", "xapikey"))
# Secret-shaped values under innocent names: bearer tokens and provider keys.
_SECRET_SHAPES = re.compile(r"(?i:bearer)\s+\S+|\bsk-[A-Za-z0-9_-]{6,}")
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://\S+$")
# One mask for everything redacted (contract.redact); runs stored before used the legacy one.
REDACTED = MASK
_LEGACY_MASK = "<redacted>"


def redact_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with secrets replaced by :data:`REDACTED`, at any depth.

    A value is redacted whole when its name (a dict key, at any level) looks secret
    (``api_key``, ``Authorization``, ``access_token``); inside other strings, bearer tokens and
    ``sk-`` keys are replaced, and URL-looking strings lose their password and query.
    """
    return {k: _redact_value(k, v) for k, v in options.items()}


def is_secret_name(name: str) -> bool:
    """``api_key``, ``x-api-key``, ``Authorization``, ``access_token``; not ``max_tokens``."""
    lowered = str(name).lower()
    words = set(re.split(r"[^a-z0-9]+", lowered))
    return bool(words & _SECRET_WORDS) or lowered.replace("-", "").replace("_", "") in (
        _SECRET_JOINED
    )


def redact_text(text: str) -> str:
    """``text`` through :func:`contract.redact.redact`, any bearer token gone too; a URL loses
    its password and query."""
    if _URL.match(text.strip()):
        text = redact_url(text.strip()) or text
    return _SECRET_SHAPES.sub(REDACTED, redact(text))


def _redact_value(name: Any, value: Any) -> Any:
    if name is not None and is_secret_name(name):
        return REDACTED
    if isinstance(value, Mapping):
        return {k: _redact_value(k, v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact_value(None, v) for v in value]
    if isinstance(value, str):
        return redact_text(value)
    return value


def contains_redacted(value: Any) -> bool:
    """Whether ``value`` holds a redacted secret at any depth (so it cannot be replayed)."""
    if isinstance(value, Mapping):
        return any(contains_redacted(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(contains_redacted(v) for v in value)
    return isinstance(value, str) and (REDACTED in value or _LEGACY_MASK in value)


def redact_url(url: str | None) -> str | None:
    """``url`` without a password or query string (either may carry a credential)."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
        netloc = parts.hostname or ""
        if parts.port:
            netloc += f":{parts.port}"
    except ValueError:  # not a URL after all (a bad port, brackets): show none of it
        return REDACTED
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
