"""Small builders for tool parameter schemas, so each tool's schema reads as one block."""

from __future__ import annotations

from typing import Any

from tools.timefmt import DATE_PATTERN, TIME_PATTERN


def obj(required: list[str] | tuple[str, ...] = (), **properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema with no extra properties allowed."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


def ref(table: str, description: str, *, enum_ids: bool = False) -> dict[str, Any]:
    """An id of a record in ``table`` (``enum_ids``: list the business's ids in the schema)."""
    schema: dict[str, Any] = {
        "type": "string",
        "minLength": 1,
        "description": description,
        "x-table": table,
    }
    if enum_ids:
        schema["x-enum-ids"] = True
    return schema


def text(description: str, *, min_length: int = 1, max_length: int = 2000) -> dict[str, Any]:
    return {
        "type": "string",
        "minLength": min_length,
        "maxLength": max_length,
        "description": description,
    }


def cents(description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "maximum": 100_000_00, "description": description}


def time(description: str) -> dict[str, Any]:
    return {
        "type": "string",
        "pattern": TIME_PATTERN,
        "description": description + " Business-local time, YYYY-MM-DDTHH:MM.",
    }


def date(description: str) -> dict[str, Any]:
    return {"type": "string", "pattern": DATE_PATTERN, "description": description + " YYYY-MM-DD."}


def choice(values: list[str], description: str) -> dict[str, Any]:
    return {"type": "string", "enum": values, "description": description}


def integer(description: str, minimum: int, maximum: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": minimum, "maximum": maximum, "description": description}
