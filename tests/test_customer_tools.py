"""The customer tools on the sample state: lookups, identity checks, reads and contact changes,
with what each returns whole and what each refuses."""

from __future__ import annotations

import pytest

from sandbox import SimClock, State, World
from tests.conftest import NOW, sample_tables
from tests.helpers import tool_refusal, tool_result
from tools import default_registry
from tools.customers import same_phone

MARIA = {
    "id": "CUS-1001",
    "name": "Maria Lopez",
    "phone": "+1 555 0101",
    "email": "maria@example.com",
}
SAM = {"id": "CUS-1002", "name": "Sam Okafor", "phone": "+1 555 0102", "email": None}
UNKNOWN = {
    "code": "not_found",
    "message": "No customer with id 'CUS-9999'.",
    "field": "customer_id",
}
LENA = {
    "id": "CUS-1003",
    "name": "Lena Fischer",
    "phone": "+1 555 0103",
    "email": "lena@example.com",
}


@pytest.mark.parametrize(
    "given, stored, same",
    [
        ("555 0101", "+1 555 0101", True),  # seven digits ending the stored number
        ("55 0101", "+1 555 0101", False),  # six are too few
        ("+44 1 555 0101", "1-555-0101", True),  # the stored number is the shorter one
        ("1 555 0101", "+1 555 0101", True),
        ("555 0101", "555 0102", False),
        ("555 0101", None, False),
        ("555 0101", "", False),
    ],
)
def test_phones_match_when_seven_digits_or_more_end_the_other(given, stored, same):
    assert same_phone(given, stored) is same


@pytest.mark.parametrize(
    "args, found",
    [
        ({"phone": "(555) 0102"}, [SAM]),
        ({"phone": "555-0102 ext"}, [SAM]),
        ({"phone": "00 1 555 0103"}, [LENA]),  # the given number is the longer one
        ({"phone": "55 0102"}, []),  # six digits match nobody
        ({"email": "  Maria@Example.COM "}, [MARIA]),
        ({"email": "lena@example"}, []),  # an email matches whole
        ({"name": " LOPEZ "}, [MARIA]),
        ({"name": "fischer"}, [LENA]),  # found after two that do not match
        ({"name": "a"}, [MARIA, SAM, LENA]),
        ({"name": "sam", "phone": "555 0101"}, []),  # every given detail must match
        ({"name": "sam", "phone": "555 0102"}, [SAM]),
        ({"email": "maria@example.com", "name": "Lena"}, []),
    ],
)
def test_a_lookup_matches_every_detail_given_and_returns_only_the_contact(world, args, found):
    assert tool_result(world, "find_customer", args) == {"matches": found, "count": len(found)}


def test_a_stored_email_is_compared_in_lower_case_and_a_missing_one_matches_nothing(world):
    world.state.tables["customers"]["CUS-1003"]["email"] = "Lena@Example.com"
    assert tool_result(world, "find_customer", {"email": "lena@EXAMPLE.com"})["matches"] == [
        {**LENA, "email": "Lena@Example.com"}
    ]
    world.state.tables["customers"]["CUS-1002"]["phone"] = None
    for args in ({"email": "xxxx"}, {"phone": "0000000"}):
        assert tool_result(world, "find_customer", args) == {"matches": [], "count": 0}


def test_a_lookup_returns_ten_matches_and_counts_them_all():
    customers = {
        f"CUS-{1001 + k}": {
            "id": f"CUS-{1001 + k}",
            "name": f"Ann Lee {k}",
            "phone": f"+1 555 01{k:02d}",
        }
        for k in range(12)
    }
    world = World(State({"customers": customers}), default_registry(), SimClock(NOW))
    result = tool_result(world, "find_customer", {"name": "ann lee"})
    assert result["count"] == 12
    assert [m["id"] for m in result["matches"]] == sorted(customers)[:10]
    assert result["matches"][0] == {**customers["CUS-1001"], "email": None}


