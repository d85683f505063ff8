"""Tool specs in the shapes the providers' APIs expect."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tools.registry import ToolSpec


def to_openai(specs: Iterable[ToolSpec]) -> list[dict[str, Any]]:
    """OpenAI Chat Completions ``tools``: ``{"type": "function", "function": {...}}``."""
    return [
        {
            "type": "function",
            "function": {"name": s.name, "description": s.description, "parameters": s.parameters},
        }
        for s in specs
    ]


def to_anthropic(specs: Iterable[ToolSpec]) -> list[dict[str, Any]]:
    """Anthropic Messages ``tools``: ``{"name", "description", "input_schema"}``."""
    return [
        {"name": s.name, "description": s.description, "input_schema": s.parameters} for s in specs
    ]


def to_json(specs: Iterable[ToolSpec]) -> list[dict[str, Any]]:
    """OpsBench's own neutral form."""
    return [
        {"name": s.name, "description": s.description, "parameters": s.parameters} for s in specs
    ]
