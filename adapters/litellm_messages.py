"""``litellm/anthropic/<model>``: Claude through litellm, on the Anthropic Messages wire.

litellm's Chat Completions route translates an OpenAI-shaped conversation into a Messages
request, and that translation cannot say that a tool failed: OpenAI's tool message has no error
flag, so every ``tool_result`` goes out without ``is_error``. Claude then reads a refused
booking as a success. This route sends litellm's Anthropic pass-through
(``litellm.anthropic.messages.acreate``) the very body the ``anthropic/`` adapter sends
(:mod:`adapters.messages_api`: top-level system, ``tool_result`` blocks with ``is_error``,
assistant turns round-tripped as they came, one cache breakpoint), so both routes make the
same request.

The Chat-shaped options map as Anthropic defines them: ``max_tokens`` (default 4096),
``temperature``, ``top_p``, ``stop`` as ``stop_sequences``, ``parallel_tool_calls=false`` as
``disable_parallel_tool_use``. ``seed`` and ``reasoning_effort`` have no Messages equivalent
here and are refused by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adapters.errors import UnsupportedOptionError
from adapters.messages_api import parse_message, request_params
from adapters.retry import CallFailure, RetryPolicy, call_with_retries, failure_from_sdk_error
from adapters.sdk import import_litellm, import_sdk
from adapters.usage import messages_usage
from contract.messages import AssistantTurn, TurnRequest

DEFAULT_MAX_TOKENS = 4096
NOT_ON_MESSAGES = {
    "seed": "the Anthropic Messages API has no seed",
    "reasoning_effort": "on the Messages wire use anthropic/<model> with -M thinking or -M effort",
}


def check_messages_options(options: Mapping[str, Any], target: str) -> None:
    """Refuse, by name, a Chat option that has no Messages equivalent."""
    for name, why in NOT_ON_MESSAGES.items():
        if name in options:
            raise UnsupportedOptionError(
                f"option {name!r} is not supported by {target}: {why}", option=name
            )


class LiteLLMMessagesAssistant:
    """An :class:`~contract.assistant.Assistant` on ``litellm.anthropic.messages.acreate``."""

    def __init__(
        self,
        model: str,
        options: Mapping[str, Any],
        retry: RetryPolicy,
        *,
        timeout: float,
        connection: Mapping[str, Any],
    ) -> None:
        self.model = model
        self._options = dict(options)
        self._retry = retry
        self._timeout = timeout
        # api_base / api_key when a --base-url is given; litellm reads the environment otherwise.
        self._connection = dict(connection)
        self.priced = "api_base" not in self._connection

    def request_body(self, request: TurnRequest) -> dict[str, Any]:
        """The Messages body, as :mod:`adapters.anthropic_messages` builds it."""
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self._options.get("max_tokens", DEFAULT_MAX_TOKENS),
            **request_params(request, cache=True),
        }
        for name in ("temperature", "top_p"):
            if name in self._options:
                body[name] = self._options[name]
        if "stop" in self._options:
            body["stop_sequences"] = self._options["stop"]
        if self._options.get("parallel_tool_calls") is False and request.tools:
            body["tool_choice"] = {"type": "auto", "disable_parallel_tool_use": True}
        return body

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        """One Messages request through litellm, retried per :mod:`adapters.retry`."""
        litellm = import_litellm()
        openai = import_sdk("openai")  # litellm's errors subclass the openai SDK's
        body = self.request_body(request)
        label = f"litellm/{self.model}"

        def describe(exc: BaseException) -> CallFailure | None:
            return failure_from_sdk_error(exc, openai)

        async def call() -> Any:
            return await litellm.anthropic.messages.acreate(
                **body, **self._connection, timeout=self._timeout, num_retries=0, max_retries=0
            )

        data = await call_with_retries(call, describe=describe, policy=self._retry, label=label)
        if not isinstance(data, Mapping):
            data = dict(data)
        text, calls, state = parse_message(data, turn=len(request.messages))
        names = (self.model, data.get("model")) if self.priced else ()
        usage = messages_usage(data.get("usage"), *names)
        return AssistantTurn(text=text, tool_calls=calls, usage=usage, provider_state=state)
