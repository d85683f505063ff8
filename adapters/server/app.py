"""What the local server answers: provider wire requests -> an Assistant -> wire responses.

Each endpoint decodes the body, refuses what the real provider refuses (in its words, with its
error shape), applies the fault at the head of the queue, asks the assistant, and encodes the
turn. Usage is the assistant's own when it reports tokens, otherwise an estimate (4 characters
a token) with a simulated prompt cache: a request whose cacheable prefix was seen before reports
it as cached, as the providers do. Anthropic thinking blocks are signed, and a request that
sends one back altered is refused, so a client that does not round-trip them is caught.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from adapters import chat_completions, messages_api
from adapters.server.faults import Endpoint, Fault, FaultQueue
from adapters.server.script import THINKING_KEY
from adapters.server.transport import HttpRequest, HttpResponse
from adapters.toolcalls import parse_arguments
from contract.assistant import Assistant
from contract.messages import AssistantTurn, TurnRequest

log = logging.getLogger(__name__)

ROUTES: dict[str, Endpoint] = {
    "/v1/chat/completions": "openai",
    "/chat/completions": "openai",
    "/v1/messages": "anthropic",
    "/v1/responses": "responses",
    "/responses": "responses",
}
DEFAULT_THINKING = "Working out what the caller needs and which tools to use."
_SIGNING_KEY = b"opsbench-local-server"  # fixed, so transcripts replay byte for byte


@dataclass(frozen=True)
class RecordedRequest:
    """A request the server received and how it answered (``status`` 0: it never did)."""

    endpoint: Endpoint | None
    path: str
    headers: Mapping[str, str]
    body: Any
    status: int
    fault: Fault | None = None


def sign_thinking(text: str) -> str:
    """The signature the server puts on a thinking block it sends."""
    digest = hmac.new(_SIGNING_KEY, text.encode(), hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


def estimate_tokens(data: Any) -> int:
    """About one token per four characters of the JSON; at least one."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, sort_keys=True)
    return max(1, math.ceil(len(text) / 4))


