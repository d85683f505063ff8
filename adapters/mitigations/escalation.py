"""``escalation-policy``: whether the call goes to a person follows the policy, not the caller's tone.

What the business's public rules reserve for a person (``escalation_required``: these tools,
optionally only when the call would be irreversible or above an amount; ``max_refund``: refunds
above a limit) becomes the assistant's escalation decision:

- a write the policy reserves for a person is refused before it runs (``escalation_required``),
  the tool error telling the assistant why and to transfer;
- the policy also calls for a person when the caller asks for such an action (their words name
  it: ``data/confirmation.yaml``) and a record the tools returned on this call would make it one
  (a dry run of the action on that record is irreversible, or an amount above the refund limit);
- a transfer the policy does not call for is refused (``transfer_not_required``), and a transfer
  announcement in that turn is not spoken;
- when the policy calls for a person and the assistant answers in text without transferring --
  straight after a refusal, or after the caller has spoken since the need became clear -- the
  wrapper adds the transfer itself, with the reason and a summary of this call's writes.

A question the rules reserve for a person (``questions_for_person``: the caller's words raise
a topic) is a certain need too.

It cannot see a need for a person that no rule names (a caller in distress, an unusual request),
nor one behind records the assistant never looked up; its reading of the caller's request is a
word list, so a request in other words is missed and a word in passing may count.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from adapters.mitigations.base import Mitigation, tool_error
from adapters.mitigations.conversation import attempts, data, sentences, words_pattern
from contract.gate import Preview
from contract.messages import AssistantTurn, Message, ToolCall, TurnRequest
from sandbox.claim_cache import default_checker
from sandbox.rules_questions import raised_topic
from tools import Effect, ToolRegistry, default_registry


@cache
def _registry() -> ToolRegistry:
    """The shipped tools, built on first use."""
    return default_registry()


_AMOUNT_FIELDS = ("amount_cents", "total_cents", "price_cents")
# What a dry run of an action with an amount takes from the record it acts on.
_DRY_AMOUNT_FIELDS = ("amount_cents", "estimate_cents", "total_cents")


def _money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def _service(arguments: dict[str, Any], messages: Sequence[Message]) -> str | None:
    """The service a calendar call is about: its own ``service_id``, else that of its
    appointment as a tool result on this call showed it (unknown if never looked up)."""
    if arguments.get("service_id"):
        return str(arguments["service_id"])
    wanted = arguments.get("appointment_id")
    for record in _records(messages):
        if wanted and record["id"] == wanted and record.get("service_id"):
            return str(record["service_id"])
    return None


def _records(messages: Sequence[Message]) -> Iterator[dict[str, Any]]:
    """Every record (a JSON object with an ``id``) in this session's tool results."""
    stack: list[Any] = []
    for message in messages:
        for result in message.tool_results:
            try:
                stack.append(json.loads(result.content))
            except (TypeError, ValueError):
                continue
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("id"), str):
                yield value
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


def _names(text: str, tool: str) -> bool:
    """Whether a sentence of ``text`` names ``tool``'s action (``data/escalation.yaml``)."""
    spec = data("escalation")["requests"].get(tool)
    if not spec:
        return False
    words = words_pattern(spec["words"])
    objects = words_pattern(spec["objects"]) if spec.get("objects") else None
    return any(
        words.search(s) and (objects is None or objects.search(s))
        for line in text.splitlines()
        for s in sentences(line)
    )


def _caller_words(messages: Sequence[Message]) -> str:
    return "\n".join(m.content for m in messages if m.role == "user")


