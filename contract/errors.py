"""The errors every part of the harness may see from whoever answers the phone.

    AdapterError      the harness's own: a bad model string, a missing SDK or key
    └── ProviderError the provider could not answer after retries (infrastructure)

An episode that ends in :class:`ProviderError` is an infrastructure error: recorded, excluded
from scores, and re-run by ``--resume``. It is never the model's fault. Every other
:class:`AdapterError` is raised while the assistant is being set up, before any episode runs.
The adapter-specific subclasses live in :mod:`adapters.errors`.

Some provider errors say that every further request will fail the same way: the key is
refused, the permission is missing, the model (or the endpoint) does not exist, the quota is
spent. :attr:`ProviderError.stop_reason` names them; the runner stops the queue of every
episode that needs that model instead of paying for a run of identical errors.
"""

from __future__ import annotations

from contract.redact import redact

# The HTTP statuses after which retrying later, or another episode, cannot help.
_STOPPING = {
    401: "the provider refused the API key (HTTP 401)",
    403: "the key lacks permission for this model (HTTP 403)",
}


class AdapterError(Exception):
    """A problem in how an adapter was asked for or set up."""

    def __init__(self, message: str = "") -> None:
        # Whatever an adapter says may be shown, logged or stored: no credential gets through.
        super().__init__(redact(str(message)))


class ProviderError(AdapterError):
    """The provider failed after every retry (or with a non-retryable server-side fault).

    ``status`` is the last HTTP status (``None`` for a connection error or a timeout),
    ``attempts`` how many requests were made in all, ``code`` the provider's error code when
    it sent one, and ``quota_exhausted`` whether the account is out of quota or credit.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        attempts: int = 1,
        code: str | None = None,
        quota_exhausted: bool = False,
    ) -> None:
        # The message is recorded with the episode: never let an echoed credential through.
        super().__init__(message)
        self.status = status
        self.attempts = attempts
        self.code = code
        self.quota_exhausted = quota_exhausted

    @property
    def stop_reason(self) -> str | None:
        """Why every later request to this model would fail too, or ``None`` if it might not."""
        return stop_reason(self.status, self.code, str(self), quota_exhausted=self.quota_exhausted)


def stop_reason(
    status: int | None, code: str | None, message: str, *, quota_exhausted: bool = False
) -> str | None:
    """The one stop policy: what a provider failure says about every later request, if
    anything. Authentication, permission, an unknown model or endpoint, and an exhausted quota
    stop; rate limits, outages and timeouts do not (they are retried and may pass)."""
    if quota_exhausted:
        return "the quota or spend limit is exhausted (HTTP 429 insufficient_quota)"
    if status in _STOPPING:
        return _STOPPING[status]
    if status == 404:
        text = f"{code or ''} {message}".lower()
        if "model" in text:
            return "the provider does not know this model (HTTP 404)"
        return (
            "the server has no such endpoint (HTTP 404): check --base-url and the wire "
            "format the model uses"
        )
    return None
