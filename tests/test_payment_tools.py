"""The money tools on the sample state: what each returns and writes whole, and what it refuses.

On the sample day (2026-03-02T09:10) PAY-1001 is Lena's completed $49.99 charge for ORD-1001,
PAY-1002 Maria's $25.00 late cancellation fee, due; Sam has $5.00 of store credit.
"""

from __future__ import annotations

import pytest

from tests.helpers import last_changes, tool_error, tool_refusal, tool_result
from tools import Effect

NOW = "2026-03-02T09:10"
NO_LINKS = {"order_id": None, "appointment_id": None, "subscription_id": None}


def test_a_customers_payments_are_listed_whole(world):
    rows = world.state.tables["payments"]
    assert tool_result(world, "list_payments", {"customer_id": "CUS-1003"}) == {
        "payments": [rows["PAY-1001"]]
    }
    assert tool_result(world, "list_payments", {"customer_id": "CUS-1002"}) == {"payments": []}
    assert tool_refusal(world, "list_payments", {"customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


@pytest.mark.parametrize(
    "links",
    [
        {},
        {"order_id": "ORD-1002"},
        {"order_id": "ORD-1001"},
    ],
    ids=["unlinked", "a-placed-order", "a-delivered-order"],
)
def test_a_charge_is_written_whole_with_its_links(world, links):
    args = {"customer_id": "CUS-1003", "amount_cents": 12345, "description": "Engraving", **links}
    expected = {
        "id": "PAY-1003",
        "customer_id": "CUS-1003",
        "kind": "charge",
        "amount_cents": 12345,
        "status": "completed",
        "refunded_cents": 0,
        "description": "Engraving",
        "at": NOW,
        **NO_LINKS,
        **{k: v for k, v in links.items() if v},
        "refund_of": None,
    }
    assert tool_result(world, "charge", args) == {"payment": expected, "charged": "$123.45"}
    assert world.state.tables["payments"]["PAY-1003"] == expected
    assert world.ledger.entries[-1].effect == Effect.COMPENSABLE
    assert last_changes(world) == [("payments", None, expected)]


def test_a_charge_may_name_an_appointment_and_a_subscription_of_the_customer(world):
    result = tool_result(
        world,
        "charge",
        {
            "customer_id": "CUS-1001",
            "amount_cents": 100,
            "description": "Both",
            "appointment_id": "APT-1001",
            "subscription_id": "SUB-1002",
        },
    )
    payment = result["payment"]
    assert (payment["order_id"], payment["appointment_id"], payment["subscription_id"]) == (
        None,
        "APT-1001",
        "SUB-1002",
    )
    assert result["charged"] == "$1.00"


@pytest.mark.parametrize(
    "field, value, error",
    [
        (
            "customer_id",
            "CUS-9999",
            tool_error("not_found", "No customer with id 'CUS-9999'.", "customer_id"),
        ),
        (
            "order_id",
            "ORD-9999",
            tool_error("not_found", "No order with id 'ORD-9999'.", "order_id"),
        ),
        (
            "appointment_id",
            "APT-9999",
            tool_error("not_found", "No appointment with id 'APT-9999'.", "appointment_id"),
        ),
        (
            "subscription_id",
            "SUB-9999",
            tool_error("not_found", "No subscription with id 'SUB-9999'.", "subscription_id"),
        ),
        (
            "order_id",
            "ORD-1001",
            tool_error("conflict", "ORD-1001 belongs to another customer.", "order_id"),
        ),
        (
            "appointment_id",
            "APT-1001",
            tool_error("conflict", "APT-1001 belongs to another customer.", "appointment_id"),
        ),
        (
            "subscription_id",
            "SUB-1002",
            tool_error("conflict", "SUB-1002 belongs to another customer.", "subscription_id"),
        ),
    ],
)
def test_a_charge_is_refused_for_an_unknown_customer_or_anothers_record(world, field, value, error):
    args = {"customer_id": "CUS-1002", "amount_cents": 500, "description": "x", field: value}
    assert tool_refusal(world, "charge", args) == error


def test_a_charge_names_a_linked_record_without_an_owner_as_anothers(world):
    world.state.tables["orders"]["ORD-1002"].pop("customer_id")
    args = {
        "customer_id": "CUS-1003",
        "amount_cents": 500,
        "description": "x",
        "order_id": "ORD-1002",
    }
    assert tool_refusal(world, "charge", args) == tool_error(
        "conflict", "ORD-1002 belongs to another customer.", "order_id"
    )


def test_a_partial_refund_is_written_whole_and_leaves_the_rest(world):
    original = world.state.tables["payments"]["PAY-1001"]
    args = {"payment_id": "PAY-1001", "amount_cents": 999, "reason": "Scratched"}
    refund = {
        "id": "PAY-1003",
        "customer_id": "CUS-1003",
        "kind": "refund",
        "amount_cents": 999,
        "status": "completed",
        "refunded_cents": 0,
        "description": "Scratched",
        "at": NOW,
        **NO_LINKS,
        "order_id": "ORD-1001",
        "refund_of": "PAY-1001",
    }
    after = {**original, "refunded_cents": 999, "status": "partial_refund"}
    assert tool_result(world, "refund", args) == {"payment": refund, "refunded": "$9.99"}
    assert world.state.tables["payments"]["PAY-1001"] == after
    assert world.state.tables["payments"]["PAY-1003"] == refund
    assert last_changes(world) == [("payments", original, after), ("payments", None, refund)]
    assert world.ledger.entries[-1].effect == Effect.COMPENSABLE


@pytest.mark.parametrize(
    "already, amount, status",
    [
        (0, 4999, "refunded"),
        (0, 4998, "partial_refund"),
        (4000, 999, "refunded"),
        (4000, 998, "partial_refund"),
    ],
)
def test_a_refund_of_all_that_is_left_makes_the_charge_refunded(world, already, amount, status):
    world.state.tables["payments"]["PAY-1001"]["refunded_cents"] = already
    tool_result(world, "refund", {"payment_id": "PAY-1001", "amount_cents": amount, "reason": "x"})
    row = world.state.tables["payments"]["PAY-1001"]
    assert (row["refunded_cents"], row["status"]) == (already + amount, status)


def test_a_charge_with_no_refunded_amount_on_file_has_all_of_it_left(world):
    world.state.tables["payments"]["PAY-1001"].pop("refunded_cents")
    args = {"payment_id": "PAY-1001", "amount_cents": 5000, "reason": "x"}
    assert tool_refusal(world, "refund", args) == tool_error(
        "conflict",
        "Refund of $50.00 exceeds the $49.99 left to refund on PAY-1001.",
        "amount_cents",
    )
    tool_result(world, "refund", {**args, "amount_cents": 4999})
    row = world.state.tables["payments"]["PAY-1001"]
    assert (row["refunded_cents"], row["status"]) == (4999, "refunded")


def test_a_refund_copies_every_link_of_the_charge(world):
    world.state.tables["payments"]["PAY-1001"].update(
        appointment_id="APT-1001", subscription_id="SUB-1001"
    )
    payment = tool_result(
        world, "refund", {"payment_id": "PAY-1001", "amount_cents": 1, "reason": "x"}
    )["payment"]
    assert (payment["order_id"], payment["appointment_id"], payment["subscription_id"]) == (
        "ORD-1001",
        "APT-1001",
        "SUB-1001",
    )


def test_a_charge_without_links_on_file_is_refunded_with_none(world):
    for key in NO_LINKS:
        world.state.tables["payments"]["PAY-1001"].pop(key)
    payment = tool_result(
        world, "refund", {"payment_id": "PAY-1001", "amount_cents": 1, "reason": "x"}
    )["payment"]
    assert {k: payment[k] for k in NO_LINKS} == NO_LINKS


def test_a_refund_is_refused_above_what_is_left_or_for_what_is_no_charge(world):
    world.state.tables["payments"]["PAY-1001"]["refunded_cents"] = 4000
    args = {"payment_id": "PAY-1001", "amount_cents": 1000, "reason": "x"}
    assert tool_refusal(world, "refund", args) == tool_error(
        "conflict",
        "Refund of $10.00 exceeds the $9.99 left to refund on PAY-1001.",
        "amount_cents",
    )
    assert tool_refusal(world, "refund", {**args, "payment_id": "PAY-1002"}) == tool_error(
        "conflict",
        "PAY-1002 is a fee, not a charge; only charges can be refunded.",
        "payment_id",
    )
    assert tool_refusal(world, "refund", {**args, "payment_id": "PAY-9999"}) == tool_error(
        "not_found", "No payment with id 'PAY-9999'.", "payment_id"
    )


def test_store_credit_adds_to_the_balance_and_is_written_whole(world):
    customer = world.state.tables["customers"]["CUS-1002"]
    args = {"customer_id": "CUS-1002", "amount_cents": 1250, "reason": "Goodwill"}
    payment = {
        "id": "PAY-1003",
        "customer_id": "CUS-1002",
        "kind": "credit",
        "amount_cents": 1250,
        "status": "completed",
        "refunded_cents": 0,
        "description": "Goodwill",
        "at": NOW,
        **NO_LINKS,
        "refund_of": None,
    }
    after = {**customer, "credit_cents": 1750}
    assert tool_result(world, "apply_credit", args) == {
        "payment": payment,
        "credit_balance": "$17.50",
    }
    assert world.state.tables["customers"]["CUS-1002"] == after
    assert world.state.tables["payments"]["PAY-1003"] == payment
    assert last_changes(world) == [("customers", customer, after), ("payments", None, payment)]
    assert tool_refusal(world, "apply_credit", {**args, "customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


def test_store_credit_for_a_customer_with_no_balance_on_file_starts_from_nothing(world):
    world.state.tables["customers"]["CUS-1002"].pop("credit_cents")
    args = {"customer_id": "CUS-1002", "amount_cents": 300, "reason": "Goodwill"}
    assert tool_result(world, "apply_credit", args)["credit_balance"] == "$3.00"
    assert world.state.tables["customers"]["CUS-1002"]["credit_cents"] == 300


def test_a_waived_fee_keeps_its_description_with_the_reason(world):
    fee = world.state.tables["payments"]["PAY-1002"]
    after = {**fee, "status": "waived", "description": "Late cancellation fee (waived: first time)"}
    assert tool_result(world, "waive_fee", {"payment_id": "PAY-1002", "reason": "first time"}) == {
        "payment": after
    }
    assert world.state.tables["payments"]["PAY-1002"] == after
    assert last_changes(world) == [("payments", fee, after)]
    assert world.ledger.entries[-1].effect == Effect.COMPENSABLE


def test_a_fee_with_no_description_on_file_is_waived_with_the_reason_alone(world):
    world.state.tables["payments"]["PAY-1002"].pop("description")
    result = tool_result(world, "waive_fee", {"payment_id": "PAY-1002", "reason": "first time"})
    assert result["payment"]["description"] == " (waived: first time)"


@pytest.mark.parametrize(
    "payment_id, status, error",
    [
        (
            "PAY-1001",
            None,
            tool_error("conflict", "PAY-1001 is a charge, not a fee.", "payment_id"),
        ),
        (
            "PAY-1002",
            "waived",
            tool_error("conflict", "Fee PAY-1002 is waived, not due.", "payment_id"),
        ),
        (
            "PAY-1002",
            "completed",
            tool_error("conflict", "Fee PAY-1002 is completed, not due.", "payment_id"),
        ),
        ("PAY-9999", None, tool_error("not_found", "No payment with id 'PAY-9999'.", "payment_id")),
    ],
)
def test_only_a_fee_that_is_due_is_waived(world, payment_id, status, error):
    if status:
        world.state.tables["payments"]["PAY-1002"]["status"] = status
    assert tool_refusal(world, "waive_fee", {"payment_id": payment_id, "reason": "x"}) == error
