"""The internet provider's tools (tools/telecom.py) on the kit's public seed: each result and
write whole, each refusal with its field and words, and the boundaries of outage credits and
contracts.

Today is 2026-03-11T10:00 (``tests/test_telecom.py``). ACC-1003 (East Sacramento, Fibre 300 at
$65.00, contract to 2026-06-14) is held by Leah Goldberg (CUS-1003) with Anika Rao (CUS-1035) as
authorised user; OUT-1002 there lasted 30 hours, OUT-1009 3 hours. ACC-1005 (CUS-1005, Basic 50,
no contract) has the number +1 916 555 2035.
"""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

import pytest

from businesses.loader import load_business
from sandbox import SimClock, State, World
from sandbox.tables import STANDARD_TABLES
from tests.helpers import next_payment_id, tool_error, tool_refusal, tool_result
from tests.test_telecom import ISP
from tools import Effect, default_registry
from tools.telecom import outage_credit_limit

NOW = "2026-03-11T10:00"
NO_LINKS = {"order_id": None, "appointment_id": None, "subscription_id": None}


@pytest.fixture
def isp() -> World:
    business, _ = load_business(ISP)
    specs = {**STANDARD_TABLES, **business.extra_tables}
    return World(State(copy.deepcopy(business.seed), specs), default_registry(), SimClock(NOW))


def _row(world: World, table: str, rid: str) -> dict[str, Any]:
    return world.state.tables[table][rid]


PLAN = {"price_cents": 6000, "outage_credit_after_hours": 4}


@pytest.mark.parametrize(
    "start, end, plan, limit",
    [
        ("2026-03-10T06:00", None, PLAN, 0),  # ongoing: no end entered
        ("2026-03-10T06:00", "", PLAN, 0),
        ("2026-03-10T06:00", "2026-03-11T10:01", PLAN, 0),  # expected to end later
        ("2026-03-11T06:00", "2026-03-11T10:00", PLAN, 200),  # ended now, exactly 4 hours
        ("2026-03-11T06:01", "2026-03-11T10:00", PLAN, 0),  # a minute short
        ("2026-03-09T10:00", "2026-03-10T10:00", PLAN, 200),  # 24 hours: one day
        ("2026-03-09T10:00", "2026-03-10T10:01", PLAN, 400),  # a second day started
        ("2026-03-11T09:00", "2026-03-11T09:00", {**PLAN, "outage_credit_after_hours": 0}, 200),
        ("2026-02-01T10:00", "2026-03-03T10:00", PLAN, 6000),  # 30 days: the month
        ("2026-02-01T10:00", "2026-03-05T10:00", PLAN, 6000),  # never more than the month
        ("2026-03-11T06:00", "2026-03-11T10:00", {**PLAN, "price_cents": 6500}, 216),
    ],
)
def test_an_outage_earns_a_days_price_per_started_day_once_ended_and_long_enough(
    start, end, plan, limit
):
    tx = SimpleNamespace(now=NOW)
    assert outage_credit_limit(tx, {"start": start, "end": end}, plan) == limit