class ProviderApp:
    """Answers OpenAI and Anthropic wire requests with ``assistant``'s turns."""

    def __init__(self, assistant: Assistant, faults: FaultQueue | None = None) -> None:
        self.assistant = assistant
        self.faults = faults or FaultQueue()
        self.requests: list[RecordedRequest] = []
        self._seen_prefixes: set[str] = set()
        # Responses API: function_call item id -> the reasoning item issued with it.
        self.reasoning_of: dict[str, str] = {}
        self._count = 0
        self._lock = threading.Lock()

    async def handle(self, request: HttpRequest) -> HttpResponse:
        """Route, answer, and record one request."""
        path = request.path.split("?", 1)[0].rstrip("/")
        endpoint = ROUTES.get(path)
        body: Any = None
        fault: Fault | None = None
        if request.method == "GET" and path in ("", "/health", "/v1/models", "/models"):
            response = HttpResponse.json(200, {"object": "list", "data": [], "status": "ok"})
        elif endpoint is None or request.method != "POST":
            response = _no_route(request.method, path)
        else:
            try:
                body = json.loads(request.body or b"null")
            except ValueError as exc:
                body = None
                response = _error(endpoint, 400, f"the body is not valid JSON: {exc}")
            else:
                fault = self.faults.take_transport(endpoint)
                response = await self._answer(endpoint, body, fault, request.headers)
        with self._lock:
            self.requests.append(
                RecordedRequest(
                    endpoint,
                    path,
                    dict(request.headers),
                    body,
                    0 if response.hang else response.status,
                    fault,
                )
            )
        return response

    async def _answer(
        self,
        endpoint: Endpoint,
        body: Any,
        fault: Fault | None,
        headers: Mapping[str, str] | None = None,
    ) -> HttpResponse:
        if fault is not None and fault.kind == "hang":
            return HttpResponse(0, hang=True)
        if fault is not None and fault.kind == "http":
            return _fault_error(endpoint, fault, headers or {})
        if not isinstance(body, Mapping):
            return _error(endpoint, 400, "the body must be a JSON object")
        try:
            if endpoint == "openai":
                data = await self._chat(body)
            elif endpoint == "anthropic":
                data = await self._messages(body)
            else:
                from adapters.server.responses import answer_responses

                data = await answer_responses(self, body)
        except Refused as exc:
            return _error(endpoint, 400, str(exc))
        except Exception as exc:
            log.exception("the assistant behind the local server failed")
            # Not the client's fault and retrying will not help: say so to the client.
            return _error(
                endpoint,
                500,
                f"the assistant behind the local server failed: {type(exc).__name__}: {exc}",
                headers={"x-should-retry": "false"},
            )
        response = HttpResponse.json(200, data, headers={"x-request-id": str(data.get("id", ""))})
        if fault is not None and fault.kind == "slow":
            response = replace(response, delay=fault.delay)
        if fault is not None and fault.kind == "trickle":
            response = replace(response, trickle=fault.delay)
        return response

    def forget_cache(self) -> None:
        """Forget every prompt prefix seen (the simulated cache starts cold)."""
        with self._lock:
            self._seen_prefixes.clear()
            self.reasoning_of.clear()

    def next_id(self, prefix: str) -> str:
        with self._lock:
            self._count += 1
            return f"{prefix}{self._count:06d}"

    async def ask(self, request: TurnRequest) -> AssistantTurn:
        """The assistant's turn for ``request``."""
        return await self.assistant.respond(request)

    def cached(self, key_data: Any) -> bool:
        """Whether this prompt prefix was seen before (and remember it)."""
        key = hashlib.sha256(
            json.dumps(key_data, sort_keys=True, ensure_ascii=False).encode()
        ).hexdigest()
        with self._lock:
            seen = key in self._seen_prefixes
            self._seen_prefixes.add(key)
        return seen

    # ------------------------------------------------------------ OpenAI Chat Completions

    async def _chat(self, body: Mapping[str, Any]) -> dict[str, Any]:
        try:
            request = chat_completions.parse_request(body)
        except ValueError as exc:
            raise Refused(str(exc)) from exc
        turn = await self.ask(request)
        model = str(body["model"])
        usage = self._chat_usage(body, turn)
        data = chat_completions.completion_body(
            turn, model=model, response_id=self.next_id("chatcmpl-"), usage=usage
        )
        fault = self.faults.take_output("openai", has_calls=bool(turn.tool_calls))
        if fault is not None:
            _break_chat(data, fault)
        return data

    def _chat_usage(self, body: Mapping[str, Any], turn: AssistantTurn) -> dict[str, Any]:
        if turn.usage.input_tokens or turn.usage.output_tokens:
            u = turn.usage
            return chat_completions.usage_body(
                input_tokens=u.input_tokens,
                output_tokens=u.output_tokens,
                cached_tokens=u.cached_tokens,
                reasoning_tokens=u.reasoning_tokens,
            )
        messages = body["messages"]
        prefix = [
            body.get("model"),
            body.get("tools"),
            [m for m in messages[:1] if m.get("role") in ("system", "developer")],
        ]
        cached = estimate_tokens(prefix) if self.cached(prefix) else 0
        output = [turn.text, [c.to_dict() for c in turn.tool_calls]]
        return chat_completions.usage_body(
            input_tokens=estimate_tokens([body.get("tools"), messages]),
            output_tokens=estimate_tokens(output),
            cached_tokens=cached,
        )

    # ------------------------------------------------------------- Anthropic Messages

    async def _messages(self, body: Mapping[str, Any]) -> dict[str, Any]:
        thinking_on = (body.get("thinking") or {}).get("type") in ("enabled", "adaptive")
        problems = (
            _thinking_problems(body["messages"], thinking_on)
            if isinstance(body.get("messages"), list)
            else []
        )
        try:
            request = messages_api.parse_request(body)
        except ValueError as exc:
            raise Refused(str(exc)) from exc
        if problems:
            raise Refused(problems[0])
        turn = await self.ask(request)
        thinking: list[dict[str, Any]] = []
        if thinking_on:
            text = str((turn.provider_state or {}).get(THINKING_KEY) or DEFAULT_THINKING)
            thinking.append(
                {"type": "thinking", "thinking": text, "signature": sign_thinking(text)}
            )
        data = messages_api.message_body(
            turn,
            model=str(body["model"]),
            response_id=self.next_id("msg_"),
            usage=self._messages_usage(body, turn, thinking),
            thinking=thinking,
        )
        fault = self.faults.take_output("anthropic", has_calls=bool(turn.tool_calls))
        if fault is not None:
            _break_messages(data, fault, turn)
        return data

    def _messages_usage(
        self, body: Mapping[str, Any], turn: AssistantTurn, thinking: list[dict[str, Any]]
    ) -> dict[str, Any]:
        u = turn.usage
        if u.input_tokens or u.output_tokens:
            return messages_api.usage_body(
                input_tokens=u.input_tokens - u.cached_tokens,
                output_tokens=u.output_tokens,
                cache_read=u.cached_tokens,
                thinking_tokens=u.reasoning_tokens,
            )
        total = estimate_tokens([body.get("tools"), body.get("system"), body.get("messages")])
        prefix = _cacheable_prefix(body)
        read = written = 0
        if prefix is not None:
            size = min(total, estimate_tokens(prefix))
            if self.cached([body.get("model"), prefix]):
                read = size
            else:
                written = size
        thinking_tokens = sum(estimate_tokens(b["thinking"]) for b in thinking)
        output = estimate_tokens([turn.text, [c.to_dict() for c in turn.tool_calls]])
        return messages_api.usage_body(
            input_tokens=total - read - written,
            output_tokens=output + thinking_tokens,
            cache_read=read,
            cache_write=written,
            thinking_tokens=thinking_tokens,
        )


