"""Lazy imports of the provider SDKs, with an error that names the install command."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

from adapters.errors import MissingDependencyError

_INSTALL = {
    "openai": "pip install 'openai>=1.60'",
    "anthropic": "pip install 'anthropic>=0.49'",
    "litellm": "pip install 'litellm>=1.60,!=1.82.7,!=1.82.8'",
}


def import_sdk(name: str) -> ModuleType:
    """Import the SDK ``name`` (``openai``, ``anthropic``, ``litellm``) or say how to install it."""
    if name == "litellm":
        # Without this, importing litellm downloads a price list from the internet.
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if exc.name not in (name, None):
            raise  # the SDK is there but one of its own imports failed: show the real cause
        install = _INSTALL.get(name, f"pip install {name}")
        raise MissingDependencyError(
            f"the {name!r} package is needed for {name}/… models but is not installed; "
            f"install it with: {install}"
        ) from exc


def import_litellm() -> ModuleType:
    """Import litellm without letting it fetch its cost map from the network."""
    return import_sdk("litellm")
