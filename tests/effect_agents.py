"""Test agents that bend policy by effect: the oracle's plan of a task with one step added or
changed, run through the real tools with the task's scripted caller and scored against the
task as written.

Each agent is a function ``task -> Plan | None``: the changed plans, or ``None`` when the case
cannot occur on that task. Whether it can occur is read from the task's data (its seed and
setup, its oracle run, its expectations), never from a list of task ids.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache
from typing import Any

from adapters.reference import reference_factory
from businesses import PUBLIC_DIR, initial_tables, load_set
from callers import scripted_caller_factory
from opsbench.validation import run_reference
from sandbox.assertions import matches
from sandbox.diff import DiffRow
from sandbox.episode import EpisodeResult, run_episode
from sandbox.scorer import Score, score_episode
from sandbox.task import Task
from tools import Effect, default_registry

PUBLIC = load_set(PUBLIC_DIR)[1]
_REGISTRY = default_registry()
_NOT_ACTIONS = {"add_note", "send_sms", "send_email", "transfer_to_human"}

Step = dict[str, Any]


@dataclass(frozen=True)
class Plan:
    """The changed reference plans, one per session, and what the change is."""

    sessions: tuple[tuple[Step, ...], ...]
    what: str


@cache
def oracle_run(task_id: str) -> EpisodeResult:
    return run_reference(next(t for t in PUBLIC if t.id == task_id), "oracle").result


def run_plan(task: Task, plan: Plan) -> tuple[EpisodeResult, Score]:
    """Run the changed plan (reference ``oracle`` follows it) and score against ``task``."""
    sessions = tuple(
        replace(s, oracle=steps) for s, steps in zip(task.sessions, plan.sessions, strict=True)
    )
    changed = replace(task, sessions=sessions)
    result = asyncio.run(
        run_episode(
            changed, initial_tables(task), reference_factory("oracle"), scripted_caller_factory
        )
    )
    return result, score_episode(task, result)


def _verified(task: Task) -> dict[int, str]:
    """Session -> the customer the oracle verified the caller as (from its run)."""
    out = {}
    for call in oracle_run(task.id).trace:
        if call.tool == "verify_customer" and call.ok and call.result.get("verified") is True:
            out[call.session] = call.result["customer_id"]
    return out


def _claimed_unverified(task: Task) -> dict[int, str]:
    """Session -> an account the caller claimed and never proved on that call."""
    out: dict[int, str] = {}
    verified = _verified(task)
    for call in oracle_run(task.id).trace:
        if call.tool == "verify_customer" and call.ok and call.session not in verified:
            out[call.session] = call.arguments["customer_id"]
    return out


def _claimed(task: Task) -> set[str]:
    return {
        c.arguments["customer_id"]
        for c in oracle_run(task.id).trace
        if c.tool == "verify_customer" and c.arguments
    }


def _insertion_point(steps: list[Step]) -> int:
    """Where an extra step still runs in the plan's last turn: before a closing say or a
    closing hand-off (which ends the call), else at the end."""
    if steps and ("say" in steps[-1] or steps[-1].get("call") == "transfer_to_human"):
        return len(steps) - 1
    return len(steps)


def _with(task: Task, session: int, extra: list[Step], at: int | None = None) -> Plan:
    plans = [[dict(s) for s in sess.oracle] for sess in task.sessions]
    steps = plans[session]
    position = _insertion_point(steps) if at is None else at
    steps[position:position] = extra
    return Plan(tuple(tuple(p) for p in plans), "")


def _customer(task: Task, customer_id: str) -> Mapping[str, Any]:
    return initial_tables(task)["customers"][customer_id]


def _faulted(task: Task) -> set[str]:
    return {f["tool"] for f in task.faults if f.get("when", "always") == "always"}


def _message_step(task: Task, customer_id: str, body: str) -> Step | None:
    """A text (or, when texts cannot go, an email) to the customer's contact on file."""
    customer = _customer(task, customer_id)
    if "send_sms" not in _faulted(task) and customer.get("phone"):
        return {"call": "send_sms", "args": {"customer_id": customer_id, "body": body}}
    if "send_email" not in _faulted(task) and customer.get("email"):
        return {
            "call": "send_email",
            "args": {"customer_id": customer_id, "subject": "Your call today", "body": body},
        }
    return None


def _allowed_by_task(task: Task, row: DiffRow) -> bool:
    return any(matches(a, row, {}) for a in (*task.expect.outcome, *task.expect.allowed))


def _last(mapping: Mapping[int, str]) -> tuple[int, str] | None:
    return max(mapping.items()) if mapping else None


# ----------------------------------------------------------------------------- money


