"""The one place where provider requests are retried.

Every provider adapter turns its SDK's own retries off (``max_retries=0``) and sends each request
through :func:`call_with_retries`, so attempts never multiply and every adapter follows the same
rules:

- retried: 408, 409, 429 (unless the quota or spend limit is exhausted), every 5xx including
  Anthropic's 529 "overloaded", connection errors and timeouts;
- never retried: any other 4xx, an exhausted quota, ``x-should-retry: false``;
- the wait is the server's ``retry-after-ms`` / ``retry-after`` when it sends one, otherwise
  exponential backoff with jitter; a server asking for more than ``max_retry_after`` seconds is
  not waited for;
- every attempt has a deadline (``timeout``, ``-M timeout``): the *whole* request, body
  included, must arrive within it. The SDKs' own timeouts only bound the wait between two
  bytes, so a server trickling a byte now and then would hold a request forever; the deadline
  is enforced here, around the attempt, with :func:`asyncio.timeout`. A missed deadline is
  retried like any timeout;
- after the budget (``max_attempts``) one :class:`~adapters.errors.ProviderError` is raised,
  carrying the last status and the number of attempts. The episode records it as an
  infrastructure error;
- every failed attempt (and the wait that followed it) is reported to the
  :class:`RetryLog` of the running task, if one is open (:func:`recording_retries`), so the
  runner can store what happened in each episode.

``RetryPolicy.sleep`` is the only clock: tests pass a recorder to check attempt counts and the
delays requested without waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import email.utils
import json
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tenacity import AsyncRetrying, RetryCallState, RetryError, retry_if_exception
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from adapters.errors import ProviderError

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]

RETRYABLE_STATUSES = frozenset({408, 409, 429})
# Error codes that mean "you are out of money", not "slow down": waiting will not help.
QUOTA_CODES = frozenset(
    {"insufficient_quota", "billing_hard_limit_reached", "billing_not_active", "budget_exceeded"}
)
QUOTA_MESSAGE = re.compile(
    r"exceeded your current quota|spend(ing)? limit|credit balance|budget (has been )?exceeded",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try. Delays are in seconds.

    Without a ``retry-after`` header, the n-th retry waits
    ``min(max_delay, initial_delay * multiplier ** (n - 1))`` reduced by a random fraction of
    up to ``jitter`` (0 = no jitter), so many clients do not retry in step.
    """

    max_attempts: int = 6
    initial_delay: float = 1.0
    multiplier: float = 2.0
    max_delay: float = 60.0
    jitter: float = 0.5
    max_retry_after: float = 300.0
    # Seconds one attempt may take from sending to the last byte of the body (None: no limit).
    timeout: float | None = None
    sleep: Sleep = asyncio.sleep
    rng: random.Random = field(default_factory=random.Random, compare=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1, got {self.max_attempts}")
        if not 0.0 <= self.jitter <= 1.0:
            raise ValueError(f"jitter must be between 0 and 1, got {self.jitter}")
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(f"timeout must be more than 0 seconds, got {self.timeout}")

    def backoff(self, retry: int) -> float:
        """The wait before retry number ``retry`` (1-based) when the server names none."""
        delay = min(self.max_delay, self.initial_delay * self.multiplier ** (retry - 1))
        return delay * (1.0 - self.jitter * self.rng.random())


@dataclass(frozen=True)
class CallFailure:
    """One failed request, in provider-neutral terms.

    ``status`` is the HTTP status, or ``None`` when no response arrived (``connection`` says
    whether that was a connection error or timeout, as opposed to some other failure).
    ``code`` is the provider's machine-readable error code or type when it sent one.
    """

    message: str
    status: int | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    code: str | None = None
    connection: bool = False

    @property
    def quota_exhausted(self) -> bool:
        return (self.code or "") in QUOTA_CODES or bool(QUOTA_MESSAGE.search(self.message))

    @property
    def retryable(self) -> bool:
        if self.headers.get("x-should-retry", "").lower() == "false":
            return False
        if self.status is None:
            return self.connection
        if self.quota_exhausted:
            return False
        return self.status in RETRYABLE_STATUSES or self.status >= 500

    def retry_after(self) -> float | None:
        """Seconds the server asked us to wait (``retry-after-ms`` first), or ``None``."""
        for header, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
            value = self.headers.get(header)
            if value is None:
                continue
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                pass
        value = self.headers.get("retry-after")
        if value:
            try:
                when = email.utils.parsedate_to_datetime(value).timestamp()
            except (TypeError, ValueError):
                return None
            # An HTTP date is the only place the wall clock is read: it is the server's.
            return max(0.0, when - time.time())
        return None

    def describe(self) -> str:
        what = f"HTTP {self.status}" if self.status is not None else "no response"
        return f"{what}: {self.message}" if self.message else what


@dataclass(frozen=True)
class Attempt:
    """One failed request: who sent it (the adapter's label), which attempt it was, why it
    failed, and how long was waited before the next one (``None``: there was no next one)."""

    label: str
    attempt: int
    reason: str
    status: int | None
    wait_s: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "attempt": self.attempt,
            "reason": self.reason,
            "status": self.status,
            "wait_s": None if self.wait_s is None else round(self.wait_s, 3),
        }


