"""API keys, from the providers' usual environment variables.

A local or self-hosted server (``--base-url``) usually needs no key, so when a base URL is given
and the variable is unset a placeholder is sent instead of failing.
"""

from __future__ import annotations

import os

from adapters.errors import AdapterError

LOCAL_KEY = "opsbench-local"


def api_key(env_var: str, *, base_url: str | None, target: str) -> str:
    """The key in ``env_var``; a placeholder if unset and ``base_url`` is given; else an error."""
    key = os.environ.get(env_var, "").strip()
    if key:
        return key
    if base_url:
        return LOCAL_KEY
    raise AdapterError(
        f"{target} needs an API key: set {env_var}, or pass --base-url to use a local or "
        "self-hosted server (for example one started by `opsbench serve`)"
    )
