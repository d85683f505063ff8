"""From a model string to an :data:`~contract.assistant.AssistantFactory`.

=====================================  ==================================================
``openai/<model>``                     :mod:`adapters.openai_chat` (Chat Completions or
                                       Responses, see there); any OpenAI-compatible server
                                       with ``--base-url`` / ``OPENAI_BASE_URL``
``anthropic/<model>``                  :mod:`adapters.anthropic_messages`
``litellm/<litellm model string>``     :mod:`adapters.litellm_chat`
``reference/<policy>``                 the offline reference assistants (``adapters.reference``)
``python:package.module:factory``      :mod:`adapters.custom`, your own agent
=====================================  ==================================================

Options are checked and keys looked up when the factory is made, so a bad option or a missing
key fails before any episode runs. SDKs are imported only for the adapter chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from adapters.errors import AdapterError, UnsupportedOptionError
from adapters.retry import RetryPolicy
from contract.assistant import AssistantFactory
from sandbox.briefing import BriefedFactory

MODEL_FORMS = (
    "openai/<model>",
    "anthropic/<model>",
    "litellm/<litellm model>",
    "reference/<policy>",
    "python:package.module:factory",
)

AnyFactory = AssistantFactory | BriefedFactory
"""What a model string gives: a plain factory, or (``reference/``) one briefed with the plan."""

Builder = Callable[[str, Mapping[str, Any], "str | None", RetryPolicy], AnyFactory]


def make_factory(
    model: str,
    options: Mapping[str, Any] | None = None,
    base_url: str | None = None,
    *,
    retry: RetryPolicy | None = None,
) -> AnyFactory:
    """The factory for ``model`` with ``options`` (``-M``) and ``base_url`` (``--base-url``).

    ``retry`` replaces the default :class:`~adapters.retry.RetryPolicy` of provider adapters
    (tests pass one with a recording ``sleep``). Raises :class:`~adapters.errors.AdapterError`
    (or a subclass) for a bad model string, option, key or missing SDK.
    """
    options = dict(options or {})
    retry = retry or RetryPolicy()
    if model.startswith("python:"):
        from adapters import custom

        return custom.make_factory(model.removeprefix("python:"), options, base_url)
    provider, sep, name = model.partition("/")
    builder = _BUILDERS.get(provider)
    if not sep or not name or builder is None:
        raise AdapterError(f"unknown model {model!r}: expected one of {', '.join(MODEL_FORMS)}")
    return builder(name, options, base_url, retry)


def _openai(
    name: str, options: Mapping[str, Any], base_url: str | None, retry: RetryPolicy
) -> AssistantFactory:
    from adapters import openai_chat

    return openai_chat.make_factory(name, options, base_url, retry)


def _anthropic(
    name: str, options: Mapping[str, Any], base_url: str | None, retry: RetryPolicy
) -> AssistantFactory:
    from adapters import anthropic_messages

    return anthropic_messages.make_factory(name, options, base_url, retry)


def _litellm(
    name: str, options: Mapping[str, Any], base_url: str | None, retry: RetryPolicy
) -> AssistantFactory:
    from adapters import litellm_chat

    return litellm_chat.make_factory(name, options, base_url, retry)


def _reference(
    name: str, options: Mapping[str, Any], base_url: str | None, retry: RetryPolicy
) -> BriefedFactory:
    # HOOK(reference/): the reference assistants live in adapters/reference/ (their own issue).
    # They are offline and deterministic: no options, no base URL, no retries apply.
    from adapters.reference import FLAWS, ROUTES, reference_factory

    if name not in (*FLAWS, *ROUTES):
        names = (*FLAWS, *ROUTES)
        raise AdapterError(
            f"unknown reference/{name}; expected one of reference/{', reference/'.join(names)}"
        )
    if options:
        option = next(iter(options))
        raise UnsupportedOptionError(
            f"option {option!r} is not supported by reference/{name}: reference assistants take no options",
            option=option,
        )
    if base_url is not None:
        raise AdapterError(f"reference/{name} runs in-process; --base-url does not apply to it")
    return reference_factory(name)


_BUILDERS: dict[str, Builder] = {
    "openai": _openai,
    "anthropic": _anthropic,
    "litellm": _litellm,
    "reference": _reference,
}
