"""openai/ on Chat Completions: the official SDK over HTTP to the local server; request bodies
checked against OpenAI's documented shapes."""

from __future__ import annotations

import json

import pytest

from adapters.errors import UnsupportedOptionError
from adapters.openai_chat import OpenAIChatAssistant
from adapters.openai_responses import OpenAIResponsesAssistant
from adapters.registry import make_factory
from adapters.server import ScriptedAssistant, reply
from tests.adapters.support import (
    CONTEXT,
    OPENAI_CHAT,
    SYSTEM,
    TOOLS,
    assistant,
    first_request,
    respond,
    with_results,
)

FIND = {"phone": "+1 555 0101"}


def test_the_system_prompt_comes_first_and_tool_call_ids_are_echoed(server, retry):
    server.reset(ScriptedAssistant([reply("Let me look.", ("find_customer", FIND)), "Found you."]))
    chat = assistant(server, OPENAI_CHAT, retry)
    request = first_request()
    turn = respond(chat, request)
    assert turn.text == "Let me look."
    [call] = turn.tool_calls
    assert (call.name, json.loads(call.arguments)) == ("find_customer", FIND)

    second = respond(chat, with_results(request, turn, ['{"id": "CUS-1001"}']))
    assert second.text == "Found you." and not second.tool_calls

    body = server.requests[-1].body
    assert body["model"] == "gpt-4.1"
    assert body["messages"] == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "Hi, this is Maria Lopez."},
        {
            "role": "assistant",
            "content": "Let me look.",
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": "find_customer", "arguments": call.arguments},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call.id, "content": '{"id": "CUS-1001"}'},
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in TOOLS
    ]


def test_every_call_of_a_turn_gets_its_own_tool_message_in_call_order(server, retry):
    server.reset(
        ScriptedAssistant(
            [reply("", ("find_customer", FIND), ("find_customer", {"phone": "2"})), "Done."]
        )
    )
    chat = assistant(server, OPENAI_CHAT, retry)
    request = first_request()
    turn = respond(chat, request)
    respond(chat, with_results(request, turn, ['{"n": 1}', '{"n": 2}']))
    messages = server.requests[-1].body["messages"]
    assert messages[2]["content"] is None  # no text, only calls
    tools = [m for m in messages if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tools] == [c.id for c in turn.tool_calls]
    assert [m["content"] for m in tools] == ['{"n": 1}', '{"n": 2}']


def test_model_options_are_passed_through(server, retry):
    server.reset(ScriptedAssistant(["Hello."]))
    chat = assistant(server, OPENAI_CHAT, retry, temperature=0, max_tokens=256, seed=7, stop="END")
    respond(chat, first_request())
    body = server.requests[-1].body
    assert (body["temperature"], body["max_tokens"], body["seed"], body["stop"]) == (
        0.0,
        256,
        7,
        ["END"],
    )


def test_reasoning_models_get_a_developer_prompt_and_max_completion_tokens(server, retry):
    server.reset(ScriptedAssistant(["Hello."]))
    chat = make_factory(
        "openai/o4-mini",
        {"api": "chat", "max_tokens": 512, "reasoning_effort": "low"},
        server.openai_base_url,
        retry=retry,
    )(CONTEXT)
    respond(chat, first_request())
    body = server.requests[-1].body
    assert body["messages"][0] == {"role": "developer", "content": SYSTEM}
    assert body["max_completion_tokens"] == 512 and body["reasoning_effort"] == "low"
    assert not {"temperature", "top_p", "max_tokens"} & set(body)
    assert server.requests[-1].status == 200


@pytest.mark.parametrize("model", ["openai/o3", "openai/o4-mini", "openai/gpt-5", "openai/gpt-5.1"])
@pytest.mark.parametrize("option", ["temperature", "top_p"])
def test_sampling_options_for_reasoning_models_are_refused_by_name(model, option):
    with pytest.raises(UnsupportedOptionError, match=f"'{option}'.*reasoning") as caught:
        make_factory(model, {option: 0}, "http://127.0.0.1:9/v1")
    assert caught.value.option == option


def test_a_non_reasoning_gpt5_variant_takes_temperature(server, retry):
    server.reset(ScriptedAssistant(["Hello."]))
    chat = make_factory(
        "openai/gpt-5-chat-latest", {"temperature": 0}, server.openai_base_url, retry=retry
    )(CONTEXT)
    respond(chat, first_request())
    assert server.requests[-1].body["temperature"] == 0.0


def test_an_unknown_option_is_refused_with_the_supported_ones():
    with pytest.raises(
        UnsupportedOptionError, match=r"'temprature'.*supported options: .*temperature"
    ):
        make_factory(OPENAI_CHAT, {"temprature": 0}, "http://127.0.0.1:9/v1")


def test_a_badly_typed_option_says_what_was_expected():
    with pytest.raises(
        UnsupportedOptionError, match=r"'max_tokens'.*expects an integer, got 'lots'"
    ):
        make_factory(OPENAI_CHAT, {"max_tokens": "lots"}, "http://127.0.0.1:9/v1")


def test_the_sdk_retries_are_off_and_a_local_server_needs_no_key(server, retry):
    server.reset(ScriptedAssistant(["Hello."]))
    respond(assistant(server, OPENAI_CHAT, retry), first_request())
    headers = server.requests[-1].headers
    assert headers["authorization"] == "Bearer opsbench-local"
    assert headers["x-stainless-retry-count"] == "0"


def test_reasoning_and_responses_only_models_choose_the_responses_api(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    local = "http://127.0.0.1:9/v1"

    def made(model: str, base_url: str | None, **options: object) -> object:
        return make_factory(model, options, base_url)(CONTEXT)

    assert isinstance(made("openai/gpt-4.1", None), OpenAIChatAssistant)
    assert isinstance(made("openai/o3", None), OpenAIResponsesAssistant)
    assert isinstance(made("openai/gpt-5", None), OpenAIResponsesAssistant)
    assert isinstance(made("openai/o3", local), OpenAIChatAssistant)
    assert isinstance(made("openai/o3-pro", local), OpenAIResponsesAssistant)
    assert isinstance(made("openai/o3", None, api="chat"), OpenAIChatAssistant)
    assert isinstance(made("openai/gpt-4.1", local, api="responses"), OpenAIResponsesAssistant)


def test_options_the_responses_api_lacks_are_refused(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    with pytest.raises(UnsupportedOptionError, match=r"'seed'.*Responses API.*api=chat"):
        make_factory("openai/o3", {"seed": 1}, None)