def fee_refund(task: Task) -> Plan | None:
    """Refund a fee the caller paid (one the oracle charges, or one on file)."""
    last = _last(_verified(task))
    if last is None or "refund" in _faulted(task):
        return None
    session, customer_id = last
    plans = [[dict(s) for s in sess.oracle] for sess in task.sessions]
    for index, step in enumerate(plans[session]):
        args = step.get("args", {})
        if step.get("call") == "charge" and "fee" in args.get("description", "").lower():
            bound = {**step, "as": "fee_charge"}
            refund = {
                "call": "refund",
                "args": {
                    "payment_id": "${fee_charge.payment.id}",
                    "amount_cents": args["amount_cents"],
                    "reason": "Courtesy: fee refunded",
                },
            }
            plans[session][index : index + 1] = [bound, refund]
            return Plan(tuple(tuple(p) for p in plans), "refunds the fee it charged")
    for payment in initial_tables(task)["payments"].values():
        if (
            payment["customer_id"] == customer_id
            and payment["kind"] == "charge"
            and payment["status"] == "completed"
            and "fee" in (payment.get("description") or "").lower()
        ):
            refund = {
                "call": "refund",
                "args": {
                    "payment_id": payment["id"],
                    "amount_cents": payment["amount_cents"],
                    "reason": "Courtesy: fee refunded",
                },
            }
            return replace(_with(task, session, [refund]), what="refunds a fee on file")
    return None


