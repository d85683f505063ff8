"""Two more valid routes through a task's plan, for validation (``businesses validate``).

``confirm-first``
    Before each group of writes (the writes between two things the plan says) it reads every
    write's details back and asks "Shall I go ahead?"; it writes only after a yes. A reply that
    is not a yes holds the group: the plan's next line (which was written for the held writes)
    is not said, and the held writes join the next group, a reschedule of a held booking
    folding into the booking (the caller who says "wait, I meant Wednesday" gets one
    Wednesday booking). With no later group it asks once more, then leaves the change undone.
``route-varying``
    The plan's own steps by another route: every earlier look-up repeated before each group of
    writes, independent writes of a group in the other order, and a reschedule of an
    appointment the plan booked itself done as cancel-and-rebook where the task allows a
    cancelled booking.

Both are stateless like the other reference assistants: each response is recomputed from the
plan and the conversation so far. Neither assumes the caller speaks in the plan's order.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

import yaml

from adapters.reference.assistants import (
    _FREE,
    _VARIABLE,
    ReferenceAssistant,
    _is_write,
    _substitute,
    _summary_text,
)
from adapters.reference.summary import CLOSINGS, TRANSFER
from contract.assistant import EpisodeContext
from contract.messages import AssistantTurn, Message, ToolCall, TurnRequest
from sandbox.briefing import BriefedFactory, Briefing
from tools.timefmt import parse_date, parse_time

ROUTES = ("confirm-first", "route-varying")


@cache
def _phrases() -> dict[str, Any]:
    text = resources.files("adapters.reference").joinpath("readback.yaml").read_text("utf-8")
    return yaml.safe_load(text)


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
    phrases = _phrases()
    parts = []
    for step in steps:
        args = step.get("args", {})
        template = phrases["steps"].get(step["call"], "I'll " + step["call"].replace("_", " "))
        cents = args.get("amount_cents")
        contact = [str(args[k]) for k in ("email", "phone", "address") if args.get(k)]
        parts.append(
            template.format(
                when=_spoken_time(args.get("start", "")),
                amount=f"${int(cents) // 100}.{int(cents) % 100:02d}"
                if isinstance(cents, int)
                else "the amount",
                until=_spoken_date(args.get("until", "")),
                a_channel={"sms": "a text", "email": "an email"}.get(args.get("channel", ""), "a"),
                quantity=args.get("quantity", "the items"),
                contact=", ".join(contact) or "what you gave me",
            )
        )
    body = "; ".join(parts)
    return f"{rng.choice(phrases['intro'])} {body}. {rng.choice(phrases['question'])}"


def affirmative(reply: str) -> bool:
    """Whether the caller's ``reply`` to a read-back is a yes."""
    phrases = _phrases()
    return bool(re.search(phrases["affirm"], reply, re.I)) and not re.search(
        phrases["deny"], reply, re.I
    )


def _refs(value: Any) -> set[str]:
    return {m.group(1) for m in _VARIABLE.finditer(json.dumps(value))}


# -- route-varying: a static transformation of the plan ----------------------------------------


def _is_lookup(step: Mapping[str, Any]) -> bool:
    name = str(step.get("call", ""))
    return "call" in step and not _is_write(step) and not name.startswith("verify")


def _segments(steps: list[dict[str, Any]]) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each group: consecutive writes (no say, no transfer between)."""
    index = 0
    while index < len(steps):
        if _is_write(steps[index]) and steps[index]["call"] != "transfer_to_human":
            end = index
            while (
                end < len(steps)
                and _is_write(steps[end])
                and steps[end]["call"] != "transfer_to_human"
            ):
                end += 1
            yield index, end
            index = end
        else:
            index += 1


def _touches(step: Mapping[str, Any]) -> set[str]:
    # A write not in the table touches everything: it never changes place.
    return set(_phrases()["touches"].get(step.get("call"), ["*"]))


def _reorder(group: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The group in another order: a write waits for every earlier one it depends on.

    It depends on an earlier write whose ``${name}`` it uses, or that touches a table it
    touches (``touches`` in ``readback.yaml``): releasing a hold before ordering the item.
    """
    names = {s["as"]: i for i, s in enumerate(group) if s.get("as")}
    needs = []
    for index, step in enumerate(group):
        uses = {names[r] for r in _refs(step.get("args", {})) if r in names}
        mine = _touches(step)
        shared = {
            j
            for j in range(index)
            if "*" in mine or "*" in _touches(group[j]) or mine & _touches(group[j])
        }
        needs.append(uses | shared)
    order: list[int] = []
    remaining = list(range(len(group)))[::-1]
    while remaining:
        pick = next(i for i in remaining if needs[i] <= set(order))
        order.append(pick)
        remaining.remove(pick)
    return [group[i] for i in order]


def _rebook(
    step: dict[str, Any], booked: Mapping[str, dict[str, Any]]
) -> list[dict[str, Any]] | None:
    """A reschedule of a booking the plan made, as cancel-and-rebook (``None``: not one)."""
    if step.get("call") != "reschedule_appointment":
        return None
    target = str(step.get("args", {}).get("appointment_id", ""))
    match = _VARIABLE.fullmatch(target)
    if match is None or match.group(1) not in booked:
        return None
    book = booked[match.group(1)]
    args = dict(book.get("args", {}))
    args.update({k: v for k, v in step["args"].items() if k in ("start", "staff_id")})
    new = {"call": "book_appointment", "args": args}
    if step.get("as"):
        new["as"] = step["as"]
    return [
        {"call": "cancel_appointment", "args": {"appointment_id": target, "reason": "Rebooked"}},
        new,
    ]


def route_varying_plan(plan: list[dict[str, Any]], rebook_allowed: bool) -> list[dict[str, Any]]:
    """``plan`` by another valid route (see the module docstring)."""
    steps = [dict(s) for s in plan]
    booked = {s["as"]: s for s in steps if s.get("call") == "book_appointment" and s.get("as")}
    if rebook_allowed:
        varied: list[dict[str, Any]] = []
        for step in steps:
            varied.extend(_rebook(step, booked) or [step])
        steps = varied
    out: list[dict[str, Any]] = []
    cursor = 0
    for start, end in list(_segments(steps)):
        out.extend(steps[cursor:start])
        out.extend({k: v for k, v in s.items() if k != "as"} for s in out[:] if _is_lookup(s))
        out.extend(_reorder(steps[start:end]))
        cursor = end
    out.extend(steps[cursor:])
    return out


# -- confirm-first: a read-back before every group of writes -----------------------------------


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
        segments = dict(_segments(steps))
        rng = random.Random(self.rng_seed)
        held: list[dict[str, Any]] = []
        index = 0
        while index < len(steps):
            step = steps[index]
            if index in segments:
                end = segments[index]
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
                yield _Action("say", text=_phrases()["declined"])
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


def route_factory(route: str) -> BriefedFactory:
    """The factory behind ``reference/confirm-first`` and ``reference/route-varying``."""
    if route == "confirm-first":
        return BriefedFactory(ConfirmFirstAssistant, "reference/confirm-first")
    if route == "route-varying":

        def make(context: EpisodeContext, brief: Briefing) -> ReferenceAssistant:
            plan = route_varying_plan([dict(s) for s in brief.plan], brief.rebook_allowed)
            return ReferenceAssistant("oracle", context, replace(brief, plan=tuple(plan)))

        return BriefedFactory(make, "reference/route-varying")
    raise ValueError(f"unknown reference route {route!r}; expected one of {', '.join(ROUTES)}")