def _dry_arguments(tool: str, record: dict[str, Any]) -> list[dict[str, Any]]:
    """Ways to call ``tool`` on ``record`` for a dry run: one id parameter takes the record's
    id and any other the ids the record itself names (``customer_id``: approving a work order
    for its owner; ``holder_id``: the customer acting on an account). Text parameters take the
    record's field of the same name, else filler; a required amount is the record's own (its
    estimate, its amount), else the smallest the schema allows (a damage charge)."""
    spec = _registry().get(tool)
    if spec is None:
        return []
    properties = spec.parameters.get("properties", {})
    required = spec.parameters.get("required", [])
    id_params = [n for n in required if properties.get(n, {}).get("x-table")]
    named = [v for k, v in record.items() if k.endswith("_id") and isinstance(v, str)]
    base: dict[str, Any] = {}
    for name in required:
        schema = properties.get(name, {})
        if schema.get("x-table"):
            continue
        if schema.get("type") == "string":
            value = record.get(name)
            base[name] = value if isinstance(value, str) and value else "policy check"
        elif name == "amount_cents" and any(
            isinstance(record.get(f), int) for f in _DRY_AMOUNT_FIELDS
        ):
            base[name] = next(
                record[f] for f in _DRY_AMOUNT_FIELDS if isinstance(record.get(f), int)
            )
        elif schema.get("type") == "integer":
            base[name] = schema.get("minimum", 1)
        else:
            return []
    out: list[dict[str, Any]] = []
    for slot in id_params:
        ways = [{**base, slot: record["id"]}]
        for other in (n for n in id_params if n != slot):
            ways = [{**w, other: v} for w in ways for v in named]
        out.extend(ways)
    return out


def _record_matches(
    arguments: dict[str, Any], messages: Sequence[Message], where: dict[str, Any]
) -> bool:
    """Whether a record the call names (an id among its arguments), as the tools showed it on
    this call, has every field of ``where`` (a rule limited to, say, warranty claims)."""
    named = {v for v in arguments.values() if isinstance(v, str)}
    return any(
        record["id"] in named and all(record.get(k) == v for k, v in where.items())
        for record in _records(messages)
    )


