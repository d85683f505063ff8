"""``reference/confirm-first``: the plan, with every group of writes read back and a yes awaited.

Before each group of writes (the writes between two things the plan says) it reads every write's
details back and asks "Shall I go ahead?"; it writes only after a yes. A reply that is not a
yes holds the group: the plan's next line (written for the held writes) is not said, and the
held writes join the next group, a reschedule of a held booking folding into the booking (the
caller who says "wait, I meant Wednesday" gets one Wednesday booking). With no later group it
asks once more, then leaves the change undone. Stateless like every reference assistant: each
response is recomputed from the plan and the conversation so far.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from adapters.reference.assistants import (
    _FREE,
    _VARIABLE,
    _is_write,
    _substitute,
    _summary_text,
)
from adapters.reference.plans import phrases, segments
from adapters.reference.summary import CLOSINGS, TRANSFER
from contract.assistant import EpisodeContext
from contract.messages import AssistantTurn, Message, ToolCall, TurnRequest
from sandbox.briefing import Briefing
from tools.timefmt import parse_date, parse_time


def _spoken_time(value: Any) -> str:
    try:
        moment = parse_time(str(value))
    except ValueError:
        return str(value)
    hour = moment.hour % 12 or 12
    suffix = "am" if moment.hour < 12 else "pm"
    return f"{moment:%A}, {moment:%B} {moment.day} at {hour}:{moment:%M} {suffix}"


def _spoken_date(value: Any) -> str:
    try:
        day = parse_date(str(value))
    except ValueError:
        return str(value)
    return f"{day:%B} {day.day}, {day.year}"


def readback(steps: list[dict[str, Any]], rng: random.Random) -> str:
    """What confirm-first says before ``steps`` (already substituted): details and a question."""
    words = phrases()
    parts = []
    for step in steps:
        args = step.get("args", {})
        template = words["steps"].get(step["call"], "I'll " + step["call"].replace("_", " "))
        cents = args.get("amount_cents")
        contact = [str(args[k]) for k in ("email", "phone", "address") if args.get(k)]
        parts.append(
            template.format(
                when=_spoken_time(args.get("start", "")),
                amount=f"${int(cents) // 100}.{int(cents) % 100:02d}"
                if isinstance(cents, int)
                else "the amount",
                until=_spoken_date(args.get("until", "")),
                check_in=_spoken_date(args.get("check_in", "")),
                check_out=_spoken_date(args.get("check_out", "")),
                arrival=args.get("arrival", ""),
                a_channel={"sms": "a text", "email": "an email"}.get(args.get("channel", ""), "a"),
                quantity=args.get("quantity", "the items"),
                contact=", ".join(contact) or "what you gave me",
                to_pharmacy=args.get("to_pharmacy", "the other pharmacy"),
            )
        )
    body = "; ".join(parts)
    return f"{rng.choice(words['intro'])} {body}. {rng.choice(words['question'])}"


def affirmative(reply: str) -> bool:
    """Whether the caller's ``reply`` to a read-back is a yes."""
    words = phrases()
    return bool(re.search(words["affirm"], reply, re.I)) and not re.search(
        words["deny"], reply, re.I
    )


@dataclass
class _Action:
    kind: str  # call | say | gate | summary | closing
    step: dict[str, Any] | None = None
    call_id: str = ""
    text: str = ""
    group: list[dict[str, Any]] = field(default_factory=list)


