"""Tokens and cost of one request, read from each wire format's ``usage`` object.

Neutral meaning (see :class:`contract.messages.Usage`): ``input_tokens`` is every prompt token,
cached or not; ``cached_tokens`` the part read from the prompt cache; ``output_tokens`` every
generated token, reasoning included; ``reasoning_tokens`` the part spent reasoning.
Anthropic counts differently (its ``input_tokens`` excludes cache reads and writes), so each
format has its own reader. A response without a ``usage`` object has an unknown cost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adapters.pricing import TokenCounts, cost_usd
from contract.messages import Usage


def chat_completions_usage(usage: Any, *model_names: str | None) -> Usage:
    """From OpenAI Chat Completions ``usage`` (also what litellm returns)."""
    if not isinstance(usage, Mapping):
        return Usage(requests=1, cost_usd=None)
    prompt = _mapping(usage.get("prompt_tokens_details"))
    completion = _mapping(usage.get("completion_tokens_details"))
    tokens = TokenCounts(
        input_tokens=_int(usage.get("prompt_tokens")),
        output_tokens=_int(usage.get("completion_tokens")),
        cached_tokens=_int(prompt.get("cached_tokens")),
        cache_write_tokens=_int(prompt.get("cache_write_tokens")),
    )
    return _usage(tokens, _int(completion.get("reasoning_tokens")), model_names)


def responses_usage(usage: Any, *model_names: str | None) -> Usage:
    """From OpenAI Responses ``usage``."""
    if not isinstance(usage, Mapping):
        return Usage(requests=1, cost_usd=None)
    details_in = _mapping(usage.get("input_tokens_details"))
    details_out = _mapping(usage.get("output_tokens_details"))
    tokens = TokenCounts(
        input_tokens=_int(usage.get("input_tokens")),
        output_tokens=_int(usage.get("output_tokens")),
        cached_tokens=_int(details_in.get("cached_tokens")),
        cache_write_tokens=_int(details_in.get("cache_write_tokens")),
    )
    return _usage(tokens, _int(details_out.get("reasoning_tokens")), model_names)


def messages_usage(usage: Any, *model_names: str | None) -> Usage:
    """From Anthropic Messages ``usage``, whose ``input_tokens`` excludes cache reads/writes."""
    if not isinstance(usage, Mapping):
        return Usage(requests=1, cost_usd=None)
    read = _int(usage.get("cache_read_input_tokens"))
    written = _int(usage.get("cache_creation_input_tokens"))
    details_out = _mapping(usage.get("output_tokens_details"))
    tokens = TokenCounts(
        input_tokens=_int(usage.get("input_tokens")) + read + written,
        output_tokens=_int(usage.get("output_tokens")),
        cached_tokens=read,
        cache_write_tokens=written,
    )
    return _usage(tokens, _int(details_out.get("thinking_tokens")), model_names)


def _usage(tokens: TokenCounts, reasoning: int, model_names: tuple[str | None, ...]) -> Usage:
    return Usage(
        input_tokens=tokens.input_tokens,
        output_tokens=tokens.output_tokens,
        cached_tokens=tokens.cached_tokens,
        reasoning_tokens=reasoning,
        requests=1,
        cost_usd=cost_usd(tokens, *model_names),
    )


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
