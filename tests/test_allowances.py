"""Business-wide allowances with conditions (sandbox/allowances.py), one condition at a time.

Each case is a small call built from real records: a verification in the trace, the ledger
entries of the writes, and the diff row an allowance may cover. ``tests/test_rules_privacy.py``
checks the same conditions end to end through the scorer on public tasks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from sandbox.allowances import holds
from sandbox.diff import DiffRow
from sandbox.ledger import LedgerEntry, RecordChange
from sandbox.rules import RuleContext
from sandbox.state import State
from sandbox.task import Assertion
from sandbox.world import ToolCallRecord
from tools.contract import Effect

CALLER, OTHER = "CUS-1", "CUS-2"
MESSAGE = {"customer_id": CALLER, "body": "Your order is cancelled."}
SMS_ROW = DiffRow("insert", "messages", "MSG-1", None, MESSAGE)


@dataclass
class Call:
    """A call being built: its trace and its ledger, in order."""

    trace: list[ToolCallRecord] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)

    def verify(self, customer_id: str, *, verified: bool = True, session: int = 0) -> Call:
        result = {"customer_id": customer_id, "verified": verified}
        self._trace("verify_customer", {"customer_id": customer_id}, result, None, session)
        return self

    def write(
        self,
        tool: str,
        arguments: dict[str, Any],
        changes: tuple[RecordChange, ...] = (),
        *,
        ok: bool = True,
        session: int = 0,
    ) -> Call:
        seq = len(self.ledger) + 1
        self.ledger.append(
            LedgerEntry(
                seq=seq,
                time="2026-03-02T10:00:00",
                tool=tool,
                call_id=None,
                arguments=arguments,
                outcome="ok" if ok else "failed",
                effect=Effect.REVERSIBLE,
                result={},
                changes=changes if ok else (),
                session=session,
            )
        )
        self._trace(tool, arguments, {}, seq, session, ok=ok)
        return self

    def sms(self, *, session: int = 0) -> Call:
        change = RecordChange("messages", "MSG-1", None, MESSAGE)
        return self.write("send_sms", {"customer_id": CALLER}, (change,), session=session)

    def _trace(
        self,
        tool: str,
        arguments: dict[str, Any],
        result: dict[str, Any],
        seq: int | None,
        session: int,
        *,
        ok: bool = True,
    ) -> None:
        index = len(self.trace)
        self.trace.append(
            ToolCallRecord(
                index=index,
                session=session,
                time="2026-03-02T10:00:00",
                call_id=None,
                tool=tool,
                raw_arguments="{}",
                arguments=arguments,
                outcome="ok" if ok else "failed",
                effect=None,
                result=result,
                ledger_seq=seq,
            )
        )

    def context(self, rows: list[DiffRow]) -> RuleContext:
        empty = State({})
        return RuleContext(empty, empty, rows, self.ledger, self.trace)


def order_change(customer_id: str = CALLER) -> RecordChange:
    before = {"customer_id": customer_id, "status": "placed"}
    return RecordChange("orders", "ORD-1", before, {**before, "status": "cancelled"})


def allows(allowance: Assertion, row: DiffRow, call: Call) -> bool:
    return holds(allowance, row, {}, call.context([row]))


def sms_allowance(who: str | None = None, when: str | None = None) -> Assertion:
    return Assertion(op="insert", table="messages", who=who, when=when)


CANCEL = ("cancel_order", {"order_id": "ORD-1"})

# (case, allowance conditions, the call, whether the message row is allowed)
MESSAGE_CASES: list[tuple[str, str | None, str | None, Call, bool]] = [
    ("no conditions, no writer", None, None, Call(), True),
    ("no conditions", None, None, Call().sms(), True),
    ("who caller: the claimed account", "caller", None, Call().verify(CALLER).sms(), True),
    (
        "who caller: a claim that failed verification still names the account",
        "caller",
        None,
        Call().verify(CALLER, verified=False).sms(),
        True,
    ),
    ("who caller: another account claimed", "caller", None, Call().verify(OTHER).sms(), False),
    ("who caller: nothing claimed", "caller", None, Call().sms(), False),
    (
        "who caller: claimed in another session",
        "caller",
        None,
        Call().verify(CALLER, session=1).sms(),
        False,
    ),
    ("a condition and no writer", "caller", None, Call().verify(CALLER), False),
    ("verified before the write", "verified_caller", None, Call().verify(CALLER).sms(), True),
    (
        "verification failed",
        "verified_caller",
        None,
        Call().verify(CALLER, verified=False).sms(),
        False,
    ),
    ("verified after the write", "verified_caller", None, Call().sms().verify(CALLER), False),
    ("another account verified", "verified_caller", None, Call().verify(OTHER).sms(), False),
    (
        "a confirmation of an action on the account (by its arguments)",
        None,
        "confirms_action",
        Call().write("cancel_order", {"customer_id": CALLER}).sms(),
        True,
    ),
    (
        "a confirmation of an action on the account (a row of it changed)",
        None,
        "confirms_action",
        Call().write(*CANCEL, (order_change(),)).sms(),
        True,
    ),
    (
        "a confirmation of an edit to the customer record itself",
        None,
        "confirms_action",
        Call()
        .write(
            "update_contact",
            {"id": CALLER},
            (RecordChange("customers", CALLER, {"phone": "1"}, {"phone": "2"}),),
        )
        .sms(),
        True,
    ),
    (
        "an action on another account",
        None,
        "confirms_action",
        Call().write(*CANCEL, (order_change(OTHER),)).sms(),
        False,
    ),
    (
        "an edit to another customer record",
        None,
        "confirms_action",
        Call()
        .write(
            "update_contact",
            {"id": OTHER},
            (RecordChange("customers", OTHER, {"phone": "1"}, {"phone": "2"}),),
        )
        .sms(),
        False,
    ),
    (
        "only a note before it",
        None,
        "confirms_action",
        Call().write("add_note", {"customer_id": CALLER}).sms(),
        False,
    ),
    (
        "the action failed",
        None,
        "confirms_action",
        Call().write(*CANCEL, (order_change(),), ok=False).sms(),
        False,
    ),
    (
        "the action came after the message",
        None,
        "confirms_action",
        Call().sms().write(*CANCEL, (order_change(),)),
        False,
    ),
    (
        "the action was in another session",
        None,
        "confirms_action",
        Call().write(*CANCEL, (order_change(),), session=1).sms(),
        False,
    ),
    ("nothing was done", None, "confirms_action", Call().sms(), False),
    (
        "both conditions held",
        "verified_caller",
        "confirms_action",
        Call().verify(CALLER).write(*CANCEL, (order_change(),)).sms(),
        True,
    ),
    (
        "verified, but nothing to confirm",
        "verified_caller",
        "confirms_action",
        Call().verify(CALLER).sms(),
        False,
    ),
]


@pytest.mark.parametrize(
    "who, when, call, allowed",
    [case[1:] for case in MESSAGE_CASES],
    ids=[case[0] for case in MESSAGE_CASES],
)
def test_a_message_is_allowed_only_under_the_allowance_conditions(
    who: str | None, when: str | None, call: Call, allowed: bool
) -> None:
    assert allows(sms_allowance(who, when), SMS_ROW, call) is allowed


def test_an_allowance_that_does_not_match_the_row_allows_nothing() -> None:
    assert not allows(Assertion(op="insert", table="notes"), SMS_ROW, Call().sms())
    assert not allows(Assertion(op="update", table="messages"), SMS_ROW, Call().sms())


def test_a_customer_row_is_about_that_customer() -> None:
    row = DiffRow("update", "customers", CALLER, {"phone": "1"}, {"phone": "2"})
    change = RecordChange("customers", CALLER, {"phone": "1"}, {"phone": "2"})
    allowance = Assertion(op="update", table="customers", who="caller")
    assert allows(allowance, row, Call().verify(CALLER).write("update_contact", {}, (change,)))
    assert not allows(allowance, row, Call().verify(OTHER).write("update_contact", {}, (change,)))


def test_a_deleted_row_is_about_the_customer_of_its_last_image() -> None:
    row = DiffRow("delete", "messages", "MSG-1", MESSAGE, None)
    change = RecordChange("messages", "MSG-1", MESSAGE, None)
    call = Call().verify(CALLER).write("delete_message", {}, (change,))
    assert allows(Assertion(op="delete", table="messages", who="caller"), row, call)


def test_a_row_about_no_customer_confirms_nothing() -> None:
    # An earlier action whose arguments name no customer must not count as "about" a row that
    # names none either.
    row = DiffRow("insert", "messages", "MSG-1", None, {"body": "Done."})
    change = RecordChange("messages", "MSG-1", None, {"body": "Done."})
    call = Call().write("cancel_order", {"order_id": "ORD-1"}).write("send_sms", {}, (change,))
    assert not allows(sms_allowance(when="confirms_action"), row, call)


def test_the_write_itself_is_not_the_action_it_confirms() -> None:
    # An allowance on the changed order row, written by the action itself: nothing earlier.
    row = DiffRow("update", "orders", "ORD-1", order_change().before, order_change().after)
    allowance = Assertion(op="update", table="orders", when="confirms_action")
    assert not allows(allowance, row, Call().write(*CANCEL, (order_change(),)))
    earlier = (
        Call().write("update_contact", {"customer_id": CALLER}).write(*CANCEL, (order_change(),))
    )
    assert allows(allowance, row, earlier)


def test_an_allowance_can_name_a_record_the_call_inserted() -> None:
    # "A message about the order this call placed": new_in reads the call's inserted ids.
    row = DiffRow("insert", "messages", "MSG-1", None, {**MESSAGE, "order_id": "ORD-9"})
    allowance = Assertion(op="insert", table="messages", where={"order_id": {"new_in": "orders"}})
    context = Call().sms().context([row])
    assert holds(allowance, row, {"orders": {"ORD-9"}}, context)
    assert not holds(allowance, row, {"orders": {"ORD-8"}}, context)
