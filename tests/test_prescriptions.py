"""tools/prescriptions.py on the pharmacy's own rendered state (businesses/public/pharmacy):
who may ask, the hard refusals and their codes, early refills at the due-date boundary,
stock and ready times, renewals, transfers (irreversible) and undo through the ledger."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from businesses.loader import load_business
from sandbox import SimClock, State, World
from sandbox.ledger import IrreversibleEffectError, revert
from sandbox.tables import STANDARD_TABLES
from tools import Effect, default_registry

PHARMACY = Path(__file__).resolve().parents[1] / "businesses" / "public" / "pharmacy"
TODAY = "2026-03-09"


def _world(now: str = f"{TODAY}T10:00") -> World:
    business, _ = load_business(PHARMACY)
    specs = {**STANDARD_TABLES, **business.extra_tables}
    return World(State(copy.deepcopy(business.seed), specs), default_registry(), SimClock(now))


@pytest.fixture
def shop() -> World:
    return _world()


def _ok(world: World, tool: str, **args) -> dict:
    record = world.call(tool, args)
    assert record.outcome == "ok", record.result
    return record.result


def _refused(world: World, tool: str, code: str, **args) -> dict:
    before = copy.deepcopy(world.state.tables)
    record = world.call(tool, args)
    assert record.outcome != "ok" and record.error_code == code, record.result
    assert world.state.tables == before, "a refused call changed the state"
    return record.result["error"]


def _rx(world: World, rx_id: str) -> dict:
    return world.state.tables["prescriptions"][rx_id]


def test_effect_classes_and_inverses():
    registry = default_registry()
    expected = {
        "list_prescriptions": Effect.READ,
        "check_drug_stock": Effect.READ,
        "request_refill": Effect.REVERSIBLE,
        "cancel_refill": Effect.REVERSIBLE,
        "request_renewal": Effect.REVERSIBLE,
        "transfer_prescription": Effect.IRREVERSIBLE,
    }
    for name, effect in expected.items():
        assert registry.get(name).effect == effect, name
    assert registry.get("request_refill").inverse == "cancel_refill"


def test_list_prescriptions_shows_the_patients_own_and_active_carers_only(shop):
    mine = _ok(shop, "list_prescriptions", customer_id="CUS-1002")
    assert mine["prescriptions"] and all(
        r["customer_id"] == "CUS-1002" for r in mine["prescriptions"]
    )
    assert [c["customer_id"] for c in mine["authorised_carers"]] == ["CUS-1003"]
    # CUS-1018's son was authorised once and revoked: he is not listed.
    assert _ok(shop, "list_prescriptions", customer_id="CUS-1018")["authorised_carers"] == []
    assert "dob" not in str(mine)


def test_a_due_refill_in_stock_is_ready_two_hours_later(shop):
    result = _ok(shop, "request_refill", prescription_id="RX-1001", customer_id="CUS-1001")
    refill = result["refill"]
    assert refill["status"] == "requested" and refill["early"] is False
    assert refill["customer_id"] == refill["requested_by"] == "CUS-1001"
    assert refill["ready_at"] == f"{TODAY}T12:00"
    assert shop.state.tables["refills"][refill["id"]] == refill


def test_an_out_of_stock_refill_is_ready_the_afternoon_of_the_delivery(shop):
    stock = _ok(shop, "check_drug_stock", drug="montel")["stock"]
    assert len(stock) == 1 and stock[0]["on_hand"] == 0
    refill = _ok(shop, "request_refill", prescription_id="RX-1004", customer_id="CUS-1004")[
        "refill"
    ]
    assert refill["ready_at"] == f"{stock[0]['restock_on']}T14:00"


def test_an_authorised_carer_requests_in_her_own_name(shop):
    refill = _ok(shop, "request_refill", prescription_id="RX-1003", customer_id="CUS-1003")[
        "refill"
    ]
    assert refill["customer_id"] == "CUS-1002" and refill["requested_by"] == "CUS-1003"


@pytest.mark.parametrize(
    "rx, who, why",
    [
        ("RX-1019", "CUS-1019", "a relative who was never authorised"),
        ("RX-1019", "CUS-1032", "a carer whose authorisation was revoked"),
        ("RX-1001", "CUS-1003", "a carer of another patient"),
    ],
)
def test_nobody_else_may_request(shop, rx, who, why):
    error = _refused(shop, "request_refill", "not_authorised", prescription_id=rx, customer_id=who)
    assert error["field"] == "customer_id", why


def test_controlled_substances_need_the_pharmacist(shop):
    assert _rx(shop, "RX-1015")["controlled"] is True
    error = _refused(
        shop,
        "request_refill",
        "escalation_required",
        prescription_id="RX-1015",
        customer_id="CUS-1014",
    )
    assert "pharmacist" in error["message"]


def test_no_refills_left_points_to_a_renewal(shop):
    assert _rx(shop, "RX-1007")["refills_remaining"] == 0
    error = _refused(
        shop,
        "request_refill",
        "no_refills_remaining",
        prescription_id="RX-1007",
        customer_id="CUS-1006",
    )
    assert "renewal" in error["message"]


def test_a_second_open_request_is_a_conflict(shop):
    _ok(shop, "request_refill", prescription_id="RX-1001", customer_id="CUS-1001")
    _refused(shop, "request_refill", "conflict", prescription_id="RX-1001", customer_id="CUS-1001")


def test_early_is_marked_until_the_refill_due_date_and_not_on_it():
    due = _rx(_world(), "RX-1020")["refill_due"]
    assert due > TODAY
    for day, early in [(TODAY, True), ("2026-03-18", True), (due, False)]:
        world = _world(f"{day}T09:00")
        result = _ok(world, "request_refill", prescription_id="RX-1020", customer_id="CUS-1020")
        assert result["early"] is early and result["refill"]["early"] is early, day
        assert result["refill_due"] == due


def test_an_expired_prescription_cannot_be_filled_or_transferred(shop):
    expired = next(
        r for r in shop.state.tables["prescriptions"].values() if r["status"] == "expired"
    )
    assert expired["expires"] < TODAY
    for tool in ("request_refill", "transfer_prescription"):
        args = {"prescription_id": expired["id"], "customer_id": expired["customer_id"]}
        if tool == "transfer_prescription":
            args |= {"to_pharmacy": "CVS", "to_phone": "+1 614 555 0191"}
        _refused(shop, tool, "prescription_inactive", **args)


def test_cancel_refill_withdraws_once_and_the_ledger_undoes_a_request(shop):
    before = copy.deepcopy(shop.state.tables)
    refill = _ok(shop, "request_refill", prescription_id="RX-1027", customer_id="CUS-1028")[
        "refill"
    ]
    cancelled = _ok(shop, "cancel_refill", refill_id=refill["id"], customer_id="CUS-1028")["refill"]
    assert cancelled["status"] == "cancelled"
    _refused(shop, "cancel_refill", "conflict", refill_id=refill["id"], customer_id="CUS-1028")
    _refused(
        shop, "cancel_refill", "not_authorised", refill_id=refill["id"], customer_id="CUS-1001"
    )
    revert(shop.state, shop.ledger.entries)
    assert shop.state.tables == before


def test_a_collected_refill_cannot_be_withdrawn(shop):
    collected = next(r for r in shop.state.tables["refills"].values() if r["status"] == "collected")
    _refused(
        shop,
        "cancel_refill",
        "conflict",
        refill_id=collected["id"],
        customer_id=collected["customer_id"],
    )


def test_renewal_only_when_no_refills_remain_and_only_once(shop):
    _refused(shop, "request_renewal", "conflict", prescription_id="RX-1001", customer_id="CUS-1001")
    # The patient's husband is an authorised carer: he may ask for the renewal.
    renewal = _ok(shop, "request_renewal", prescription_id="RX-1007", customer_id="CUS-1031")[
        "renewal"
    ]
    assert (
        renewal["status"] == "sent" and renewal["prescriber"] == _rx(shop, "RX-1007")["prescriber"]
    )
    assert renewal["customer_id"] == "CUS-1006" and renewal["requested_by"] == "CUS-1031"
    _refused(shop, "request_renewal", "conflict", prescription_id="RX-1007", customer_id="CUS-1006")


def test_a_transfer_moves_the_refills_out_for_good(shop):
    rx = copy.deepcopy(_rx(shop, "RX-1012"))
    result = _ok(
        shop,
        "transfer_prescription",
        prescription_id="RX-1012",
        customer_id="CUS-1011",
        to_pharmacy="Walgreens on Sawmill Road, Dublin",
        to_phone="+1 614 555 0190",
    )
    assert result["transfer"]["refills_transferred"] == rx["refills_remaining"] > 0
    assert (
        _rx(shop, "RX-1012")["status"] == "transferred"
        and _rx(shop, "RX-1012")["refills_remaining"] == 0
    )
    assert shop.ledger.entries[-1].effect == Effect.IRREVERSIBLE
    _refused(
        shop,
        "request_refill",
        "prescription_inactive",
        prescription_id="RX-1012",
        customer_id="CUS-1011",
    )
    with pytest.raises(IrreversibleEffectError):
        revert(shop.state, shop.ledger.entries)


def test_only_the_patient_transfers_and_never_schedule_two(shop):
    args = {"to_pharmacy": "CVS on East Broad Street", "to_phone": "+1 614 555 0191"}
    _refused(
        shop,
        "transfer_prescription",
        "not_authorised",
        prescription_id="RX-1003",
        customer_id="CUS-1003",
        **args,
    )
    assert _rx(shop, "RX-1031")["schedule"] == "II"
    _refused(
        shop,
        "transfer_prescription",
        "escalation_required",
        prescription_id="RX-1031",
        customer_id="CUS-1024",
        **args,
    )


def test_unknown_ids_are_not_found(shop):
    _refused(shop, "request_refill", "not_found", prescription_id="RX-9999", customer_id="CUS-1001")
    _refused(shop, "request_refill", "not_found", prescription_id="RX-1001", customer_id="CUS-9999")
    _refused(shop, "list_prescriptions", "not_found", customer_id="CUS-9999")


def test_a_business_without_prescriptions_says_so(world):
    for tool, args in [
        ("list_prescriptions", {"customer_id": "CUS-1001"}),
        ("check_drug_stock", {"drug": "metformin"}),
        ("request_refill", {"prescription_id": "RX-1001", "customer_id": "CUS-1001"}),
    ]:
        record = world.call(tool, args)
        assert record.outcome != "ok" and "prescription" in str(record.result), tool
