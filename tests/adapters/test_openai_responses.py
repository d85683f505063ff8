"""openai/ on the Responses API (reasoning and Responses-only models): stateless requests that
send reasoning items back every turn."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.errors import ProviderError
from adapters.server import ScriptedAssistant, reply
from tests.adapters.support import (
    OPENAI_RESPONSES,
    SYSTEM,
    TOOLS,
    assistant,
    first_request,
    respond,
    with_results,
)

FIND = {"phone": "+1 555 0101"}


def test_reasoning_items_go_back_with_the_calls_they_came_with(server, retry):
    server.reset(ScriptedAssistant([reply("Let me look.", ("find_customer", FIND)), "Found you."]))
    model = assistant(server, OPENAI_RESPONSES, retry, reasoning_effort="low", max_tokens=300)
    request = first_request()
    turn = respond(model, request)
    [call] = turn.tool_calls
    respond(model, with_results(request, turn, ['{"id": "CUS-1001"}']))

    body = server.requests[-1].body
    assert body["store"] is False and body["include"] == ["reasoning.encrypted_content"]
    assert body["instructions"] == SYSTEM
    assert body["reasoning"] == {"effort": "low"} and body["max_output_tokens"] == 300
    assert not {"temperature", "top_p"} & set(body)
    assert body["tools"][0] == {
        "type": "function",
        "name": TOOLS[0].name,
        "description": TOOLS[0].description,
        "parameters": TOOLS[0].parameters,
        "strict": False,
    }
    kinds = [(i["type"], i.get("role")) for i in body["input"]]
    assert kinds == [
        ("message", "user"),
        ("reasoning", None),
        ("message", "assistant"),
        ("function_call", None),
        ("function_call_output", None),
    ]
    reasoning, function_call, output = body["input"][1], body["input"][3], body["input"][4]
    assert (
        reasoning == server.requests[0].response_output[0]
        if hasattr(server.requests[0], "response_output")
        else reasoning["encrypted_content"]
    )
    assert (function_call["call_id"], function_call["arguments"]) == (call.id, call.arguments)
    assert output == {
        "type": "function_call_output",
        "call_id": call.id,
        "output": '{"id": "CUS-1001"}',
    }
    assert server.requests[-1].status == 200


def test_dropping_the_reasoning_item_is_refused_and_not_retried(server, retry, sleeps):
    server.reset(ScriptedAssistant([reply("", ("find_customer", FIND)), "Found you."]))
    model = assistant(server, OPENAI_RESPONSES, retry)
    request = first_request()
    turn = respond(model, request)
    items = [i for i in turn.provider_state["openai_output"] if i["type"] != "reasoning"]
    dropped = replace(turn, provider_state={"openai_output": items})
    with pytest.raises(ProviderError, match="without its required 'reasoning' item") as caught:
        respond(model, with_results(request, dropped, ["{}"]))
    assert (caught.value.status, caught.value.attempts, sleeps.delays) == (400, 1, [])


def test_usage_counts_reasoning_and_cached_tokens(server, retry):
    server.reset(ScriptedAssistant(["One.", "Two."]))
    model = assistant(server, OPENAI_RESPONSES, retry)
    first = respond(model, first_request())
    second = respond(model, first_request("Hello?"))
    assert first.usage.reasoning_tokens > 0 and first.usage.cached_tokens == 0
    assert second.usage.cached_tokens > 0
    # Served from a base URL: the name "gpt-5" says nothing about what this server costs.
    assert first.usage.cost_usd is None
