"""Model options (``-M name=value``): parsing from the command line and checking per adapter.

Each adapter declares the options it passes to its provider as :class:`Option` values; anything
else is refused with an :class:`~adapters.errors.UnsupportedOptionError` that names the option
and lists what is accepted, so a typo never silently changes what is measured.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from adapters.errors import AdapterError, UnsupportedOptionError

Kind = Literal["int", "float", "bool", "str", "str_list", "int_or_str"]


@dataclass(frozen=True)
class Option:
    """One option an adapter accepts: its name, the kind of value, and allowed values if any."""

    name: str
    kind: Kind
    help: str
    choices: tuple[str, ...] = ()
    # Bounds of a number: ``greater_than`` excludes its value, ``at_least`` includes it.
    greater_than: float | None = None
    at_least: float | None = None


# Options every provider adapter takes: they shape how we call, not what the model sees.
COMMON_OPTIONS: tuple[Option, ...] = (
    Option(
        "timeout",
        "float",
        "seconds one request attempt may take in all, the whole reply included",
        greater_than=0,
    ),
    Option(
        "max_attempts",
        "int",
        "requests to make in all before giving up (retry budget)",
        at_least=1,
    ),
)

# The sampling options of the OpenAI Chat Completions shape, which litellm speaks too.
CHAT_OPTIONS: tuple[Option, ...] = (
    Option("temperature", "float", "sampling temperature"),
    Option("top_p", "float", "nucleus sampling"),
    Option("max_tokens", "int", "most tokens to generate per response"),
    Option("seed", "int", "best-effort deterministic sampling"),
    Option("stop", "str_list", "stop sequences"),
    Option(
        "reasoning_effort",
        "str",
        "how much a reasoning model thinks",
        choices=("none", "minimal", "low", "medium", "high", "xhigh"),
    ),
    Option("parallel_tool_calls", "bool", "allow several tool calls per response"),
)


def parse_model_options(pairs: Iterable[str]) -> dict[str, Any]:
    """``["temperature=0", "stop=[\\"END\\"]"]`` -> ``{"temperature": 0, "stop": ["END"]}``.

    Values are read as JSON when they parse (numbers, booleans, lists), else kept as text.
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise AdapterError(
                f"model option {pair!r} should look like name=value, e.g. temperature=0"
            )
        try:
            value: Any = json.loads(text)
        except json.JSONDecodeError:
            value = text
        options[name] = value
    return options


def check_options(
    options: Mapping[str, Any],
    accepted: Iterable[Option],
    *,
    target: str,
    refused: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The options coerced to their declared kinds; raises on any option not accepted.

    ``refused`` maps option names this particular model rejects to the reason, so the error
    can say why (e.g. reasoning models take no ``temperature``).
    """
    table = {o.name: o for o in accepted}
    out: dict[str, Any] = {}
    for name, value in options.items():
        if refused and name in refused:
            raise UnsupportedOptionError(
                f"option {name!r} is not supported by {target}: {refused[name]}", option=name
            )
        option = table.get(name)
        if option is None:
            known = ", ".join(sorted(table)) or "none"
            raise UnsupportedOptionError(
                f"option {name!r} is not supported by {target}; supported options: {known}",
                option=name,
            )
        out[name] = _check_bounds(option, _coerce(option, value, target), target)
    return out


def _check_bounds(option: Option, value: Any, target: str) -> Any:
    """``value`` if it is within the option's bounds (NaN never is)."""
    unit = "an integer" if option.kind == "int" else "a number"
    if option.greater_than is not None and not value > option.greater_than:
        expected = f"{unit} greater than {option.greater_than:g}"
    elif option.at_least is not None and not value >= option.at_least:
        expected = f"{unit} of at least {option.at_least:g}"
    else:
        return value
    raise UnsupportedOptionError(
        f"option {option.name!r} for {target} expects {expected}, got {value!r}",
        option=option.name,
    )


def _coerce(option: Option, value: Any, target: str) -> Any:
    def bad(expected: str) -> UnsupportedOptionError:
        return UnsupportedOptionError(
            f"option {option.name!r} for {target} expects {expected}, got {value!r}",
            option=option.name,
        )

    kind = option.kind
    if kind == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise bad("true or false")
    if kind in ("int", "int_or_str"):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            return int(str(value))
        except ValueError:
            if kind == "int":
                raise bad("an integer") from None
    if kind == "float":
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        try:
            return float(str(value))
        except ValueError:
            raise bad("a number") from None
    if kind == "str_list":
        if isinstance(value, str):
            return [value]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return value
        raise bad("a string or a list of strings")
    text = str(value)
    if option.choices and text not in option.choices:
        raise bad("one of " + ", ".join(option.choices))
    return text
