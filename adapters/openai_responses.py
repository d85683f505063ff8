"""``openai/<model>`` on the Responses API (chosen in :mod:`adapters.openai_chat`).

Stateless: ``store`` is false and, for reasoning models, ``include`` asks for
``reasoning.encrypted_content`` so the reasoning items can be sent back next turn without
OpenAI keeping the conversation. Wire shapes are in :mod:`adapters.responses_api`.
"""

from __future__ import annotations

from typing import Any

from adapters.openai_chat import OpenAIAssistantBase
from adapters.responses_api import parse_response, request_params
from adapters.usage import responses_usage
from contract.messages import AssistantTurn, TurnRequest

NOT_ON_RESPONSES = {
    "seed": "the Responses API has no seed",
    "stop": "the Responses API has no stop sequences",
}


class OpenAIResponsesAssistant(OpenAIAssistantBase):
    """An :class:`~contract.assistant.Assistant` on ``responses.create`` via ``AsyncOpenAI``."""

    def request_body(self, request: TurnRequest) -> dict[str, Any]:
        """The keyword arguments of ``responses.create`` for ``request``."""
        body: dict[str, Any] = {"model": self.model, **request_params(request), "store": False}
        if self._reasoning:
            body["include"] = ["reasoning.encrypted_content"]
        for name, value in self._options.items():
            if name == "max_tokens":
                body["max_output_tokens"] = value
            elif name == "reasoning_effort":
                body["reasoning"] = {"effort": value}
            else:
                body[name] = value
        return body

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        """One Responses request, retried per :mod:`adapters.retry`."""
        data = await self._post("/responses", self.request_body(request), "a response")
        text, calls, state = parse_response(data, turn=len(request.messages))
        usage = responses_usage(data.get("usage"), *self._price_names(data))
        return AssistantTurn(text=text, tool_calls=calls, usage=usage, provider_state=state)
