"""The pharmacy tools (tools/prescriptions.py) on the pharmacy's public seed: each result and
write whole, each refusal with its code, field and words, and the date and stock boundaries.

Today is 2026-03-09T10:00 (``tests/test_prescriptions.py``). RX-1001 (Eleanor Whitfield,
CUS-1001, Lisinopril 10 mg x30, 3 refills, due 2026-03-06); Walter Kowalski (CUS-1002) has
authorised his daughter Dorothy Brennan (CUS-1003); Daniel Petrovic's (CUS-1018) son's
authorisation was revoked; RX-1007 (CUS-1006) has no refills left; RX-1015 is controlled
(Schedule IV), RX-1031 Schedule II; RX-1032 (CUS-1003) has a refill ready (RF-1059).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from businesses.loader import load_business
from sandbox import SimClock, State, World
from sandbox.tables import STANDARD_TABLES
from tests.helpers import last_changes, tool_error, tool_refusal, tool_result
from tests.test_prescriptions import PHARMACY, _world, shop  # noqa: F401  (the fixture)
from tools import Effect, default_registry

NOW = "2026-03-09T10:00"
HOLLIS = "Dr. Hollis (Riverside Family Medicine)"


def _without(*tables: str) -> World:
    business, _ = load_business(PHARMACY)
    seed = {k: v for k, v in copy.deepcopy(business.seed).items() if k not in tables}
    specs = {k: v for k, v in {**STANDARD_TABLES, **business.extra_tables}.items() if k in seed}
    return World(State(seed, specs), default_registry(), SimClock(NOW))


def _rx(world: World, rx_id: str) -> dict[str, Any]:
    return world.state.tables["prescriptions"][rx_id]


def test_a_patients_prescriptions_open_refills_and_carers_are_listed_whole(shop):  # noqa: F811
    rows = shop.state.tables
    mine = sorted(i for i, r in rows["prescriptions"].items() if r["customer_id"] == "CUS-1003")
    assert tool_result(shop, "list_prescriptions", {"customer_id": "CUS-1003"}) == {
        "prescriptions": [rows["prescriptions"][i] for i in mine],
        "open_refills": [rows["refills"]["RF-1059"]],
        "authorised_carers": [],
    }
    walter = tool_result(shop, "list_prescriptions", {"customer_id": "CUS-1002"})
    assert walter["open_refills"] == []
    assert walter["authorised_carers"] == [
        {"customer_id": "CUS-1003", "name": "Dorothy Brennan", "relationship": "daughter"}
    ]


def test_listed_refills_are_the_requested_and_ready_ones(shop):  # noqa: F811
    refills = shop.state.tables["refills"]
    refills["RF-1059"]["status"] = "requested"
    refills["RF-1051"]["prescription_id"] = "RX-1032"  # collected
    listed = tool_result(shop, "list_prescriptions", {"customer_id": "CUS-1003"})["open_refills"]
    assert listed == [refills["RF-1059"]]
    refills["RF-1059"]["status"] = "cancelled"
    assert (
        tool_result(shop, "list_prescriptions", {"customer_id": "CUS-1003"})["open_refills"] == []
    )


def test_a_carer_no_longer_on_file_is_listed_by_id_and_a_revoked_one_not_at_all(shop):  # noqa: F811
    del shop.state.tables["customers"]["CUS-1003"]
    assert tool_result(shop, "list_prescriptions", {"customer_id": "CUS-1002"})[
        "authorised_carers"
    ] == [{"customer_id": "CUS-1003", "name": "CUS-1003", "relationship": "daughter"}]
    assert (
        tool_result(shop, "list_prescriptions", {"customer_id": "CUS-1018"})["authorised_carers"]
        == []
    )
    shop.state.tables["carers"]["CAR-1001"].pop("status")
    assert (
        tool_result(shop, "list_prescriptions", {"customer_id": "CUS-1002"})["authorised_carers"]
        == []
    )


def test_a_pharmacy_without_refill_or_carer_records_lists_none():
    world = _without("refills", "carers")
    result = tool_result(world, "list_prescriptions", {"customer_id": "CUS-1002"})
    assert result["open_refills"] == [] and result["authorised_carers"] == []
    assert len(result["prescriptions"]) >= 1
    assert tool_refusal(world, "list_prescriptions", {"customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


@pytest.mark.parametrize(
    "drug, found",
    [
        ("metformin", ["STK-1003"]),
        ("  STATIN ", ["STK-1004", "STK-1017"]),
        ("aspirin", []),
    ],
)
def test_drug_stock_is_found_by_part_of_the_name_in_any_case(shop, drug, found):  # noqa: F811
    rows = shop.state.tables["stock"]
    assert tool_result(shop, "check_drug_stock", {"drug": drug}) == {
        "stock": [rows[i] for i in found],
        "count": len(found),
    }


def test_a_stock_check_needs_a_drug_name(shop):  # noqa: F811
    assert tool_refusal(shop, "check_drug_stock", {"drug": "   "}) == tool_error(
        "invalid_arguments", "Name the drug to check.", "drug"
    )


def test_a_refill_is_written_whole_and_ready_two_hours_later(shop):  # noqa: F811
    refill = {
        "id": "RF-1061",
        "prescription_id": "RX-1001",
        "customer_id": "CUS-1001",
        "requested_by": "CUS-1001",
        "status": "requested",
        "early": False,
        "requested_at": NOW,
        "ready_at": "2026-03-09T12:00",
    }
    args = {"prescription_id": "RX-1001", "customer_id": "CUS-1001"}
    assert tool_result(shop, "request_refill", args) == {
        "refill": refill,
        "early": False,
        "refill_due": "2026-03-06",
    }
    assert shop.state.tables["refills"]["RF-1061"] == refill
    assert shop.ledger.entries[-1].effect == Effect.REVERSIBLE
    assert last_changes(shop) == [("refills", None, refill)]


@pytest.mark.parametrize(
    "due, early",
    [("2026-03-10", True), ("2026-03-09", False), ("2026-03-08", False), (None, False)],
)
def test_a_refill_is_early_before_its_due_date(shop, due, early):  # noqa: F811
    _rx(shop, "RX-1001")["refill_due"] = due
    result = tool_result(
        shop, "request_refill", {"prescription_id": "RX-1001", "customer_id": "CUS-1001"}
    )
    assert (result["early"], result["refill"]["early"], result["refill_due"]) == (early, early, due)


@pytest.mark.parametrize(
    "on_hand, restock, ready",
    [
        (30, None, "2026-03-09T12:00"),  # exactly the quantity
        (29, "2026-03-11", "2026-03-11T14:00"),
        (29, None, None),
        (0, "2026-03-12", "2026-03-12T14:00"),
    ],
)
def test_a_refill_is_ready_from_stock_or_on_the_delivery_afternoon(shop, on_hand, restock, ready):  # noqa: F811
    shop.state.tables["stock"]["STK-1001"].update(on_hand=on_hand, restock_on=restock)
    result = tool_result(
        shop, "request_refill", {"prescription_id": "RX-1001", "customer_id": "CUS-1001"}
    )
    assert result["refill"]["ready_at"] == ready


def test_stock_is_matched_by_drug_and_strength_in_any_case(shop):  # noqa: F811
    args = {"prescription_id": "RX-1001", "customer_id": "CUS-1001"}
    stock = shop.state.tables["stock"]["STK-1001"]
    stock.update(drug="LISINOPRIL", strength="10 MG")
    assert tool_result(shop, "request_refill", args)["refill"]["ready_at"] == "2026-03-09T12:00"
    shop.state.tables["refills"]["RF-1061"]["status"] = "cancelled"
    stock.update(strength="20 mg")
    assert tool_result(shop, "request_refill", args)["refill"]["ready_at"] is None


def test_a_refill_without_stock_records_has_no_ready_time():
    world = _without("stock")
    args = {"prescription_id": "RX-1001", "customer_id": "CUS-1001"}
    assert tool_result(world, "request_refill", args)["refill"]["ready_at"] is None


def test_an_authorised_carer_asks_in_her_own_name(shop):  # noqa: F811
    result = tool_result(
        shop, "request_refill", {"prescription_id": "RX-1003", "customer_id": "CUS-1003"}
    )
    refill = result["refill"]
    assert (refill["customer_id"], refill["requested_by"]) == ("CUS-1002", "CUS-1003")


@pytest.mark.parametrize(
    "rx, who, name",
    [
        ("RX-1019", "CUS-1032", "Raymond Ellison"),  # a revoked carer
        ("RX-1001", "CUS-1003", "Dorothy Brennan"),  # another patient's carer
    ],
)
def test_nobody_else_may_ask(shop, rx, who, name):  # noqa: F811
    for tool in ("request_refill", "request_renewal"):
        assert tool_refusal(shop, tool, {"prescription_id": rx, "customer_id": who}) == tool_error(
            "not_authorised",
            f"{name} is not the patient on {rx} nor a carer the patient has authorised: they may"
            " not hear about or change this prescription.",
            "customer_id",
        )


@pytest.mark.parametrize(
    "change, error",
    [
        (
            {"expires": "2026-03-08"},
            tool_error(
                "prescription_inactive",
                "RX-1001 expired on 2026-03-08: ask the prescriber for a new prescription.",
                "prescription_id",
            ),
        ),
        (
            {"status": "inactive"},
            tool_error(
                "prescription_inactive",
                "RX-1001 is inactive: nothing more can be filled from it here.",
                "prescription_id",
            ),
        ),
        (
            {"controlled": True},
            tool_error(
                "escalation_required",
                "Lisinopril is a controlled substance: only the pharmacist can refill it.",
                "prescription_id",
            ),
        ),
        (
            {"refills_remaining": 0},
            tool_error(
                "no_refills_remaining",
                f"RX-1001 has no refills left: ask the prescriber ({HOLLIS}) for a renewal"
                " instead.",
                "prescription_id",
            ),
        ),
    ],
)
def test_a_refill_is_refused_with_the_code_that_says_what_to_do(shop, change, error):  # noqa: F811
    _rx(shop, "RX-1001").update(change)
    args = {"prescription_id": "RX-1001", "customer_id": "CUS-1001"}
    assert tool_refusal(shop, "request_refill", args) == error


@pytest.mark.parametrize("expires", ["2026-03-09", None])
def test_a_prescription_expiring_today_or_never_may_be_refilled(shop, expires):  # noqa: F811
    _rx(shop, "RX-1001").update(expires=expires, refills_remaining=1)
    args = {"prescription_id": "RX-1001", "customer_id": "CUS-1001"}
    assert tool_result(shop, "request_refill", args)["refill"]["status"] == "requested"


@pytest.mark.parametrize("status", ["requested", "ready"])
def test_a_second_open_refill_is_refused(shop, status):  # noqa: F811
    shop.state.tables["refills"]["RF-1059"]["status"] = status
    args = {"prescription_id": "RX-1032", "customer_id": "CUS-1003"}
    assert tool_refusal(shop, "request_refill", args) == tool_error(
        "conflict", f"Refill RF-1059 is already {status}.", "prescription_id"
    )
    shop.state.tables["refills"]["RF-1059"]["status"] = "collected"
    assert tool_result(shop, "request_refill", args)["refill"]["id"] == "RF-1061"


def test_a_requested_refill_is_withdrawn_whole_once(shop):  # noqa: F811
    tool_result(shop, "request_refill", {"prescription_id": "RX-1003", "customer_id": "CUS-1002"})
    before = copy.deepcopy(shop.state.tables["refills"]["RF-1061"])
    args = {"refill_id": "RF-1061", "customer_id": "CUS-1003"}  # the carer may withdraw it
    assert tool_result(shop, "cancel_refill", args) == {"refill": {**before, "status": "cancelled"}}
    assert last_changes(shop) == [("refills", before, {**before, "status": "cancelled"})]
    assert tool_refusal(shop, "cancel_refill", args) == tool_error(
        "conflict", "Refill RF-1061 is cancelled: it can no longer be withdrawn.", "refill_id"
    )


def test_a_refill_is_withdrawn_only_by_whoever_may_ask_and_only_if_its_prescription_exists(shop):  # noqa: F811
    args = {"refill_id": "RF-1059", "customer_id": "CUS-1001"}
    assert tool_refusal(shop, "cancel_refill", args)["code"] == "not_authorised"
    assert tool_refusal(shop, "cancel_refill", {**args, "customer_id": "CUS-1003"}) == tool_error(
        "conflict", "Refill RF-1059 is ready: it can no longer be withdrawn.", "refill_id"
    )
    shop.state.tables["refills"]["RF-1059"]["prescription_id"] = "RX-9999"
    assert tool_refusal(shop, "cancel_refill", {**args, "customer_id": "CUS-1003"}) == tool_error(
        "not_found", "No prescriptions with id 'RX-9999'.", "refill_id"
    )
    assert tool_refusal(shop, "cancel_refill", {**args, "refill_id": "RF-9999"}) == tool_error(
        "not_found", "No refills with id 'RF-9999'.", "refill_id"
    )


def test_a_renewal_is_written_whole_for_a_prescription_with_no_refills_left(shop):  # noqa: F811
    renewal = {
        "id": "REN-1052",
        "prescription_id": "RX-1007",
        "customer_id": "CUS-1006",
        "requested_by": "CUS-1031",  # her husband, an authorised carer
        "prescriber": "Dr. Kent Barlow (Clintonville Primary Care)",
        "status": "sent",
        "requested_at": NOW,
    }
    args = {"prescription_id": "RX-1007", "customer_id": "CUS-1031"}
    assert tool_result(shop, "request_renewal", args) == {"renewal": renewal}
    assert shop.state.tables["renewals"]["REN-1052"] == renewal
    assert shop.ledger.entries[-1].effect == Effect.REVERSIBLE
    assert last_changes(shop) == [("renewals", None, renewal)]
    assert tool_refusal(shop, "request_renewal", args) == tool_error(
        "conflict", "Renewal REN-1052 was already sent to the prescriber.", "prescription_id"
    )


@pytest.mark.parametrize(
    "refills, expires, allowed",
    [
        (3, "2026-10-14", False),
        (1, "2026-10-14", False),
        (3, "2026-03-09", False),  # expires today: not yet expired
        (3, "2026-03-08", True),
        (3, None, False),
        (0, None, True),
    ],
)
def test_a_renewal_is_for_a_prescription_used_up_or_expired(shop, refills, expires, allowed):  # noqa: F811
    _rx(shop, "RX-1001").update(refills_remaining=refills, expires=expires)
    args = {"prescription_id": "RX-1001", "customer_id": "CUS-1001"}
    if allowed:
        assert tool_result(shop, "request_renewal", args)["renewal"]["status"] == "sent"
    else:
        assert tool_refusal(shop, "request_renewal", args) == tool_error(
            "conflict",
            f"RX-1001 still has {refills} refill(s): request a refill instead.",
            "prescription_id",
        )


def test_a_declined_renewal_may_be_asked_again_but_not_for_a_transferred_prescription(shop):  # noqa: F811
    args = {"prescription_id": "RX-1031", "customer_id": "CUS-1024"}
    assert tool_result(shop, "request_renewal", args)["renewal"]["id"] == "REN-1052"
    _rx(shop, "RX-1051")["status"] = "transferred"
    assert tool_refusal(
        shop, "request_renewal", {"prescription_id": "RX-1051", "customer_id": "CUS-1001"}
    ) == tool_error("prescription_inactive", "RX-1051 was transferred out.", "prescription_id")


def test_a_transfer_is_written_whole_and_empties_the_prescription_for_good(shop):  # noqa: F811
    before = copy.deepcopy(_rx(shop, "RX-1001"))
    args = {
        "prescription_id": "RX-1001",
        "customer_id": "CUS-1001",
        "to_pharmacy": "Kroger Pharmacy, Clintonville",
        "to_phone": "+1 614 555 0199",
    }
    transfer = {
        "id": "TRF-1052",
        "prescription_id": "RX-1001",
        "customer_id": "CUS-1001",
        "to_pharmacy": "Kroger Pharmacy, Clintonville",
        "to_phone": "+1 614 555 0199",
        "refills_transferred": 3,
        "at": NOW,
    }
    moved = {**before, "status": "transferred", "refills_remaining": 0}
    assert tool_result(shop, "transfer_prescription", args) == {
        "transfer": transfer,
        "prescription": moved,
    }
    assert _rx(shop, "RX-1001") == moved
    assert shop.ledger.entries[-1].effect == Effect.IRREVERSIBLE
    assert last_changes(shop) == [("transfers", None, transfer), ("prescriptions", before, moved)]


def test_only_the_patient_transfers_an_active_prescription_and_never_schedule_two(shop):  # noqa: F811
    args = {"to_pharmacy": "Kroger", "to_phone": "+1 614 555 0199"}
    assert tool_refusal(
        shop,
        "transfer_prescription",
        {**args, "prescription_id": "RX-1003", "customer_id": "CUS-1003"},
    ) == tool_error(
        "not_authorised", "Only the patient on RX-1003 may move it elsewhere.", "customer_id"
    )
    assert tool_refusal(
        shop,
        "transfer_prescription",
        {**args, "prescription_id": "RX-1031", "customer_id": "CUS-1024"},
    ) == tool_error(
        "escalation_required",
        "Oxycodone is Schedule II: it cannot be transferred; the patient needs a new "
        "prescription at the other pharmacy.",
        "prescription_id",
    )
    _rx(shop, "RX-1051")["status"] = "transferred"
    assert tool_refusal(
        shop,
        "transfer_prescription",
        {**args, "prescription_id": "RX-1051", "customer_id": "CUS-1001"},
    ) == tool_error(
        "prescription_inactive",
        "RX-1051 is transferred: nothing more can be filled from it here.",
        "prescription_id",
    )
    schedule_four = {**args, "prescription_id": "RX-1015", "customer_id": "CUS-1014"}
    assert (
        tool_result(shop, "transfer_prescription", schedule_four)["transfer"]["refills_transferred"]
        == 2
    )


@pytest.mark.parametrize(
    "name, args, field",
    [
        ("list_prescriptions", {"customer_id": "CUS-1001"}, "customer_id"),
        ("check_drug_stock", {"drug": "metformin"}, "drug"),
        (
            "request_refill",
            {"prescription_id": "RX-1001", "customer_id": "CUS-1001"},
            "prescription_id",
        ),
        ("cancel_refill", {"refill_id": "RF-1001", "customer_id": "CUS-1001"}, "refill_id"),
        (
            "request_renewal",
            {"prescription_id": "RX-1001", "customer_id": "CUS-1001"},
            "prescription_id",
        ),
        (
            "transfer_prescription",
            {
                "prescription_id": "RX-1001",
                "customer_id": "CUS-1001",
                "to_pharmacy": "K",
                "to_phone": "1",
            },
            "prescription_id",
        ),
    ],
)
def test_a_business_without_prescriptions_refuses_the_tools(world, name, args, field):
    assert tool_refusal(world, name, args) == tool_error(
        "invalid_arguments", "This business keeps no prescription records.", field
    )


def test_a_fresh_pharmacy_is_used_by_each_test():
    assert _world().state.tables["refills"]["RF-1059"]["status"] == "ready"


@pytest.mark.parametrize("name", ["request_refill", "request_renewal", "transfer_prescription"])
def test_an_unknown_prescription_or_patient_is_not_found(shop, name):  # noqa: F811
    args = {"prescription_id": "RX-9999", "customer_id": "CUS-1001"}
    if name == "transfer_prescription":
        args.update(to_pharmacy="Kroger", to_phone="+1 614 555 0199")
    assert tool_refusal(shop, name, args) == tool_error(
        "not_found", "No prescriptions with id 'RX-9999'.", "prescription_id"
    )
    assert tool_refusal(
        shop, name, {**args, "prescription_id": "RX-1001", "customer_id": "CUS-9999"}
    ) == (tool_error("not_found", "No customer with id 'CUS-9999'.", "customer_id"))


def test_a_renewal_sent_for_another_prescription_does_not_stop_one(shop):  # noqa: F811
    assert tool_result(
        shop, "request_renewal", {"prescription_id": "RX-1011", "customer_id": "CUS-1010"}
    )
    args = {"prescription_id": "RX-1007", "customer_id": "CUS-1006"}
    assert tool_result(shop, "request_renewal", args)["renewal"]["prescription_id"] == "RX-1007"
