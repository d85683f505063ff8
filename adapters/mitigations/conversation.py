"""Reading the conversation a wrapper is given: the writes of this call, sentences, words.

The conversation holds every tool call the assistant made in this session and what it
returned: for a wrapper that *is* the session's action ledger, seen from the assistant's chair.
Earlier sessions are not in it (each session starts a fresh assistant).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from contract.messages import Message, ToolCall
from contract.yamldata import load_data
from tools import Effect, default_registry

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Attempt:
    """One write the assistant attempted in this session, and how it came out."""

    call: ToolCall
    arguments: dict[str, Any]
    ok: bool
    result: dict[str, Any]

    @property
    def error_message(self) -> str:
        error = self.result.get("error") if isinstance(self.result, dict) else None
        return str(error.get("message", "")) if isinstance(error, dict) else ""

    @property
    def error_code(self) -> str | None:
        error = self.result.get("error") if isinstance(self.result, dict) else None
        return error.get("code") if isinstance(error, dict) else None


@cache
def _effects() -> dict[str, Effect]:
    return {tool.name: tool.effect for tool in default_registry()}


def is_write(tool: str) -> bool:
    """Whether ``tool`` changes state (its declared effect is not ``read``)."""
    effect = _effects().get(tool)
    return effect is not None and effect != Effect.READ


def _json(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def attempts(messages: Sequence[Message], *, writes_only: bool = True) -> list[Attempt]:
    """Every tool call of the conversation that has a result, in order (writes only by default)."""
    results = {r.call_id: r for m in messages for r in m.tool_results}
    out = []
    for message in messages:
        for call in message.tool_calls:
            result = results.get(call.id)
            if result is None or (writes_only and not is_write(call.name)):
                continue
            out.append(
                Attempt(call, _json(call.arguments), not result.is_error, _json(result.content))
            )
    return out


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences (at ``.``, ``!`` or ``?`` followed by a space)."""
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def words_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    """One case-insensitive pattern matching any of ``phrases`` as whole words."""
    alternatives = sorted((re.escape(p.lower()) for p in phrases), key=len, reverse=True)
    return re.compile(r"(?<![\w'])(?:" + "|".join(alternatives) + r")(?![\w'])", re.IGNORECASE)


@cache
def data(name: str) -> dict[str, Any]:
    """A data file of this package (``data/<name>.yaml``)."""
    text = resources.files("adapters.mitigations").joinpath("data", f"{name}.yaml").read_text()
    return load_data(text)
