"""list_pet_prescriptions and request_pet_refill on the veterinary clinic's declared tables."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from sandbox import SimClock, State, World, revert
from sandbox.tables import STANDARD_TABLES, TableSpec
from tools import Effect, default_registry

TABLES = (
    Path(__file__).resolve().parents[1]
    / "businesses"
    / "kits"
    / "veterinary_clinic"
    / "tables.yaml"
)


def _specs() -> dict[str, TableSpec]:
    raw = yaml.safe_load(TABLES.read_text(encoding="utf-8"))
    extra = {name: TableSpec(name, spec["prefix"], spec["schema"]) for name, spec in raw.items()}
    return {**STANDARD_TABLES, **extra}


def _rx(k: int, pet: str, drug: str, refills: int, status: str = "active") -> dict:
    return {
        "id": f"RX-100{k}",
        "pet_id": pet,
        "drug": drug,
        "strength": "75 mg",
        "directions": "One tablet twice a day with food",
        "prescribed_by": "STF-1001",
        "prescribed_on": "2025-12-01",
        "refills_left": refills,
        "expires": "2026-12-01",
        "status": status,
    }


def _seed() -> dict[str, dict[str, dict]]:
    def customer(k: int, name: str) -> dict:
        return {"id": f"CUS-100{k}", "name": name, "phone": f"+1 503 555 010{k}"}

    customers = [customer(1, "Ruth Abbott"), customer(2, "Wes Abbott"), customer(3, "Kofi Mensah")]
    pets = [
        {
            "id": "PET-1001",
            "name": "Biscuit",
            "species": "dog",
            "owner_id": "CUS-1001",
            "co_owner_ids": ["CUS-1002"],
        },
        {"id": "PET-1002", "name": "Miso", "species": "cat", "owner_id": "CUS-1003"},
    ]
    prescriptions = [
        _rx(1, "PET-1001", "Carprofen", 2),
        _rx(2, "PET-1001", "Gabapentin", 0, "stopped"),
        _rx(3, "PET-1002", "Methimazole", 0),
    ]
    return {
        "customers": {c["id"]: c for c in customers},
        "pets": {p["id"]: p for p in pets},
        "prescriptions": {r["id"]: r for r in prescriptions},
        "refill_requests": {},
    }


@pytest.fixture
def vet() -> World:
    return World(State(_seed(), _specs()), default_registry(), SimClock("2026-03-02T10:00"))


def _request(world: World, **args) -> object:
    return world.call(
        "request_pet_refill", {"prescription_id": "RX-1001", "customer_id": "CUS-1001", **args}
    )


def test_list_prescriptions_shows_only_that_pets(vet):
    record = vet.call("list_pet_prescriptions", {"pet_id": "PET-1001"})
    assert record.outcome == "ok"
    assert [r["drug"] for r in record.result["prescriptions"]] == ["Carprofen", "Gabapentin"]
    missing = vet.call("list_pet_prescriptions", {"pet_id": "PET-1999"})
    assert missing.outcome != "ok" and "PET-1999" in str(missing.result)


def test_a_refill_request_waits_for_the_vet_and_dispenses_nothing(vet):
    record = _request(vet, note="Four tablets left")
    assert record.outcome == "ok", record.result
    request = vet.state.tables["refill_requests"][record.result["refill_request"]["id"]]
    assert request["status"] == "pending_vet" and request["requested_at"] == "2026-03-02T10:00"
    assert request["pet_id"] == "PET-1001" and request["note"] == "Four tablets left"
    # The authorised refills are the vet's to use: a request does not spend one.
    assert vet.state.tables["prescriptions"]["RX-1001"]["refills_left"] == 2


def test_a_co_owner_may_request_but_another_household_may_not(vet):
    assert _request(vet, customer_id="CUS-1002").outcome == "ok"
    other = vet.call(
        "request_pet_refill", {"prescription_id": "RX-1003", "customer_id": "CUS-1001"}
    )
    assert other.outcome != "ok" and "not an owner" in str(other.result)
    assert len(vet.state.tables["refill_requests"]) == 1


def test_a_stopped_prescription_and_a_second_pending_request_are_refused(vet):
    stopped = _request(vet, prescription_id="RX-1002")
    assert stopped.outcome != "ok" and "stopped" in str(stopped.result)
    assert stopped.result["error"]["code"] == "escalation_required"
    assert _request(vet).outcome == "ok"
    again = _request(vet, customer_id="CUS-1002")
    assert again.outcome != "ok" and "already with the vet" in str(again.result)
    assert len(vet.state.tables["refill_requests"]) == 1


def test_no_refills_left_or_expired_needs_a_person_at_the_boundary(vet):
    # A vet must prescribe again: the refusal names a person, so an assistant (or the
    # escalation-policy wrapper) knows to transfer; nothing is queued.
    none_left = vet.call(
        "request_pet_refill", {"prescription_id": "RX-1003", "customer_id": "CUS-1003"}
    )
    assert none_left.outcome != "ok" and none_left.result["error"]["code"] == "escalation_required"
    assert "no refills left" in none_left.result["error"]["message"]
    vet.state.tables["prescriptions"]["RX-1003"]["refills_left"] = 1
    assert (
        vet.call(
            "request_pet_refill", {"prescription_id": "RX-1003", "customer_id": "CUS-1003"}
        ).outcome
        == "ok"
    )
    vet.state.tables["prescriptions"]["RX-1001"]["status"] = "expired"
    expired = _request(vet)
    assert expired.outcome != "ok" and "has expired" in str(expired.result)
    assert len(vet.state.tables["refill_requests"]) == 1


def test_a_business_without_prescriptions_gets_a_clear_error():
    world = World(
        State({"customers": {}}, STANDARD_TABLES), default_registry(), SimClock("2026-03-02T10:00")
    )
    record = world.call("list_pet_prescriptions", {"pet_id": "PET-1001"})
    assert record.outcome != "ok" and "no prescription records" in str(record.result)


def test_the_request_is_undone_by_the_ledger(vet):
    assert _request(vet).outcome == "ok"
    entry = vet.ledger.entries[-1]
    assert entry.effect == Effect.REVERSIBLE and entry.tool == "request_pet_refill"
    assert [c.table for c in entry.changes] == ["refill_requests"]
    report = revert(vet.state, vet.ledger.entries)
    assert report.reverted == (entry.seq,) and vet.state.tables["refill_requests"] == {}


def test_effects_read_and_reversible():
    registry = default_registry()
    assert registry.get("list_pet_prescriptions").effect == Effect.READ
    assert registry.get("request_pet_refill").effect == Effect.REVERSIBLE


def _refused(world: World, **args) -> dict:
    before = copy.deepcopy(world.state.tables)
    record = _request(world, **args)
    assert record.outcome == "rejected" and world.state.tables == before
    return record.result["error"]


def _person(drug: str, pet: str, why: str) -> str:
    return (
        f"{drug} for {pet} {why}: a vet must speak with the owner before any more is dispensed."
        " Nothing was queued; transfer the call to a person."
    )


def test_the_request_row_is_the_whole_record_returned(vet):
    record = _request(vet, customer_id="CUS-1002")
    assert record.outcome == "ok", record.result
    expected = {
        "id": "RFL-1001",
        "prescription_id": "RX-1001",
        "pet_id": "PET-1001",
        "customer_id": "CUS-1002",
        "status": "pending_vet",
        "requested_at": "2026-03-02T10:00",
        "note": "",
    }
    assert record.result == {"refill_request": expected}
    assert vet.state.tables["refill_requests"] == {"RFL-1001": expected}


@pytest.mark.parametrize(
    "change, error",
    [
        (
            {"status": "stopped", "refills_left": 3},
            ("escalation_required", _person("Carprofen", "Biscuit", "was stopped by the vet")),
        ),
        (
            {"status": "expired", "refills_left": 0},
            ("escalation_required", _person("Carprofen", "Biscuit", "has expired")),
        ),
        (
            {"refills_left": 0},
            ("escalation_required", _person("Carprofen", "Biscuit", "has no refills left")),
        ),
        (
            {"refills_left": -1},
            ("escalation_required", _person("Carprofen", "Biscuit", "has no refills left")),
        ),
        ({"pet_id": "PET-1999"}, ("not_found", "No pets with id 'PET-1999'.")),
    ],
    ids=["stopped-with-refills", "expired", "none-left", "below-none", "pet-gone"],
)
def test_a_prescription_that_cannot_be_refilled_is_refused_with_the_reason(vet, change, error):
    vet.state.tables["prescriptions"]["RX-1001"].update(change)
    code, message = error
    assert _refused(vet) == {"code": code, "message": message, "field": "prescription_id"}


@pytest.mark.parametrize(
    "args, error",
    [
        (
            {"prescription_id": "RX-1003"},
            ("conflict", "Ruth Abbott is not an owner of Miso.", "customer_id"),
        ),
        (
            {"prescription_id": "RX-1999"},
            ("not_found", "No prescriptions with id 'RX-1999'.", "prescription_id"),
        ),
        (
            {"customer_id": "CUS-1999"},
            ("not_found", "No customer with id 'CUS-1999'.", "customer_id"),
        ),
    ],
    ids=["other-household", "prescription", "customer"],
)
def test_who_asks_and_for_what_must_exist_and_belong_together(vet, args, error):
    code, message, field = error
    assert _refused(vet, **args) == {"code": code, "message": message, "field": field}


def test_only_a_pending_request_for_the_same_prescription_blocks_another(vet):
    def row(k: int, rx: str, status: str) -> dict:
        return {
            "id": f"RFL-100{k}",
            "prescription_id": rx,
            "pet_id": "PET-1001",
            "customer_id": "CUS-1001",
            "status": status,
            "requested_at": "2026-02-20T10:00",
            "note": "",
        }

    requests = [row(1, "RX-1001", "approved"), row(2, "RX-1004", "pending_vet")]
    vet.state.tables["refill_requests"] = {r["id"]: r for r in requests}
    vet.state.tables["prescriptions"]["RX-1004"] = _rx(4, "PET-1001", "Apoquel", 1)
    first = _request(vet)
    assert first.outcome == "ok" and first.result["refill_request"]["id"] == "RFL-1003"
    assert _refused(vet) == {
        "code": "conflict",
        "message": "Refill request RFL-1003 is already with the vet.",
        "field": "prescription_id",
    }


def test_prescriptions_are_listed_whole_and_only_where_the_business_keeps_them(vet):
    rows = vet.state.tables["prescriptions"]
    assert vet.call("list_pet_prescriptions", {"pet_id": "PET-1002"}).result == {
        "prescriptions": [rows["RX-1003"]]
    }
    assert vet.call("list_pet_prescriptions", {"pet_id": "PET-1999"}).result["error"] == {
        "code": "not_found",
        "message": "No pets with id 'PET-1999'.",
        "field": "pet_id",
    }
    world = World(State({}, STANDARD_TABLES), default_registry(), SimClock("2026-03-02T10:00"))
    for tool, args, field in [
        ("list_pet_prescriptions", {"pet_id": "PET-1001"}, "pet_id"),
        (
            "request_pet_refill",
            {"prescription_id": "RX-1001", "customer_id": "CUS-1001"},
            "prescription_id",
        ),
    ]:
        assert world.call(tool, args).result["error"] == {
            "code": "invalid_arguments",
            "message": "This business keeps no prescription records.",
            "field": field,
        }
