"""Two more valid routes through a task's plan, for validation (``businesses validate``).

``confirm-first`` (:mod:`adapters.reference.confirm_first`)
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

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from adapters.reference.assistants import _VARIABLE, ReferenceAssistant
from adapters.reference.confirm_first import ConfirmFirstAssistant
from adapters.reference.plans import is_lookup, phrases, refs, segments
from contract.assistant import EpisodeContext
from sandbox.briefing import BriefedFactory, Briefing

ROUTES = ("confirm-first", "route-varying")


def _touches(step: Mapping[str, Any]) -> set[str]:
    # A write not in the table touches everything: it never changes place.
    return set(phrases()["touches"].get(step.get("call"), ["*"]))


def _reorder(group: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The group in another order: a write waits for every earlier one it depends on.

    It depends on an earlier write whose ``${name}`` it uses, or that touches a table it
    touches (``touches`` in ``readback.yaml``): releasing a hold before ordering the item.
    """
    names = {s["as"]: i for i, s in enumerate(group) if s.get("as")}
    needs = []
    for index, step in enumerate(group):
        uses = {names[r] for r in refs(step.get("args", {})) if r in names}
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
    for start, end in list(segments(steps)):
        out.extend(steps[cursor:start])
        out.extend({k: v for k, v in s.items() if k != "as"} for s in out[:] if is_lookup(s))
        out.extend(_reorder(steps[start:end]))
        cursor = end
    out.extend(steps[cursor:])
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
