"""``litellm/<model>``: any model litellm can reach (Gemini, Bedrock, Mistral, Groq, Ollama …).

The part after ``litellm/`` is litellm's own model string (``gemini/gemini-2.5-pro``,
``ollama/llama3.1``, ``openai/<name>`` for any OpenAI-compatible server at ``--base-url``).
Requests are Chat Completions shaped (:mod:`adapters.chat_completions`); litellm's own retries
are off, :mod:`adapters.retry` does them. What comes back is normalised
(:mod:`adapters.toolcalls`): object arguments become JSON text, calls without arguments get
``"{}"``, and missing ids — which litellm fills with a random uuid4 — get deterministic ones.

Options are checked against ``litellm.get_supported_openai_params`` for the model when litellm
knows it, so an option the provider would silently drop is refused by name instead.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from adapters.chat_completions import request_messages, request_tools
from adapters.clients import PerLoop
from adapters.credentials import api_key
from adapters.endpoints import anthropic_base_url, openai_base_url
from adapters.errors import AdapterError
from adapters.openai_chat import turn_from_chat_data
from adapters.options import CHAT_OPTIONS, COMMON_OPTIONS, Option, check_options
from adapters.retry import (
    CallFailure,
    RetryPolicy,
    call_with_retries,
    failure_from_sdk_error,
    header_map,
)
from adapters.sdk import import_litellm, import_sdk
from contract.assistant import AssistantFactory, EpisodeContext
from contract.messages import AssistantTurn, TurnRequest

DEFAULT_TIMEOUT = 300.0

OPTIONS: tuple[Option, ...] = (
    *COMMON_OPTIONS,
    *CHAT_OPTIONS,
)
_PASSED_AS_IS = frozenset(o.name for o in OPTIONS) - {"timeout", "max_attempts"}


def make_factory(
    model: str, options: Mapping[str, Any], base_url: str | None, retry: RetryPolicy
) -> AssistantFactory:
    """A factory of ``litellm/<model>`` assistants; checks options up front."""
    target = f"litellm/{model}"
    litellm = import_litellm()
    _quiet_litellm(litellm)
    refused = _refused_by_provider(litellm, model, options)
    checked = check_options(options, OPTIONS, target=target, refused=refused)
    timeout = checked.pop("timeout", DEFAULT_TIMEOUT)
    retry = replace(retry, timeout=timeout)
    if "max_attempts" in checked:
        retry = replace(retry, max_attempts=checked.pop("max_attempts"))
    extra: dict[str, Any] = {}
    clients: PerLoop[Any] | None = None
    if model.startswith("openai/"):
        # litellm's OpenAI-compatible route runs on the openai SDK. Handing it our own client,
        # one per event loop, lets us close it on its loop (litellm's cached ones outlive it).
        own_base_url = os.environ.get("OPENAI_BASE_URL") or None
        key = api_key(
            "OPENAI_API_KEY", base_url=base_url, target=target, provider_base_url=own_base_url
        )
        url = openai_base_url(base_url or own_base_url)
        openai = import_sdk("openai")
        clients = PerLoop(
            lambda: openai.AsyncOpenAI(api_key=key, base_url=url, max_retries=0, timeout=timeout)
        )
    elif base_url:
        # litellm's Anthropic route appends /v1/messages itself; the others take the URL as is.
        anthropic = model.startswith("anthropic/")
        extra["api_base"] = anthropic_base_url(base_url) if anthropic else base_url
        # The provider's own key stays home: only OPSBENCH_BASE_URL_KEY goes to --base-url.
        extra["api_key"] = api_key("", base_url=base_url, target=target)
    else:
        _check_key(litellm, model, target)

    if model.startswith("anthropic/"):
        # The Messages wire, so failed tool results carry is_error (adapters.litellm_messages).
        from adapters.litellm_messages import LiteLLMMessagesAssistant, check_messages_options

        check_messages_options(checked, target)

        def make_messages(context: EpisodeContext) -> LiteLLMMessagesAssistant:
            return LiteLLMMessagesAssistant(
                model, checked, retry, timeout=timeout, connection=extra
            )

        return make_messages

    def make(context: EpisodeContext) -> LiteLLMAssistant:
        return LiteLLMAssistant(
            model, {**checked, **extra}, retry, timeout=timeout, clients=clients
        )

    return make


def _check_key(litellm: Any, model: str, target: str) -> None:
    """Refuse up front when the provider's key is missing, as the openai/anthropic adapters do,
    instead of failing every episode. Only keys count: a missing *base URL* variable (Ollama's)
    has a working default."""
    try:
        found = litellm.validate_environment(model=model)
    except Exception:  # an unknown provider: leave it to the first request
        return
    missing = [k for k in found.get("missing_keys", []) if k.endswith(("_API_KEY", "_TOKEN"))]
    if not found.get("keys_in_environment") and missing:
        raise AdapterError(
            f"{target} needs an API key: set {' or '.join(missing)}, or pass --base-url to use "
            "a local or self-hosted server"
        )


def _quiet_litellm(litellm: Any) -> None:
    litellm.suppress_debug_info = True
    # litellm re-serialises provider responses whose arguments are JSON objects; pydantic warns
    # about each one. Normalising those arguments is this adapter's job, so the warning is noise.
    warnings.filterwarnings("ignore", message=r"Pydantic serializer warnings", category=UserWarning)


def _refused_by_provider(litellm: Any, model: str, options: Mapping[str, Any]) -> dict[str, str]:
    asked = [name for name in options if name in _PASSED_AS_IS]
    if not asked:
        return {}
    try:
        # Looking a provider up imports its module lazily, and some warn on import; under
        # warnings-as-errors that would silently skip this check.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            supported = litellm.get_supported_openai_params(model=model)
    except Exception:  # litellm raises many things for a model it does not know
        supported = None
    if not supported:
        return {}
    return {
        name: f"litellm reports that {model} does not support it"
        for name in asked
        if name not in supported
        and not (name == "max_tokens" and "max_completion_tokens" in supported)
    }


class LiteLLMAssistant:
    """An :class:`~contract.assistant.Assistant` on ``litellm.acompletion``."""

    def __init__(
        self,
        model: str,
        params: Mapping[str, Any],
        retry: RetryPolicy,
        *,
        timeout: float,
        clients: PerLoop[Any] | None = None,
    ) -> None:
        self.model = model
        self._params = dict(params)
        self._retry = retry
        self._timeout = timeout
        self._clients = clients

    def request_body(self, request: TurnRequest) -> dict[str, Any]:
        """The keyword arguments of ``litellm.acompletion`` for ``request``."""
        body: dict[str, Any] = {"model": self.model, "messages": request_messages(request)}
        if request.tools:
            body["tools"] = request_tools(request.tools)
        body.update(self._params)
        # litellm's retries (and the SDK's underneath) are off: adapters.retry does them.
        body.update(num_retries=0, max_retries=0, timeout=self._timeout)
        return body

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        """One ``litellm.acompletion`` call, retried per :mod:`adapters.retry`."""
        litellm = import_litellm()
        openai = import_sdk("openai")
        body = self.request_body(request)
        if self._clients is not None:
            body["client"] = await self._clients.get()
        label = f"litellm/{self.model}"

        def describe(exc: BaseException) -> CallFailure | None:
            if isinstance(exc, litellm.BudgetExceededError):
                return CallFailure(message=str(exc), code="budget_exceeded")
            failure = failure_from_sdk_error(exc, openai)
            # litellm rebuilds the error's response and can drop the provider's headers
            # (retry-after among them); it keeps a copy here.
            kept = header_map(getattr(exc, "litellm_response_headers", None))
            if failure is not None and kept and not failure.headers:
                failure = replace(failure, headers=kept)
            return failure

        async def call() -> Any:
            return await litellm.acompletion(**body)

        response = await call_with_retries(call, describe=describe, policy=self._retry, label=label)
        return turn_from_chat_data(
            _plain(response), request, label=label, model=self.model, replace_random_ids=True
        )


def _plain(response: Any) -> Any:
    """litellm's ``ModelResponse`` as plain data (its serializer warnings are irrelevant here)."""
    if hasattr(response, "model_dump"):
        return response.model_dump(warnings=False)
    return response
