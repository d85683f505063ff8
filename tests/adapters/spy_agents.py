"""Custom agents (``python:tests.adapters.spy_agents:...``) for the answer-key tests."""

from __future__ import annotations

from typing import Any

from contract.messages import AssistantTurn, TurnRequest

# Everything the Spy's factory was called with, and every request it answered.
CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
REQUESTS: list[TurnRequest] = []


class Spy:
    """Records what it is given; answers every turn with the same line and calls no tool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        CALLS.append((args, kwargs))

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        REQUESTS.append(request)
        return AssistantTurn("I see. Could you tell me more?")


def oracle_by_registry(context: Any) -> Any:
    """The README trick of old: build the oracle from the context the agent is given."""
    from adapters.registry import make_factory

    return make_factory("reference/oracle", {})(context)


def oracle_by_reference(context: Any) -> Any:
    from adapters.reference import reference_factory

    return reference_factory("oracle")(context)


def oracle_briefed_from_context(context: Any) -> Any:
    """Brief the oracle from whatever the context carries about the task."""
    from adapters.reference import reference_factory
    from sandbox.briefing import Briefing

    plan = getattr(context, "plan", None) or getattr(context, "oracle", None) or ()
    brief = Briefing(
        task_id=getattr(context, "task_id", ""),
        plan=tuple(plan),
        temperament="calm",
        session=0,
        sessions=1,
        coverage="",
        faulted_tools=frozenset(),
    )
    return reference_factory("oracle")(context, brief)
