"""What the runner watches in every episode: which model failed how (for the stop policy), and
how the failed requests read in a log line.

Every model a run uses (each assistant under test, the ``--caller llm:`` model, the
``--judge``) is wrapped so that a :class:`~contract.errors.ProviderError` it raises is noted,
with its role, in the list of the episode being run (:func:`noting_failures`). After the
episode, the runner asks whether the failure has a ``stop_reason``
(:func:`contract.errors.stop_reason`): the assistant's stops its own queue, the caller's or
the judge's every queue, since every episode needs them.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adapters.errors import ProviderError
from adapters.registry import AnyFactory
from contract.assistant import AssistantFactory, EpisodeContext
from sandbox.briefing import wrapped
from sandbox.episode import CallerFactory
from sandbox.task import Task


@dataclass(frozen=True)
class ModelFailure:
    """A provider error raised by one of the models an episode uses, and which one."""

    role: str  # "assistant", "caller" or "judge"
    model: str
    error: ProviderError

    @property
    def stop_reason(self) -> str | None:
        return self.error.stop_reason


_FAILURES: contextvars.ContextVar[list[ModelFailure] | None] = contextvars.ContextVar(
    "opsbench_model_failures", default=None
)


@contextlib.contextmanager
def noting_failures(failures: list[ModelFailure]) -> Iterator[list[ModelFailure]]:
    """Append every provider error a watched model raises inside the block to ``failures``."""
    token = _FAILURES.set(failures)
    try:
        yield failures
    finally:
        _FAILURES.reset(token)


def _noted(role: str, model: str, error: ProviderError) -> None:
    failures = _FAILURES.get()
    if failures is not None:
        failures.append(ModelFailure(role, model, error))


class WatchedAssistant:
    """An assistant (the model under test, or the judge) whose provider errors are noted."""

    def __init__(self, inner: Any, role: str, model: str) -> None:
        self.inner, self.role, self.model = inner, role, model

    async def respond(self, request: Any) -> Any:
        try:
            return await self.inner.respond(request)
        except ProviderError as exc:
            _noted(self.role, self.model, exc)
            raise


class WatchedCaller:
    """A simulated caller whose model's provider errors are noted."""

    def __init__(self, inner: Any, model: str) -> None:
        self.inner, self.model = inner, model

    async def speak(self, view: Any) -> Any:
        try:
            return await self.inner.speak(view)
        except ProviderError as exc:
            _noted("caller", self.model, exc)
            raise


def watched_models(
    assistants: Mapping[str, AnyFactory],
    caller: CallerFactory,
    judge: AssistantFactory | None,
    caller_spec: str,
    judge_model: str | None,
) -> tuple[dict[str, AnyFactory], CallerFactory, AssistantFactory | None]:
    """The run's factories with every model they make watched."""

    def watch(model: str) -> Callable[[Any], Any]:
        return lambda assistant: WatchedAssistant(assistant, "assistant", model)

    watched = {m: wrapped(f, watch(m)) for m, f in assistants.items()}
    caller_model = caller_spec.removeprefix("llm:")

    def watched_caller(task: Task, session: int) -> Any:
        return WatchedCaller(caller(task, session), caller_model)

    if judge is None:
        return watched, watched_caller, None
    plain_judge = judge

    def watched_judge(context: EpisodeContext) -> Any:
        return WatchedAssistant(plain_judge(context), "judge", judge_model or "judge")

    return watched, watched_caller, watched_judge


def stop_line(failure: ModelFailure) -> str:
    """Why a model's queue stopped, in words: who failed, the policy's reason, the error."""
    # The error's text starts with the adapter's label (the model) already.
    who = "" if failure.role == "assistant" else f"the {failure.role} {failure.model}: "
    return f"{who}{failure.stop_reason} ({failure.error})"


def retry_summary(retries: Sequence[Mapping[str, Any]]) -> str:
    """``3 failed requests (HTTP 429 x2, no response x1), waited 4.5 s`` for a retry record."""
    reasons: dict[str, int] = {}
    for attempt in retries:
        status = attempt.get("status")
        what = f"HTTP {status}" if status is not None else "no response"
        reasons[what] = reasons.get(what, 0) + 1
    waited = sum(a.get("wait_s") or 0.0 for a in retries)
    kinds = ", ".join(f"{k} x{n}" for k, n in sorted(reasons.items()))
    count = len(retries)
    return f"{count} failed request{'' if count == 1 else 's'} ({kinds}), waited {waited:.1f} s"
