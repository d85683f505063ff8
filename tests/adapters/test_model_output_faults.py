"""Malformed model output, through each official SDK: what is the model's doing (bad JSON) passes
through raw for the episode to answer with a tool error; what is the wire's doing (arguments as
an object, missing ids, no arguments) is normalised."""

from __future__ import annotations

import asyncio
import json

import pytest

from adapters.server import Fault, ScriptedAssistant, reply
from businesses import PUBLIC_DIR, load_set
from businesses.loader import initial_tables
from callers import scripted_caller_factory
from opsbench.commands.serve import task_assistant
from sandbox.episode import run_episode
from tests.adapters.support import (
    ANTHROPIC,
    OPENAI_CHAT,
    PROVIDER_MODELS,
    assistant,
    factory,
    first_request,
    respond,
)

ARGUMENTS = {"phone": "+1 555 0101", "name": "Maria Lopez"}
TEXT = json.dumps(ARGUMENTS)


@pytest.fixture(params=PROVIDER_MODELS)
def model(request: pytest.FixtureRequest) -> str:
    return request.param


def _one_call(server, model, retry, fault: Fault | None, arguments: object = ARGUMENTS):
    server.reset(ScriptedAssistant([reply("One moment.", ("find_customer", arguments))]))
    if fault is not None:
        server.inject(fault)
    return respond(assistant(server, model, retry), first_request())


def test_truncated_arguments_pass_through_raw(server, retry, model):
    turn = _one_call(server, model, retry, Fault.output("truncated_arguments"))
    [call] = turn.tool_calls
    assert call.arguments == TEXT[: len(TEXT) // 2]


def test_invalid_json_arguments_pass_through_raw(server, retry, model):
    turn = _one_call(server, model, retry, Fault.output("invalid_arguments"))
    [call] = turn.tool_calls
    assert call.arguments == TEXT[:-1] + ",}"
    with pytest.raises(json.JSONDecodeError):
        json.loads(call.arguments)


def test_arguments_sent_as_an_object_become_json_text(server, retry, model):
    turn = _one_call(server, model, retry, Fault.output("dict_arguments"))
    [call] = turn.tool_calls
    assert isinstance(call.arguments, str) and json.loads(call.arguments) == ARGUMENTS


def test_missing_ids_get_deterministic_ones(server, retry, model):
    ids = []
    for _ in range(2):
        turn = _one_call(server, model, retry, Fault.output("missing_ids"))
        ids.append([c.id for c in turn.tool_calls])
    # One message in the request, first call: the same id every time, replayable.
    assert ids == [["call_1_0"], ["call_1_0"]]


def test_a_call_without_arguments_gets_an_empty_object(server, retry, model):
    turn = _one_call(server, model, retry, None, arguments="")
    [call] = turn.tool_calls
    assert call.arguments == "{}"


def test_an_empty_completion_is_an_empty_turn_with_its_usage(server, retry, model):
    turn = _one_call(server, model, retry, Fault.output("empty_completion"))
    assert (turn.text, turn.tool_calls) == ("", ())
    assert turn.usage.requests == 1 and turn.usage.input_tokens > 0


def test_argument_faults_wait_for_a_reply_with_calls(server, retry):
    server.reset(ScriptedAssistant(["Hello.", reply("", ("find_customer", ARGUMENTS))]))
    server.inject(Fault.output("truncated_arguments"))
    chat = assistant(server, OPENAI_CHAT, retry)
    assert respond(chat, first_request()).text == "Hello."
    [call] = respond(chat, first_request()).tool_calls
    assert call.arguments == TEXT[: len(TEXT) // 2]


@pytest.mark.parametrize("model", [OPENAI_CHAT, ANTHROPIC])
def test_a_malformed_call_in_an_episode_becomes_a_tool_error_fed_back(server, retry, model):
    _businesses, tasks = load_set(PUBLIC_DIR)
    task = next(t for t in tasks if len(t.sessions) == 1 and not t.faults)
    server.reset(task_assistant(task, "reference/oracle"))
    server.inject(Fault.output("invalid_arguments"))
    result = asyncio.run(
        run_episode(
            task, initial_tables(task), factory(server, model, retry), scripted_caller_factory
        )
    )
    assert not result.infrastructure_error
    first = result.trace[0]
    assert (first.outcome, first.error_code) == ("rejected", "invalid_json")
    assert first.raw_arguments.endswith(",}")
    # The next request carried the error back to the model as the call's result.
    sent = json.dumps(server.requests[1].body)
    assert "invalid_json" in sent
