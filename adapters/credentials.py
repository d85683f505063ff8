"""API keys, and where they may be sent.

A key goes only to its own provider. The provider's variables belong together: with
``OPENAI_API_KEY`` and ``OPENAI_BASE_URL`` (or ``ANTHROPIC_*``) both set, the key goes to that
base URL, as the SDKs themselves do. A ``--base-url`` given to OpsBench is someone else's
server (a local model, a gateway, ``opsbench serve``): it never receives the provider's key.
It gets the key in ``OPSBENCH_BASE_URL_KEY`` when that is set (the user saying "this key is
for that server"), else a placeholder, since local servers need none.
"""

from __future__ import annotations

import os

from adapters.errors import AdapterError
from contract.redact import register_secret

LOCAL_KEY = "opsbench-local"
BASE_URL_KEY = "OPSBENCH_BASE_URL_KEY"


def api_key(
    env_var: str, *, base_url: str | None, target: str, provider_base_url: str | None = None
) -> str:
    """The key to send.

    ``base_url`` is the user's ``--base-url``: it gets ``OPSBENCH_BASE_URL_KEY`` or a
    placeholder, never ``env_var``. Otherwise the key in ``env_var``; a placeholder when it is
    unset but the provider's own base URL variable (``provider_base_url``) points elsewhere;
    else an error naming the variable.
    """
    if base_url:
        key = os.environ.get(BASE_URL_KEY, "").strip()
        register_secret(key)
        return key or LOCAL_KEY
    key = os.environ.get(env_var, "").strip()
    if key:
        return key
    if provider_base_url:
        return LOCAL_KEY
    raise AdapterError(
        f"{target} needs an API key: set {env_var}, or pass --base-url to use a local or "
        "self-hosted server (for example one started by `opsbench serve`)"
    )
