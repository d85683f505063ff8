"""list_pets and record_vaccination_reminder on the veterinary clinic's declared tables."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from sandbox import SimClock, State, World
from sandbox.claims import LexiconClaimChecker, check_claims
from sandbox.claims.facts import entry_facts
from sandbox.claims.match import Evidence
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


def _seed() -> dict[str, dict[str, dict]]:
    def customer(k: int, name: str, email: str | None) -> dict:
        return {"id": f"CUS-100{k}", "name": name, "phone": f"+1 503 555 010{k}", "email": email}

    return {
        "customers": {
            c["id"]: c
            for c in [
                customer(1, "Ruth Abbott", "ruth@example.com"),
                customer(2, "Wes Abbott", None),
                customer(3, "Kofi Mensah", "kofi@example.com"),
            ]
        },
        "pets": {
            "PET-1001": {
                "id": "PET-1001",
                "name": "Biscuit",
                "species": "dog",
                "owner_id": "CUS-1001",
                "co_owner_ids": ["CUS-1002"],
                "vaccinations": [
                    {"vaccine": "Rabies", "given": "2025-04-01", "due": "2026-04-01"},
                    {"vaccine": "DHPP", "given": "2025-03-01", "due": "2026-03-05"},
                ],
            },
            "PET-1002": {
                "id": "PET-1002",
                "name": "Miso",
                "species": "cat",
                "owner_id": "CUS-1003",
            },
        },
        "vaccination_reminders": {},
    }


CHECKER = LexiconClaimChecker()
_VRM = {
    "id": "VRM-1001",
    "pet_id": "PET-1001",
    "customer_id": "CUS-1001",
    "vaccine": "Rabies",
    "due": "2026-04-01",
    "channel": "sms",
    "send_at": "2026-03-18T09:00",
    "status": "scheduled",
}


@pytest.fixture
def vet() -> World:
    return World(State(_seed(), _specs()), default_registry(), SimClock("2026-03-02T10:00"))


def _remind(world: World, **args) -> object:
    base = {"pet_id": "PET-1001", "customer_id": "CUS-1001", "vaccine": "Rabies", "channel": "sms"}
    return world.call("record_vaccination_reminder", {**base, **args})


def test_list_pets_finds_owned_and_co_owned_pets_only(vet):
    for who, names in [
        ("CUS-1001", ["Biscuit"]),
        ("CUS-1002", ["Biscuit"]),
        ("CUS-1003", ["Miso"]),
    ]:
        record = vet.call("list_pets", {"customer_id": who})
        assert record.outcome == "ok" and [p["name"] for p in record.result["pets"]] == names


def test_a_reminder_is_scheduled_before_the_due_date_for_the_owner(vet):
    record = _remind(vet, vaccine="rabies")
    assert record.outcome == "ok", record.result
    reminder = vet.state.tables["vaccination_reminders"][record.result["reminder"]["id"]]
    assert reminder["send_at"] == "2026-03-18T09:00" and reminder["due"] == "2026-04-01"
    assert reminder["vaccine"] == "Rabies" and reminder["status"] == "scheduled"


def test_a_co_owner_may_get_the_reminder_but_another_client_may_not(vet):
    assert _remind(vet, customer_id="CUS-1002").outcome == "ok"
    refused = _remind(vet, customer_id="CUS-1003")
    assert refused.outcome != "ok" and "not an owner" in str(refused.result)
    assert len(vet.state.tables["vaccination_reminders"]) == 1


def test_a_reminder_that_would_be_in_the_past_is_refused_at_the_boundary(vet):
    # DHPP is due 2026-03-05; now is 2026-03-02 10:00. Three days before is 03-02 09:00 (past).
    refused = _remind(vet, vaccine="DHPP", days_before=3)
    assert refused.outcome != "ok" and "book the vaccination" in str(refused.result)
    assert _remind(vet, vaccine="DHPP", days_before=2).outcome == "ok"


def test_unknown_vaccine_duplicate_and_missing_email_are_refused(vet):
    unknown = _remind(vet, vaccine="Leptospirosis")
    assert unknown.outcome != "ok" and "Rabies" in str(unknown.result)
    assert _remind(vet).outcome == "ok"
    again = _remind(vet)
    assert again.outcome != "ok" and "already scheduled" in str(again.result)
    no_email = _remind(vet, customer_id="CUS-1002", channel="email")
    assert no_email.outcome != "ok" and "email" in str(no_email.result)
    assert len(vet.state.tables["vaccination_reminders"]) == 1


def test_effects_read_and_reversible():
    registry = default_registry()
    assert registry.get("list_pets").effect == Effect.READ
    assert registry.get("record_vaccination_reminder").effect == Effect.REVERSIBLE


def test_a_vaccination_reminder_is_a_reminder_to_the_claim_checker(vet):
    # "I've set a text reminder" after record_vaccination_reminder is a true claim of its kind,
    # with the channel the reminder was set on (a claimed email reminder would contradict it).
    record = _remind(vet)
    assert record.outcome == "ok"
    entry = vet.ledger.entries[-1]
    facts = entry_facts(entry, {})
    assert facts is not None and facts.kind == "reminder"
    assert facts.values["channel"] == frozenset({"sms"})


@pytest.mark.parametrize(
    "tables, true",
    [({"vaccination_reminders": {"VRM-1001": _VRM}}, True), ({"vaccination_reminders": {}}, False)],
    ids=["scheduled", "none"],
)
def test_a_reminder_on_the_account_may_be_a_pets_vaccination_reminder(tables, true):
    # "You already have a reminder set" describes the account: a scheduled vaccination reminder
    # in the final state makes it true, as an appointment reminder would.
    evidence = Evidence.build([], {"reminders": {}, **tables}, {"CUS-1001"})
    (checked,) = check_claims(
        CHECKER.extract("You already have a reminder set for it."), set(), True, evidence=evidence
    )
    assert checked.state and checked.true is true


def _refusal(world: World, **args) -> dict:
    before = copy.deepcopy(world.state.tables)
    record = _remind(world, **args)
    assert record.outcome == "rejected" and world.state.tables == before
    return record.result["error"]


def test_the_reminder_row_is_the_whole_record_returned(vet):
    # 14 days before by default, at 09:00, on the channel asked for; the vaccine as on record.
    record = _remind(vet, vaccine="  RABIES ", channel="email")
    assert record.outcome == "ok", record.result
    expected = {**_VRM, "channel": "email"}
    assert record.result == {"reminder": expected}
    assert vet.state.tables["vaccination_reminders"] == {"VRM-1001": expected}
    assert [(c.table, c.before, c.after) for c in vet.ledger.entries[-1].changes] == [
        ("vaccination_reminders", None, expected)
    ]


def test_a_reminder_due_at_this_very_minute_is_not_in_the_past():
    # DHPP is due 2026-03-05; three days before at 09:00 is now exactly.
    world = World(State(_seed(), _specs()), default_registry(), SimClock("2026-03-02T09:00"))
    record = _remind(world, vaccine="DHPP", days_before=3)
    assert record.outcome == "ok", record.result
    assert record.result["reminder"]["send_at"] == "2026-03-02T09:00"


@pytest.mark.parametrize(
    "args, error",
    [
        (
            {"customer_id": "CUS-1003"},
            ("conflict", "Kofi Mensah is not an owner of Biscuit.", "customer_id"),
        ),
        (
            {"vaccine": "Leptospirosis"},
            (
                "conflict",
                "Biscuit has no Leptospirosis vaccination on record (on record: Rabies, DHPP).",
                "vaccine",
            ),
        ),
        (
            {"pet_id": "PET-1002", "customer_id": "CUS-1003"},
            ("conflict", "Miso has no Rabies vaccination on record (on record: none).", "vaccine"),
        ),
        (
            {"customer_id": "CUS-1002", "channel": "email"},
            ("conflict", "The customer has no email address on file.", "channel"),
        ),
        (
            {"vaccine": "DHPP", "days_before": 3},
            (
                "conflict",
                "Biscuit's DHPP is due 2026-03-05: a reminder 3 days before would be in the past;"
                " book the vaccination instead.",
                "days_before",
            ),
        ),
        ({"pet_id": "PET-1999"}, ("not_found", "No pets with id 'PET-1999'.", "pet_id")),
        (
            {"customer_id": "CUS-1999"},
            ("not_found", "No customer with id 'CUS-1999'.", "customer_id"),
        ),
    ],
    ids=[
        "not-an-owner",
        "unknown-vaccine",
        "no-vaccinations",
        "no-email",
        "past",
        "pet",
        "customer",
    ],
)
def test_each_refusal_says_why_and_names_the_argument(vet, args, error):
    code, message, field = error
    assert _refusal(vet, **args) == {"code": code, "message": message, "field": field}


def test_only_the_same_scheduled_reminder_for_the_same_person_is_a_duplicate(vet):
    vet.state.tables["vaccination_reminders"] = {
        "VRM-1001": _VRM,
        "VRM-1002": {**_VRM, "id": "VRM-1002", "vaccine": "DHPP", "status": "cancelled"},
    }
    assert _refusal(vet, vaccine="rabies") == {
        "code": "conflict",
        "message": "Reminder VRM-1001 is already scheduled.",
        "field": "vaccine",
    }
    # A cancelled reminder, another vaccine's or another keeper's does not stand in the way.
    for args in ({"vaccine": "DHPP", "days_before": 2}, {"customer_id": "CUS-1002"}):
        assert _remind(vet, **args).outcome == "ok"
    assert sorted(vet.state.tables["vaccination_reminders"]) == [
        "VRM-1001",
        "VRM-1002",
        "VRM-1003",
        "VRM-1004",
    ]


def test_a_business_without_pet_records_says_so():
    world = World(State({}, STANDARD_TABLES), default_registry(), SimClock("2026-03-02T10:00"))
    for tool, args, field in [
        ("list_pets", {"customer_id": "CUS-1001"}, "customer_id"),
        (
            "record_vaccination_reminder",
            {
                "pet_id": "PET-1001",
                "customer_id": "CUS-1001",
                "vaccine": "Rabies",
                "channel": "sms",
            },
            "pet_id",
        ),
    ]:
        assert world.call(tool, args).result == {
            "error": {
                "code": "invalid_arguments",
                "message": "This business keeps no pet records.",
                "field": field,
            }
        }


def test_list_pets_returns_the_whole_records_and_refuses_an_unknown_customer(vet):
    pets = vet.state.tables["pets"]
    assert vet.call("list_pets", {"customer_id": "CUS-1003"}).result == {"pets": [pets["PET-1002"]]}
    assert vet.call("list_pets", {"customer_id": "CUS-1999"}).result == {
        "error": {
            "code": "not_found",
            "message": "No customer with id 'CUS-1999'.",
            "field": "customer_id",
        }
    }


def test_a_reminder_for_another_pet_of_the_same_owner_is_not_a_duplicate(vet):
    # Ruth's second dog has a Rabies vaccination too: Biscuit's reminder does not stand for it.
    vet.state.tables["pets"]["PET-1003"] = {
        "id": "PET-1003",
        "name": "Pepper",
        "species": "dog",
        "owner_id": "CUS-1001",
        "vaccinations": [{"vaccine": "Rabies", "given": "2025-05-01", "due": "2026-05-01"}],
    }
    vet.state.tables["vaccination_reminders"] = {"VRM-1001": _VRM}
    record = _remind(vet, pet_id="PET-1003")
    assert record.outcome == "ok", record.result
    assert record.result["reminder"] == {
        **_VRM,
        "id": "VRM-1002",
        "pet_id": "PET-1003",
        "due": "2026-05-01",
        "send_at": "2026-04-17T09:00",
    }
