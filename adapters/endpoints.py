"""Base URLs, normalised per wire format, so one URL works for every route.

The SDKs append their paths differently: the ``openai`` SDK appends ``/chat/completions``
(so its base URL ends in ``/v1``), the ``anthropic`` SDK and litellm's Anthropic route append
``/v1/messages`` (so theirs does not). A user gives one ``--base-url`` for a mixed run; each
adapter takes it in its own shape:

- OpenAI wire: a URL with no path gets ``/v1``; a trailing ``/chat/completions`` or
  ``/responses`` is dropped;
- Anthropic wire: a trailing ``/v1`` or ``/v1/messages`` is dropped.

Either way the URL's password, if it has one, is registered as a secret so that it (and its
``Basic`` encoding) is redacted from everything OpsBench writes.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from contract.redact import register_url


def _split(url: str) -> tuple[tuple[str, str, str, str, str], str]:
    register_url(url)
    parts = urlsplit(url.strip())
    return (parts.scheme, parts.netloc, parts.path, parts.query, parts.fragment), parts.path.rstrip(
        "/"
    )


def openai_base_url(url: str | None) -> str | None:
    """``url`` as the ``openai`` SDK wants it (ending in the API version, ``/v1``)."""
    if not url:
        return url
    (scheme, netloc, _, query, fragment), path = _split(url)
    for suffix in ("/chat/completions", "/responses"):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
    return urlunsplit((scheme, netloc, path or "/v1", query, fragment))


def anthropic_base_url(url: str | None) -> str | None:
    """``url`` as the ``anthropic`` SDK (and litellm's Anthropic route) want it: no ``/v1``."""
    if not url:
        return url
    (scheme, netloc, _, query, fragment), path = _split(url)
    for suffix in ("/v1/messages", "/v1"):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
            break
    return urlunsplit((scheme, netloc, path, query, fragment))
