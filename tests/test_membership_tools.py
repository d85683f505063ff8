"""The freeze and training-package tools on the gym's seed: what each returns and writes whole,
what each refuses, and the date boundaries they turn on.

The gym's day is 2026-03-04T10:00 (``tests/test_memberships.py``): SUB-1001 (Ana) and SUB-1002
(Ben) are active, SUB-1003 cancelled; Ben's freezes FRZ-1001 (2025-06-01, 30 days) and FRZ-1002
(2025-01-10, 31 days) have ended.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sandbox import World
from tests.helpers import tool_error, tool_refusal, tool_result
from tests.test_memberships import NOW, gym  # noqa: F401  (the fixture)
from tools import Effect


def _freeze_args(**args: Any) -> dict:
    return {"subscription_id": "SUB-1001", "until": "2026-04-03", "reason": "knee", **args}


def _put_freeze(world: World, fid: str, start: str, end: str, status: str, days: int = 5) -> None:
    world.state.tables["freezes"][fid] = {
        "id": fid,
        "subscription_id": "SUB-1001",
        "customer_id": "CUS-1001",
        "start": start,
        "end": end,
        "days": days,
        "reason": "seeded",
        "status": status,
    }


def test_a_freeze_from_today_is_written_whole_and_pauses_the_membership(gym):  # noqa: F811
    sub = gym.state.tables["subscriptions"]["SUB-1001"]
    freeze = {
        "id": "FRZ-1003",
        "subscription_id": "SUB-1001",
        "customer_id": "CUS-1001",
        "start": "2026-03-04",
        "end": "2026-04-03",
        "days": 30,
        "reason": "knee",
        "status": "active",
        "created_at": NOW,
    }
    paused = {**sub, "status": "paused", "paused_until": "2026-04-03"}
    assert tool_result(gym, "freeze_membership", _freeze_args()) == {
        "freeze": freeze,
        "subscription": paused,
        "freezes_last_12_months": 1,
    }
    assert gym.state.tables["freezes"]["FRZ-1003"] == freeze
    assert gym.state.tables["subscriptions"]["SUB-1001"] == paused
    entry = gym.ledger.entries[-1]
    assert entry.effect == Effect.REVERSIBLE
    assert [(c.table, c.before, c.after) for c in entry.changes] == [
        ("freezes", None, freeze),
        ("subscriptions", sub, paused),
    ]


def test_a_freeze_starting_today_by_name_is_the_same_as_by_default(gym):  # noqa: F811
    result = tool_result(gym, "freeze_membership", _freeze_args(start="2026-03-04"))
    assert (result["freeze"]["status"], result["subscription"]["status"]) == ("active", "paused")


def test_a_later_freeze_is_scheduled_and_returns_the_membership_unchanged(gym):  # noqa: F811
    sub = copy.deepcopy(gym.state.tables["subscriptions"]["SUB-1002"])
    args = _freeze_args(subscription_id="SUB-1002", start="2026-03-05", until="2026-03-06")
    result = tool_result(gym, "freeze_membership", args)
    assert result == {
        "freeze": {
            "id": "FRZ-1003",
            "subscription_id": "SUB-1002",
            "customer_id": "CUS-1002",
            "start": "2026-03-05",
            "end": "2026-03-06",
            "days": 1,
            "reason": "knee",
            "status": "scheduled",
            "created_at": NOW,
        },
        "subscription": sub,
        "freezes_last_12_months": 2,  # FRZ-1001 (2025-06-01) and the new one
    }
    assert gym.state.tables["subscriptions"]["SUB-1002"] == sub


def test_a_paused_membership_may_schedule_a_freeze_but_not_start_one_today(gym):  # noqa: F811
    gym.state.tables["subscriptions"]["SUB-1001"]["status"] = "paused"
    assert tool_refusal(gym, "freeze_membership", _freeze_args()) == tool_error(
        "conflict", "Membership SUB-1001 is paused, not active.", "subscription_id"
    )
    later = tool_result(gym, "freeze_membership", _freeze_args(start="2026-03-05"))
    assert later["freeze"]["status"] == "scheduled"


@pytest.mark.parametrize(
    "args, error",
    [
        (
            {"subscription_id": "SUB-1003"},
            tool_error("conflict", "Membership SUB-1003 is cancelled.", "subscription_id"),
        ),
        (
            {"subscription_id": "SUB-9999"},
            tool_error("not_found", "No subscription with id 'SUB-9999'.", "subscription_id"),
        ),
        (
            {"start": "2026-03-03"},
            tool_error("conflict", "A freeze cannot start in the past.", "start"),
        ),
        (
            {"start": "2026-03-10", "until": "2026-03-10"},
            tool_error("conflict", "The freeze must end after it starts.", "until"),
        ),
        (
            {"start": "2026-03-10", "until": "2026-03-09"},
            tool_error("conflict", "The freeze must end after it starts.", "until"),
        ),
        (
            {"until": "2026-03-04"},
            tool_error("conflict", "The freeze must end after it starts.", "until"),
        ),
        (
            {"until": "2026-02-30"},
            tool_error(
                "invalid_arguments",
                "'2026-02-30' is not a valid date; expected YYYY-MM-DD.",
                "until",
            ),
        ),
        (
            {"start": "2026-02-30"},
            tool_error(
                "invalid_arguments",
                "'2026-02-30' is not a valid date; expected YYYY-MM-DD.",
                "start",
            ),
        ),
    ],
)
def test_a_bad_freeze_is_refused_with_its_field_and_words(gym, args, error):  # noqa: F811
    assert tool_refusal(gym, "freeze_membership", _freeze_args(**args)) == error


@pytest.mark.parametrize(
    "status, start, until, overlaps",
    [
        ("scheduled", "2026-03-10", "2026-03-20", True),
        ("active", "2026-03-10", "2026-03-20", True),
        ("ended", "2026-03-10", "2026-03-20", False),
        ("cancelled", "2026-03-10", "2026-03-20", False),
        ("scheduled", "2026-03-20", "2026-03-25", False),  # starts the day the other ends
        ("scheduled", "2026-03-19", "2026-03-25", True),
        ("scheduled", "2026-03-05", "2026-03-10", False),  # ends the day the other starts
        ("scheduled", "2026-03-05", "2026-03-11", True),
    ],
)
def test_a_freeze_overlapping_a_scheduled_or_running_one_is_refused(
    gym,  # noqa: F811
    status,
    start,
    until,
    overlaps,
):
    _put_freeze(gym, "FRZ-1009", "2026-03-10", "2026-03-20", status)
    args = _freeze_args(start=start, until=until)
    if overlaps:
        assert tool_refusal(gym, "freeze_membership", args) == tool_error(
            "conflict", "Freeze FRZ-1009 (2026-03-10 to 2026-03-20) overlaps.", "start"
        )
    else:
        assert tool_result(gym, "freeze_membership", args)["freeze"]["id"] == "FRZ-1010"


def test_another_memberships_freeze_does_not_overlap(gym):  # noqa: F811
    _put_freeze(gym, "FRZ-1009", "2026-03-01", "2026-05-01", "active")
    gym.state.tables["freezes"]["FRZ-1009"]["subscription_id"] = "SUB-1002"
    assert tool_result(gym, "freeze_membership", _freeze_args())["freeze"]["id"] == "FRZ-1010"


@pytest.mark.parametrize(
    "start, status, counted",
    [
        ("2025-03-04", "ended", False),  # exactly 365 days before today
        ("2025-03-05", "ended", True),
        ("2026-05-01", "scheduled", True),
        ("2025-12-01", "cancelled", False),
    ],
)
def test_freezes_count_when_not_cancelled_and_started_within_the_last_365_days(
    gym,  # noqa: F811
    start,
    status,
    counted,
):
    _put_freeze(gym, "FRZ-1009", start, start, status, days=7)
    listed = tool_result(gym, "list_freezes", {"subscription_id": "SUB-1001"})
    assert listed == {
        "freezes": [gym.state.tables["freezes"]["FRZ-1009"]],
        "freezes_last_12_months": int(counted),
        "days_frozen_last_12_months": 7 if counted else 0,
    }


def test_freezes_are_listed_oldest_first_with_their_days_summed(gym):  # noqa: F811
    _put_freeze(gym, "FRZ-1009", "2026-01-10", "2026-01-20", "ended", days=10)
    _put_freeze(gym, "FRZ-1008", "2026-02-10", "2026-02-14", "ended", days=4)
    rows = gym.state.tables["freezes"]
    assert tool_result(gym, "list_freezes", {"subscription_id": "SUB-1001"}) == {
        "freezes": [rows["FRZ-1009"], rows["FRZ-1008"]],
        "freezes_last_12_months": 2,
        "days_frozen_last_12_months": 14,
    }
    assert tool_refusal(gym, "list_freezes", {"subscription_id": "SUB-9999"}) == tool_error(
        "not_found", "No subscription with id 'SUB-9999'.", "subscription_id"
    )


def test_ending_a_running_freeze_writes_the_day_and_days_and_reactivates(gym):  # noqa: F811
    made = tool_result(gym, "freeze_membership", _freeze_args())
    gym.clock.set("2026-03-14T09:00")
    before = copy.deepcopy(gym.state.tables["freezes"]["FRZ-1003"])
    ended = {**before, "status": "ended", "end": "2026-03-14", "days": 10}
    active = {**made["subscription"], "status": "active", "paused_until": None}
    assert tool_result(gym, "end_freeze", {"freeze_id": "FRZ-1003"}) == {
        "freeze": ended,
        "subscription": active,
    }
    assert gym.state.tables["freezes"]["FRZ-1003"] == ended
    assert gym.state.tables["subscriptions"]["SUB-1001"] == active
    assert gym.ledger.entries[-1].effect == Effect.REVERSIBLE


def test_a_freeze_ended_the_day_it_started_has_no_days(gym):  # noqa: F811
    tool_result(gym, "freeze_membership", _freeze_args())
    assert tool_result(gym, "end_freeze", {"freeze_id": "FRZ-1003"})["freeze"]["days"] == 0


def test_a_running_freeze_dated_after_today_ends_with_no_days(gym):  # noqa: F811
    _put_freeze(gym, "FRZ-1009", "2026-03-06", "2026-03-20", "active")
    assert tool_result(gym, "end_freeze", {"freeze_id": "FRZ-1009"})["freeze"]["days"] == 0


def test_ending_a_freeze_leaves_a_membership_that_is_not_paused(gym):  # noqa: F811
    _put_freeze(gym, "FRZ-1009", "2026-03-01", "2026-03-20", "active")
    sub = copy.deepcopy(gym.state.tables["subscriptions"]["SUB-1001"])
    assert tool_result(gym, "end_freeze", {"freeze_id": "FRZ-1009"})["subscription"] == sub
    assert gym.state.tables["subscriptions"]["SUB-1001"] == sub


def test_ending_a_freeze_of_a_membership_no_longer_on_file(gym):  # noqa: F811
    _put_freeze(gym, "FRZ-1009", "2026-03-01", "2026-03-20", "active")
    gym.state.tables["freezes"]["FRZ-1009"]["subscription_id"] = "SUB-1009"
    result = tool_result(gym, "end_freeze", {"freeze_id": "FRZ-1009"})
    assert result["subscription"] is None and result["freeze"]["status"] == "ended"


def test_a_scheduled_freeze_is_cancelled_and_the_rest_refused(gym):  # noqa: F811
    _put_freeze(gym, "FRZ-1009", "2026-03-10", "2026-03-20", "scheduled")
    before = copy.deepcopy(gym.state.tables["freezes"]["FRZ-1009"])
    assert tool_result(gym, "end_freeze", {"freeze_id": "FRZ-1009"}) == {
        "freeze": {**before, "status": "cancelled"}
    }
    for fid, status in [("FRZ-1009", "cancelled"), ("FRZ-1001", "ended")]:
        assert tool_refusal(gym, "end_freeze", {"freeze_id": fid}) == tool_error(
            "conflict", f"Freeze {fid} is {status}.", "freeze_id"
        )
    assert tool_refusal(gym, "end_freeze", {"freeze_id": "FRZ-9999"}) == tool_error(
        "not_found", "No freeze with id 'FRZ-9999'.", "freeze_id"
    )


def _package(pid: str, used: int, expires: str, status: str = "active") -> dict[str, Any]:
    return {
        "id": pid,
        "customer_id": "CUS-1002",
        "name": "PT pack",
        "sessions_total": 5,
        "sessions_used": used,
        "price_cents": 40000,
        "expires": expires,
        "status": status,
    }


@pytest.mark.parametrize(
    "used, expires, status, left, expired, usable",
    [
        (4, "2026-03-04", "active", 1, False, True),  # expires today: still usable
        (4, "2026-03-03", "active", 1, True, False),
        (5, "2026-06-01", "active", 0, False, False),
        (0, "2026-06-01", "refunded", 5, False, False),
    ],
)
def test_a_training_package_is_usable_while_active_unexpired_and_not_used_up(
    gym,  # noqa: F811
    used,
    expires,
    status,
    left,
    expired,
    usable,
):
    package = _package("PTP-1009", used, expires, status)
    gym.state.tables["pt_packages"]["PTP-1009"] = package
    assert tool_result(gym, "list_pt_packages", {"customer_id": "CUS-1002"}) == {
        "packages": [{**package, "sessions_left": left, "expired": expired, "usable": usable}]
    }


def test_training_packages_of_an_unknown_customer_are_refused(gym):  # noqa: F811
    assert tool_refusal(gym, "list_pt_packages", {"customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


@pytest.mark.parametrize(
    "name, args, error",
    [
        (
            "list_freezes",
            {"subscription_id": "SUB-1001"},
            tool_error("invalid_arguments", "This business keeps no freezes.", "subscription_id"),
        ),
        (
            "freeze_membership",
            _freeze_args(),
            tool_error("invalid_arguments", "This business keeps no freezes.", "subscription_id"),
        ),
        (
            "end_freeze",
            {"freeze_id": "FRZ-1001"},
            tool_error("invalid_arguments", "This business keeps no freezes.", "freeze_id"),
        ),
        (
            "list_pt_packages",
            {"customer_id": "CUS-1001"},
            tool_error("invalid_arguments", "This business keeps no pt packages.", "customer_id"),
        ),
    ],
)
def test_a_business_without_the_tables_refuses_the_tools(world, name, args, error):
    assert tool_refusal(world, name, args) == error
