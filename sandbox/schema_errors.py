"""Readable JSON Schema errors: unknown fields with a did-you-mean, bad values quoted short.

Shared by the state (record schemas) and the business loader (file schemas), so a misspelt
field reads the same wherever it is.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

# A quoted bad value longer than this is cut (an error line must stay one readable line).
MAX_VALUE_CHARS = 80


def short_repr(value: Any, limit: int = MAX_VALUE_CHARS) -> str:
    """``repr(value)``, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def did_you_mean(word: str, choices: list[str]) -> str:
    """``"; did you mean 'x'?"`` when one of ``choices`` is close to ``word``, else ``""``."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def describe(error: ValidationError) -> Iterator[tuple[list[Any], str]]:
    """``(path, message)`` pairs for one error: one per unknown field, else one."""
    path = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        known = sorted(schema.get("properties", {}))
        for key in sorted(k for k in error.instance if k not in known):
            if not isinstance(key, str):
                yield path, f"unknown field {short_repr(key)}; fields are strings"
                continue
            hint = did_you_mean(key, known) or (f"; known: {', '.join(known)}" if known else "")
            yield [*path, key], f"unknown field {short_repr(key)}{hint}"
        return
    message = error.message
    instance_repr = repr(error.instance)
    if len(instance_repr) > MAX_VALUE_CHARS and instance_repr in message:
        message = message.replace(instance_repr, short_repr(error.instance))
    yield path, message