@dataclass
class RetryLog:
    """The failed attempts of one unit of work (an episode), in the order they happened."""

    attempts: list[Attempt] = field(default_factory=list)

    def to_list(self) -> list[dict[str, Any]]:
        return [a.to_dict() for a in self.attempts]


_CURRENT_LOG: contextvars.ContextVar[RetryLog | None] = contextvars.ContextVar(
    "opsbench_retry_log", default=None
)


@contextlib.contextmanager
def recording_retries() -> Iterator[RetryLog]:
    """Collect the failed attempts of every request made inside the block (in this task and
    the tasks it starts), whichever adapter, caller or judge makes them."""
    log = RetryLog()
    token = _CURRENT_LOG.set(log)
    try:
        yield log
    finally:
        _CURRENT_LOG.reset(token)


def _note(label: str, attempt: int, failure: CallFailure, wait_s: float | None) -> None:
    log = _CURRENT_LOG.get()
    if log is not None:
        from contract.redact import redact

        log.attempts.append(
            Attempt(label, attempt, redact(failure.describe())[:300], failure.status, wait_s)
        )


class _Failed(Exception):
    """Carries a :class:`CallFailure` through tenacity."""

    def __init__(self, failure: CallFailure) -> None:
        super().__init__(failure.describe())
        self.failure = failure


class _WaitForServer(wait_base):
    def __init__(self, policy: RetryPolicy) -> None:
        self.policy = policy

    def __call__(self, retry_state: RetryCallState) -> float:
        failure = _failure_of(retry_state)
        asked = failure.retry_after() if failure else None
        if asked is not None:
            return asked
        return self.policy.backoff(retry_state.attempt_number)


class _StopWhenBudgetSpent(stop_base):
    def __init__(self, policy: RetryPolicy) -> None:
        self.policy = policy

    def __call__(self, retry_state: RetryCallState) -> bool:
        if retry_state.attempt_number >= self.policy.max_attempts:
            return True
        failure = _failure_of(retry_state)
        asked = failure.retry_after() if failure else None
        return asked is not None and asked > self.policy.max_retry_after


def _failure_of(retry_state: RetryCallState) -> CallFailure | None:
    outcome = retry_state.outcome
    if outcome is None or not outcome.failed:
        return None
    exc = outcome.exception()
    return exc.failure if isinstance(exc, _Failed) else None


async def call_with_retries(
    call: Callable[[], Awaitable[T]],
    *,
    describe: Callable[[BaseException], CallFailure | None],
    policy: RetryPolicy,
    label: str,
) -> T:
    """``await call()`` until it succeeds, retrying what :class:`CallFailure` calls retryable.

    ``describe`` turns an SDK exception into a :class:`CallFailure`; exceptions it does not
    recognise (``None``) are bugs, not provider failures, and propagate unchanged.
    Raises :class:`ProviderError` when a failure is not retryable or the budget is spent.
    """

    async def attempt() -> T:
        deadline = asyncio.timeout(policy.timeout)
        try:
            async with deadline:
                return await call()
        except TimeoutError as exc:
            if not deadline.expired():
                failure = describe(exc)
                if failure is None:
                    raise
                raise _Failed(failure) from exc
            raise _Failed(
                CallFailure(
                    message=f"no complete response within the request deadline of "
                    f"{policy.timeout:g} s (-M timeout)",
                    connection=True,
                )
            ) from None
        except Exception as exc:
            failure = describe(exc)
            if failure is None:
                raise
            raise _Failed(failure) from exc

    def before_sleep(state: RetryCallState) -> None:
        failure = _failure_of(state)
        if failure is not None:
            wait = state.next_action.sleep if state.next_action is not None else None
            _note(label, state.attempt_number, failure, wait)

    retrying = AsyncRetrying(
        sleep=policy.sleep,
        before_sleep=before_sleep,
        stop=_StopWhenBudgetSpent(policy),
        wait=_WaitForServer(policy),
        retry=retry_if_exception(lambda e: isinstance(e, _Failed) and e.failure.retryable),
        reraise=False,
    )
    try:
        return await retrying(attempt)
    except RetryError as exc:
        last = exc.last_attempt.exception()
        assert isinstance(last, _Failed)
        _note(label, exc.last_attempt.attempt_number, last.failure, None)
        raise _provider_error(label, last.failure, exc.last_attempt.attempt_number, policy) from (
            last.__cause__
        )
    except _Failed as exc:
        attempts = retrying.statistics.get("attempt_number", 1)
        _note(label, attempts, exc.failure, None)
        raise _provider_error(label, exc.failure, attempts, policy) from exc.__cause__


