"""Errors raised by adapters.

    AdapterError                 the harness's own: a bad model string, a missing SDK or key
    └── ProviderError            the provider could not answer after retries (infrastructure)

An episode that ends in :class:`ProviderError` is an infrastructure error: recorded, excluded
from scores, and re-run by ``--resume``. It is never the model's fault.
"""

from __future__ import annotations


class AdapterError(Exception):
    """A problem in how an adapter was asked for or set up."""


class ProviderError(AdapterError):
    """The provider failed after every retry (or with a non-retryable server-side fault)."""

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 1) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts
