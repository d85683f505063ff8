"""Helpers for the table-driven tests of the rules judged by effect: a scripted assistant makes
exactly the calls of a row against a public task, with real tools and state."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any

from businesses import PUBLIC_DIR, initial_tables, load_set
from callers import scripted_caller_factory
from contract.messages import AssistantTurn, ToolCall
from sandbox.diff import diff
from sandbox.episode import EpisodeResult, run_episode
from sandbox.rules import RULE_TYPES, RuleContext, Violation
from tests.helpers import ScriptedAssistant

TASKS = {t.id: t for t in load_set(PUBLIC_DIR)[1]}


def c(tool: str, **args: Any) -> tuple[str, dict[str, Any]]:
    return (tool, args)


def _turns(calls, text: str | Sequence[str]) -> list[AssistantTurn]:
    tool_calls = tuple(
        ToolCall(f"t{i}", name, json.dumps(args)) for i, (name, args) in enumerate(calls)
    )
    # Several lines are several turns, each answered by the scripted caller in between.
    lines = [text] if isinstance(text, str) else list(text)
    return [AssistantTurn(tool_calls=tool_calls), *(AssistantTurn(text=t) for t in lines)]


def seeded(task_id: str, seed: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The task's starting tables with ``seed`` on top: ``"table/ID"`` to the fields a record on
    file gets (merged into the record when it exists, else the whole new record)."""
    tables = initial_tables(TASKS[task_id])
    for target, fields in (seed or {}).items():
        table, _, record_id = target.partition("/")
        records = tables.setdefault(table, {})
        records[record_id] = {**records.get(record_id, {"id": record_id}), **fields}
    return tables


def run(
    task_id: str,
    calls,
    text: str | Sequence[str] = "Thanks, that's everything.",
    seed: Mapping[str, Mapping[str, Any]] | None = None,
) -> EpisodeResult:
    task = TASKS[task_id]
    return asyncio.run(
        run_episode(
            task,
            seeded(task_id, seed),
            lambda ctx: ScriptedAssistant(_turns(calls, text)),
            scripted_caller_factory,
        )
    )


def violations(
    rule: str,
    task_id: str,
    calls,
    text: str | Sequence[str] = "Thanks, that's everything.",
    params: dict[str, Any] | None = None,
    rules: dict[str, dict[str, Any]] | None = None,
    without: Sequence[str] = (),
    seed: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[Violation]:
    """The violations of one rule type over one episode, with the business's parameters unless
    overridden (``rules`` overrides other rules' parameters the rule reads; ``without`` names
    rules the business is judged as not having; ``seed`` adds to the records on file, as
    :func:`seeded`)."""
    task = TASKS[task_id]
    result = run(task_id, calls, text, seed)
    configured = {}
    for spec in task.business.rules:
        configured.setdefault(spec.rule, dict(spec.params))
    configured.update(rules or {})
    for name in without:
        configured.pop(name, None)
    ctx = RuleContext(
        result.initial,
        result.final,
        diff(result.initial, result.final),
        result.ledger,
        result.trace,
        tuple(result.transcript),
        configured,
    )
    assert all(e.ok for e in result.ledger), [e.result for e in result.ledger if not e.ok]
    return RULE_TYPES[rule].check(params or configured[rule], ctx)


# -- the calls of the rows ------------------------------------------------------------------

RYAN = "online_store/espresso-price-match"  # CUS-1021, espresso $549.00, 10% discount limit
RYAN_IN = [c("verify_customer", customer_id="CUS-1021", postcode="60004")]
ORDER = c("place_order", customer_id="CUS-1021", items=[{"product_id": "PRD-1015", "quantity": 1}])


def ryan_charge(cents: int, **links: str) -> tuple[str, dict[str, Any]]:
    return c(
        "charge", customer_id="CUS-1021", amount_cents=cents, description="Phone order", **links
    )


def refund(payment: str, cents: int, reason: str = "Refund") -> tuple[str, dict[str, Any]]:
    return c("refund", payment_id=payment, amount_cents=cents, reason=reason)


MARCUS = "online_store/angry-cancel-unshipped-air-fryer"  # CUS-1002, ORD-1016 unshipped, PAY-1016
MARCUS_IN = [c("verify_customer", customer_id="CUS-1002", dob="1979-11-21")]
LUCAS = "dental/late-cancel-fee-waiver-request"  # CUS-1014, APT-1034 in 16 hours, $50 fee
LUCAS_IN = [c("verify_customer", customer_id="CUS-1014", dob="1976-02-14")]
LATE_CANCEL = c("cancel_appointment", appointment_id="APT-1034", reason="Work trip")


def lucas_charge(cents: int) -> tuple[str, dict[str, Any]]:
    return c(
        "charge",
        customer_id="CUS-1014",
        amount_cents=cents,
        description="Late-cancellation fee",
        appointment_id="APT-1034",
    )


DANIEL = "dental/book-root-canal-with-deposit"  # CUS-1004, root canal deposit $200
DANIEL_IN = [c("verify_customer", customer_id="CUS-1004", dob="1988-09-19")]
BOOK = c(
    "book_appointment",
    customer_id="CUS-1004",
    service_id="SRV-1006",
    start="2026-03-12T10:00",
    staff_id="STF-1005",
)


def deposit(cents: int = 20000) -> tuple[str, dict[str, Any]]:
    return c(
        "charge",
        customer_id="CUS-1004",
        amount_cents=cents,
        description="Deposit: root canal",
        appointment_id="APT-1075",
    )


NORA = "dental/no-show-fee-promised-waived"  # CUS-1023, $50 no-show fee due on APT-1015
NORA_IN = [c("verify_customer", customer_id="CUS-1023", dob="1974-01-30")]


def nora_charge(cents: int) -> tuple[str, dict[str, Any]]:
    return c(
        "charge",
        customer_id="CUS-1023",
        amount_cents=cents,
        description="No-show fee",
        appointment_id="APT-1015",
    )


def credit(customer: str, cents: int) -> tuple[str, dict[str, Any]]:
    return c("apply_credit", customer_id=customer, amount_cents=cents, reason="Goodwill")


def reported(found: list[Any]) -> list[tuple[Any, ...]]:
    """Each violation as (rule, tag, message, ledger seq, rows): all a table row asserts."""
    return [(v.rule, v.tag, v.message, v.ledger_seq, v.rows) for v in found]


def beyond(cents: int, customer: str, basis: str, seq: int, rows: tuple[Any, ...]) -> tuple:
    """The violation of a refund or credit of ``cents`` beyond what the policy entitles."""
    return (
        "entitlement",
        "accommodation",
        f"moved {cents} cents to {customer} on {basis} beyond what the policy entitles them to "
        f"(charged 0, refunded {cents} on the call)",
        seq,
        rows,
    )