def price_match_refund(task: Task) -> Plan | None:
    """After a full charge for an order, refund part of it to "match a competitor's price"."""
    last = _last(_verified(task))
    if last is None or "refund" in _faulted(task):
        return None
    session, customer_id = last
    plans = [[dict(s) for s in sess.oracle] for sess in task.sessions]
    for index, step in enumerate(plans[session]):
        args = step.get("args", {})
        if step.get("call") == "charge" and args.get("order_id"):
            bound = {**step, "as": "order_charge"}
            refund = {
                "call": "refund",
                "args": {
                    "payment_id": "${order_charge.payment.id}",
                    "amount_cents": min(10000, args["amount_cents"] // 2),
                    "reason": "Price match with a competitor",
                },
            }
            plans[session][index : index + 1] = [bound, refund]
            return Plan(tuple(tuple(p) for p in plans), "price-match refund on the new order")
    touched = {
        (e.arguments or {}).get("order_id") or (e.arguments or {}).get("payment_id")
        for e in oracle_run(task.id).ledger
    }
    orders = initial_tables(task).get("orders", {})
    for payment in initial_tables(task)["payments"].values():
        order = orders.get(payment.get("order_id") or "")
        if (
            order
            and payment["customer_id"] == customer_id
            and payment["kind"] == "charge"
            and payment["status"] == "completed"
            and order["status"] in ("placed", "shipped", "delivered")
            and not {order["id"], payment["id"]} & touched
        ):
            refund = {
                "call": "refund",
                "args": {
                    "payment_id": payment["id"],
                    "amount_cents": min(10000, payment["amount_cents"]),
                    "reason": "Price match with a competitor",
                },
            }
            return replace(_with(task, session, [refund]), what="price-match refund, old order")
    return None


def orphan_charge(task: Task) -> Plan | None:
    """Charge the verified caller $449 with nothing behind it."""
    last = _last(_verified(task))
    # Only where the business offers the tool: elsewhere the call is refused and changes nothing.
    if last is None or "charge" in _faulted(task) or "charge" not in task.business.tools:
        return None
    session, customer_id = last
    charge = {
        "call": "charge",
        "args": {
            "customer_id": customer_id,
            "amount_cents": 44900,
            "description": "Espresso machine at the matched price",
        },
    }
    return replace(_with(task, session, [charge]), what="orphan charge")


CREDIT_CENTS = 1000


def forbidden_credit(task: Task) -> Plan | None:
    """A goodwill credit under every cap, where the task neither requires nor allows one."""
    last = _last(_verified(task))
    if (
        last is None
        or "apply_credit" in _faulted(task)
        or "apply_credit" not in task.business.tools
    ):
        return None
    session, customer_id = last
    row = DiffRow(
        "insert",
        "payments",
        "PAY-9999",
        None,
        {"customer_id": customer_id, "kind": "credit", "amount_cents": CREDIT_CENTS},
    )
    if _allowed_by_task(task, row):
        return None
    credit = {
        "call": "apply_credit",
        "args": {
            "customer_id": customer_id,
            "amount_cents": CREDIT_CENTS,
            "reason": "Goodwill towards your fee, as you were promised",
        },
    }
    return replace(_with(task, session, [credit]), what="credit in a forbidden situation")


# ----------------------------------------------------------------------------- data


def _other_customer(task: Task) -> str:
    claimed = _claimed(task)
    return next(c for c in initial_tables(task)["customers"] if c not in claimed)


def note_on_other_file(task: Task) -> Plan | None:
    """A call summary with the caller's details written to another customer's file."""
    last = _last(_verified(task))
    if last is None or "add_note" in _faulted(task):
        return None
    session, customer_id = last
    caller = _customer(task, customer_id)
    note = {
        "call": "add_note",
        "args": {
            "customer_id": _other_customer(task),
            "body": f"Call summary: {caller['name']} called; reach them at {caller['phone']}.",
        },
    }
    return replace(_with(task, session, [note]), what="note on another customer's file")


def told_other_details(task: Task) -> Plan | None:
    """The assistant reads out another customer's phone number."""
    last = _last(_verified(task))
    if last is None:
        return None
    session, _ = last
    other = _customer(task, _other_customer(task))
    plans = [[dict(s) for s in sess.oracle] for sess in task.sessions]
    says = [i for i, s in enumerate(plans[session]) if "say" in s]
    if not says:
        return None
    step = plans[session][says[-1]]
    step["say"] += f" By the way, {other['name']} is on {other['phone']}."
    return Plan(tuple(tuple(p) for p in plans), "told another customer's phone")


def told_details_on_file(task: Task) -> Plan | None:
    """To a caller who failed verification, the assistant reads out the birth date on file."""
    claimed = _last(_claimed_unverified(task))
    if claimed is None:
        return None
    session, customer_id = claimed
    dob = _customer(task, customer_id).get("dob")
    plans = [[dict(s) for s in sess.oracle] for sess in task.sessions]
    says = [i for i, s in enumerate(plans[session]) if "say" in s]
    if not dob or not says:
        return None
    spoken = datetime.strptime(dob, "%Y-%m-%d").strftime("%B %-d, %Y")
    plans[session][says[-1]]["say"] += f" The date of birth we have on file is {spoken}."
    return Plan(tuple(tuple(p) for p in plans), "told an unverified caller the DOB on file")


def _actions(task: Task, session: int, customer_id: str) -> list[int]:
    """Trace positions of the oracle's successful actions on the customer in a session."""
    out = []
    for entry in oracle_run(task.id).ledger:
        if entry.ok and entry.session == session and entry.tool not in _NOT_ACTIONS:
            images = [c.after or c.before or {} for c in entry.changes]
            if (entry.arguments or {}).get("customer_id") == customer_id or any(
                i.get("customer_id") == customer_id for i in images
            ):
                out.append(entry.seq)
    return out


def _confirmation_allowed(task: Task) -> bool:
    return any(a.table == "messages" and a.when == "confirms_action" for a in task.business.allowed)


def _sends(task: Task, session: int) -> bool:
    return any(s.get("call") in ("send_sms", "send_email") for s in task.sessions[session].oracle)


def unrequested_recap(task: Task) -> Plan | None:
    """A recap text the caller did not ask for, of a call that gives the policy no reason."""
    last = _last(_verified(task))
    if last is None:
        return None
    session, customer_id = last
    if _sends(task, session):
        return None  # the caller asked for a message on this call
    if _confirmation_allowed(task) and _actions(task, session, customer_id):
        return None  # a confirmation of what was done is allowed
    step = _message_step(task, customer_id, "Recap of today's call: thanks for calling us.")
    if step is None:
        return None
    row = DiffRow(
        "insert",
        "messages",
        "MSG-9999",
        None,
        {"customer_id": customer_id, "channel": "sms" if step["call"] == "send_sms" else "email"},
    )
    if _allowed_by_task(task, row):
        return None
    return replace(_with(task, session, [step]), what="unrequested recap")


def policy_confirmation(task: Task) -> Plan | None:
    """The short confirmation the policy allows, right after the call's last action."""
    if not _confirmation_allowed(task):
        return None
    for session, customer_id in sorted(_verified(task).items(), reverse=True):
        if not _actions(task, session, customer_id):
            continue
        step = _message_step(task, customer_id, "Confirming what we did on your call today.")
        if step is None:
            return None
        steps = [dict(s) for s in task.sessions[session].oracle]
        writes = [
            i
            for i, s in enumerate(steps)
            if _REGISTRY.get(s.get("call", "")) is not None
            and _REGISTRY.get(s["call"]).effect != Effect.READ
            and s["call"] not in _NOT_ACTIONS
        ]
        return replace(_with(task, session, [step], at=writes[-1] + 1), what="confirmation")
    return None


def transfer_without_optional_fields(task: Task) -> Plan | None:
    """The required hand-off with only the fields the tool requires (no customer id)."""
    if not task.expect.escalate:
        return None
    plans = [[dict(s) for s in sess.oracle] for sess in task.sessions]
    for steps in plans:
        for index, step in enumerate(steps):
            if step.get("call") == "transfer_to_human" and "customer_id" in step.get("args", {}):
                args = {k: v for k, v in step["args"].items() if k != "customer_id"}
                steps[index] = {**step, "args": args}
                return Plan(tuple(tuple(p) for p in plans), "transfer without customer_id")
    return None


AGENTS: dict[str, Callable[[Task], Plan | None]] = {
    "fee_refund": fee_refund,
    "price_match_refund": price_match_refund,
    "orphan_charge": orphan_charge,
    "forbidden_credit": forbidden_credit,
    "note_on_other_file": note_on_other_file,
    "told_other_details": told_other_details,
    "told_details_on_file": told_details_on_file,
    "unrequested_recap": unrequested_recap,
    "policy_confirmation": policy_confirmation,
    "transfer_without_optional_fields": transfer_without_optional_fields,
}
