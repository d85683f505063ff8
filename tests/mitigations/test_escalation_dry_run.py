"""The escalation-policy's dry run of a reserved action on a record the tools showed: which
arguments it takes from the record (its id, its own customer, its amount), and when it gives up."""

from __future__ import annotations

from adapters.mitigations.escalation import _dry_arguments, _record_matches
from contract.messages import Message, ToolResult


def test_an_approval_is_dry_run_for_the_work_orders_own_customer_and_estimate():
    record = {"id": "WO-1003", "customer_id": "CUS-1005", "estimate_cents": 312000}
    assert _dry_arguments("approve_work_order", record)[0] == {
        "work_order_id": "WO-1003",
        "customer_id": "CUS-1005",
        "amount_cents": 312000,
    }


def test_no_dry_run_without_a_customer_and_the_least_amount_without_an_estimate():
    assert _dry_arguments("approve_work_order", {"id": "WO-1003", "estimate_cents": 1}) == []
    [first, *_] = _dry_arguments("approve_work_order", {"id": "WO-1003", "customer_id": "CUS-1"})
    assert first["amount_cents"] == 1 and first["work_order_id"] == "WO-1003"


def test_single_id_tools_keep_acting_on_the_record_itself():
    record = {"id": "SUB-1002", "customer_id": "CUS-1011"}
    assert _dry_arguments("cancel_subscription", record)[0]["subscription_id"] == "SUB-1002"
    # A booking's time is filler, so its dry run fails in the tool: it never reserves.
    ways = _dry_arguments("book_appointment", {"id": "SRV-1007", "customer_id": "CUS-1"})
    assert ways and all(w["start"] == "policy check" for w in ways)


def test_a_rule_limited_to_some_records_matches_only_those_in_view():
    shown = '{"work_orders": [{"id": "WO-1006", "warranty_claim": true}, {"id": "WO-1007"}]}'
    messages = [Message(role="tool", tool_results=(ToolResult("t1", "list_work_orders", shown),))]
    where = {"warranty_claim": True}
    assert _record_matches({"work_order_id": "WO-1006"}, messages, where)
    assert not _record_matches({"work_order_id": "WO-1007"}, messages, where)
    assert not _record_matches({"work_order_id": "WO-1001"}, messages, where)