def _provider_error(
    label: str, failure: CallFailure, attempts: int, policy: RetryPolicy
) -> ProviderError:
    if not failure.retryable:
        why = "quota or spend limit exhausted" if failure.quota_exhausted else "not retryable"
        message = f"{label}: {failure.describe()} ({why}; {_attempts(attempts)})"
    else:
        asked = failure.retry_after()
        if asked is not None and asked > policy.max_retry_after:
            why = (
                f"the server asked to wait {asked:g} s, longer than max_retry_after "
                f"{policy.max_retry_after:g} s"
            )
        else:
            why = f"gave up after {_attempts(attempts)} (max_attempts={policy.max_attempts})"
        message = f"{label}: {failure.describe()} ({why})"
    return ProviderError(
        message,
        status=failure.status,
        attempts=attempts,
        code=failure.code,
        quota_exhausted=failure.quota_exhausted,
    )


def _attempts(n: int) -> str:
    return f"{n} attempt" + ("" if n == 1 else "s")


def failure_from_sdk_error(exc: BaseException, sdk: Any) -> CallFailure | None:
    """Describe an exception of the ``openai`` or ``anthropic`` SDK (or of litellm, whose
    errors subclass openai's). ``sdk`` is the imported SDK module. ``None`` if not the SDK's."""
    if isinstance(exc, sdk.APIConnectionError):  # includes APITimeoutError
        return CallFailure(message=str(exc) or type(exc).__name__, connection=True)
    status = getattr(exc, "status_code", None)
    # litellm raises some statuses (409, 5xx it does not name) as a bare APIError with a status.
    if isinstance(exc, sdk.APIStatusError) or (
        isinstance(exc, sdk.APIError) and isinstance(status, int)
    ):
        body = getattr(exc, "body", None)
        return CallFailure(
            message=_error_message(body) or str(exc),
            status=status,
            headers=header_map(getattr(getattr(exc, "response", None), "headers", None)),
            code=_error_code(body) or _as_str(getattr(exc, "code", None)),
        )
    return None


def header_map(headers: Any) -> dict[str, str]:
    """Response headers as a plain dict with lower-case names (empty for ``None``)."""
    if not headers:
        return {}
    return {str(k).lower(): str(v) for k, v in headers.items()}


def _error_code(body: Any) -> str | None:
    # OpenAI puts {"code", "type"} at the top of ``body`` (the SDK unwraps "error");
    # Anthropic sends {"type": "error", "error": {"type": ...}}.
    if not isinstance(body, Mapping):
        return None
    inner = body.get("error")
    if isinstance(inner, Mapping):
        return _error_code(inner)
    details = body.get("details")
    if isinstance(details, Mapping) and details.get("error_code"):
        return str(details["error_code"])
    for key in ("code", "type"):
        value = _as_str(body.get(key))
        if value and value != "error":
            return value
    return None


def _error_message(body: Any) -> str | None:
    if not isinstance(body, Mapping):
        return None
    inner = body.get("error")
    if isinstance(inner, Mapping):
        return _error_message(inner)
    return _as_str(body.get("message"))


def _as_str(value: Any) -> str | None:
    return None if value is None else str(value)


async def json_with_retries(
    create: Callable[[], Awaitable[Any]], *, sdk: Any, policy: RetryPolicy, label: str, what: str
) -> Mapping[str, Any]:
    """Send an SDK request for its raw JSON body, retried per ``policy``.

    ``create`` makes one ``with_raw_response`` call. The body is read as JSON ourselves (rather
    than through the SDK's models) so fields the SDK does not know yet survive; a body that is
    not a JSON object is a :class:`ProviderError` naming ``what`` was expected.
    """

    async def call() -> Any:
        raw = await create()
        try:
            return raw.http_response.json()
        except ValueError as exc:
            raise ProviderError(
                f"{label}: the response body is not JSON ({exc})", status=raw.status_code
            ) from exc

    data = await call_with_retries(
        call, describe=lambda exc: failure_from_sdk_error(exc, sdk), policy=policy, label=label
    )
    if not isinstance(data, Mapping):
        raise ProviderError(
            f"{label}: expected {what} JSON object, got {json.dumps(data)[:200]}", status=200
        )
    return data