class Refused(Exception):
    """The request is one the real provider answers with 400 (the message is its words)."""


def _cacheable_prefix(body: Mapping[str, Any]) -> list[Any] | None:
    """Everything up to the last ``cache_control`` breakpoint (tools, system, messages order)."""
    sequence: list[Any] = list(body.get("tools") or [])
    system = body.get("system")
    sequence.extend(system if isinstance(system, list) else [system] if system else [])
    for message in body.get("messages") or []:
        content = message.get("content")
        blocks = content if isinstance(content, list) else [content]
        sequence.extend({"role": message.get("role"), "block": b} for b in blocks)
    last = None
    for i, item in enumerate(sequence):
        block = item.get("block") if isinstance(item, Mapping) and "role" in item else item
        if isinstance(block, Mapping) and block.get("cache_control"):
            last = i
    return None if last is None else sequence[: last + 1]


def _thinking_problems(messages: list[Any], thinking_on: bool) -> list[str]:
    problems: list[str] = []
    last_assistant = max(
        (
            i
            for i, m in enumerate(messages)
            if isinstance(m, Mapping) and m.get("role") == "assistant"
        ),
        default=None,
    )
    for i, message in enumerate(messages):
        if not isinstance(message, Mapping) or not isinstance(message.get("content"), list):
            continue
        blocks = [b for b in message["content"] if isinstance(b, Mapping)]
        for j, block in enumerate(blocks):
            if block.get("type") == "thinking" and block.get("signature") != sign_thinking(
                str(block.get("thinking", ""))
            ):
                problems.append(
                    f"messages.{i}.content.{j}: Invalid `signature` in `thinking` block"
                )
        has_tool_use = any(b.get("type") == "tool_use" for b in blocks)
        if thinking_on and i == last_assistant and has_tool_use and blocks:
            first = blocks[0].get("type")
            if first not in ("thinking", "redacted_thinking"):
                problems.append(
                    f"messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, "
                    f"but found `{first}`. When `thinking` is enabled, a final `assistant` "
                    "message must start with a thinking block."
                )
    return problems


# ------------------------------------------------------------------------ output faults


