"""The errors every part of the harness may see from whoever answers the phone.

    AdapterError      the harness's own: a bad model string, a missing SDK or key
    └── ProviderError the provider could not answer after retries (infrastructure)

An episode that ends in :class:`ProviderError` is an infrastructure error: recorded, excluded
from scores, and re-run by ``--resume``. It is never the model's fault. Every other
:class:`AdapterError` is raised while the assistant is being set up, before any episode runs.
The adapter-specific subclasses live in :mod:`adapters.errors`.
"""

from __future__ import annotations

from contract.redact import redact


class AdapterError(Exception):
    """A problem in how an adapter was asked for or set up."""


class ProviderError(AdapterError):
    """The provider failed after every retry (or with a non-retryable server-side fault).

    ``status`` is the last HTTP status (``None`` for a connection error or a timeout) and
    ``attempts`` how many requests were made in all.
    """

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 1) -> None:
        # The message is recorded with the episode: never let an echoed credential through.
        super().__init__(redact(message))
        self.status = status
        self.attempts = attempts
