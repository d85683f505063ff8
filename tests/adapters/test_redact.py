"""Credentials a provider echoes back never reach a recorded error."""

from __future__ import annotations

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from adapters.errors import ProviderError
from adapters.registry import make_factory
from contract.redact import MASK, redact
from tests.adapters.support import CONTEXT, first_request

KEY = "sk-test-echoed-0123456789"


class _EchoKey(BaseHTTPRequestHandler):
    """A gateway that answers 401 and quotes the Authorization header it got."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", 0)))
        body = json.dumps(
            {
                "error": {
                    "message": f"Incorrect API key provided: {self.headers.get('authorization')}",
                    "type": "invalid_request_error",
                    "code": "invalid_api_key",
                }
            }
        ).encode()
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def echoing_gateway():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoKey)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()


def test_a_key_echoed_in_a_401_is_not_in_the_provider_error(monkeypatch, echoing_gateway):
    # The key the user names for that server (the provider's own never goes to a base URL).
    monkeypatch.setenv("OPSBENCH_BASE_URL_KEY", KEY)
    assistant = make_factory("openai/gpt-4.1", {"max_attempts": 1}, echoing_gateway)(CONTEXT)
    with pytest.raises(ProviderError) as caught:
        asyncio.run(assistant.respond(first_request()))
    assert caught.value.status == 401
    assert KEY not in str(caught.value) and MASK in str(caught.value)


def test_redact_removes_environment_credentials_and_key_shaped_strings(monkeypatch):
    monkeypatch.setenv("ACME_GATEWAY_TOKEN", "tok_live_987654")
    text = redact(
        "token tok_live_987654, Bearer abcdef123456, key sk-ant-api03-xyz789, x-api-key: qwerty12345"
    )
    assert "tok_live_987654" not in text and "abcdef123456" not in text
    assert "sk-ant-api03-xyz789" not in text and "qwerty12345" not in text


def test_redact_leaves_ordinary_text_alone():
    text = "HTTP 503 from the provider after 4 attempts: order ORD-1001, 12345 tokens"
    assert redact(text) == text


def test_redact_removes_url_passwords_and_their_basic_credentials():
    import base64

    from contract.redact import register_url

    url = "http://alice:Pa55-w0rd-xyz@gateway.internal:8443/v1"
    register_url(url)
    basic = base64.b64encode(b"alice:Pa55-w0rd-xyz").decode()
    text = redact(f"POST {url} failed; sent Authorization: Basic {basic} (token {basic})")
    assert "Pa55-w0rd-xyz" not in text and basic not in text
    assert "http://alice:[redacted]@gateway.internal:8443/v1" in text
    # Any URL's password, registered or not, and any Basic credential.
    assert redact("https://bob:hunter22@x.example/") == "https://bob:[redacted]@x.example/"
    assert "ZGVtbzpkZW1vMTIz" not in redact("Basic ZGVtbzpkZW1vMTIz")


def test_redact_spares_words_that_only_look_like_schemes_or_names(monkeypatch):
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Maria Lopez")
    text = "A basic haircut for Maria Lopez, and basic cleaning on Tuesday."
    assert redact(text) == text