class ConfirmFirstAssistant:
    """Reads back each group of writes and waits for a yes before making them."""

    name = "confirm-first"

    def __init__(self, context: EpisodeContext, brief: Briefing) -> None:
        self.plan = [dict(step) for step in brief.plan]
        self.rng_seed = f"{brief.task_id}/{context.seed}/{context.trial}/confirm-first"

    def _actions(self, replies: Iterator[str | None], results: dict[str, Any]) -> Iterator[_Action]:
        """Every action in order; ``replies`` gives the caller's answer to each read-back."""
        steps = self.plan
        groups = dict(segments(steps))
        rng = random.Random(self.rng_seed)
        held: list[dict[str, Any]] = []
        index = 0
        while index < len(steps):
            step = steps[index]
            if index in groups:
                end = groups[index]
                group = _fold(held + steps[index:end])
                held = []
                concrete = [{**s, "args": _substitute(s.get("args", {}), results)} for s in group]
                yield _Action("gate", text=readback(concrete, rng), group=concrete)
                reply = next(replies)
                if reply is None or affirmative(reply):
                    for number, write in enumerate(group):
                        yield _Action("call", step=write, call_id=f"call_{index}_{number}")
                    index = end
                    continue
                held = group
                index = end
                # The plan's next line was written for the writes just held: skip it.
                if index < len(steps) and "say" in steps[index]:
                    index += 1
                continue
            if "say" in step:
                yield _Action("say", text=step["say"])
            else:
                yield _Action("call", step=step, call_id=f"call_{index}")
            index += 1
        if held:
            concrete = [{**s, "args": _substitute(s.get("args", {}), results)} for s in held]
            yield _Action("gate", text=readback(concrete, rng), group=concrete)
            reply = next(replies)
            if reply is None or affirmative(reply):
                for number, write in enumerate(held):
                    yield _Action("call", step=write, call_id=f"call_held_{number}")
            else:
                yield _Action("say", text=phrases()["declined"])
        yield _Action("summary")

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        messages = list(request.messages)
        contents = _tool_contents(messages)
        results: dict[str, Any] = {}
        attempted: list[tuple[dict[str, Any], bool]] = []
        assistant_at = [i for i, m in enumerate(messages) if m.role == "assistant"]
        position = {"n": 0}

        def replies() -> Iterator[str | None]:
            while True:
                # The caller's reply to the read-back just made: the next user message after it.
                spoken = assistant_at[position["n"] - 1] if position["n"] else -1
                reply = next((m.content for m in messages[spoken + 1 :] if m.role == "user"), None)
                yield reply

        actions = self._actions(replies(), results)
        pending: list[_Action] = []

        def pull() -> _Action | None:
            return pending.pop() if pending else next(actions, None)

        rng = random.Random(self.rng_seed)
        while (action := pull()) is not None:
            following: _Action | None = None
            if action.kind == "say":
                # The plan's last line carries the summary, as the oracle's does: one message.
                following = pull()
                if following is not None and following.kind != "summary":
                    pending.append(following)
                    following = None
            if position["n"] >= len(assistant_at):
                if following is not None:
                    text = f"{action.text} {_summary_text(attempted, rng)}"
                    return AssistantTurn(text=text.strip(), usage=_FREE)
                return self._render(action, results, attempted, rng)
            position["n"] += 1
            if action.kind == "call" and action.step is not None:
                self._record(action, contents, results, attempted)
        return AssistantTurn(text=rng.choice(CLOSINGS), usage=_FREE)

    @staticmethod
    def _record(
        action: _Action,
        contents: Mapping[str, tuple[bool, str]],
        results: dict[str, Any],
        attempted: list[tuple[dict[str, Any], bool]],
    ) -> None:
        """Take in the result of a call already made (``as`` names and writes attempted)."""
        step = action.step
        assert step is not None
        content = contents.get(action.call_id)
        if content is None:
            return
        ok, text = content
        if step.get("as"):
            try:
                results[step["as"]] = json.loads(text)
            except ValueError:
                results[step["as"]] = {}
        if _is_write(step) and step["call"] != "transfer_to_human":
            attempted.append(({**step, "args": _substitute(step.get("args", {}), results)}, ok))

    def _render(
        self,
        action: _Action,
        results: dict[str, Any],
        attempted: list[tuple[dict[str, Any], bool]],
        rng: random.Random,
    ) -> AssistantTurn:
        if action.kind in ("gate", "say"):
            return AssistantTurn(text=action.text, usage=_FREE)
        if action.kind == "summary":
            return AssistantTurn(text=_summary_text(attempted, rng), usage=_FREE)
        step = action.step
        assert step is not None
        arguments = _substitute(step.get("args", {}), results)
        call = ToolCall(id=action.call_id, name=step["call"], arguments=json.dumps(arguments))
        text = ""
        if step["call"] == "transfer_to_human":
            text = _summary_text(attempted, rng, closing=False) + " " + rng.choice(TRANSFER)
        return AssistantTurn(text=text.strip(), tool_calls=(call,), usage=_FREE)


def _fold(group: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Writes with a reschedule of a booking in the same group folded into that booking."""
    out: list[dict[str, Any]] = []
    for step in group:
        target = str(step.get("args", {}).get("appointment_id", ""))
        match = _VARIABLE.fullmatch(target)
        booking = next(
            (
                s
                for s in out
                if match is not None
                and s.get("call") == "book_appointment"
                and s.get("as") == match.group(1)
            ),
            None,
        )
        if step.get("call") == "reschedule_appointment" and booking is not None:
            booking["args"] = {
                **booking.get("args", {}),
                **{k: v for k, v in step["args"].items() if k in ("start", "staff_id")},
            }
            continue
        out.append(dict(step))
    return out


def _tool_contents(messages: list[Message]) -> dict[str, tuple[bool, str]]:
    out: dict[str, tuple[bool, str]] = {}
    for message in messages:
        for result in message.tool_results:
            out[result.call_id] = (not result.is_error, result.content)
    return out
