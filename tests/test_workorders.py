"""tools/workorders.py and the loaner_policy rule on the auto repair shop's declared tables and
public seed (vehicles with co-owners, work orders with estimate lines, loaner cars)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from businesses.loader import load_business
from sandbox import SimClock, State, World
from sandbox.diff import diff
from sandbox.rules import RULE_TYPES, RuleContext, Violation
from sandbox.tables import STANDARD_TABLES
from tools import Effect, default_registry

SHOP = Path(__file__).resolve().parents[1] / "businesses" / "public" / "auto_repair"
NOW = "2026-03-10T10:00"  # the public draw's today, a Tuesday
LOANER_RULE = {"free_min_approved_cents": 50000, "max_days": 5}


def _world(now: str = NOW, change: dict[str, dict[str, Any]] | None = None) -> tuple[World, State]:
    business, _ = load_business(SHOP)
    seed = copy.deepcopy(business.seed)
    for ref, fields in (change or {}).items():
        table, record_id = ref.split("/")
        seed[table][record_id].update(fields)
    specs = {**STANDARD_TABLES, **business.extra_tables}
    initial = State(copy.deepcopy(seed), specs)
    return World(State(seed, specs), default_registry(), SimClock(now)), initial


@pytest.fixture
def shop() -> World:
    return _world()[0]


def _ok(world: World, tool: str, **args: Any) -> dict[str, Any]:
    record = world.call(tool, args)
    assert record.outcome == "ok", record.result
    return record.result


def _refused(world: World, tool: str, code: str, **args: Any) -> str:
    before = copy.deepcopy(world.state.tables)
    record = world.call(tool, args)
    assert record.outcome != "ok" and record.result["error"]["code"] == code, record.result
    assert world.state.tables == before
    return str(record.result["error"]["message"])


def test_owner_and_co_owner_see_the_shared_vehicle_and_its_work_order(shop):
    for who in ("CUS-1002", "CUS-1003"):
        vehicles = [v["id"] for v in _ok(shop, "list_vehicles", customer_id=who)["vehicles"]]
        assert "VEH-1002" in vehicles
        orders = _ok(shop, "list_work_orders", customer_id=who)["work_orders"]
        assert "WO-1011" in [o["id"] for o in orders]
    # Customer 3 also owns her own car; customer 2 does not see it.
    assert "VEH-1003" not in [
        v["id"] for v in _ok(shop, "list_vehicles", customer_id="CUS-1002")["vehicles"]
    ]


def test_work_orders_of_a_vehicle_someone_else_keeps_are_refused(shop):
    message = _refused(
        shop, "list_work_orders", "conflict", customer_id="CUS-1004", vehicle_id="VEH-1001"
    )
    assert "not an owner" in message
    orders = _ok(shop, "list_work_orders", customer_id="CUS-1008")["work_orders"]
    assert [o["id"] for o in orders] == ["WO-1006", "WO-1007"]  # newest first


def test_an_owner_approves_the_whole_estimate_reversibly(shop):
    result = _ok(
        shop,
        "approve_work_order",
        work_order_id="WO-1001",
        customer_id="CUS-1001",
        amount_cents=46950,
    )
    order = shop.state.tables["work_orders"]["WO-1001"]
    assert order["status"] == "approved" and order["approved_cents"] == 46950
    assert order["approved_by"] == "CUS-1001" and order["approved_at"] == NOW
    assert len(result["approved_lines"]) == 2
    assert shop.ledger.entries[-1].effect == "reversible"


def test_an_approval_covers_the_lines_that_fit_in_order_at_the_boundary(shop):
    # WO-1002: 14900, 12000, 11900, 4900.
    args = {"work_order_id": "WO-1002", "customer_id": "CUS-1004"}
    assert "covers no line" in _refused(
        shop, "approve_work_order", "conflict", **args, amount_cents=14899
    )
    assert len(_ok(shop, "approve_work_order", **args, amount_cents=14900)["approved_lines"]) == 1
    assert len(_ok(shop, "approve_work_order", **args, amount_cents=26899)["approved_lines"]) == 1
    # Changing the approval before the work starts records it again on the same work order.
    assert len(_ok(shop, "approve_work_order", **args, amount_cents=26900)["approved_lines"]) == 2
    assert shop.state.tables["work_orders"]["WO-1002"]["approved_cents"] == 26900
    assert "at most that" in _refused(
        shop, "approve_work_order", "conflict", **args, amount_cents=43701
    )
    assert len(_ok(shop, "approve_work_order", **args, amount_cents=43700)["approved_lines"]) == 4


def test_approving_a_special_order_part_is_irreversible(shop):
    _ok(
        shop,
        "approve_work_order",
        work_order_id="WO-1005",
        customer_id="CUS-1007",
        amount_cents=70500,
    )
    entry = shop.ledger.entries[-1]
    assert entry.effect == "irreversible" and "cannot be returned" in (entry.effect_note or "")


def test_someone_who_only_dropped_the_car_off_cannot_approve(shop):
    # WO-1010 is customer 11's car; customer 12 is no owner of it.
    message = _refused(
        shop,
        "approve_work_order",
        "conflict",
        work_order_id="WO-1010",
        customer_id="CUS-1012",
        amount_cents=88000,
    )
    assert "not an owner or co-owner" in message


def test_work_already_started_or_finished_cannot_be_approved(shop):
    for order, who in (("WO-1013", "CUS-1013"), ("WO-1009", "CUS-1010"), ("WO-1007", "CUS-1008")):
        message = _refused(
            shop,
            "approve_work_order",
            "conflict",
            work_order_id=order,
            customer_id=who,
            amount_cents=10000,
        )
        assert "only before the work starts" in message


def test_bad_arguments_are_structured_errors(shop):
    _refused(
        shop,
        "approve_work_order",
        "invalid_arguments",
        work_order_id="WO-1001",
        customer_id="CUS-1001",
    )
    _refused(
        shop,
        "approve_work_order",
        "invalid_arguments",
        work_order_id="WO-1001",
        customer_id="CUS-1001",
        amount_cents=0,
    )
    _refused(
        shop,
        "approve_work_order",
        "not_found",
        work_order_id="WO-9999",
        customer_id="CUS-1001",
        amount_cents=100,
    )
    _refused(
        shop,
        "book_loaner",
        "invalid_arguments",
        work_order_id="WO-1008",
        customer_id="CUS-1009",
        until="Friday",
        complimentary=True,
    )


def test_loaners_free_or_at_the_daily_rate_on_the_first_free_car(shop):
    # LNR-1001 is out until 2026-03-13 and LNR-1004 is in service.
    free = _ok(
        shop,
        "book_loaner",
        work_order_id="WO-1008",
        customer_id="CUS-1009",
        until="2026-03-13",
        complimentary=True,
    )
    assert free["loaner_booking"]["loaner_id"] == "LNR-1002"
    assert free["loaner_booking"]["daily_cents"] == 0
    assert free["loaner_booking"]["start"] == "2026-03-10"
    paid = _ok(
        shop,
        "book_loaner",
        work_order_id="WO-1009",
        customer_id="CUS-1010",
        until="2026-03-11",
        complimentary=False,
    )
    rate = shop.state.tables["loaners"]["LNR-1003"]["daily_cents"]
    assert paid["loaner_booking"]["loaner_id"] == "LNR-1003"
    assert paid["loaner_booking"]["daily_cents"] == rate > 0
    assert shop.ledger.entries[-1].effect == "reversible"
    message = _refused(
        shop,
        "book_loaner",
        "conflict",
        work_order_id="WO-1014",
        customer_id="CUS-1014",
        until="2026-03-12",
        complimentary=False,
    )
    assert "No loaner car is free" in message


def test_loaner_refusals(shop):
    _ok(
        shop,
        "book_loaner",
        work_order_id="WO-1008",
        customer_id="CUS-1009",
        until="2026-03-10",
        complimentary=True,
    )
    assert "already covers" in _refused(
        shop,
        "book_loaner",
        "conflict",
        work_order_id="WO-1008",
        customer_id="CUS-1009",
        until="2026-03-11",
        complimentary=True,
    )
    assert "before today" in _refused(
        shop,
        "book_loaner",
        "invalid_arguments",
        work_order_id="WO-1009",
        customer_id="CUS-1010",
        until="2026-03-09",
        complimentary=False,
    )
    assert "not an owner" in _refused(
        shop,
        "book_loaner",
        "conflict",
        work_order_id="WO-1009",
        customer_id="CUS-1011",
        until="2026-03-11",
        complimentary=False,
    )
    assert "completed" in _refused(
        shop,
        "book_loaner",
        "conflict",
        work_order_id="WO-1007",
        customer_id="CUS-1008",
        until="2026-03-11",
        complimentary=False,
    )


def test_a_business_without_the_tables_gets_a_clear_error():
    world = World(State({}, dict(STANDARD_TABLES)), default_registry(), SimClock(NOW))
    record = world.call("list_vehicles", {"customer_id": "CUS-1001"})
    assert record.outcome != "ok" and "no vehicle" in record.result["error"]["message"]


def test_effect_classes():
    registry = default_registry()
    assert registry.get("list_vehicles").effect == Effect.READ
    assert registry.get("list_work_orders").effect == Effect.READ
    assert registry.get("approve_work_order").effect == Effect.REVERSIBLE
    assert registry.get("book_loaner").effect == Effect.REVERSIBLE


def _loaner_violations(
    order: str, who: str, until: str, complimentary: bool, change=None, params=None
) -> list[str]:
    world, initial = _world(change=change)
    _ok(
        world,
        "book_loaner",
        work_order_id=order,
        customer_id=who,
        until=until,
        complimentary=complimentary,
    )
    ctx = RuleContext(
        initial, world.state, diff(initial, world.state), list(world.ledger), world.trace
    )
    return [v.message for v in RULE_TYPES["loaner_policy"].check(params or LOANER_RULE, ctx)]


@pytest.mark.parametrize(
    ("approved", "warranty", "complimentary", "broken"),
    [
        (50000, False, True, False),  # exactly the threshold: owed free
        (49999, False, True, True),  # a cent under: not owed
        (49999, True, True, False),  # warranty work: owed free whatever the amount
        (49999, False, False, False),  # at the daily rate: always allowed
    ],
)
def test_a_free_loaner_only_at_or_above_the_threshold_or_on_warranty(
    approved, warranty, complimentary, broken
):
    change = {"work_orders/WO-1009": {"approved_cents": approved, "warranty_work": warranty}}
    found = _loaner_violations("WO-1009", "CUS-1010", "2026-03-11", complimentary, change)
    assert bool(found) is broken, found


@pytest.mark.parametrize(("until", "broken"), [("2026-03-15", False), ("2026-03-16", True)])
def test_a_loaner_at_most_max_days(until, broken):
    found = _loaner_violations("WO-1009", "CUS-1010", until, False)
    assert bool(found) is broken and (not found or "5" in found[0]), found


def _escalations(calls: list[tuple[str, dict[str, Any]]], params: dict[str, Any]) -> list[str]:
    world, initial = _world()
    for tool, args in calls:
        _ok(world, tool, **args)
    ctx = RuleContext(
        initial, world.state, diff(initial, world.state), list(world.ledger), world.trace
    )
    return [v.message for v in RULE_TYPES["escalation_required"].check(params, ctx)]


def _approve(order: str, who: str, cents: int) -> tuple[str, dict[str, Any]]:
    return (
        "approve_work_order",
        {"work_order_id": order, "customer_id": who, "amount_cents": cents},
    )


@pytest.mark.parametrize(("limit", "broken"), [(46950, True), (46951, False)])
def test_an_approval_at_the_limit_goes_to_a_person(limit, broken):
    params = {"tools": ["approve_work_order"], "min_amount_cents": limit}
    found = _escalations([_approve("WO-1001", "CUS-1001", 46950)], params)
    assert bool(found) is broken, found


def test_an_approval_on_a_warranty_claim_goes_to_a_person_and_no_other():
    params = {"tools": ["approve_work_order"], "where": {"warranty_claim": True}}
    assert _escalations([_approve("WO-1006", "CUS-1008", 57000)], params)
    assert not _escalations([_approve("WO-1001", "CUS-1001", 46950)], params)
    # The filter compares values: a flag that is merely present but false does not match.
    assert not _escalations(
        [_approve("WO-1006", "CUS-1008", 57000)],
        {"tools": ["approve_work_order"], "where": {"warranty_claim": False}},
    )


def test_a_special_order_approval_breaks_the_irreversible_only_rule():
    params = {"tools": ["approve_work_order"], "irreversible_only": True}
    assert _escalations([_approve("WO-1005", "CUS-1007", 70500)], params)
    assert not _escalations([_approve("WO-1001", "CUS-1001", 46950)], params)


def _loaner_records(bookings: list[dict[str, Any]], change=None) -> list[Violation]:
    world, initial = _world(change=change)
    # A row of another table inserted first: only loaner bookings are judged.
    _ok(world, "add_note", customer_id="CUS-1001", body="asked about a courtesy car")
    for args in bookings:
        _ok(world, "book_loaner", **args)
    ctx = RuleContext(
        initial, world.state, diff(initial, world.state), list(world.ledger), world.trace
    )
    return RULE_TYPES["loaner_policy"].check(LOANER_RULE, ctx)


def test_each_loaner_violation_names_the_rule_the_tag_the_call_and_its_rows():
    # First a booking the policy allows (at the daily rate, two days), then a complimentary one
    # on a work order not approved at all, too long as well: both of the second's violations
    # are found, each with the call that made it and the rows it wrote.
    found = _loaner_records(
        [
            {
                "work_order_id": "WO-1009",
                "customer_id": "CUS-1010",
                "until": "2026-03-12",
                "complimentary": False,
            },
            {
                "work_order_id": "WO-1001",
                "customer_id": "CUS-1001",
                "until": "2026-03-16",
                "complimentary": True,
            },
        ]
    )
    assert [(v.rule, v.tag) for v in found] == [("loaner_policy", "accommodation")] * 2
    first_id, second_id = (v.rows[0][1] for v in found)
    assert first_id == second_id  # the same booking, twice wrong
    assert [v.message for v in found] == [
        f"loaner {first_id} booked for 6 days; the limit is 5",
        f"complimentary loaner {first_id} on WO-1001, approved for 0 cents; free loaners "
        "need 50000 or warranty work",
    ]
    assert [v.ledger_seq for v in found] == [3, 3]
    assert [v.rows for v in found] == [(("loaner_bookings", first_id),)] * 2