class EscalationPolicy(Mitigation):
    """Transfers when the business's rules call for a person, and only then."""

    name = "escalation-policy"

    # -- what the rules reserve for a person ---------------------------------------------

    def _reserved(
        self,
        call: ToolCall,
        arguments: dict[str, Any],
        effect: Effect | None,
        messages: Sequence[Message],
    ) -> str | None:
        """Why the rules reserve this call for a person, or ``None``."""
        for params in self.policy.params("escalation_required"):
            if call.name not in params["tools"]:
                continue
            if params.get("irreversible_only") and effect != Effect.IRREVERSIBLE:
                continue
            if int(arguments.get("amount_cents", 0) or 0) < params.get("min_amount_cents", 0):
                continue
            if "services" in params and _service(arguments, messages) not in params["services"]:
                continue
            if "where" in params and not _record_matches(arguments, messages, params["where"]):
                continue
            return f"{call.name} must be handled by a person" + (
                " (it would be irreversible)" if effect == Effect.IRREVERSIBLE else ""
            )
        if call.name == "refund":
            earlier = sum(
                int(a.arguments.get("amount_cents", 0) or 0)
                for a in attempts(messages)
                if a.ok
                and a.call.name == "refund"
                and a.arguments.get("payment_id") == arguments.get("payment_id")
            )
            total = earlier + int(arguments.get("amount_cents", 0) or 0)
            for params in self.policy.params("max_refund"):
                if total > params["amount_cents"]:
                    return (
                        f"refunds above {_money(params['amount_cents'])} on one charge need a "
                        f"person ({_money(total)} here)"
                    )
        return None

    def _evident(
        self, messages: Sequence[Message], preview: Preview | None, request: str
    ) -> tuple[str, bool] | None:
        """A need for a person that ``request`` (words naming an action) and the records in
        view support, and whether it is *certain*: a dry run of a reserved action on one of
        those records is irreversible (certain), or a record's amount is above the refund limit
        (supported only: whether a refund is owed, and how much, is not known)."""
        for params in self.policy.params("questions_for_person"):
            raised = raised_topic(params, request)
            if raised is not None:
                return f"questions about {raised[0]} go to a person: {params['why']}", True
        records = list(_records(messages))
        for params in self.policy.params("escalation_required"):
            for tool in params["tools"]:
                if not _names(request, tool) or preview is None:
                    continue
                for record in records:
                    for arguments in _dry_arguments(tool, record):
                        effect = preview(tool, arguments)
                        if effect is None:
                            continue
                        why = self._reserved(ToolCall("dry", tool, ""), arguments, effect, messages)
                        if why:
                            return f"{why}: {record['id']}", True
        for params in self.policy.params("escalation_required"):
            # A rule limited to some services: the request names a reserved action and a record
            # in view is a booking of one of those services (or, for a booking, the service).
            services = params.get("services") or ()
            for tool in params["tools"] if services else ():
                if not _names(request, tool):
                    continue
                for record in records:
                    if record.get("service_id") in services or (
                        tool == "book_appointment" and record["id"] in services
                    ):
                        return (
                            f"{tool} of a reserved service must be handled by a person: {record['id']}",
                            True,
                        )
        if _names(request, "refund"):
            for params in self.policy.params("max_refund"):
                for record in records:
                    amounts = [record.get(f) for f in _AMOUNT_FIELDS]
                    big = [a for a in amounts if isinstance(a, int) and a > params["amount_cents"]]
                    if big and record.get("kind", "charge") == "charge":
                        return (
                            f"a refund of {record['id']} ({_money(big[0])}) is above "
                            f"{_money(params['amount_cents'])} and needs a person",
                            False,
                        )
        return None

    def _certain(self, messages: Sequence[Message]) -> str | None:
        """A certain need for a person from the caller's own request and the records."""
        found = self._evident(messages, self.preview, _caller_words(messages))
        return found[0] if found and found[1] else None

    def _refused_for_person(self, messages: Sequence[Message]) -> str | None:
        for attempt in attempts(messages):
            if attempt.error_code == "escalation_required":
                return attempt.error_message
        return None

    # -- the gate and the turn ------------------------------------------------------------

    def check(
        self, call: ToolCall, request: TurnRequest, preview: Preview
    ) -> dict[str, Any] | None:
        messages = request.messages
        if call.name == "transfer_to_human":
            self.preview = preview
            if self._transfer_allowed(call, messages):
                return None
            return tool_error(
                "transfer_not_required",
                "Not transferred: nothing on this call needs a person under the policy (it "
                "reserves for a person only what its rules name, e.g. "
                + self._reserved_list()
                + "). Help the caller yourself; if a tool later tells you a person is "
                "required, transfer then.",
            )
        try:
            arguments = json.loads(call.arguments or "{}")
        except ValueError:
            return None
        if not isinstance(arguments, dict):
            return None
        why = self._reserved(call, arguments, preview(call.name, call.arguments), messages)
        if why is None:
            return None
        return tool_error(
            "escalation_required",
            f"Not done: policy requires a person: {why}. Nothing was changed. Tell the caller, "
            "and call transfer_to_human with this reason and a summary.",
        )

    def _transfer_allowed(self, call: ToolCall, messages: Sequence[Message]) -> bool:
        """A transfer is called for when a write was refused for a person, or when the caller's
        request or the transfer's stated reason names a reserved action the records support."""
        if self._refused_for_person(messages):
            return True
        try:
            arguments = json.loads(call.arguments or "{}")
        except ValueError:
            arguments = {}
        stated = (
            " ".join(str(arguments.get(k, "")) for k in ("reason", "summary"))
            if isinstance(arguments, dict)
            else ""
        )
        if any(
            self._evident(messages, self.preview, text)
            for text in (_caller_words(messages), stated)
        ):
            return True
        # Nothing looked up yet, and the caller asks for an action the rules may reserve for a
        # person: the policy cannot say that no person is needed.
        return not any(True for _ in _records(messages)) and any(
            _names(_caller_words(messages), tool)
            for params in self.policy.params("escalation_required")
            for tool in params["tools"]
        )

    def _reserved_list(self) -> str:
        items = [
            ", ".join(p["tools"]) + (" when irreversible" if p.get("irreversible_only") else "")
            for p in self.policy.params("escalation_required")
        ]
        items += [
            f"refunds above {_money(p['amount_cents'])}" for p in self.policy.params("max_refund")
        ]
        items += [
            f"questions about {t}"
            for p in self.policy.params("questions_for_person")
            for t in p["topics"]
        ]
        return "; ".join(items) or "nothing"

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        turn = await self.inner.respond(request)
        messages = request.messages
        transfers = [c for c in turn.tool_calls if c.name == "transfer_to_human"]
        refused = self._refused_for_person(messages)
        if transfers:
            if not any(self._transfer_allowed(c, messages) for c in transfers):
                # The transfer will be refused: the caller must not hear it announced.
                kept = [
                    s
                    for s in sentences(turn.text)
                    if not any(c.kind == "transfer" for c in default_checker().extract(s))
                ]
                return replace(turn, text=" ".join(kept))
            return turn
        if turn.tool_calls:
            return turn
        why = refused
        if why is None and self._caller_spoke_since_certain(messages):
            why = self._certain(messages)
        if why is None:
            why = self._announced_and_supported(messages)
        if why is None:
            return turn
        done = [a for a in attempts(messages) if a.ok and a.call.name != "transfer_to_human"]
        summary = "; ".join(f"{a.call.name} {a.call.arguments}" for a in done) or "nothing changed"
        arguments: dict[str, Any] = {
            "reason": why[:300],
            "summary": f"Done on this call: {summary}"[:1000],
        }
        customer = self._customer(messages)
        if customer:
            arguments["customer_id"] = customer
        call = ToolCall(
            f"policy_transfer_{len(messages)}", "transfer_to_human", json.dumps(arguments)
        )
        return replace(turn, tool_calls=(call,))

    # The episode loop hands the gate a preview per call; between calls the wrapper keeps the
    # latest one so ``respond`` can judge the records in view the same way.
    preview: Preview | None = None

    def gate_tool_call(
        self, call: ToolCall, request: TurnRequest, preview: Preview
    ) -> dict[str, Any] | None:
        self.preview = preview
        return super().gate_tool_call(call, request, preview)

    def _caller_spoke_since_certain(self, messages: Sequence[Message]) -> bool:
        """The need became certain, and the caller has spoken since (the assistant had its
        exchange with the caller about it)."""
        if self._certain(messages) is None:
            return False
        for end in range(len(messages) - 1, 0, -1):
            if self._certain(messages[:end]) is None:
                return any(m.role == "user" for m in messages[end + 1 :])
        return False

    def _announced_and_supported(self, messages: Sequence[Message]) -> str | None:
        """The assistant told the caller they would be put through, the caller has spoken since,
        and the records support a need for a person: carry the announced transfer out."""
        announce = words_pattern(data("escalation")["announce"])
        said = [
            i
            for i, m in enumerate(messages)
            if m.role == "assistant" and announce.search(m.content)
        ]
        if not said or not any(m.role == "user" for m in messages[said[0] + 1 :]):
            return None
        found = self._evident(messages, self.preview, _caller_words(messages)) or next(
            (
                f
                for m in messages
                if m.role == "assistant" and m.content
                for f in [self._evident(messages, self.preview, m.content)]
                if f
            ),
            None,
        )
        return found[0] if found else None

    def _customer(self, messages: Sequence[Message]) -> str | None:
        for attempt in reversed(attempts(messages, writes_only=False)):
            if attempt.call.name == "verify_customer" and attempt.result.get("verified") is True:
                return str(attempt.result.get("customer_id"))
        return None
