"""The tool registry: which tools exist, their public schemas, validation of arguments."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from tools import (
    appointments,
    classes,
    commerce,
    customers,
    giftcards,
    history,
    memberships,
    messaging,
    payments,
    pet_prescriptions,
    pets,
    prescriptions,
    stay_charges,
    stays,
    subscriptions,
    telecom,
    workorders,
)
from tools.argcheck import Check, compile_check
from tools.contract import Tool
from tools.errors import ToolError

if TYPE_CHECKING:
    import jsonschema
    from jsonschema.exceptions import ValidationError


@dataclass(frozen=True)
class ToolSpec:
    """What a model is shown of a tool: name, description and the JSON Schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


def _strip_extensions(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _strip_extensions(v) for k, v in schema.items() if not k.startswith("x-")}
    if isinstance(schema, list):
        return [_strip_extensions(v) for v in schema]
    return schema


def _fill_enums(schema: Any, ids: Mapping[str, list[str]]) -> Any:
    if isinstance(schema, dict):
        out = {k: _fill_enums(v, ids) for k, v in schema.items()}
        table = str(schema.get("x-table"))
        if schema.get("x-enum-ids") and table in ids and ids[table]:
            out["enum"] = list(ids[table])
        return out
    if isinstance(schema, list):
        return [_fill_enums(v, ids) for v in schema]
    return schema


def _field_of(error: ValidationError) -> str | None:
    path = [str(p) for p in error.absolute_path]
    if error.validator == "required":
        match = re.match(r"'([^']+)' is a required property", error.message)
        if match:
            path.append(match.group(1))
    elif error.validator == "additionalProperties":
        match = re.search(r"\('([^']+)'", error.message)
        if match:
            path.append(match.group(1))
    if not path:
        return None
    text = path[0]
    for part in path[1:]:
        text += f"[{part}]" if part.isdigit() else f".{part}"
    return text


class ToolRegistry:
    """An ordered set of tools with compiled argument validators."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            if tool.name in self._tools:
                raise ValueError(f"tool {tool.name!r} is defined twice")
            self._tools[tool.name] = tool
        self._validators: dict[str, jsonschema.protocols.Validator] = {}
        self._quick: dict[str, Check | None] = {}

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def names(self) -> list[str]:
        return list(self._tools)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def select(self, names: Iterable[str]) -> ToolRegistry:
        """The registry limited to ``names`` (in the catalogue's order). Unknown names raise."""
        wanted = list(names)
        unknown = [n for n in wanted if n not in self._tools]
        if unknown:
            raise KeyError(f"unknown tools {unknown}; known tools are {self.names()}")
        keep = set(wanted)
        return ToolRegistry(t for t in self._tools.values() if t.name in keep)

    def specialise(self, ids: Mapping[str, list[str]]) -> ToolRegistry:
        """A registry whose schemas list this business's ids where a tool asks for them."""
        return ToolRegistry(
            replace(t, parameters=_fill_enums(copy.deepcopy(t.parameters), ids)) for t in self
        )

    def public_schema(self, name: str) -> dict[str, Any]:
        """The parameters schema as models see it (no ``x-`` extension keys)."""
        return self._public[name]

    @cached_property
    def _public(self) -> dict[str, dict[str, Any]]:
        return {t.name: _strip_extensions(t.parameters) for t in self}

    def specs(self) -> list[ToolSpec]:
        """Neutral tool descriptions, in registry order, for the adapters."""
        return list(self._specs)

    @cached_property
    def _specs(self) -> tuple[ToolSpec, ...]:
        # Built once per registry (a business's is shared by its episodes); specs are frozen.
        return tuple(ToolSpec(t.name, t.description, self.public_schema(t.name)) for t in self)

    def validation_error(self, name: str, arguments: Any) -> ToolError | None:
        """The first problem with ``arguments`` for tool ``name``, or ``None`` when valid."""
        # Plainly valid arguments (nearly every call) need no jsonschema: see tools.argcheck.
        if name in self._quick:
            quick = self._quick[name]
        else:
            quick = self._quick[name] = compile_check(self._tools[name].parameters)
        if quick is not None and quick(arguments):
            return None
        import jsonschema  # only for a call that may be invalid: its import is start-up time
        from jsonschema.exceptions import best_match

        validator = self._validators.get(name)
        if validator is None:
            schema = self._tools[name].parameters
            validator = self._validators[name] = jsonschema.Draft202012Validator(schema)
        error = best_match(validator.iter_errors(arguments))
        if error is None:
            return None
        field = _field_of(error)
        where = f" at {field}" if field else ""
        return ToolError("invalid_arguments", f"Invalid arguments{where}: {error.message}", field)


def default_registry() -> ToolRegistry:
    """Every tool OpsBench ships, in a stable order."""
    return ToolRegistry(
        [
            *customers.TOOLS,
            *appointments.TOOLS,
            *commerce.TOOLS,
            *payments.TOOLS,
            *subscriptions.TOOLS,
            *messaging.TOOLS,
            *history.TOOLS,
            *giftcards.TOOLS,
            *pets.TOOLS,
            *pet_prescriptions.TOOLS,
            *prescriptions.TOOLS,
            *workorders.TOOLS,
            *memberships.TOOLS,
            *classes.TOOLS,
            *stays.TOOLS,
            *stay_charges.TOOLS,
            *telecom.TOOLS,
        ]
    )
