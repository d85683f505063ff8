"""Prices per token, from litellm's model cost map.

The map is the JSON file litellm ships and loads itself when ``LITELLM_LOCAL_MODEL_COST_MAP`` is
set. Reading the file directly spares importing litellm (several seconds) just to price a
call; when litellm is already imported its live ``model_cost`` is used instead, so models a
user registered with litellm are priced too. Nothing here touches the network.

A model the map does not know has no price: :func:`cost_usd` returns ``None`` (unknown), never 0.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from adapters.sdk import import_litellm

COST_MAP_FILE = "model_prices_and_context_window_backup.json"


@dataclass(frozen=True)
class TokenCounts:
    """Tokens of one request, split the way prices are.

    ``input_tokens`` counts every prompt token, including ``cached_tokens`` (read from the
    prompt cache) and ``cache_write_tokens`` (written to it). ``output_tokens`` includes
    reasoning tokens, as both OpenAI and Anthropic bill them.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0


@dataclass(frozen=True)
class Price:
    """USD per token. Cache prices fall back to the input price when the map has none."""

    input: float
    output: float
    cache_read: float | None = None
    cache_write: float | None = None

    def cost(self, tokens: TokenCounts) -> float:
        fresh = max(0, tokens.input_tokens - tokens.cached_tokens - tokens.cache_write_tokens)
        read = self.input if self.cache_read is None else self.cache_read
        write = self.input if self.cache_write is None else self.cache_write
        return (
            fresh * self.input
            + tokens.cached_tokens * read
            + tokens.cache_write_tokens * write
            + tokens.output_tokens * self.output
        )


def price_of(*names: str | None) -> Price | None:
    """The price of the first of ``names`` the cost map knows, or ``None``.

    Each name is tried as given and without a leading ``provider/`` segment, so both
    ``anthropic/claude-sonnet-4-5`` and ``claude-sonnet-4-5`` are found.
    """
    table = _cost_map()
    for name in names:
        if not name:
            continue
        for key in (name, name.split("/", 1)[-1]):
            entry = table.get(key)
            if isinstance(entry, Mapping):
                price = _price(entry)
                if price is not None:
                    return price
    return None


def cost_usd(tokens: TokenCounts, *names: str | None) -> float | None:
    """The cost of ``tokens`` at the price of the first known model name; ``None`` if unknown."""
    price = price_of(*names)
    return None if price is None else price.cost(tokens)


def _price(entry: Mapping[str, Any]) -> Price | None:
    given_in = entry.get("input_cost_per_token")
    given_out = entry.get("output_cost_per_token")
    if not isinstance(given_in, int | float) or not isinstance(given_out, int | float):
        return None
    read = entry.get("cache_read_input_token_cost")
    write = entry.get("cache_creation_input_token_cost")
    return Price(
        input=float(given_in),
        output=float(given_out),
        cache_read=float(read) if isinstance(read, int | float) else None,
        cache_write=float(write) if isinstance(write, int | float) else None,
    )


def _cost_map() -> Mapping[str, Any]:
    if "litellm" in sys.modules:
        return import_litellm().model_cost
    return _shipped_cost_map()


@cache
def _shipped_cost_map() -> Mapping[str, Any]:
    spec = importlib.util.find_spec("litellm")
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            path = Path(folder) / COST_MAP_FILE
            if path.is_file():
                data = json.loads(path.read_text(encoding="utf-8"))
                return data if isinstance(data, dict) else {}
    if spec is None:
        return {}
    # The file moved in some litellm release: ask litellm itself (slow, but correct).
    return import_litellm().model_cost
