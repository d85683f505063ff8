"""Keeping secrets out of text that will be stored, logged or shown.

Providers and gateways sometimes echo the credential back in an error ("Incorrect API key
provided: sk-..."), and that text becomes an episode's recorded error. :func:`redact` removes
the values of the environment's credential variables and anything shaped like a bearer token or
a provider key before such text leaves the adapter.
"""

from __future__ import annotations

import os
import re

MASK = "[redacted]"
# Variables whose values are credentials: the providers' and anything named like one.
_SECRET_NAME = re.compile(r"(?:API_?KEY|TOKEN|SECRET|PASSWORD|AUTH)", re.IGNORECASE)
_SHAPES = re.compile(
    r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{6,}"
    r"|\b(?:sk|pk|rk)-[A-Za-z0-9_-]{6,}"
    r"|\b(?:x-api-key|api[_-]?key|authorization)\s*[:=]\s*['\"]?[^\s'\",;]{6,}"
)


def _secret_values() -> list[str]:
    values = [
        value.strip()
        for name, value in os.environ.items()
        if _SECRET_NAME.search(name) and len(value.strip()) >= 6
    ]
    return sorted(set(values), key=len, reverse=True)


def redact(text: str) -> str:
    """``text`` without credential values from the environment or key-shaped strings."""
    for value in _secret_values():
        text = text.replace(value, MASK)
    return _SHAPES.sub(MASK, text)
