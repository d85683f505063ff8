"""The contract between the episode loop and whoever answers the phone.

Every provider adapter, every reference assistant and every custom agent implements
:class:`Assistant`. A :data:`AssistantFactory` makes a fresh one per episode from an
:class:`EpisodeContext`, so no state leaks between calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from contract.messages import AssistantTurn, TurnRequest


@dataclass(frozen=True)
class EpisodeContext:
    """What a factory is told about the call it is making an assistant for.

    Only what a deployed assistant would know: which business it answers for, and the run's
    seed and trial (for its own sampling). Nothing about the task: no task id, no reference
    plan, no expectations, no fault schedule. The business's instructions, policy, tools,
    the conversation and the simulated time arrive in each :class:`TurnRequest`.
    """

    business: str
    seed: int = 0
    trial: int = 0


@runtime_checkable
class Assistant(Protocol):
    """Answers one turn at a time.

    ``respond`` gets the whole conversation so far and returns text for the caller, tool calls to
    run, or both. Raises :class:`adapters.errors.ProviderError` when the model could not be
    reached after retries: the episode records that as an infrastructure error.

    An assistant may also define ``async def aclose(self) -> None``: the episode loop awaits it
    when the assistant's session ends, however it ended (an agent running its own loop cancels
    the work the episode will not resume).
    """

    async def respond(self, request: TurnRequest) -> AssistantTurn: ...


AssistantFactory = Callable[[EpisodeContext], Assistant]
