"""What a tool is: name, description, parameter schema, effect class, handler and inverse.

Handlers are plain functions ``handler(tx, args) -> dict``. Their state arrives by injection as
a :class:`WorldTx` (the sandbox's transaction), so a handler unit-tests as a function and the
tools package needs nothing from the sandbox.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol


class Effect(StrEnum):
    """How far a tool's change can be undone (DESIGN §2)."""

    READ = "read"
    REVERSIBLE = "reversible"
    COMPENSABLE = "compensable"
    IRREVERSIBLE = "irreversible"

    @property
    def rank(self) -> int:
        return _EFFECT_RANK[self]


_EFFECT_RANK = {"read": 0, "reversible": 1, "compensable": 2, "irreversible": 3}


class WorldTx(Protocol):
    """The state API a handler sees: reads, and writes that the ledger records."""

    now: str

    def get(self, table: str, record_id: str) -> dict[str, Any] | None: ...
    def rows(self, table: str) -> Iterator[dict[str, Any]]: ...
    def find(self, table: str, **equal: Any) -> list[dict[str, Any]]: ...
    def has_table(self, table: str) -> bool: ...
    def insert(self, table: str, fields: dict[str, Any]) -> dict[str, Any]: ...
    def update(self, table: str, record_id: str, **fields: Any) -> dict[str, Any]: ...
    def delete(self, table: str, record_id: str) -> None: ...
    def escalate_effect(self, effect: Effect, note: str) -> None: ...


Handler = Callable[[WorldTx, dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Tool:
    """One business operation the assistant can call.

    ``parameters`` is a JSON Schema object. A string property may carry ``x-table: services``:
    the registry then specialises it per business with an ``enum`` of that table's ids (for small
    catalogue tables) and strips the ``x-`` keys from what models see.
    ``inverse`` names the tool that undoes (reversible) or offsets (compensable) this one.
    ``ends_call`` marks tools after which the call is over (``transfer_to_human``).
    """

    name: str
    description: str
    parameters: dict[str, Any]
    effect: Effect
    handler: Handler
    inverse: str | None = None
    tables: tuple[str, ...] = ()
    ends_call: bool = False
    tags: tuple[str, ...] = field(default=())

    @property
    def writes(self) -> bool:
        return self.effect != Effect.READ
