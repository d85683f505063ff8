"""``python:package.module:factory`` — your own agent, behind the same protocol as any model.

``factory`` is any callable that takes an :class:`~contract.assistant.EpisodeContext` and returns
an object with ``async def respond(self, request: TurnRequest) -> AssistantTurn`` (a class with
such a method and an ``__init__(self, context)`` works as is). Model options (``-M name=value``)
and ``--base-url`` are passed to it as keyword arguments, so it declares what it accepts; an
option it does not declare is refused by name. See ``adapters/README.md`` for an example.

No retries are added: a custom agent calls whatever it calls in its own way. To report that its
backend is unreachable, it raises :class:`~adapters.errors.ProviderError`.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from adapters.errors import AdapterError, UnsupportedOptionError
from contract.assistant import Assistant, AssistantFactory, EpisodeContext


def make_factory(
    target: str, options: Mapping[str, Any], base_url: str | None = None
) -> AssistantFactory:
    """The factory named by ``target`` (``package.module:factory``), options bound to it."""
    model = f"python:{target}"
    factory = load_object(target)
    kwargs = dict(options)
    if base_url is not None:
        kwargs["base_url"] = base_url
    check_accepts(factory, kwargs, model)

    def make(context: EpisodeContext) -> Assistant:
        assistant = factory(context, **kwargs)
        respond = getattr(assistant, "respond", None)
        if not isinstance(assistant, Assistant) or not inspect.iscoroutinefunction(respond):
            raise AdapterError(
                f"{model} returned {type(assistant).__name__}, which has no "
                "`async def respond(self, request: TurnRequest) -> AssistantTurn` method"
            )
        return assistant

    return make


def load_object(target: str) -> Callable[..., Any]:
    """Import ``package.module:attribute`` (the attribute may be dotted) and return it."""
    module_name, sep, attribute = target.partition(":")
    if not sep or not module_name or not attribute:
        raise AdapterError(
            f"python:{target} should name a factory as python:package.module:factory"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise AdapterError(
            f"python:{target}: cannot import module {module_name!r} ({exc}); is it installed "
            "or on PYTHONPATH?"
        ) from exc
    value: Any = module
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise AdapterError(
                f"python:{target}: module {module_name!r} has no attribute {attribute!r}"
            ) from None
    if not callable(value):
        raise AdapterError(
            f"python:{target} should be callable (context -> assistant), got {type(value).__name__}"
        )
    return value


def check_accepts(factory: Callable[..., Any], kwargs: Mapping[str, Any], model: str) -> None:
    """Refuse, by name, an option (``-M``) or ``--base-url`` that ``factory`` does not take."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return  # a builtin or C callable: let the call itself complain
    try:
        signature.bind(None, **kwargs)
    except TypeError:
        params = signature.parameters
        takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
        for name in kwargs:
            if not takes_any and name not in params:
                what = "--base-url" if name == "base_url" else f"option {name!r}"
                raise UnsupportedOptionError(
                    f"{what} is not supported by {model}: its factory takes no such keyword "
                    f"argument (it takes: {', '.join(list(params)[1:]) or 'only the context'})",
                    option=name,
                ) from None
        raise AdapterError(
            f"{model} must be callable as factory(context, **options); its signature is {signature}"
        ) from None
