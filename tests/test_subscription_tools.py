"""The subscription tools on the sample state: what each returns, writes and refuses.

On the sample day (2026-03-02) SUB-1001 (Sam, Fibre 500, SRV-1003) is active with no final
billing date, and SUB-1002 (Maria, Legacy Unlimited, no plan id) has its final billing date today.
"""

from __future__ import annotations

import pytest

from tests.helpers import tool_error, tool_refusal, tool_result
from tools import Effect


def test_a_customers_subscriptions_are_listed_whole(world):
    rows = world.state.tables["subscriptions"]
    assert tool_result(world, "list_subscriptions", {"customer_id": "CUS-1001"}) == {
        "subscriptions": [rows["SUB-1002"]]
    }
    assert tool_result(world, "list_subscriptions", {"customer_id": "CUS-1003"}) == {
        "subscriptions": []
    }
    assert tool_refusal(world, "list_subscriptions", {"customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


def test_one_subscription_is_read_by_its_id(world):
    row = world.state.tables["subscriptions"]["SUB-1001"]
    assert tool_result(world, "get_subscription", {"subscription_id": "SUB-1001"}) == {
        "subscription": row
    }
    assert tool_refusal(world, "get_subscription", {"subscription_id": "SUB-9999"}) == tool_error(
        "not_found", "No subscription with id 'SUB-9999'.", "subscription_id"
    )


def test_a_plan_change_copies_the_plans_name_id_and_price(world):
    before = world.state.tables["subscriptions"]["SUB-1002"]
    expected = {**before, "plan": "Fibre 500", "plan_id": "SRV-1003", "price_cents": 5500}
    record = world.call("change_plan", {"subscription_id": "SUB-1002", "plan_id": "SRV-1003"})
    assert record.outcome == "ok" and record.result == {"subscription": expected}
    assert world.state.tables["subscriptions"]["SUB-1002"] == expected
    entry = world.ledger.entries[-1]
    assert entry.effect == Effect.REVERSIBLE and entry.effect_note is None
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("subscriptions", before, expected)
    ]


def test_a_plan_change_is_refused_to_the_same_plan_an_unknown_one_or_a_cancelled_line(world):
    args = {"subscription_id": "SUB-1001", "plan_id": "SRV-1003"}
    assert tool_refusal(world, "change_plan", args) == tool_error(
        "conflict", "Subscription SUB-1001 is already on Fibre 500.", "plan_id"
    )
    assert tool_refusal(world, "change_plan", {**args, "plan_id": "SRV-9999"}) == tool_error(
        "not_found", "No service with id 'SRV-9999'.", "plan_id"
    )
    assert tool_refusal(
        world, "change_plan", {**args, "subscription_id": "SUB-9999"}
    ) == tool_error("not_found", "No subscription with id 'SUB-9999'.", "subscription_id")
    tool_result(world, "cancel_subscription", {"subscription_id": "SUB-1001", "reason": "moving"})
    for name, extra in [
        ("change_plan", {"plan_id": "SRV-1001"}),
        ("pause_subscription", {"until": "2026-04-01"}),
        ("cancel_subscription", {"reason": "again"}),
    ]:
        assert tool_refusal(world, name, {"subscription_id": "SUB-1001", **extra}) == tool_error(
            "conflict", "Subscription SUB-1001 is cancelled.", "subscription_id"
        )


def test_a_pause_ends_tomorrow_at_the_earliest(world):
    args = {"subscription_id": "SUB-1001"}
    for until in ("2026-03-02", "2026-03-01"):
        assert tool_refusal(world, "pause_subscription", {**args, "until": until}) == tool_error(
            "conflict", "The pause must end after today.", "until"
        )
    assert tool_refusal(world, "pause_subscription", {**args, "until": "2026-02-30"}) == tool_error(
        "invalid_arguments", "'2026-02-30' is not a valid date; expected YYYY-MM-DD.", "until"
    )
    before = world.state.tables["subscriptions"]["SUB-1001"]
    expected = {**before, "status": "paused", "paused_until": "2026-03-03"}
    assert tool_result(world, "pause_subscription", {**args, "until": "2026-03-03"}) == {
        "subscription": expected
    }
    assert world.state.tables["subscriptions"]["SUB-1001"] == expected
    assert tool_refusal(world, "pause_subscription", {**args, "until": "2026-04-01"}) == tool_error(
        "conflict", "Subscription SUB-1001 is paused, not active.", "subscription_id"
    )


@pytest.mark.parametrize(
    "final, effect",
    [
        (None, Effect.REVERSIBLE),
        ("2026-03-03", Effect.REVERSIBLE),  # tomorrow: still restorable today
        ("2026-03-02", Effect.IRREVERSIBLE),  # today
        ("2026-02-15", Effect.IRREVERSIBLE),
    ],
    ids=["no-final-date", "final-tomorrow", "final-today", "final-past"],
)
def test_a_cancellation_is_final_from_the_final_billing_date_on(world, final, effect):
    world.state.tables["subscriptions"]["SUB-1001"]["final_billing_date"] = final
    before = world.state.tables["subscriptions"]["SUB-1001"]
    record = world.call("cancel_subscription", {"subscription_id": "SUB-1001", "reason": "moving"})
    expected = {
        **before,
        "status": "cancelled",
        "cancelled_at": "2026-03-02T09:10",
        "cancel_reason": "moving",
    }
    assert record.outcome == "ok" and record.result == {"subscription": expected}
    assert world.state.tables["subscriptions"]["SUB-1001"] == expected
    entry = world.ledger.entries[-1]
    assert record.effect == entry.effect == effect
    note = (
        f"cancelled on or after its final billing date {final}: the plan cannot be restored"
        if effect == Effect.IRREVERSIBLE
        else None
    )
    assert entry.effect_note == note