def test_a_lookup_needs_something_to_look_by(world):
    assert tool_refusal(world, "find_customer", {}) == {
        "code": "invalid_arguments",
        "message": "Give at least one of phone, email or name.",
        "field": "phone",
    }


@pytest.mark.parametrize(
    "given, mismatched",
    [
        ({"dob": "1984-06-12"}, []),
        ({"postcode": " 94110 "}, []),
        ({"phone": "555 0101"}, []),
        ({"dob": "1984-06-13"}, ["dob"]),
        ({"postcode": "94111", "dob": "1984-06-13", "phone": "555 0101"}, ["dob", "postcode"]),
        ({"phone": "555 0199", "postcode": "94110"}, ["phone"]),
    ],
)
def test_verification_names_what_was_checked_and_what_did_not_match(world, given, mismatched):
    assert tool_result(world, "verify_customer", {"customer_id": "CUS-1001", **given}) == {
        "customer_id": "CUS-1001",
        "verified": not mismatched,
        "checked": sorted(given),
        "mismatched": mismatched,
    }


def test_a_postcode_is_compared_without_case_and_nothing_on_file_matches_nothing(world):
    customers = world.state.tables["customers"]
    customers["CUS-1003"]["postcode"] = "SW1A 1AA"
    assert tool_result(
        world, "verify_customer", {"customer_id": "CUS-1003", "postcode": "sw1a 1aa"}
    )["verified"]
    customers["CUS-1003"]["postcode"] = None
    for postcode in ("none", "None"):
        result = tool_result(
            world, "verify_customer", {"customer_id": "CUS-1003", "postcode": postcode}
        )
        assert result["verified"] is False and result["mismatched"] == ["postcode"]


def test_verification_needs_a_detail_and_a_known_customer(world):
    assert tool_refusal(world, "verify_customer", {"customer_id": "CUS-1001"}) == {
        "code": "invalid_arguments",
        "message": "Give at least one of dob, postcode or phone to check.",
        "field": "dob",
    }
    args = {"customer_id": "CUS-9999", "dob": "1984-06-12"}
    assert tool_refusal(world, "verify_customer", args) == UNKNOWN


def test_a_customer_is_read_whole_but_for_the_verification_answers(world):
    row = sample_tables()["customers"]["CUS-1001"]
    public = {k: v for k, v in row.items() if k not in ("dob", "postcode")}
    assert tool_result(world, "get_customer", {"customer_id": "CUS-1001"}) == {"customer": public}
    assert tool_refusal(world, "get_customer", {"customer_id": "CUS-9999"}) == UNKNOWN


@pytest.mark.parametrize(
    "changes",
    [
        {"phone": "+1 555 0199"},
        {"email": "sam@example.com", "address": "9 Oak Rd"},
        {"address": "9 Oak Rd", "phone": "+1 555 0199", "email": "sam@example.com"},
    ],
)
def test_a_contact_change_writes_only_the_fields_given(world, changes):
    before = world.state.tables["customers"]["CUS-1002"]
    record = world.call("update_customer_contact", {"customer_id": "CUS-1002", **changes})
    after = {**before, **changes}
    public = {k: v for k, v in after.items() if k not in ("dob", "postcode")}
    assert record.outcome == "ok"
    assert record.result == {"customer": public, "updated": sorted(changes)}
    assert world.state.tables["customers"]["CUS-1002"] == after
    entry = world.ledger.entries[-1]
    assert [(c.table, c.before, c.after) for c in entry.changes] == [("customers", before, after)]


def test_a_contact_change_needs_a_field_and_a_known_customer(world):
    assert tool_refusal(world, "update_customer_contact", {"customer_id": "CUS-1002"}) == {
        "code": "invalid_arguments",
        "message": "Give at least one of phone, email or address to change.",
        "field": "phone",
    }
    args = {"customer_id": "CUS-9999", "phone": "+1 555 0199"}
    assert tool_refusal(world, "update_customer_contact", args) == UNKNOWN
