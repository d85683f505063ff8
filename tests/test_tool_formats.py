"""The schemas `opsbench tools list` prints are accepted by the official SDKs' request types."""

from __future__ import annotations

import json

import pytest
from pydantic import TypeAdapter
from typer.testing import CliRunner

from opsbench.cli import app


def _printed(fmt: str) -> list[dict]:
    result = CliRunner().invoke(app, ["tools", "list", "--format", fmt])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _capture(http, sent: list[dict], reply: dict):
    """An SDK http client whose transport records the request body and answers ``reply``."""

    def handler(request):
        sent.append(json.loads(request.content))
        return http.Response(200, json=reply)

    return http.Client(transport=http.MockTransport(handler))


def _sdk_http(sdk_module):
    # Newer SDK releases moved from httpx to httpx2; use whichever this SDK was built on.
    import importlib

    name = "httpx2" if "httpx2" in sdk_module._base_client.__dict__ else "httpx"
    return importlib.import_module(name)


def test_openai_format_fits_the_sdk_tool_type_and_request():
    import openai
    from openai import OpenAI
    from openai.types.chat import ChatCompletionToolParam

    tools = _printed("openai")
    adapter = TypeAdapter(ChatCompletionToolParam)
    for tool in tools:
        adapter.validate_python(tool, strict=True)
    sent: list[dict] = []
    reply = {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "ok"}}
        ],
    }
    client = OpenAI(
        api_key="test-key",
        base_url="http://127.0.0.1:9/v1",
        http_client=_capture(_sdk_http(openai), sent, reply),
    )
    client.chat.completions.create(
        model="m", messages=[{"role": "user", "content": "hi"}], tools=tools
    )
    assert sent[0]["tools"] == tools


def test_anthropic_format_fits_the_sdk_tool_type_and_request():
    import anthropic
    from anthropic import Anthropic
    from anthropic.types import ToolParam

    tools = _printed("anthropic")
    adapter = TypeAdapter(ToolParam)
    for tool in tools:
        adapter.validate_python(tool, strict=True)
    sent: list[dict] = []
    reply = {
        "id": "m1",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    client = Anthropic(
        api_key="test-key",
        base_url="http://127.0.0.1:9",
        http_client=_capture(_sdk_http(anthropic), sent, reply),
    )
    client.messages.create(
        model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}], tools=tools
    )
    assert sent[0]["tools"] == tools


@pytest.mark.parametrize("fmt", ["json", "openai", "anthropic"])
def test_every_format_lists_every_tool(fmt):
    from tools import default_registry

    assert len(_printed(fmt)) == len(default_registry())


def test_printed_schemas_carry_no_internal_extension_keys():
    assert "x-table" not in json.dumps(_printed("json"))


def test_a_business_sees_only_its_tools_with_its_service_ids():
    from tests.helpers import MINI

    result = CliRunner().invoke(
        app, ["tools", "list", "-b", "mini_clinic", "--set", str(MINI), "-f", "json"]
    )
    assert result.exit_code == 0, result.output
    tools = {t["name"]: t for t in json.loads(result.output)}
    assert "refund" not in tools and "reschedule_appointment" in tools
    assert tools["list_availability"]["parameters"]["properties"]["service_id"]["enum"] == [
        "SRV-1001",
        "SRV-1002",
    ]


def test_an_unknown_business_is_one_clear_line():
    result = CliRunner().invoke(app, ["tools", "list", "-b", "pizza_place"])
    assert result.exit_code == 2 and "no business 'pizza_place'" in result.output