def broken_arguments(text: str, kind: str) -> str:
    """``text`` cut in half (``truncated_arguments``) or with a trailing comma (invalid)."""
    if kind == "truncated_arguments":
        return text[: max(1, len(text) // 2)]
    body = text.rstrip()
    return (body[:-1] + ",}") if body.endswith("}") else body + ","


def _break_chat(data: dict[str, Any], fault: Fault) -> None:
    if fault.kind == "no_choices":
        data["choices"] = []
        return
    message = data["choices"][0]["message"]
    if fault.kind == "empty_completion":
        message["content"] = ""
        message.pop("tool_calls", None)
        data["choices"][0]["finish_reason"] = "stop"
        return
    for call in message.get("tool_calls", []):
        function = call["function"]
        if fault.kind == "missing_ids":
            del call["id"]
        elif fault.kind == "dict_arguments":
            function["arguments"] = parse_arguments(function["arguments"]) or {}
        else:
            function["arguments"] = broken_arguments(function["arguments"], fault.kind)


def _break_messages(data: dict[str, Any], fault: Fault, turn: AssistantTurn) -> None:
    if fault.kind == "no_choices":
        return
    if fault.kind == "empty_completion":
        data["content"] = []
        data["stop_reason"] = "end_turn"
        return
    calls = iter(turn.tool_calls)
    for block in data["content"]:
        if block.get("type") != "tool_use":
            continue
        call = next(calls)
        if fault.kind == "missing_ids":
            del block["id"]
        elif fault.kind in ("truncated_arguments", "invalid_arguments"):
            # The API promises an object; a broken gateway or a cut-off stream sends text.
            block["input"] = broken_arguments(call.arguments, fault.kind)


# ------------------------------------------------------------------------------ errors

_OPENAI_TYPES = {429: "requests", 400: "invalid_request_error", 404: "not_found_error"}
_ANTHROPIC_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    408: "timeout_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}
_QUOTA_MESSAGES = {
    "openai": "You exceeded your current quota, please check your plan and billing details.",
    "responses": "You exceeded your current quota, please check your plan and billing details.",
    "anthropic": "Your credit balance is too low to access the Anthropic API.",
}


def _no_route(method: str, path: str) -> HttpResponse:
    """A 404 that says what is wrong: the path, not the key or the model."""
    served = ", ".join(f"POST {route}" for route in ROUTES if route.startswith("/v1/"))
    hint = ""
    if "/v1/v1/" in f"{path}/":
        hint = " (the base URL already ends in /v1 and the client added another)"
    message = (
        f"this server has no route {method} {path}{hint}; it serves {served} on this one "
        "port: use --base-url http://HOST:PORT (or …/v1) for either wire format"
    )
    return HttpResponse.json(404, {"error": {"message": message, "type": "not_found_error"}})


def _fault_error(
    endpoint: Endpoint, fault: Fault, request_headers: Mapping[str, str]
) -> HttpResponse:
    headers: dict[str, str] = {}
    if fault.retry_after is not None:
        headers["retry-after"] = f"{fault.retry_after:g}"
    if fault.retry_after_ms is not None:
        headers["retry-after-ms"] = f"{fault.retry_after_ms:g}"
    if fault.code == "insufficient_quota":
        message = _QUOTA_MESSAGES[endpoint]
    elif fault.status == 401:
        # As careless gateways do: quote the credential that was refused, so tests can check
        # that an echoed key never reaches what OpsBench writes.
        sent = request_headers.get("x-api-key") or request_headers.get("authorization", "")
        message = f"Incorrect API key provided: {sent}"
    else:
        message = f"injected fault: HTTP {fault.status}"
    return _error(endpoint, fault.status, message, code=fault.code, headers=headers)


def _error(
    endpoint: Endpoint,
    status: int,
    message: str,
    *,
    code: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> HttpResponse:
    if endpoint == "anthropic":
        kind = _ANTHROPIC_TYPES.get(status, "api_error")
        error: dict[str, Any] = {"type": kind, "message": message}
        if code:
            error["details"] = {"error_code": code}
        return HttpResponse.json(status, {"type": "error", "error": error}, headers)
    kind = code or _OPENAI_TYPES.get(
        status, "server_error" if status >= 500 else "invalid_request_error"
    )
    return HttpResponse.json(
        status,
        {"error": {"message": message, "type": kind, "param": None, "code": code}},
        headers,
    )
