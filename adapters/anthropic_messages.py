"""``anthropic/<model>``: Claude through the official ``anthropic`` SDK (Messages API).

Wire details (system parameter, tool_result ordering, ``is_error``, thinking round-trip, prompt
caching) live in :mod:`adapters.messages_api`. Prompt caching of the stable prefix (tools +
system) is on by default; ``-M cache=false`` turns it off.

The SDK (2.x) speaks API version 2026-10-21, which has no sampling parameters: ``temperature``,
``top_p`` and ``top_k`` are refused here with that reason rather than sent to fail with a 400.
Extended thinking is ``-M thinking=<budget tokens>`` (or ``adaptive``); effort is ``-M effort=``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from adapters.clients import PerLoop
from adapters.credentials import api_key
from adapters.endpoints import anthropic_base_url
from adapters.errors import UnsupportedOptionError
from adapters.messages_api import SAMPLING_PARAMETERS, parse_message, request_params
from adapters.options import COMMON_OPTIONS, Option, check_options
from adapters.retry import RetryPolicy, json_with_retries
from adapters.sdk import import_sdk
from adapters.usage import messages_usage
from contract.assistant import AssistantFactory, EpisodeContext
from contract.messages import AssistantTurn, TurnRequest

DEFAULT_TIMEOUT = 300.0
DEFAULT_MAX_TOKENS = 4096
SAMPLING_REFUSAL = (
    "the anthropic SDK 2.x speaks API version 2026-10-21, which rejects sampling parameters "
    "(temperature, top_p, top_k) with HTTP 400; leave it out"
)

OPTIONS: tuple[Option, ...] = (
    *COMMON_OPTIONS,
    Option("max_tokens", "int", "most tokens to generate per response (thinking included)"),
    Option(
        "thinking",
        "int_or_str",
        "extended thinking: a token budget (>= 1024), adaptive, or off",
        choices=("adaptive", "off"),
    ),
    Option("effort", "str", "how much effort", choices=("low", "medium", "high", "xhigh", "max")),
    Option("stop", "str_list", "stop sequences"),
    Option("cache", "bool", "cache the stable prefix (tools + system); on by default"),
)


def make_factory(
    model: str, options: Mapping[str, Any], base_url: str | None, retry: RetryPolicy
) -> AssistantFactory:
    """A factory of ``anthropic/<model>`` assistants; checks options and the key up front."""
    target = f"anthropic/{model}"
    refused = dict.fromkeys(SAMPLING_PARAMETERS, SAMPLING_REFUSAL)
    checked = check_options(options, OPTIONS, target=target, refused=refused)
    own_base_url = os.environ.get("ANTHROPIC_BASE_URL") or None
    credentials: dict[str, str] = {}
    if base_url:
        # Someone else's server: neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN goes there
        # (an explicit api_key makes the SDK read no credential variable).
        credentials = {"api_key": api_key("ANTHROPIC_API_KEY", base_url=base_url, target=target)}
    elif os.environ.get("ANTHROPIC_API_KEY") or not os.environ.get("ANTHROPIC_AUTH_TOKEN"):
        credentials = {
            "api_key": api_key(
                "ANTHROPIC_API_KEY", base_url=None, target=target, provider_base_url=own_base_url
            )
        }
    # else: the SDK reads ANTHROPIC_AUTH_TOKEN itself
    base_url = anthropic_base_url(base_url or own_base_url)
    timeout = checked.pop("timeout", DEFAULT_TIMEOUT)
    retry = replace(retry, timeout=timeout)
    if "max_attempts" in checked:
        retry = replace(retry, max_attempts=checked.pop("max_attempts"))
    cache = checked.pop("cache", True)
    params = _params(checked, target)

    anthropic = import_sdk("anthropic")
    clients = PerLoop(
        lambda: anthropic.AsyncAnthropic(
            **credentials, base_url=base_url, max_retries=0, timeout=timeout
        )
    )

    def make(context: EpisodeContext) -> AnthropicAssistant:
        assistant = AnthropicAssistant(model, clients, params, retry, cache=cache)
        assistant.priced = base_url is None
        return assistant

    return make


def _params(options: Mapping[str, Any], target: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    thinking = options.get("thinking")
    budget = 0
    if isinstance(thinking, int):
        if thinking < 1024:
            raise UnsupportedOptionError(
                f"option 'thinking' for {target} expects a budget of at least 1024 tokens, "
                f"adaptive, or off; got {thinking}",
                option="thinking",
            )
        budget = thinking
        params["thinking"] = {"type": "enabled", "budget_tokens": thinking}
    elif thinking == "adaptive":
        params["thinking"] = {"type": "adaptive"}
    elif thinking == "off":
        params["thinking"] = {"type": "disabled"}
    # Thinking tokens count toward max_tokens, so the default leaves room for an answer.
    params["max_tokens"] = options.get("max_tokens", DEFAULT_MAX_TOKENS + budget)
    if budget and params["max_tokens"] <= budget:
        raise UnsupportedOptionError(
            f"option 'max_tokens' for {target} must exceed the thinking budget {budget}, "
            f"got {params['max_tokens']}",
            option="max_tokens",
        )
    if "effort" in options:
        params["output_config"] = {"effort": options["effort"]}
    if "stop" in options:
        params["stop_sequences"] = options["stop"]
    return params


class AnthropicAssistant:
    """An :class:`~contract.assistant.Assistant` on the Messages API via ``AsyncAnthropic``."""

    # Against a base URL the model name says nothing about the price: cost unknown.
    priced = True

    def __init__(
        self,
        model: str,
        clients: PerLoop[Any],
        params: Mapping[str, Any],
        retry: RetryPolicy,
        *,
        cache: bool = True,
    ) -> None:
        self.model = model
        self._clients = clients
        self._params = dict(params)
        self._retry = retry
        self._cache = cache

    def request_body(self, request: TurnRequest) -> dict[str, Any]:
        """The keyword arguments of ``messages.create`` for ``request``."""
        return {"model": self.model, **self._params, **request_params(request, cache=self._cache)}

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        """One Messages request, retried per :mod:`adapters.retry`."""
        anthropic = import_sdk("anthropic")
        client = await self._clients.get()
        body = self.request_body(request)
        label = f"anthropic/{self.model}"

        data = await json_with_retries(
            lambda: client.messages.with_raw_response.create(**body),
            sdk=anthropic,
            policy=self._retry,
            label=label,
            what="a message",
        )
        text, calls, state = parse_message(data, turn=len(request.messages))
        names = (self.model, data.get("model")) if self.priced else ()
        usage = messages_usage(data.get("usage"), *names)
        return AssistantTurn(text=text, tool_calls=calls, usage=usage, provider_state=state)
