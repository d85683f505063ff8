"""The local server's ``POST /v1/responses``: OpenAI's Responses API, stateless.

For a reasoning model the reply starts with a reasoning item whose ``encrypted_content`` the
server can check; a request that sends back a ``function_call`` item the server issued without
the reasoning item issued with it is refused as OpenAI refuses it. That catches a client that
drops reasoning between turns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from adapters import responses_api
from adapters.openai_models import is_reasoning_model
from adapters.server.app import Refused, broken_arguments, estimate_tokens, sign_thinking
from adapters.toolcalls import parse_arguments

if TYPE_CHECKING:
    from adapters.server.app import ProviderApp


async def answer_responses(app: ProviderApp, body: Mapping[str, Any]) -> dict[str, Any]:
    """The ``response`` object for ``body``; raises ``Refused`` for what OpenAI refuses."""
    problems = (
        responses_api.request_problems(body)
        + _reasoning_problems(body)
        + reasoning_pairing_problems(app, body)
    )
    if problems:
        raise Refused(problems[0])
    request = responses_api.parse_request(body)
    turn = await app.ask(request)
    model = str(body["model"])
    reasoning: list[dict[str, Any]] = []
    if is_reasoning_model(model):
        rs_id = app.next_id("rs_")
        reasoning.append(
            {
                "type": "reasoning",
                "id": rs_id,
                "summary": [],
                "encrypted_content": sign_thinking(rs_id),
            }
        )
    input_tokens = estimate_tokens([body.get("instructions"), body.get("tools"), body.get("input")])
    prefix = [model, body.get("instructions"), body.get("tools")]
    usage = responses_api.usage_body(
        input_tokens=turn.usage.input_tokens or input_tokens,
        output_tokens=turn.usage.output_tokens
        or estimate_tokens([turn.text, [c.to_dict() for c in turn.tool_calls]])
        + 8 * len(reasoning),
        cached_tokens=turn.usage.cached_tokens
        or (estimate_tokens(prefix) if app.cached(prefix) else 0),
        reasoning_tokens=turn.usage.reasoning_tokens or 8 * len(reasoning),
    )
    data = responses_api.response_body(
        turn,
        model=model,
        response_id=app.next_id("resp_"),
        usage=usage,
        reasoning=reasoning,
        item_id=app.next_id,
    )
    if reasoning:
        calls = [i["id"] for i in data["output"] if i["type"] == "function_call"]
        app.reasoning_of.update(dict.fromkeys(calls, reasoning[0]["id"]))
    fault = app.faults.take_output("responses", has_calls=bool(turn.tool_calls))
    if fault is not None:
        _break(data, fault)
    return data


def _reasoning_problems(body: Mapping[str, Any]) -> list[str]:
    items = body.get("input")
    if not isinstance(items, list):
        return []
    problems = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        if item.get("type") == "reasoning" and item.get("encrypted_content") != sign_thinking(
            str(item.get("id"))
        ):
            problems.append(
                f"The encrypted content for item {item.get('id')} could not be verified."
            )
    return problems


def reasoning_pairing_problems(app: ProviderApp, body: Mapping[str, Any]) -> list[str]:
    """Function calls the server issued alongside a reasoning item, sent back without it."""
    items = body.get("input")
    if not isinstance(items, list):
        return []
    present = {
        i.get("id") for i in items if isinstance(i, Mapping) and i.get("type") == "reasoning"
    }
    return [
        f"Item '{i['id']}' of type 'function_call' was provided without its required "
        f"'reasoning' item: '{app.reasoning_of[i['id']]}'."
        for i in items
        if isinstance(i, Mapping)
        and i.get("type") == "function_call"
        and i.get("id") in app.reasoning_of
        and app.reasoning_of[i["id"]] not in present
    ]


def _break(data: dict[str, Any], fault: Any) -> None:
    if fault.kind == "no_choices":
        return
    if fault.kind == "empty_completion":
        data["output"] = [i for i in data["output"] if i["type"] == "reasoning"]
        return
    for item in data["output"]:
        if item["type"] != "function_call":
            continue
        if fault.kind == "missing_ids":
            del item["call_id"]
        elif fault.kind == "dict_arguments":
            item["arguments"] = parse_arguments(item["arguments"]) or {}
        else:
            item["arguments"] = broken_arguments(item["arguments"], fault.kind)
