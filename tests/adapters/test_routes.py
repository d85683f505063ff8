"""The same request on every route: one base URL serves both wire formats (with or without
``/v1``), a provider's key never goes to a ``--base-url`` unless the user names one for it, an
unknown path gets an honest 404, and a reply without choices is a provider error."""

from __future__ import annotations

import asyncio

import pytest

from adapters.endpoints import anthropic_base_url, openai_base_url
from adapters.errors import ProviderError
from adapters.registry import make_factory
from adapters.server import Fault, ScriptedAssistant
from tests.adapters.support import (
    ANTHROPIC,
    CONTEXT,
    LITELLM,
    OPENAI_CHAT,
    PROVIDER_MODELS,
    first_request,
    options_for,
    respond,
    with_results,
)

PLANTED = "sk-provider-key-must-stay-home-42"
LITELLM_ANTHROPIC = "litellm/anthropic/claude-sonnet-4-5"


@pytest.mark.parametrize(
    ("url", "openai", "anthropic"),
    [
        ("http://h:1", "http://h:1/v1", "http://h:1"),
        ("http://h:1/", "http://h:1/v1", "http://h:1"),
        ("http://h:1/v1", "http://h:1/v1", "http://h:1"),
        ("http://h:1/v1/", "http://h:1/v1", "http://h:1"),
        ("http://h:1/v1/messages", "http://h:1/v1/messages", "http://h:1"),
        ("http://h:1/v1/chat/completions", "http://h:1/v1", "http://h:1/v1/chat/completions"),
        ("http://h:1/proxy/openai/v1", "http://h:1/proxy/openai/v1", "http://h:1/proxy/openai"),
    ],
)
def test_base_urls_are_normalised_per_wire_format(url, openai, anthropic):
    assert (openai_base_url(url), anthropic_base_url(url)) == (openai, anthropic)


@pytest.mark.parametrize("model", [*PROVIDER_MODELS, LITELLM_ANTHROPIC])
@pytest.mark.parametrize("suffix", ["", "/v1"])
def test_every_route_reaches_one_server_with_or_without_v1(server, retry, model, suffix):
    server.reset(ScriptedAssistant(["Hello."]))
    factory = make_factory(model, options_for(model), server.url + suffix, retry=retry)
    assert respond(factory(CONTEXT), first_request()).text == "Hello."
    assert [r.status for r in server.requests] == [200]
    assert "/v1/v1/" not in server.requests[0].path


@pytest.mark.parametrize("model", [OPENAI_CHAT, ANTHROPIC, LITELLM, LITELLM_ANTHROPIC])
def test_the_providers_key_is_not_sent_to_a_base_url(server, retry, model, monkeypatch):
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.setenv(name, PLANTED)
    server.reset(ScriptedAssistant(["Hello.", "Hello."]))
    respond(make_factory(model, {}, server.url, retry=retry)(CONTEXT), first_request())
    monkeypatch.setenv("OPSBENCH_BASE_URL_KEY", "sk-for-this-server-only-7")
    respond(make_factory(model, {}, server.url, retry=retry)(CONTEXT), first_request())
    sent = [" ".join(r.headers.values()) for r in server.requests]
    assert len(sent) == 2 and not any(PLANTED in s for s in sent)
    assert "sk-for-this-server-only-7" in sent[1]  # the key the user named for that server


def test_an_unknown_path_gets_an_honest_404(server, retry):
    factory = make_factory(ANTHROPIC, {}, server.url, retry=retry)
    assistant = factory(CONTEXT)
    # Bypass the normalisation to post where a wrongly joined URL would.
    assistant._clients = type(assistant._clients)(
        lambda: __import__("anthropic").AsyncAnthropic(
            api_key="x", base_url=server.url + "/v1", max_retries=0
        )
    )
    with pytest.raises(ProviderError) as caught:
        asyncio.run(assistant.respond(first_request()))
    message = str(caught.value)
    assert caught.value.status == 404 and "/v1/v1/messages" in message
    assert "POST /v1/messages" in message and "POST /v1/chat/completions" in message
    assert "model" not in message.lower().replace(ANTHROPIC.lower(), "")
    assert "endpoint" in (caught.value.stop_reason or "")


@pytest.mark.parametrize("model", [OPENAI_CHAT, LITELLM])
def test_a_reply_without_choices_is_a_provider_error(server, retry, model):
    server.reset(ScriptedAssistant(["Hello."]))
    server.inject(Fault.output("no_choices"))
    factory = make_factory(model, {}, server.openai_base_url, retry=retry)
    with pytest.raises(ProviderError, match="no choice"):
        respond(factory(CONTEXT), first_request())


def test_both_anthropic_routes_send_the_same_messages_with_is_error(server, retry):
    from adapters.server import reply

    sent = []
    for model in (ANTHROPIC, LITELLM_ANTHROPIC):
        server.reset(
            ScriptedAssistant([reply("", ("find_customer", {"phone": "555-0100"})), "Sorry."])
        )
        assistant = make_factory(model, {}, server.url, retry=retry)(CONTEXT)
        request = first_request()
        turn = respond(assistant, request)
        failed = '{"error": {"code": "not_found", "message": "no customer with that phone"}}'
        respond(assistant, with_results(request, turn, [failed], errors=True))
        body = server.requests[-1].body
        results = [b for b in body["messages"][-1]["content"] if b["type"] == "tool_result"]
        assert [r.get("is_error") for r in results] == [True]
        sent.append({k: body[k] for k in ("messages", "system", "tools", "max_tokens")})
    assert sent[0] == sent[1]
