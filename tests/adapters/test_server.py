"""The local provider server: loopback only, answers the official SDKs with responses their own
strict validation accepts, refuses what the providers refuse, and starts from the CLI."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from adapters.server import Fault, ScriptedAssistant, reply

TOOL = {
    "name": "find_customer",
    "description": "Find a customer.",
    "parameters": {"type": "object", "properties": {"phone": {"type": "string"}}},
}


def post(url: str, body: object, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data, {"content-type": "application/json", **(headers or {})}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_it_listens_on_loopback_only(server):
    host, port = server.address
    assert host == "127.0.0.1" and port > 0
    assert server.url == f"http://127.0.0.1:{port}"


def test_the_official_sdks_strict_validation_accepts_its_responses(server):
    import anthropic
    import openai

    server.reset(
        ScriptedAssistant(
            [
                reply("Looking.", ("find_customer", {"phone": "1"})),
                reply("Looking.", ("find_customer", {"phone": "1"}), thinking="Plan."),
                reply("Looking.", ("find_customer", {"phone": "1"})),
            ]
        )
    )

    async def ask() -> None:
        async with openai.AsyncOpenAI(
            api_key="any", base_url=server.openai_base_url, _strict_response_validation=True
        ) as oai:
            chat = await oai.chat.completions.create(
                model="gpt-4.1",
                messages=[{"role": "user", "content": "hi"}],
                tools=[{"type": "function", "function": TOOL}],
            )
            assert chat.choices[0].message.tool_calls[0].function.name == "find_customer"
            async with anthropic.AsyncAnthropic(
                api_key="any", base_url=server.anthropic_base_url, _strict_response_validation=True
            ) as claude:
                message = await claude.messages.create(
                    model="claude-sonnet-4-6",
                    max_tokens=3000,
                    thinking={"type": "enabled", "budget_tokens": 1024},
                    messages=[{"role": "user", "content": "hi"}],
                    tools=[{"name": TOOL["name"], "input_schema": TOOL["parameters"]}],
                )
                assert [b.type for b in message.content] == ["thinking", "text", "tool_use"]
            response = await oai.responses.create(
                model="o3", input="hi", tools=[{"type": "function", "strict": False, **TOOL}]
            )
            assert [i.type for i in response.output] == ["reasoning", "message", "function_call"]

    asyncio.run(ask())


def test_unknown_routes_and_bodies_that_are_not_json_are_refused(server):
    assert post(f"{server.url}/v1/embeddings", {})[0] == 404
    status, body = post(f"{server.openai_base_url}/chat/completions", b"{not json")
    assert status == 400 and "not valid JSON" in body["error"]["message"]


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        (
            "/v1/chat/completions",
            {
                "model": "gpt-4.1",
                "messages": [
                    {"role": "user", "content": "hi"},
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": "f", "arguments": "{}"},
                            }
                        ],
                    },
                ],
            },
            "did not have response messages: call_1",
        ),
        (
            "/v1/chat/completions",
            {"model": "o3", "temperature": 0, "messages": [{"role": "user", "content": "hi"}]},
            "Unsupported parameter: 'temperature'",
        ),
        (
            "/v1/messages",
            {
                "model": "claude-sonnet-4-6",
                "max_tokens": 10,
                "messages": [
                    {"role": "user", "content": "hi"},
                    {
                        "role": "assistant",
                        "content": [
                            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
                        ],
                    },
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "and"},
                            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "{}"},
                        ],
                    },
                ],
            },
            "`tool_result` blocks must come first",
        ),
        (
            "/v1/messages",
            {
                "model": "claude-sonnet-4-6",
                "max_tokens": 10,
                "temperature": 0,
                "messages": [{"role": "user", "content": "hi"}],
            },
            "temperature: Extra inputs are not permitted",
        ),
        (
            "/v1/responses",
            {
                "model": "gpt-4.1",
                "input": [
                    {"type": "function_call", "call_id": "call_9", "name": "f", "arguments": "{}"}
                ],
            },
            "No tool output found for function call call_9",
        ),
    ],
)
def test_it_refuses_what_the_providers_refuse_in_their_words(server, path, body, message):
    server.reset(ScriptedAssistant(["unused"]))
    status, answer = post(f"{server.url}{path}", body)
    error = answer["error"]
    assert status == 400 and message in error["message"]
    assert server.assistant.remaining == 1  # the assistant was never asked


def test_errors_come_in_each_providers_shape(server):
    server.reset(ScriptedAssistant([]))
    server.inject(Fault.http(529, endpoint="anthropic"), Fault.quota_exhausted())
    status, body = post(
        f"{server.url}/v1/messages",
        {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": "hi"}]},
    )
    assert status == 529 and body["type"] == "error"
    assert body["error"]["type"] == "overloaded_error"
    status, body = post(
        f"{server.openai_base_url}/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": "hi"}]},
    )
    assert status == 429 and body["error"]["code"] == "insufficient_quota"


@pytest.mark.parametrize(
    ("spec", "fault"),
    [
        ("429,retry_after=2,times=3", Fault.http(429, retry_after=2, times=3)),
        ("500", Fault.http(500)),
        ("529,endpoint=anthropic", Fault.http(529, endpoint="anthropic")),
        ("quota", Fault.quota_exhausted()),
        ("slow,delay=1.5", Fault.slow(1.5)),
        ("hang,times=2", Fault.hang(times=2)),
        ("dict-arguments", Fault.output("dict_arguments")),
        ("empty_completion", Fault.output("empty_completion")),
    ],
)
def test_faults_parse_from_the_command_line_form(spec, fault):
    assert Fault.parse(spec) == fault


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("418", "needs a 4xx or 5xx status"),
        ("teapot", "unknown fault 'teapot'"),
        ("429,after=2", "unknown settings ['after']"),
        ("hang,times=0", "at least 1 request"),
    ],
)
def test_a_bad_fault_spec_says_what_is_wrong(spec, message):
    if spec == "418":
        # 418 is a 4xx, so it parses; a status outside 4xx/5xx does not.
        assert Fault.parse(spec).status == 418
        spec = "200"
    with pytest.raises(ValueError, match=re.escape(message)):
        Fault.parse(spec)


def test_opsbench_serve_prints_its_address_and_answers(tmp_path: Path):
    script = tmp_path / "replies.json"
    script.write_text(json.dumps([{"text": "Hello from the script."}]), encoding="utf-8")
    command = [
        sys.executable,
        "-c",
        "from opsbench.cli import main; main()",
        "serve",
        "--script",
        str(script),
        "--fault",
        "503",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        match = re.search(r"on (http://127\.0\.0\.1:\d+) \(loopback only", first)
        assert match, first + (process.stderr.read() if process.poll() is not None else "")
        url = match.group(1)
        chat = {"model": "local", "messages": [{"role": "user", "content": "hi"}]}
        assert post(f"{url}/v1/chat/completions", chat)[0] == 503  # the queued fault
        status, body = post(f"{url}/v1/chat/completions", chat)
        assert status == 200
        assert body["choices"][0]["message"]["content"] == "Hello from the script."
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout:
            process.stdout.close()
        if process.stderr:
            process.stderr.close()


def test_opsbench_serve_needs_a_task_for_a_reference_assistant():
    from typer.testing import CliRunner

    from opsbench.cli import app

    result = CliRunner().invoke(app, ["serve", "--assistant", "reference/oracle"])
    assert result.exit_code == 2 and "--task" in result.output
