"""anthropic/: the official SDK over HTTP to the local server; request bodies checked against
Anthropic's documented shapes (system parameter, tool_result placement, is_error, thinking,
cache_control)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from adapters.errors import ProviderError, UnsupportedOptionError
from adapters.registry import make_factory
from adapters.server import ScriptedAssistant, reply, sign_thinking
from contract.messages import Message, ToolResult, TurnRequest
from tests.adapters.support import (
    ANTHROPIC,
    SYSTEM,
    TOOLS,
    assistant,
    first_request,
    respond,
    with_results,
)

FIND = {"phone": "+1 555 0101"}
EPHEMERAL = {"type": "ephemeral"}


def _cache_markers(body: dict) -> list[str]:
    """Where the request's cache_control breakpoints are."""
    places = [f"system[{i}]" for i, b in enumerate(body.get("system", [])) if "cache_control" in b]
    places += [f"tools[{i}]" for i, t in enumerate(body.get("tools", [])) if "cache_control" in t]
    for i, m in enumerate(body["messages"]):
        places += [f"messages[{i}]" for b in m["content"] if "cache_control" in b]
    return places


def test_the_system_prompt_is_top_level_and_caches_tools_and_system(server, retry):
    server.reset(ScriptedAssistant(["Hello."]))
    respond(assistant(server, ANTHROPIC, retry), first_request())
    body = server.requests[-1].body
    assert body["system"] == [{"type": "text", "text": SYSTEM, "cache_control": EPHEMERAL}]
    assert [m["role"] for m in body["messages"]] == ["user"]
    # One breakpoint at the end of system caches tools + system (the cache order is
    # tools, system, messages).
    assert _cache_markers(body) == ["system[0]"]
    assert body["tools"] == [
        {"name": t.name, "description": t.description, "input_schema": t.parameters} for t in TOOLS
    ]
    assert body["max_tokens"] == 4096 and body["model"] == "claude-sonnet-4-6"


def test_without_a_system_prompt_the_last_tool_carries_the_breakpoint(server, retry):
    server.reset(ScriptedAssistant(["Hello."]))
    respond(assistant(server, ANTHROPIC, retry), first_request(system=""))
    body = server.requests[-1].body
    assert "system" not in body
    assert _cache_markers(body) == [f"tools[{len(TOOLS) - 1}]"]


def test_caching_can_be_turned_off(server, retry):
    server.reset(ScriptedAssistant(["Hello."]))
    respond(assistant(server, ANTHROPIC, retry, cache=False), first_request())
    body = server.requests[-1].body
    assert body["system"] == SYSTEM or body["system"] == [{"type": "text", "text": SYSTEM}]
    assert _cache_markers(body) == []


def test_a_repeated_prefix_is_read_from_the_cache(server, retry):
    server.reset(ScriptedAssistant(["One.", "Two."]))
    claude = assistant(server, ANTHROPIC, retry)
    first = respond(claude, first_request())
    second = respond(claude, first_request("Are you there?"))
    assert first.usage.cached_tokens == 0
    assert second.usage.cached_tokens > 0
    assert second.usage.input_tokens > second.usage.cached_tokens


def test_tool_results_come_first_in_the_next_user_message(server, retry):
    server.reset(
        ScriptedAssistant(
            [reply("Checking.", ("find_customer", FIND), ("find_customer", {"phone": "2"})), "Ok."]
        )
    )
    claude = assistant(server, ANTHROPIC, retry)
    request = first_request()
    turn = respond(claude, request)
    after = with_results(request, turn, ['{"id": "CUS-1"}', '{"id": "CUS-2"}'])
    # The caller speaks again before the assistant answers: same user turn, after the results.
    after = replace(after, messages=(*after.messages, Message("user", "Still there?")))
    respond(claude, after)

    messages = server.requests[-1].body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    uses = [b for b in messages[1]["content"] if b["type"] == "tool_use"]
    assert [(u["id"], u["name"], u["input"]) for u in uses] == [
        (c.id, c.name, json.loads(c.arguments)) for c in turn.tool_calls
    ]
    assert messages[2]["content"] == [
        {"type": "tool_result", "tool_use_id": turn.tool_calls[0].id, "content": '{"id": "CUS-1"}'},
        {"type": "tool_result", "tool_use_id": turn.tool_calls[1].id, "content": '{"id": "CUS-2"}'},
        {"type": "text", "text": "Still there?"},
    ]


def test_a_failed_tool_is_flagged_is_error_and_never_sent_empty(server, retry):
    server.reset(ScriptedAssistant([reply("", ("find_customer", FIND)), "Sorry about that."]))
    claude = assistant(server, ANTHROPIC, retry)
    request = first_request()
    turn = respond(claude, request)
    respond(claude, with_results(request, turn, [""], errors=True))
    assert server.requests[-1].status == 200  # the API refuses is_error with empty content
    [block] = server.requests[-1].body["messages"][2]["content"]
    assert block["is_error"] is True and block["content"]
    # The assistant behind the server saw it as a failed call.
    [result] = server.assistant.requests[-1].messages[-1].tool_results
    assert result.is_error


