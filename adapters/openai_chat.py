"""``openai/<model>``: OpenAI (or any OpenAI-compatible server) through the official SDK.

Which API: Chat Completions, except where it cannot serve the model well —

- models OpenAI serves only on the Responses API (``*-pro``, ``*codex*``, ``*deep-research*``)
  always use Responses (:mod:`adapters.openai_responses`);
- reasoning models (o-series, gpt-5) on OpenAI itself use Responses too, because only there do
  their reasoning items round-trip between turns (stateless: ``store=false`` with encrypted
  reasoning carried in ``provider_state``); Chat Completions drops the reasoning after every
  tool call;
- with a base URL (vLLM, Ollama, LM Studio, ``opsbench serve``) Chat Completions is used, since
  that is what OpenAI-compatible servers speak.

``-M api=chat`` or ``-M api=responses`` overrides the choice. Reasoning models get the system
prompt as a ``developer`` message, ``max_tokens`` sent as ``max_completion_tokens``, and refuse
``temperature``/``top_p`` up front (OpenAI would answer 400).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from adapters.chat_completions import parse_completion, request_messages, request_tools
from adapters.clients import PerLoop
from adapters.credentials import api_key
from adapters.endpoints import openai_base_url
from adapters.errors import ProviderError, UnsupportedOptionError
from adapters.openai_models import (
    REASONING_REFUSAL,
    SAMPLING_OPTIONS,
    is_reasoning_model,
    is_responses_only,
)
from adapters.options import CHAT_OPTIONS, COMMON_OPTIONS, Option, check_options
from adapters.retry import RetryPolicy, json_with_retries
from adapters.sdk import import_sdk
from adapters.usage import chat_completions_usage
from contract.assistant import AssistantFactory, EpisodeContext
from contract.messages import AssistantTurn, TurnRequest

DEFAULT_TIMEOUT = 300.0

OPTIONS: tuple[Option, ...] = (
    *COMMON_OPTIONS,
    Option("api", "str", "which OpenAI API to call", choices=("chat", "responses")),
    *CHAT_OPTIONS,
)


def make_factory(
    model: str, options: Mapping[str, Any], base_url: str | None, retry: RetryPolicy
) -> AssistantFactory:
    """A factory of ``openai/<model>`` assistants; checks options and the key up front."""
    target = f"openai/{model}"
    reasoning = is_reasoning_model(model)
    refused = dict.fromkeys(SAMPLING_OPTIONS, REASONING_REFUSAL) if reasoning else {}
    if not reasoning and base_url is None:
        refused["reasoning_effort"] = "it applies to OpenAI reasoning models (o-series, gpt-5) only"
    checked = check_options(options, OPTIONS, target=target, refused=refused)
    own_base_url = os.environ.get("OPENAI_BASE_URL") or None
    key = api_key(
        "OPENAI_API_KEY", base_url=base_url, target=target, provider_base_url=own_base_url
    )
    base_url = openai_base_url(base_url or own_base_url)
    timeout = checked.pop("timeout", DEFAULT_TIMEOUT)
    retry = replace(retry, timeout=timeout)
    if "max_attempts" in checked:
        retry = replace(retry, max_attempts=checked.pop("max_attempts"))
    api = checked.pop("api", None) or _default_api(model, base_url)

    openai = import_sdk("openai")
    clients = PerLoop(
        lambda: openai.AsyncOpenAI(api_key=key, base_url=base_url, max_retries=0, timeout=timeout)
    )
    if api == "responses":
        from adapters.openai_responses import NOT_ON_RESPONSES, OpenAIResponsesAssistant

        for name, why in NOT_ON_RESPONSES.items():
            if name in checked:
                raise UnsupportedOptionError(
                    f"option {name!r} is not supported by {target} on the Responses API: {why}; "
                    "leave it out, or use -M api=chat",
                    option=name,
                )

        def make_responses(context: EpisodeContext) -> OpenAIResponsesAssistant:
            assistant = OpenAIResponsesAssistant(model, clients, checked, retry)
            assistant.priced = base_url is None
            return assistant

        return make_responses

    def make_chat(context: EpisodeContext) -> OpenAIChatAssistant:
        assistant = OpenAIChatAssistant(model, clients, checked, retry)
        assistant.priced = base_url is None
        return assistant

    return make_chat


def _default_api(model: str, base_url: str | None) -> str:
    if is_responses_only(model):
        return "responses"
    if is_reasoning_model(model) and base_url is None:
        return "responses"
    return "chat"


class OpenAIAssistantBase:
    """What the Chat Completions and Responses assistants share: the model, its per-event-loop
    clients, the checked options and the retry policy."""

    # Against --base-url a model name says nothing about its price (a self-hosted "gpt-4.1"
    # costs what the server costs): the cost is unknown, never OpenAI's list price.
    priced = True

    def __init__(
        self, model: str, clients: PerLoop[Any], options: Mapping[str, Any], retry: RetryPolicy
    ) -> None:
        self.model = model
        self._clients = clients
        self._options = dict(options)
        self._retry = retry
        self._reasoning = is_reasoning_model(model)

    async def _post(self, path: str, body: dict[str, Any], what: str) -> Any:
        """The JSON body of a POST of ``body`` to ``path`` (``/chat/completions``), retried.

        The body goes through the SDK client's own ``post`` (its auth, headers, timeouts and
        error types) rather than ``create(**body)``: the body is already wire JSON, and
        ``create`` would walk it through the SDK's typed-dict transform, which cost most of
        the client's CPU per request (every tool schema, every message, every time).
        """
        openai = import_sdk("openai")
        client = await self._clients.get()

        async def send() -> _Reply:
            return _Reply(await client.post(path, cast_to=_httpx().Response, body=body))

        return await json_with_retries(
            send, sdk=openai, policy=self._retry, label=f"openai/{self.model}", what=what
        )

    def _price_names(self, data: Mapping[str, Any]) -> tuple[Any, ...]:
        """Model names to price the usage by: none behind a base URL."""
        return (self.model, data.get("model")) if self.priced else ()


def _httpx() -> Any:
    return import_sdk("httpx")


class _Reply:
    """What :func:`~adapters.retry.json_with_retries` reads of a reply."""

    def __init__(self, response: Any) -> None:
        self.http_response = response
        self.status_code = response.status_code


class OpenAIChatAssistant(OpenAIAssistantBase):
    """An :class:`~contract.assistant.Assistant` on Chat Completions via ``openai.AsyncOpenAI``."""

    def request_body(self, request: TurnRequest) -> dict[str, Any]:
        """The keyword arguments of ``chat.completions.create`` for ``request``."""
        role = "developer" if self._reasoning else "system"
        body: dict[str, Any] = {
            "model": self.model,
            "messages": request_messages(request, system_role=role),
        }
        if request.tools:
            body["tools"] = request_tools(request.tools)
        for name, value in self._options.items():
            if name == "max_tokens" and self._reasoning:
                body["max_completion_tokens"] = value
            else:
                body[name] = value
        return body

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        """One Chat Completions request, retried per :mod:`adapters.retry`."""
        data = await self._post(
            "/chat/completions", self.request_body(request), "a chat completion"
        )
        return turn_from_chat_data(
            data, request, label=f"openai/{self.model}", model=self.model, priced=self.priced
        )


def turn_from_chat_data(
    data: Any,
    request: TurnRequest,
    *,
    label: str,
    model: str,
    replace_random_ids: bool = False,
    priced: bool = True,
) -> AssistantTurn:
    """The neutral turn in a decoded Chat Completions response (shared with litellm)."""
    if not isinstance(data, Mapping):
        raise ProviderError(
            f"{label}: expected a chat.completion JSON object, got {json.dumps(data)[:200]}",
            status=200,
        )
    try:
        text, calls = parse_completion(
            data, turn=len(request.messages), replace_random_ids=replace_random_ids
        )
    except ValueError as exc:
        raise ProviderError(f"{label}: {exc}", status=200) from None
    usage = chat_completions_usage(
        data.get("usage"), *((model, data.get("model")) if priced else ())
    )
    return AssistantTurn(text=text, tool_calls=calls, usage=usage)
