"""Custom agents for the application tests, loaded through ``python:tests.app.agents:...``.

They are real implementations of the assistant protocol, the way a team's own agent would be.
"""

from __future__ import annotations

import json
import os

from adapters.errors import ProviderError
from adapters.protocol import EpisodeContext
from adapters.reference import reference_factory
from adapters.types import AssistantTurn, TurnRequest, Usage

# Task ids (comma-separated) whose episodes fail as if the provider were down.
FAIL_ENV = "OPSBENCH_TEST_FAIL_TASKS"


class FlakyOracle:
    """The oracle reference assistant, except that its provider is "down" for some tasks."""

    def __init__(self, context: EpisodeContext) -> None:
        self.context = context
        self.inner = reference_factory("oracle")(context)

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        failing = os.environ.get(FAIL_ENV, "").split(",")
        if self.context.task_id in failing:
            raise ProviderError("503 Service Unavailable after 6 attempts", status=503, attempts=6)
        turn = await self.inner.respond(request)
        # Priced like a hosted model, so cost is exercised.
        return AssistantTurn(
            turn.text,
            turn.tool_calls,
            Usage(input_tokens=100, output_tokens=20, requests=1, cost_usd=0.001),
        )


class SilentJudge:
    """A claim judge that finds no claim anywhere, at a known price per request."""

    def __init__(self, context: EpisodeContext) -> None:
        self.context = context

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        assert not request.tools and request.messages[-1].role == "user"
        return AssistantTurn(
            json.dumps({"claims": []}),
            usage=Usage(input_tokens=50, output_tokens=5, requests=1, cost_usd=None),
        )


class GarbledJudge:
    """A claim judge that answers in prose instead of JSON."""

    def __init__(self, context: EpisodeContext) -> None:
        pass

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        return AssistantTurn("I think the assistant booked it.", usage=Usage(requests=1))
