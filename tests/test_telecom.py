"""The internet provider's tools (tools/telecom.py) on the kit's own declared tables and seed."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from businesses.loader import load_business
from sandbox import SimClock, State, World
from sandbox.tables import STANDARD_TABLES
from tools import Effect, default_registry
from tools.telecom import outage_credit_limit

ISP = Path(__file__).resolve().parents[1] / "businesses" / "public" / "internet_provider"
TODAY = "2026-03-11"


def _world(now: str = f"{TODAY}T10:00") -> World:
    business, _ = load_business(ISP)
    specs = {**STANDARD_TABLES, **business.extra_tables}
    return World(State(business.seed, specs), default_registry(), SimClock(now))


@pytest.fixture
def isp() -> World:
    return _world()


def _ok(world: World, tool: str, **args) -> dict:
    record = world.call(tool, args)
    assert record.outcome == "ok", record.result
    return record.result


def _refused(world: World, tool: str, **args) -> dict:
    before = world.state.canonical_json()
    record = world.call(tool, args)
    assert record.outcome == "rejected", record.result
    assert world.state.canonical_json() == before
    return record.result["error"]


def _row(world: World, table: str, record_id: str) -> dict:
    return world.state.tables[table][record_id]


def test_accounts_show_the_callers_role(isp):
    held = _ok(isp, "list_service_accounts", customer_id="CUS-1003")["accounts"]
    assert [(a["id"], a["role"]) for a in held] == [("ACC-1003", "holder")]
    authorised = _ok(isp, "list_service_accounts", customer_id="CUS-1035")["accounts"]
    assert [(a["id"], a["role"]) for a in authorised] == [("ACC-1003", "authorised_user")]
    assert _ok(isp, "list_service_accounts", customer_id="CUS-1038")["accounts"][0]["id"] == (
        "ACC-1018"
    )


def test_outages_are_those_of_the_accounts_area_newest_first(isp):
    result = _ok(isp, "list_outages", account_id="ACC-1002")
    area = _row(isp, "service_accounts", "ACC-1002")["area"]
    assert result["area"] == area
    assert result["outages"] and all(o["area"] == area for o in result["outages"])
    starts = [o["start"] for o in result["outages"]]
    assert starts == sorted(starts, reverse=True)
    credited = {o["id"]: o["credited"] for o in result["outages"]}
    assert credited == {"OUT-1001": False, "OUT-1010": True}


def test_an_outage_still_going_on_shows_no_end_and_earns_nothing_yet(isp):
    outage = next(o for o in _ok(isp, "list_outages", account_id="ACC-1032")["outages"])
    assert outage["id"] == "OUT-1004"
    assert (outage["ongoing"], outage["end"], outage["credit_limit_cents"]) == (True, None, 0)
    error = _refused(
        isp,
        "apply_outage_credit",
        account_id="ACC-1032",
        outage_id="OUT-1004",
        customer_id="CUS-1032",
        amount_cents=100,
    )
    assert "ongoing" in error["message"]
    later = _world("2026-03-13T10:00")
    assert _ok(later, "list_outages", account_id="ACC-1032")["outages"][0]["ongoing"] is False


def test_outage_credit_is_a_days_price_per_started_day_and_applied_once(isp):
    # OUT-1002 lasted 30 hours: two started days on Gig 1000 (ACC-1011).
    limit = 2 * (9500 // 30)
    error = _refused(
        isp,
        "apply_outage_credit",
        account_id="ACC-1011",
        outage_id="OUT-1002",
        customer_id="CUS-1011",
        amount_cents=limit + 1,
    )
    assert (error["code"], error["field"]) == ("conflict", "amount_cents")
    result = _ok(
        isp,
        "apply_outage_credit",
        account_id="ACC-1011",
        outage_id="OUT-1002",
        customer_id="CUS-1011",
        amount_cents=limit,
    )
    assert result["credit_limit_cents"] == limit
    payment = _row(isp, "payments", result["payment"]["id"])
    assert (payment["kind"], payment["amount_cents"], payment["customer_id"]) == (
        "credit",
        limit,
        "CUS-1011",
    )
    account = _row(isp, "service_accounts", "ACC-1011")
    assert (account["credit_cents"], account["credited_outages"]) == (limit, ["OUT-1002"])
    again = _refused(
        isp,
        "apply_outage_credit",
        account_id="ACC-1011",
        outage_id="OUT-1002",
        customer_id="CUS-1011",
        amount_cents=1,
    )
    assert "already credited" in again["message"]


def test_outage_credit_refuses_a_short_outage_and_another_areas_outage(isp):
    short = _refused(
        isp,
        "apply_outage_credit",
        account_id="ACC-1026",
        outage_id="OUT-1003",
        customer_id="CUS-1026",
        amount_cents=100,
    )
    assert "hours or more" in short["message"]
    elsewhere = _refused(
        isp,
        "apply_outage_credit",
        account_id="ACC-1026",
        outage_id="OUT-1001",
        customer_id="CUS-1026",
        amount_cents=100,
    )
    assert elsewhere["field"] == "outage_id"


def test_the_credit_limit_is_never_more_than_the_month():
    plan = {"price_cents": 6500, "outage_credit_after_hours": 4}
    outage = {"start": "2026-01-01T00:00", "end": "2026-02-15T00:00"}
    assert outage_credit_limit(SimpleNamespace(now=f"{TODAY}T10:00"), outage, plan) == 6500


def test_an_authorised_user_may_change_the_plan_but_not_cancel_or_port(isp):
    result = _ok(
        isp,
        "change_service_plan",
        account_id="ACC-1003",
        plan_id="PLN-1004",
        customer_id="CUS-1035",
    )
    assert result["account"]["plan_id"] == "PLN-1004"
    assert (
        _row(isp, "service_accounts", "ACC-1003")["contract_ends"]
        == result["account"]["contract_ends"]
    )
    for tool, extra in (
        ("cancel_service", {"reason": "moving"}),
        ("request_port_out", {"phone_number": "+1 916 555 2021", "new_provider": "AT&T"}),
    ):
        error = _refused(isp, tool, account_id="ACC-1003", customer_id="CUS-1035", **extra)
        assert "only the account holder" in error["message"]


def test_someone_not_on_the_account_can_change_nothing(isp):
    error = _refused(
        isp,
        "change_service_plan",
        account_id="ACC-1017",
        plan_id="PLN-1004",
        customer_id="CUS-1001",
    )
    assert (error["code"], error["field"]) == ("conflict", "customer_id")
    assert _row(isp, "service_accounts", "ACC-1017")["plan_id"] == "PLN-1002"


def test_changing_to_the_same_plan_is_refused(isp):
    error = _refused(
        isp,
        "change_service_plan",
        account_id="ACC-1008",
        plan_id="PLN-1004",
        customer_id="CUS-1008",
    )
    assert "already on Gig 1000" in error["message"]


def test_cancelling_inside_the_contract_bills_the_fee_and_is_irreversible(isp):
    record = isp.call(
        "cancel_service", {"account_id": "ACC-1014", "customer_id": "CUS-1014", "reason": "moving"}
    )
    assert record.outcome == "ok"
    entry = isp.ledger.entries[-1]
    assert entry.effect == Effect.IRREVERSIBLE
    assert "early-termination fee" in entry.effect_note
    fee = record.result["early_termination_fee"]
    assert (fee["kind"], fee["status"], fee["amount_cents"]) == ("fee", "due", 20000)
    assert _row(isp, "service_accounts", "ACC-1014")["status"] == "cancelled"


def test_cancelling_out_of_contract_is_reversible_and_bills_no_fee(isp):
    record = isp.call(
        "cancel_service", {"account_id": "ACC-1009", "customer_id": "CUS-1009", "reason": "moving"}
    )
    assert record.outcome == "ok"
    assert isp.ledger.entries[-1].effect == Effect.REVERSIBLE
    assert record.result["early_termination_fee"] is None
    again = _refused(
        isp, "cancel_service", account_id="ACC-1009", customer_id="CUS-1009", reason="x"
    )
    assert "cancelled" in again["message"]


def test_a_port_out_needs_the_accounts_own_number_and_is_irreversible(isp):
    line = _row(isp, "service_accounts", "ACC-1013")["phone_number"]
    wrong = _refused(
        isp,
        "request_port_out",
        account_id="ACC-1013",
        customer_id="CUS-1013",
        phone_number="+1 916 555 0000",
        new_provider="Verizon",
    )
    assert wrong["field"] == "phone_number"
    spoken = "(" + line[3:6] + ") " + line[7:]
    result = _ok(
        isp,
        "request_port_out",
        account_id="ACC-1013",
        customer_id="CUS-1013",
        phone_number=spoken,
        new_provider="Verizon",
    )
    assert result["port_out"]["number"] == line
    assert isp.ledger.entries[-1].effect == Effect.IRREVERSIBLE
    assert _row(isp, "service_accounts", "ACC-1013")["phone_number"] is None


def test_tools_declare_their_effects_and_schemas():
    registry = default_registry()
    effects = {
        "list_service_accounts": Effect.READ,
        "list_plans": Effect.READ,
        "list_outages": Effect.READ,
        "apply_outage_credit": Effect.COMPENSABLE,
        "change_service_plan": Effect.REVERSIBLE,
        "cancel_service": Effect.REVERSIBLE,
        "request_port_out": Effect.IRREVERSIBLE,
    }
    for name, effect in effects.items():
        assert registry.get(name).effect == effect
    missing = registry.validation_error(
        "apply_outage_credit", {"account_id": "ACC-1002", "outage_id": "OUT-1001"}
    )
    assert missing is not None and missing.code == "invalid_arguments"


def test_a_business_without_the_tables_gets_a_clear_error():
    world = World(
        State({"customers": {}}, STANDARD_TABLES), default_registry(), SimClock(f"{TODAY}T10:00")
    )
    record = world.call("list_plans", {})
    assert record.outcome == "rejected"
    assert "no internet service accounts" in record.result["error"]["message"]
