"""list_pet_prescriptions and request_pet_refill on the veterinary clinic's declared tables."""

from __future__ import annotations

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
