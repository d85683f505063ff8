"""From model strings to factories: the prefix picks the adapter, problems surface up front."""

from __future__ import annotations

import subprocess
import sys

import pytest

from adapters.anthropic_messages import AnthropicAssistant
from adapters.errors import AdapterError, MissingDependencyError, UnsupportedOptionError
from adapters.litellm_chat import LiteLLMAssistant
from adapters.openai_chat import OpenAIChatAssistant
from adapters.options import parse_model_options
from adapters.reference import ReferenceAssistant
from adapters.registry import make_factory
from businesses import PUBLIC_DIR, load_set
from sandbox.briefing import BriefedFactory, briefing
from tests.adapters.support import CONTEXT

LOCAL = "http://127.0.0.1:9/v1"


@pytest.mark.parametrize(
    ("model", "kind"),
    [
        ("openai/gpt-4.1", OpenAIChatAssistant),
        ("anthropic/claude-sonnet-4-6", AnthropicAssistant),
        ("litellm/openai/local-model", LiteLLMAssistant),
    ],
)
def test_the_prefix_picks_the_adapter(model, kind):
    assert isinstance(make_factory(model, {}, LOCAL)(CONTEXT), kind)


def test_reference_assistants_come_from_the_hook_and_only_they_are_briefed():
    factory = make_factory("reference/oracle")
    assert isinstance(factory, BriefedFactory)
    _businesses, tasks = load_set(PUBLIC_DIR)
    assistant = factory(CONTEXT, briefing(tasks[0], 0))
    assert isinstance(assistant, ReferenceAssistant) and assistant.flaw == "oracle"
    # Without the plan it cannot be made: wrapping it in an agent gets nothing.
    with pytest.raises(TypeError):
        factory(CONTEXT)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("model", "options", "base_url", "message"),
    [
        ("gpt-4.1", {}, None, "unknown model 'gpt-4.1': expected one of openai/<model>"),
        ("mistral/large", {}, None, "unknown model 'mistral/large'"),
        ("openai/", {}, None, "unknown model 'openai/'"),
        (
            "reference/genius",
            {},
            None,
            "unknown reference/genius; expected one of reference/oracle",
        ),
        ("reference/oracle", {}, LOCAL, "runs in-process; --base-url does not apply"),
        ("openai/gpt-4.1", {}, None, "needs an API key: set OPENAI_API_KEY"),
        ("anthropic/claude-sonnet-4-6", {}, None, "set ANTHROPIC_API_KEY"),
    ],
)
def test_problems_are_reported_before_any_request(model, options, base_url, message):
    with pytest.raises(AdapterError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_factory(model, options, base_url)


def test_reference_assistants_take_no_options():
    with pytest.raises(UnsupportedOptionError, match=r"'temperature'.*take no options"):
        make_factory("reference/oracle", {"temperature": 0})


def test_a_key_in_the_environment_is_enough(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-used")
    assert isinstance(make_factory("anthropic/claude-sonnet-4-6")(CONTEXT), AnthropicAssistant)


def test_a_missing_sdk_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "anthropic", None)  # as if it were not installed
    with pytest.raises(MissingDependencyError, match=r"pip install 'anthropic>=0\.49'"):
        make_factory("anthropic/claude-sonnet-4-6", {}, LOCAL)


def test_litellm_refuses_an_option_the_provider_does_not_support():
    with pytest.raises(
        UnsupportedOptionError, match=r"'parallel_tool_calls'.*litellm reports"
    ) as caught:
        make_factory("litellm/ollama/llama3.1", {"parallel_tool_calls": True})
    assert caught.value.option == "parallel_tool_calls"
    make_factory("litellm/ollama/llama3.1", {"temperature": 0})  # this one it takes


def test_model_options_from_the_command_line_are_read_as_json_where_they_parse():
    assert parse_model_options(["temperature=0", 'stop=["END"]', "effort=low", "cache=false"]) == {
        "temperature": 0,
        "stop": ["END"],
        "effort": "low",
        "cache": False,
    }
    with pytest.raises(AdapterError, match="should look like name=value"):
        parse_model_options(["temperature"])


def test_choosing_an_adapter_imports_no_sdk_until_then():
    code = (
        "import sys; from adapters.registry import make_factory; "
        "make_factory('reference/oracle'); "
        "print(sorted(m for m in ('openai', 'anthropic', 'litellm') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_litellm_model_without_its_providers_key_is_refused_up_front(monkeypatch):
    from adapters.errors import AdapterError

    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(AdapterError, match=r"needs an API key: set .*GEMINI_API_KEY"):
        make_factory("litellm/gemini/gemini-2.5-pro", {})


def test_a_litellm_model_whose_only_missing_variable_is_a_base_url_is_accepted(monkeypatch):
    monkeypatch.delenv("OLLAMA_API_BASE", raising=False)
    assert callable(make_factory("litellm/ollama/llama3.1", {}))
