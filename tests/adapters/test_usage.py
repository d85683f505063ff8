"""Usage and cost: tokens per call as each provider counts them, priced from litellm's cost map,
unknown (None) rather than zero when the model has no price."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.pricing import COST_MAP_FILE, TokenCounts, cost_usd
from adapters.server import ScriptedAssistant, reply
from adapters.usage import chat_completions_usage, messages_usage
from contract.messages import Usage
from tests.adapters.support import (
    ANTHROPIC,
    LITELLM,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    assistant,
    first_request,
    respond,
)

REPORTED = Usage(input_tokens=1000, output_tokens=200, cached_tokens=400, reasoning_tokens=50)


def _cost_map() -> dict:
    folder = importlib.util.find_spec("litellm").submodule_search_locations[0]
    return json.loads((Path(folder) / COST_MAP_FILE).read_text())


def _expected_cost(model: str, fresh: int, cached: int, output: int) -> float:
    entry = _cost_map()[model]
    cache_read = entry.get("cache_read_input_token_cost", entry["input_cost_per_token"])
    return (
        fresh * entry["input_cost_per_token"]
        + cached * cache_read
        + output * entry["output_cost_per_token"]
    )


@pytest.mark.parametrize(
    ("model", "priced_as"),
    [
        (OPENAI_CHAT, "gpt-4.1"),
        (OPENAI_RESPONSES, "o3"),
        (ANTHROPIC, "claude-sonnet-4-6"),
    ],
)
def test_tokens_and_cost_of_a_call(server, retry, model, priced_as):
    server.reset(ScriptedAssistant([reply("Hello.", usage=REPORTED)]))
    answering = assistant(server, model, retry)
    # The local server stands in for the provider itself here; against a real base URL the
    # cost is unknown (test below), since a self-hosted "gpt-4.1" has no list price.
    answering.priced = True
    usage = respond(answering, first_request()).usage
    assert (usage.input_tokens, usage.output_tokens, usage.cached_tokens, usage.requests) == (
        1000,
        200,
        400,
        1,
    )
    assert usage.reasoning_tokens == 50
    assert usage.cost_usd == pytest.approx(_expected_cost(priced_as, 600, 400, 200))


@pytest.mark.parametrize("model", [OPENAI_CHAT, OPENAI_RESPONSES, ANTHROPIC])
def test_a_model_behind_a_base_url_has_no_list_price(server, retry, model):
    server.reset(ScriptedAssistant([reply("Hello.", usage=REPORTED)]))
    usage = respond(assistant(server, model, retry), first_request()).usage
    assert usage.input_tokens == 1000 and usage.cost_usd is None


def test_anthropic_cache_reads_and_writes_are_added_back_into_input_tokens():
    # Anthropic's input_tokens excludes the cache; the neutral count includes it.
    usage = messages_usage(
        {
            "input_tokens": 500,
            "cache_read_input_tokens": 400,
            "cache_creation_input_tokens": 100,
            "output_tokens": 200,
            "output_tokens_details": {"thinking_tokens": 30},
        }
    )
    assert (usage.input_tokens, usage.cached_tokens, usage.reasoning_tokens) == (1000, 400, 30)


def test_cache_writes_are_priced_at_the_write_rate():
    entry = _cost_map()["claude-sonnet-4-6"]
    usage = messages_usage(
        {"input_tokens": 10, "cache_creation_input_tokens": 1000, "output_tokens": 0},
        "claude-sonnet-4-6",
    )
    assert usage.cost_usd == pytest.approx(
        10 * entry["input_cost_per_token"] + 1000 * entry["cache_creation_input_token_cost"]
    )


def test_a_model_without_a_price_has_an_unknown_cost_not_zero(server, retry):
    server.reset(ScriptedAssistant([reply("Hello.", usage=REPORTED)]))
    usage = respond(assistant(server, LITELLM, retry), first_request()).usage
    assert usage.input_tokens == 1000 and usage.cost_usd is None
    assert cost_usd(TokenCounts(1, 1), "my-private-model") is None


def test_a_response_without_usage_has_an_unknown_cost():
    usage = chat_completions_usage(None, "gpt-4.1")
    assert (usage.requests, usage.input_tokens, usage.cost_usd) == (1, 0, None)


def test_episode_totals_stay_unknown_once_one_call_is_unpriced():
    priced = chat_completions_usage({"prompt_tokens": 10, "completion_tokens": 2}, "gpt-4.1")
    unpriced = chat_completions_usage({"prompt_tokens": 10, "completion_tokens": 2}, "mystery")
    total = priced + unpriced
    assert (total.input_tokens, total.requests, total.cost_usd) == (20, 2, None)


def test_pricing_reads_the_cost_map_without_importing_litellm():
    code = (
        "import sys; from adapters.pricing import price_of; "
        "assert price_of('openai/gpt-4.1') is not None; "
        "print('litellm' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
