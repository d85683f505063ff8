"""Test agents for the application tests, loaded as ``testagent/<Class>``.

They are real implementations of the assistant protocol that stand in for a model that knows the
right answer (the oracle) plus one infrastructure behaviour (a provider that is down, a bug, odd
usage figures). Knowing the answer takes the task's plan, which only a
:class:`~sandbox.briefing.BriefedFactory` is given, so ``tests/app/conftest.py`` registers the
``testagent/`` prefix for the tests alone; ``python:`` agents are never briefed.
"""

from __future__ import annotations

import asyncio
import json
import os

from adapters.errors import ProviderError
from adapters.reference import reference_factory
from contract.assistant import EpisodeContext
from contract.messages import AssistantTurn, TurnRequest, Usage
from sandbox.briefing import Briefing

# Task ids (comma-separated) whose episodes fail as if the provider were down.
FAIL_ENV = "OPSBENCH_TEST_FAIL_TASKS"


class FlakyOracle:
    """The oracle reference assistant, except that its provider is "down" for some tasks."""

    def __init__(self, context: EpisodeContext, brief: Briefing) -> None:
        self.task_id = brief.task_id
        self.inner = reference_factory("oracle")(context, brief)

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        failing = os.environ.get(FAIL_ENV, "").split(",")
        if self.task_id in failing:
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


class Tunable:
    """The oracle, taking the options a hosted model would (``-M temperature=0``, headers)."""

    def __init__(
        self,
        context: EpisodeContext,
        brief: Briefing,
        temperature: float = 0.0,
        headers: dict | None = None,
        timeout: float | None = None,
        base_url: str | None = None,
    ) -> None:
        self.inner = reference_factory("oracle")(context, brief)

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        return await self.inner.respond(request)


class TokensOnly:
    """The oracle reporting tokens but neither requests nor a price, as some agents do."""

    def __init__(self, context: EpisodeContext, brief: Briefing) -> None:
        self.inner = reference_factory("oracle")(context, brief)

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        turn = await self.inner.respond(request)
        return AssistantTurn(turn.text, turn.tool_calls, Usage(input_tokens=100, output_tokens=20))


class HangUp:
    """A simulated caller's model that says goodbye at once."""

    def __init__(self, context: EpisodeContext) -> None:
        pass

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        return AssistantTurn("Thanks, goodbye.", usage=Usage(requests=1, cost_usd=0.0))


# Task ids (comma-separated) where BuggyOracle trips over its own bug.
BUG_ENV = "OPSBENCH_TEST_BUG_TASKS"
# Filled by BuggyOracle when its bug fires; WaitsForBug waits for it.
BUGS_RAISED: list[str] = []


class BuggyOracle:
    """The oracle with a bug (a KeyError, as from a malformed provider reply) on some tasks."""

    def __init__(self, context: EpisodeContext, brief: Briefing) -> None:
        self.task_id = brief.task_id
        self.inner = reference_factory("oracle")(context, brief)

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        if self.task_id in os.environ.get(BUG_ENV, "").split(","):
            BUGS_RAISED.append(self.task_id)
            return {}["choices"]
        return await self.inner.respond(request)


class WaitsForBug:
    """The oracle, whose first answer waits until BuggyOracle's bug fired: still in flight."""

    def __init__(self, context: EpisodeContext, brief: Briefing) -> None:
        self.inner = reference_factory("oracle")(context, brief)

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        for _ in range(100_000):
            if BUGS_RAISED:
                break
            await asyncio.sleep(0)
        return await self.inner.respond(request)


class OwnSDKAgent:
    """A ``python:`` agent that calls its model with the openai SDK itself, with the key in
    ``OPENAI_API_KEY``, and lets the SDK's own errors (a 401 quoting the key) propagate."""

    def __init__(self, context: EpisodeContext, base_url: str | None = None) -> None:
        self.base_url = base_url

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        import openai

        messages = [{"role": "system", "content": request.system}]
        messages += [{"role": "user", "content": m.content} for m in request.messages if m.content]
        key = os.environ["OPENAI_API_KEY"]
        async with openai.AsyncOpenAI(api_key=key, base_url=self.base_url, max_retries=0) as sdk:
            reply = await sdk.chat.completions.create(model="own-model", messages=messages)
        return AssistantTurn(reply.choices[0].message.content or "")
