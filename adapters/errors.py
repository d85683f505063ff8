"""Errors raised by adapters while an assistant is asked for or set up.

AdapterError                 (contract.errors) the harness's own
├── UnsupportedOptionError   a model option the chosen adapter or model does not take
├── MissingDependencyError   the adapter's SDK is not installed (names the install command)
└── ProviderError            (contract.errors) the provider could not answer after retries
"""

from __future__ import annotations

from contract.errors import AdapterError, ProviderError

__all__ = ["AdapterError", "MissingDependencyError", "ProviderError", "UnsupportedOptionError"]


class UnsupportedOptionError(AdapterError):
    """A model option (``-M name=value``) that the adapter or the model does not accept."""

    def __init__(self, message: str, *, option: str) -> None:
        super().__init__(message)
        self.option = option


class MissingDependencyError(AdapterError):
    """The SDK an adapter needs is not importable; the message names the install command."""