def test_thinking_blocks_round_trip_unchanged(server, retry):
    server.reset(
        ScriptedAssistant(
            [reply("", ("find_customer", FIND), thinking="They gave a phone number."), "Found you."]
        )
    )
    claude = assistant(server, ANTHROPIC, retry, thinking=2048)
    request = first_request()
    turn = respond(claude, request)
    returned = server.requests[-1]
    respond(claude, with_results(request, turn, ['{"id": "CUS-1001"}']))

    first_body = returned.body
    assert first_body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert first_body["max_tokens"] == 4096 + 2048
    sent_back = server.requests[-1].body["messages"][1]["content"]
    assert sent_back[0] == {
        "type": "thinking",
        "thinking": "They gave a phone number.",
        "signature": sign_thinking("They gave a phone number."),
    }
    assert sent_back[1]["type"] == "tool_use" and sent_back[1]["id"] == turn.tool_calls[0].id
    assert server.requests[-1].status == 200


def test_an_altered_thinking_block_is_refused_and_not_retried(server, retry, sleeps):
    server.reset(ScriptedAssistant([reply("", ("find_customer", FIND)), "Found you."]))
    claude = assistant(server, ANTHROPIC, retry, thinking="adaptive")
    request = first_request()
    turn = respond(claude, request)
    blocks = [dict(b) for b in turn.provider_state["anthropic_content"]]
    blocks[0]["thinking"] += " (edited)"
    tampered = replace(turn, provider_state={"anthropic_content": blocks})
    with pytest.raises(ProviderError, match="Invalid `signature`") as caught:
        respond(claude, with_results(request, tampered, ["{}"]))
    assert (caught.value.status, caught.value.attempts, sleeps.delays) == (400, 1, [])


def test_an_assistant_turn_that_said_nothing_is_left_out(server, retry):
    server.reset(ScriptedAssistant(["Hello again."]))
    history = (
        Message("user", "Hello?"),
        Message("assistant", ""),
        Message("user", "Anyone there?"),
    )
    respond(assistant(server, ANTHROPIC, retry), TurnRequest(SYSTEM, TOOLS, history))
    messages = server.requests[-1].body["messages"]
    assert server.requests[-1].status == 200
    assert messages == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Hello?"},
                {"type": "text", "text": "Anyone there?"},
            ],
        }
    ]


@pytest.mark.parametrize("option", ["temperature", "top_p", "top_k"])
def test_sampling_options_are_refused_by_name(option):
    with pytest.raises(UnsupportedOptionError, match=f"'{option}'.*2026-10-21") as caught:
        make_factory(ANTHROPIC, {option: 0}, "http://127.0.0.1:9")
    assert caught.value.option == option


def test_a_thinking_budget_below_the_minimum_is_refused():
    with pytest.raises(UnsupportedOptionError, match=r"'thinking'.*at least 1024"):
        make_factory(ANTHROPIC, {"thinking": 100}, "http://127.0.0.1:9")


def test_effort_and_stop_sequences_are_passed_through(server, retry):
    server.reset(ScriptedAssistant(["Hello."]))
    respond(assistant(server, ANTHROPIC, retry, effort="low", stop="END"), first_request())
    body = server.requests[-1].body
    assert body["output_config"] == {"effort": "low"} and body["stop_sequences"] == ["END"]


def test_tool_results_from_a_history_without_provider_state_still_pair_up(server, retry):
    # A history written by someone else (no provider_state): tool_use blocks are rebuilt.
    server.reset(ScriptedAssistant(["Thanks."]))
    call_turn = reply("", ("find_customer", FIND))
    call_turn = replace(call_turn, tool_calls=(replace(call_turn.tool_calls[0], id="toolu_1"),))
    history = (
        Message("user", "Hi"),
        call_turn.as_message(),
        Message("tool", tool_results=(ToolResult("toolu_1", "find_customer", "{}"),)),
    )
    respond(assistant(server, ANTHROPIC, retry), TurnRequest(SYSTEM, TOOLS, history))
    assert server.requests[-1].status == 200


def test_an_empty_text_block_is_not_kept_to_be_sent_back():
    from adapters.messages_api import STATE_KEY, parse_message

    data = {
        "content": [
            {"type": "text", "text": ""},
            {"type": "tool_use", "id": "toolu_1", "name": "find_customer", "input": {}},
        ]
    }
    text, calls, state = parse_message(data, turn=0)
    assert text == "" and [c.id for c in calls] == ["toolu_1"]
    assert [b["type"] for b in state[STATE_KEY]] == ["tool_use"]
