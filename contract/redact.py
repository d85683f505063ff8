"""Keeping secrets out of every text that leaves the process.

Providers and gateways sometimes echo the credential back in an error ("Incorrect API key
provided: sk-..."), an SDK's exception may quote a request, a base URL may carry a password
(``http://user:PASSWORD@host``, which HTTP clients turn into a base64 ``Basic`` header). All
text that is stored, logged, reported, exported or printed goes through :func:`redact`, which
removes:

- the values of the environment's credential variables (``*API_KEY``, ``*TOKEN``, ``*SECRET``,
  ``*PASSWORD``, ``*AUTH*``);
- every value given to :func:`register_secret` (a base URL's password, and its ``Basic``
  encoding), so a credential that lives in no variable is known too;
- anything shaped like a bearer token, a ``Basic`` credential, a provider key, an
  ``api_key=``/``Authorization:`` assignment, or the password of a URL.

:class:`RedactingFormatter` applies it to log records, tracebacks included.
"""

from __future__ import annotations

import base64
import logging
import os
import re
import threading
from urllib.parse import unquote, urlsplit

MASK = "[redacted]"
# Variables whose values are credentials: the providers' and anything named like one.
# Whole words of the name only: GITHUB_TOKEN and ANTHROPIC_AUTH_TOKEN, not GIT_AUTHOR_NAME.
_SECRET_NAME = re.compile(
    r"(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH|CREDENTIALS?)(?:_|$)",
    re.IGNORECASE,
)
_SHAPES = re.compile(
    r"(?i:\bbearer)\s+[A-Za-z0-9._~+/=-]{6,}"
    # HTTP Basic credentials are base64: a "basic haircut" in a transcript is not one.
    r"|\bBasic\s+(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{8,}={0,2}"
    r"|\b(?:sk|pk|rk)-[A-Za-z0-9_-]{6,}"
    r"|(?i:\b(?:x-api-key|api[_-]?key|authorization))\s*[:=]\s*['\"]?[^\s'\",;]{6,}"
)
# The password part of ``scheme://user:password@host``.
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s/:@'\"]*):[^\s/@'\"]+@")
_MIN_SECRET = 6
_registered: set[str] = set()
_lock = threading.Lock()
# The last answer of _secret_values and what it was read from: a copy of the environment's raw
# table and _generation (bumped on every register_secret). Reading every variable name against
# _SECRET_NAME costs ≈ 0.25 ms, paid on every stored episode; comparing the tables, a microsecond.
_generation = 0
_cached: tuple[dict[bytes, bytes] | None, int, list[str]] = (None, -1, [])


def register_secret(value: str | None) -> None:
    """Treat ``value`` as a credential from now on, wherever it appears."""
    global _generation
    if value and len(value.strip()) >= _MIN_SECRET:
        with _lock:
            _registered.add(value.strip())
            _generation += 1


def register_url(url: str | None) -> None:
    """Register the password of ``url`` (as written, decoded, and as ``Basic`` credentials)."""
    if not url:
        return
    try:
        parts = urlsplit(url)
        username, password = parts.username, parts.password
    except ValueError:
        return
    if password is None:
        return
    for user, secret in ((username or "", password), (unquote(username or ""), unquote(password))):
        register_secret(secret)
        token = base64.b64encode(f"{user}:{secret}".encode()).decode()
        register_secret(token)


def _secret_values() -> list[str]:
    global _cached
    # os.environ keeps its variables in ``_data`` (bytes on POSIX); where it does not, or the
    # table changed since, read the environment again.
    raw = getattr(os.environ, "_data", None)
    generation = _generation
    table, seen, values = _cached
    if raw is not None and seen == generation and raw == table:
        return values
    fresh = _read_secret_values()
    _cached = (None if raw is None else dict(raw), generation, fresh)
    return fresh


def _read_secret_values() -> list[str]:
    values = {
        value.strip()
        for name, value in os.environ.items()
        if _SECRET_NAME.search(name) and len(value.strip()) >= _MIN_SECRET
    }
    with _lock:
        values |= _registered
    return sorted(values, key=len, reverse=True)


# Literals one of which every match of _SHAPES contains ("bearer", "api-key" and its spellings,
# "authorization" in any case, "Basic" and the key prefixes as written). Scanning a long text with _SHAPES costs
# about 1 ms per 8 KB (it tries every alternative at every position); looking for these first
# costs microseconds, and a text with none of them cannot match. Under IGNORECASE a few
# non-ASCII letters match ASCII ones (U+0130, U+0131, U+017F, U+212A); a text with any of them
# goes to the full scan.
_SHAPE_WORDS = ("bearer", "apikey", "api_key", "api-key", "authorization")
_SHAPE_CASED = ("Basic", "sk-", "pk-", "rk-")
_CASE_FOLDING = ("\u0130", "\u0131", "\u017f", "\u212a")


def _may_have_shape(text: str) -> bool:
    if any(word in text for word in _SHAPE_CASED):
        return True
    lowered = text.lower()
    return any(word in lowered for word in _SHAPE_WORDS) or any(
        char in text for char in _CASE_FOLDING
    )


def _redact(text: str, secrets: list[str]) -> str:
    for value in secrets:
        if value in text:
            text = text.replace(value, MASK)
    if "://" in text:  # every match of _URL_PASSWORD has one
        text = _URL_PASSWORD.sub(rf"\1:{MASK}@", text)
    return _SHAPES.sub(MASK, text) if _may_have_shape(text) else text


def redact(text: str) -> str:
    """``text`` without credential values or key-shaped strings."""
    return _redact(text, _secret_values())


def redact_all(texts: list[str]) -> list[str]:
    """:func:`redact` of each of ``texts``, reading the environment's credentials once."""
    secrets = _secret_values()
    return [_redact(text, secrets) for text in texts]


class RedactingFormatter(logging.Formatter):
    """A log formatter whose output (message, arguments and traceback) is redacted."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))