def test_a_customers_accounts_are_listed_whole_with_role_and_plan_name(isp):
    acc = _row(isp, "service_accounts", "ACC-1003")
    assert tool_result(isp, "list_service_accounts", {"customer_id": "CUS-1003"}) == {
        "accounts": [{**acc, "role": "holder", "plan": "Fibre 300"}]
    }
    assert tool_result(isp, "list_service_accounts", {"customer_id": "CUS-1035"}) == {
        "accounts": [{**acc, "role": "authorised_user", "plan": "Fibre 300"}]
    }
    acc["plan_id"] = "PLN-9999"
    assert (
        tool_result(isp, "list_service_accounts", {"customer_id": "CUS-1003"})["accounts"][0][
            "plan"
        ]
        is None
    )
    assert tool_refusal(isp, "list_service_accounts", {"customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


def test_an_account_without_authorised_users_on_file_has_its_holder_only(isp):
    _row(isp, "service_accounts", "ACC-1003").pop("authorised_user_ids")
    assert tool_result(isp, "list_service_accounts", {"customer_id": "CUS-1035"}) == {
        "accounts": []
    }
    assert [
        a["id"]
        for a in tool_result(isp, "list_service_accounts", {"customer_id": "CUS-1003"})["accounts"]
    ] == ["ACC-1003"]


def test_the_plans_are_listed_whole(isp):
    rows = isp.state.tables["plans"]
    assert tool_result(isp, "list_plans", {}) == {"plans": [rows[p] for p in sorted(rows)]}


def test_an_accounts_outages_are_listed_whole_newest_first(isp):
    out = isp.state.tables["outages"]
    assert tool_result(isp, "list_outages", {"account_id": "ACC-1002"}) == {
        "area": "Midtown",
        "outages": [
            {
                **out["OUT-1001"],
                "ongoing": False,
                "hours": 9.0,
                "credited": False,
                "credit_limit_cents": 216,
            },
            {
                **out["OUT-1010"],
                "ongoing": False,
                "hours": 18.0,
                "credited": True,
                "credit_limit_cents": 216,
            },
        ],
    }


def test_an_ongoing_outage_shows_no_end_or_hours_and_a_future_one_is_not_listed(isp):
    out = isp.state.tables["outages"]
    out["OUT-1001"].update(start="2026-03-11T10:00", end="2026-03-11T16:20")
    out["OUT-1010"].update(start="2026-03-11T10:01", end=None)
    assert tool_result(isp, "list_outages", {"account_id": "ACC-1002"})["outages"] == [
        {
            **out["OUT-1001"],
            "end": None,
            "ongoing": True,
            "hours": None,
            "credited": False,
            "credit_limit_cents": 0,
        }
    ]
    out["OUT-1001"].update(start="2026-03-11T01:00", end="2026-03-11T09:20")
    listed = tool_result(isp, "list_outages", {"account_id": "ACC-1002"})["outages"]
    assert (listed[0]["end"], listed[0]["hours"]) == ("2026-03-11T09:20", 8.3)


def test_outages_of_an_account_with_no_credits_on_file_are_not_credited(isp):
    _row(isp, "service_accounts", "ACC-1002").pop("credited_outages")
    listed = tool_result(isp, "list_outages", {"account_id": "ACC-1002"})["outages"]
    assert [o["credited"] for o in listed] == [False, False]


def test_outages_of_an_unknown_account_or_plan_are_refused(isp):
    assert tool_refusal(isp, "list_outages", {"account_id": "ACC-9999"}) == tool_error(
        "not_found", "No service_accounts with id 'ACC-9999'.", "account_id"
    )
    _row(isp, "service_accounts", "ACC-1002")["plan_id"] = "PLN-9999"
    assert tool_refusal(isp, "list_outages", {"account_id": "ACC-1002"}) == tool_error(
        "not_found", "No plans with id 'PLN-9999'.", "plan_id"
    )


def _credit(**args: Any) -> dict[str, Any]:
    base = {
        "account_id": "ACC-1003",
        "outage_id": "OUT-1002",
        "customer_id": "CUS-1003",
        "amount_cents": 432,
    }
    return {**base, **args}


@pytest.mark.parametrize("who", ["CUS-1003", "CUS-1035"])
def test_an_outage_credit_is_written_whole_to_the_holder(isp, who):
    before = copy.deepcopy(_row(isp, "service_accounts", "ACC-1003"))
    new = next_payment_id(isp)
    payment = {
        "id": new,
        "customer_id": "CUS-1003",
        "kind": "credit",
        "amount_cents": 432,
        "status": "completed",
        "refunded_cents": 0,
        "description": "Outage credit: OUT-1002 (ACC-1003)",
        "at": NOW,
        **NO_LINKS,
        "refund_of": None,
    }
    after = {**before, "credit_cents": 432, "credited_outages": ["OUT-1002"]}
    assert tool_result(isp, "apply_outage_credit", _credit(customer_id=who)) == {
        "payment": payment,
        "account": after,
        "credit_limit_cents": 432,
    }
    assert _row(isp, "service_accounts", "ACC-1003") == after
    assert isp.state.tables["payments"][new] == payment
    entry = isp.ledger.entries[-1]
    assert entry.effect == Effect.COMPENSABLE
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("service_accounts", before, after),
        ("payments", None, payment),
    ]
    assert tool_refusal(isp, "apply_outage_credit", _credit(amount_cents=1)) == tool_error(
        "conflict", "ACC-1003 was already credited for OUT-1002.", "outage_id"
    )


def test_an_outage_credit_adds_to_the_accounts_credits(isp):
    _row(isp, "service_accounts", "ACC-1003").update(
        credit_cents=100, credited_outages=["OUT-1009"]
    )
    account = tool_result(isp, "apply_outage_credit", _credit(amount_cents=50))["account"]
    assert (account["credit_cents"], account["credited_outages"]) == (150, ["OUT-1009", "OUT-1002"])
    _row(isp, "service_accounts", "ACC-1006").pop("credit_cents")
    _row(isp, "service_accounts", "ACC-1006").pop("credited_outages")
    args = _credit(account_id="ACC-1006", customer_id="CUS-1006", amount_cents=7)
    account = tool_result(isp, "apply_outage_credit", args)["account"]
    assert (account["credit_cents"], account["credited_outages"]) == (7, ["OUT-1002"])


@pytest.mark.parametrize(
    "args, error",
    [
        (
            {"amount_cents": 433},
            tool_error(
                "conflict", "At most $4.32 for outage OUT-1002 on Fibre 300.", "amount_cents"
            ),
        ),
        (
            {"outage_id": "OUT-1001"},
            tool_error(
                "conflict",
                "Outage OUT-1001 was in Midtown; ACC-1003 is in East Sacramento.",
                "outage_id",
            ),
        ),
        (
            {"outage_id": "OUT-1009"},
            tool_error(
                "conflict",
                "Outage OUT-1009 lasted 3.0 hours; Fibre 300 earns a credit only for outages of"
                " 4 hours or more.",
                "outage_id",
            ),
        ),
        (
            {"outage_id": "OUT-9999"},
            tool_error("not_found", "No outages with id 'OUT-9999'.", "outage_id"),
        ),
    ],
)
def test_an_outage_credit_is_refused_above_its_limit_or_for_the_wrong_outage(isp, args, error):
    assert tool_refusal(isp, "apply_outage_credit", _credit(**args)) == error


def test_an_ongoing_outage_is_credited_once_it_ends(isp):
    _row(isp, "outages", "OUT-1002")["end"] = None
    assert tool_refusal(isp, "apply_outage_credit", _credit()) == tool_error(
        "conflict", "Outage OUT-1002 is still ongoing: credit it once it ends.", "outage_id"
    )
    _row(isp, "service_accounts", "ACC-1003")["plan_id"] = "PLN-9999"
    _row(isp, "outages", "OUT-1002")["end"] = "2026-03-03T21:00"
    assert tool_refusal(isp, "apply_outage_credit", _credit()) == tool_error(
        "not_found", "No plans with id 'PLN-9999'.", "plan_id"
    )


@pytest.mark.parametrize(
    "name, extra",
    [
        ("apply_outage_credit", {"outage_id": "OUT-1002", "amount_cents": 1}),
        ("change_service_plan", {"plan_id": "PLN-1003"}),
        ("cancel_service", {"reason": "moving"}),
        ("request_port_out", {"phone_number": "x", "new_provider": "y"}),
    ],
)
def test_every_write_is_refused_to_someone_not_on_the_account_or_on_a_closed_one(isp, name, extra):
    args = {"account_id": "ACC-1003", "customer_id": "CUS-1001", **extra}
    assert tool_refusal(isp, name, args) == tool_error(
        "conflict",
        "Naomi Whitfield is neither the holder nor an authorised user of ACC-1003.",
        "customer_id",
    )
    assert tool_refusal(isp, name, {**args, "customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )
    assert tool_refusal(isp, name, {**args, "account_id": "ACC-9999"}) == tool_error(
        "not_found", "No service_accounts with id 'ACC-9999'.", "account_id"
    )
    _row(isp, "service_accounts", "ACC-1003")["status"] = "cancelled"
    assert tool_refusal(isp, name, {**args, "customer_id": "CUS-1003"}) == tool_error(
        "conflict", "Account ACC-1003 is cancelled.", "account_id"
    )


@pytest.mark.parametrize(
    "name, extra",
    [
        ("cancel_service", {"reason": "moving"}),
        ("request_port_out", {"phone_number": "x", "new_provider": "y"}),
    ],
)
def test_only_the_holder_cancels_or_ports_the_number(isp, name, extra):
    args = {"account_id": "ACC-1003", "customer_id": "CUS-1035", **extra}
    assert tool_refusal(isp, name, args) == tool_error(
        "conflict",
        "Anika Rao is an authorised user of ACC-1003; only the account holder may do this.",
        "customer_id",
    )


def test_a_plan_change_is_written_whole_and_refused_to_the_same_plan(isp):
    before = copy.deepcopy(_row(isp, "service_accounts", "ACC-1003"))
    args = {"account_id": "ACC-1003", "customer_id": "CUS-1035", "plan_id": "PLN-1004"}
    assert tool_result(isp, "change_service_plan", args) == {
        "account": {**before, "plan_id": "PLN-1004"}
    }
    entry = isp.ledger.entries[-1]
    assert entry.effect == Effect.REVERSIBLE
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("service_accounts", before, {**before, "plan_id": "PLN-1004"})
    ]
    assert tool_refusal(isp, "change_service_plan", args) == tool_error(
        "conflict", "ACC-1003 is already on Gig 1000.", "plan_id"
    )
    assert tool_refusal(isp, "change_service_plan", {**args, "plan_id": "PLN-9999"}) == tool_error(
        "not_found", "No plans with id 'PLN-9999'.", "plan_id"
    )


def test_cancelling_inside_the_contract_bills_the_fee_whole_and_is_final(isp):
    before = copy.deepcopy(_row(isp, "service_accounts", "ACC-1003"))
    new = next_payment_id(isp)
    fee = {
        "id": new,
        "customer_id": "CUS-1003",
        "kind": "fee",
        "amount_cents": 20000,
        "status": "due",
        "refunded_cents": 0,
        "description": "Early-termination fee (ACC-1003)",
        "at": NOW,
        **NO_LINKS,
        "refund_of": None,
    }
    cancelled = {**before, "status": "cancelled", "cancelled_at": NOW, "cancel_reason": "moving"}
    args = {"account_id": "ACC-1003", "customer_id": "CUS-1003", "reason": "moving"}
    assert tool_result(isp, "cancel_service", args) == {
        "account": cancelled,
        "early_termination_fee": fee,
    }
    assert _row(isp, "service_accounts", "ACC-1003") == cancelled
    assert isp.state.tables["payments"][new] == fee
    entry = isp.ledger.entries[-1]
    assert entry.effect == Effect.IRREVERSIBLE
    assert entry.effect_note == (
        "cancelled inside the contract (ends 2026-06-14): the early-termination fee of $200.00"
        " is billed and the contract cannot be restored"
    )
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("payments", None, fee),
        ("service_accounts", before, cancelled),
    ]


@pytest.mark.parametrize(
    "ends, fee",
    [("2026-03-12", True), ("2026-03-11", False), ("2026-03-10", False), (None, False)],
)
def test_the_fee_is_billed_only_before_the_contract_ends(isp, ends, fee):
    _row(isp, "service_accounts", "ACC-1003")["contract_ends"] = ends
    args = {"account_id": "ACC-1003", "customer_id": "CUS-1003", "reason": "moving"}
    result = tool_result(isp, "cancel_service", args)
    entry = isp.ledger.entries[-1]
    if fee:
        assert result["early_termination_fee"]["amount_cents"] == 20000
        assert entry.effect == Effect.IRREVERSIBLE
    else:
        assert result["early_termination_fee"] is None
        assert entry.effect == Effect.REVERSIBLE and entry.effect_note is None
        assert result["account"]["status"] == "cancelled"


def test_a_cancellation_inside_the_contract_needs_the_plan_on_file(isp):
    _row(isp, "service_accounts", "ACC-1003")["plan_id"] = "PLN-9999"
    args = {"account_id": "ACC-1003", "customer_id": "CUS-1003", "reason": "moving"}
    assert tool_refusal(isp, "cancel_service", args) == tool_error(
        "not_found", "No plans with id 'PLN-9999'.", "plan_id"
    )


def test_a_port_out_is_written_whole_and_takes_the_number_off_the_account(isp):
    before = copy.deepcopy(_row(isp, "service_accounts", "ACC-1005"))
    args = {
        "account_id": "ACC-1005",
        "customer_id": "CUS-1005",
        "phone_number": "(916) 555-2035",
        "new_provider": "T-Mobile",
    }
    port = {
        "id": "PRT-1002",
        "account_id": "ACC-1005",
        "number": "+1 916 555 2035",
        "new_provider": "T-Mobile",
        "requested_by": "CUS-1005",
        "at": NOW,
        "status": "submitted",
    }
    assert tool_result(isp, "request_port_out", args) == {"port_out": port}
    assert isp.state.tables["port_outs"]["PRT-1002"] == port
    assert _row(isp, "service_accounts", "ACC-1005") == {**before, "phone_number": None}
    entry = isp.ledger.entries[-1]
    assert entry.effect == Effect.IRREVERSIBLE
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("port_outs", None, port),
        ("service_accounts", before, {**before, "phone_number": None}),
    ]
    assert tool_refusal(isp, "request_port_out", args) == tool_error(
        "conflict", "(916) 555-2035 is not the phone number on ACC-1005.", "phone_number"
    )


