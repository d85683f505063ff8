"""Conversation builders for the adapter tests."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from adapters.registry import make_factory
from adapters.retry import RetryPolicy
from adapters.server import LocalServer
from contract.assistant import Assistant, AssistantFactory, EpisodeContext
from contract.messages import AssistantTurn, Message, ToolResult, TurnRequest
from tools import default_registry


class NetworkGuardError(RuntimeError):
    """A test tried to reach something other than this machine (see conftest.loopback_only)."""


SYSTEM = "You answer the phone for Bright Smile Dental."
CONTEXT = EpisodeContext("adapters/test", "test")
TOOLS = tuple(default_registry().select(["find_customer", "book_appointment"]).specs())

# One model string per wire path, with the base URL of the local server it needs.
OPENAI_CHAT = "openai/gpt-4.1"
OPENAI_RESPONSES = "openai/o3"
ANTHROPIC = "anthropic/claude-sonnet-4-6"
LITELLM = "litellm/openai/local-model"
PROVIDER_MODELS = (OPENAI_CHAT, OPENAI_RESPONSES, ANTHROPIC, LITELLM)


def base_url(server: LocalServer, model: str) -> str:
    return server.anthropic_base_url if model.startswith("anthropic/") else server.openai_base_url


def options_for(model: str) -> dict[str, Any]:
    # Against a base URL, openai/ defaults to Chat Completions; o3 is our Responses path.
    return {"api": "responses"} if model == OPENAI_RESPONSES else {}


def factory(
    server: LocalServer,
    model: str,
    retry: RetryPolicy,
    options: Mapping[str, Any] | None = None,
) -> AssistantFactory:
    return make_factory(
        model, {**options_for(model), **(options or {})}, base_url(server, model), retry=retry
    )


def assistant(server: LocalServer, model: str, retry: RetryPolicy, **options: Any) -> Assistant:
    return factory(server, model, retry, options)(CONTEXT)


def first_request(text: str = "Hi, this is Maria Lopez.", system: str = SYSTEM) -> TurnRequest:
    return TurnRequest(system, TOOLS, (Message("user", text),))


def with_results(
    request: TurnRequest, turn: AssistantTurn, contents: list[str], errors: bool = False
) -> TurnRequest:
    """``request`` followed by ``turn`` and a result for each of its calls."""
    results = tuple(
        ToolResult(c.id, c.name, content, is_error=errors)
        for c, content in zip(turn.tool_calls, contents, strict=True)
    )
    return TurnRequest(
        request.system,
        request.tools,
        (*request.messages, turn.as_message(), Message("tool", tool_results=results)),
    )


def respond(assistant: Assistant, request: TurnRequest) -> AssistantTurn:
    return asyncio.run(assistant.respond(request))


README = Path(__file__).parents[2] / "adapters" / "README.md"


def readme_example() -> str:
    """The custom-agent example of adapters/README.md (the block that starts ``# my_agents.py``)."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    [example] = [b for b in blocks if "# my_agents.py" in b]
    return example
