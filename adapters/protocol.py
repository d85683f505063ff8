"""The contract between the episode loop and whoever answers the phone.

Every provider adapter, every reference assistant and every custom agent implements
:class:`Assistant`. A :data:`AssistantFactory` makes a fresh one per episode from an
:class:`EpisodeContext`, so no state leaks between calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from adapters.types import AssistantTurn, TurnRequest


@dataclass(frozen=True)
class EpisodeContext:
    """What a factory may know about the episode it is making an assistant for.

    Provider adapters ignore ``reference``; reference assistants read the task's oracle plan
    from it. It is plain data so adapters need not import the task model.
    """

    task_id: str
    business: str
    seed: int = 0
    trial: int = 0
    reference: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class Assistant(Protocol):
    """Answers one turn at a time.

    ``respond`` gets the whole conversation so far and returns text for the caller, tool calls to
    run, or both. Raises :class:`adapters.errors.ProviderError` when the model could not be
    reached after retries: the episode records that as an infrastructure error.
    """

    async def respond(self, request: TurnRequest) -> AssistantTurn: ...


AssistantFactory = Callable[[EpisodeContext], Assistant]