def test_a_port_out_of_another_number_is_refused(isp):
    args = {
        "account_id": "ACC-1005",
        "customer_id": "CUS-1005",
        "phone_number": "+1 916 555 2036",
        "new_provider": "T-Mobile",
    }
    assert tool_refusal(isp, "request_port_out", args) == tool_error(
        "conflict", "+1 916 555 2036 is not the phone number on ACC-1005.", "phone_number"
    )
    _row(isp, "service_accounts", "ACC-1005").pop("phone_number")
    assert tool_refusal(isp, "request_port_out", {**args, "phone_number": "x"}) == tool_error(
        "conflict", "x is not the phone number on ACC-1005.", "phone_number"
    )


@pytest.mark.parametrize(
    "name, args, field",
    [
        ("list_service_accounts", {"customer_id": "CUS-1001"}, "customer_id"),
        ("list_plans", {}, "plan_id"),
        ("list_outages", {"account_id": "ACC-1001"}, "account_id"),
        (
            "apply_outage_credit",
            {"account_id": "A", "outage_id": "O", "customer_id": "C", "amount_cents": 1},
            "account_id",
        ),
        (
            "change_service_plan",
            {"account_id": "A", "plan_id": "P", "customer_id": "C"},
            "account_id",
        ),
        ("cancel_service", {"account_id": "A", "customer_id": "C", "reason": "r"}, "account_id"),
        (
            "request_port_out",
            {"account_id": "A", "customer_id": "C", "phone_number": "1", "new_provider": "p"},
            "account_id",
        ),
    ],
)
def test_a_business_without_service_accounts_refuses_the_tools(world, name, args, field):
    assert tool_refusal(world, name, args) == tool_error(
        "invalid_arguments", "This business keeps no internet service accounts.", field
    )
