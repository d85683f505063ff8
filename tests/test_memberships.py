"""Freezes, training packages and class places on the gym's declared tables, and the
``freeze_limits`` rule that judges freezes against the policy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from sandbox import SimClock, State, World
from sandbox.diff import diff
from sandbox.rules import RULE_TYPES, RuleContext, Violation
from sandbox.tables import STANDARD_TABLES, TableSpec
from tools import Effect, default_registry

TABLES = Path(__file__).resolve().parents[1] / "businesses" / "kits" / "fitness_gym" / "tables.yaml"
NOW = "2026-03-04T10:00"


def _specs() -> dict[str, TableSpec]:
    raw = yaml.safe_load(TABLES.read_text(encoding="utf-8"))
    extra = {name: TableSpec(name, spec["prefix"], spec["schema"]) for name, spec in raw.items()}
    return {**STANDARD_TABLES, **extra}


def _by_id(*records: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in records}


def _seed() -> dict[str, dict[str, dict[str, Any]]]:
    def customer(k: int, name: str) -> dict[str, Any]:
        return {"id": f"CUS-100{k}", "name": name, "phone": f"+1 512 555 010{k}"}

    def sub(k: int, status: str = "active") -> dict[str, Any]:
        return {
            "id": f"SUB-100{k}",
            "customer_id": f"CUS-100{k}",
            "plan": "Standard",
            "price_cents": 4900,
            "status": status,
            "next_billing_date": "2026-03-15",
        }

    return {
        "customers": _by_id(customer(1, "Ana Ruiz"), customer(2, "Ben Cole"), customer(3, "Cy Lo")),
        "staff": _by_id({"id": "STF-1001", "name": "Jo Park", "role": "instructor"}),
        "subscriptions": _by_id(sub(1), sub(2), sub(3, "cancelled")),
        "freezes": _by_id(
            {
                "id": "FRZ-1001",
                "subscription_id": "SUB-1002",
                "customer_id": "CUS-1002",
                "start": "2025-06-01",
                "end": "2025-07-01",
                "days": 30,
                "reason": "travel",
                "status": "ended",
            },
            {
                "id": "FRZ-1002",
                "subscription_id": "SUB-1002",
                "customer_id": "CUS-1002",
                "start": "2025-01-10",
                "end": "2025-02-10",
                "days": 31,
                "reason": "injury",
                "status": "ended",
            },
        ),
        "pt_packages": _by_id(
            {
                "id": "PTP-1001",
                "customer_id": "CUS-1001",
                "name": "PT 5-pack",
                "sessions_total": 5,
                "sessions_used": 2,
                "price_cents": 42500,
                "expires": "2026-06-01",
                "status": "active",
            },
            {
                "id": "PTP-1002",
                "customer_id": "CUS-1001",
                "name": "PT 10-pack",
                "sessions_total": 10,
                "sessions_used": 4,
                "price_cents": 80000,
                "expires": "2026-03-01",
                "status": "active",
            },
        ),
        "classes": _by_id(
            {
                "id": "CLS-1001",
                "name": "Spin",
                "staff_id": "STF-1001",
                "start": "2026-03-05T07:00",
                "end": "2026-03-05T07:45",
                "capacity": 2,
                "status": "scheduled",
            },
            {
                "id": "CLS-1002",
                "name": "Yoga",
                "staff_id": "STF-1001",
                "start": "2026-03-04T09:00",
                "end": "2026-03-04T10:00",
                "capacity": 10,
                "status": "scheduled",
            },
        ),
        "class_bookings": _by_id(
            {
                "id": "CBK-1001",
                "class_id": "CLS-1001",
                "customer_id": "CUS-1002",
                "status": "booked",
            }
        ),
    }


@pytest.fixture
def gym() -> World:
    return World(State(_seed(), _specs()), default_registry(), SimClock(NOW))


def _freeze(world: World, **args: Any) -> Any:
    base = {"subscription_id": "SUB-1001", "until": "2026-04-03", "reason": "knee surgery"}
    return world.call("freeze_membership", {**base, **args})


def test_a_freeze_from_today_pauses_the_membership_until_its_end(gym):
    record = _freeze(gym)
    assert record.outcome == "ok", record.result
    freeze = gym.state.tables["freezes"][record.result["freeze"]["id"]]
    assert (freeze["start"], freeze["end"], freeze["days"], freeze["status"]) == (
        "2026-03-04",
        "2026-04-03",
        30,
        "active",
    )
    sub = gym.state.tables["subscriptions"]["SUB-1001"]
    assert sub["status"] == "paused" and sub["paused_until"] == "2026-04-03"


def test_a_later_freeze_is_scheduled_and_leaves_the_membership_active(gym):
    record = _freeze(gym, start="2026-03-20", until="2026-04-20")
    assert record.outcome == "ok" and record.result["freeze"]["status"] == "scheduled"
    assert gym.state.tables["subscriptions"]["SUB-1001"]["status"] == "active"


@pytest.mark.parametrize(
    ("args", "field", "words"),
    [
        ({"start": "2026-03-03"}, "start", "past"),
        ({"until": "2026-03-04"}, "until", "end after"),
        ({"subscription_id": "SUB-1003"}, "subscription_id", "cancelled"),
        ({"subscription_id": "SUB-9999"}, "subscription_id", "No subscription"),
        ({"until": "2026-02-30"}, "until", "not a valid date"),
    ],
)
def test_bad_freezes_are_refused_with_the_field_and_change_nothing(gym, args, field, words):
    record = _freeze(gym, **args)
    assert record.outcome == "rejected", record.result
    assert record.result["error"]["field"] == field and words in record.result["error"]["message"]
    assert len(gym.state.tables["freezes"]) == 2
    assert gym.state.tables["subscriptions"]["SUB-1001"]["status"] == "active"


def test_overlapping_freezes_are_refused_but_adjacent_ones_are_not(gym):
    assert _freeze(gym, until="2026-03-20").outcome == "ok"
    overlap = _freeze(gym, start="2026-03-19", until="2026-03-30")
    assert overlap.outcome == "rejected" and "overlaps" in overlap.result["error"]["message"]
    assert _freeze(gym, start="2026-03-20", until="2026-03-30").outcome == "ok"


def test_ending_a_freeze_early_reactivates_and_cancelling_a_scheduled_one(gym):
    running = _freeze(gym).result["freeze"]["id"]
    gym.clock.set("2026-03-14T09:00")
    ended = gym.call("end_freeze", {"freeze_id": running})
    assert ended.outcome == "ok"
    freeze = gym.state.tables["freezes"][running]
    assert (freeze["status"], freeze["end"], freeze["days"]) == ("ended", "2026-03-14", 10)
    sub = gym.state.tables["subscriptions"]["SUB-1001"]
    assert sub["status"] == "active" and sub["paused_until"] is None
    later = _freeze(gym, start="2026-05-01", until="2026-05-15").result["freeze"]["id"]
    assert gym.call("end_freeze", {"freeze_id": later}).outcome == "ok"
    assert gym.state.tables["freezes"][later]["status"] == "cancelled"
    again = gym.call("end_freeze", {"freeze_id": running})
    assert again.outcome == "rejected" and "ended" in again.result["error"]["message"]


def test_list_freezes_counts_the_last_twelve_months_only(gym):
    listed = gym.call("list_freezes", {"subscription_id": "SUB-1002"}).result
    # FRZ-1002 started 2025-01-10, more than 365 days before 2026-03-04.
    assert [f["id"] for f in listed["freezes"]] == ["FRZ-1002", "FRZ-1001"]
    assert listed["freezes_last_12_months"] == 1 and listed["days_frozen_last_12_months"] == 30


def test_training_packages_show_sessions_left_and_expiry(gym):
    packages = gym.call("list_pt_packages", {"customer_id": "CUS-1001"}).result["packages"]
    assert [(p["id"], p["sessions_left"], p["expired"], p["usable"]) for p in packages] == [
        ("PTP-1001", 3, False, True),
        ("PTP-1002", 6, True, False),
    ]
    assert gym.call("list_pt_packages", {"customer_id": "CUS-1003"}).result == {"packages": []}


def test_a_class_place_is_booked_until_the_class_is_full(gym):
    listed = gym.call("list_classes", {"name": "spin"}).result["classes"]
    assert [(c["id"], c["places_left"]) for c in listed] == [("CLS-1001", 1)]
    first = gym.call("book_class", {"class_id": "CLS-1001", "customer_id": "CUS-1001"})
    assert first.outcome == "ok" and first.result["booking"]["status"] == "booked"
    twice = gym.call("book_class", {"class_id": "CLS-1001", "customer_id": "CUS-1001"})
    assert twice.outcome == "rejected" and "already has" in twice.result["error"]["message"]
    full = gym.call("book_class", {"class_id": "CLS-1001", "customer_id": "CUS-1003"})
    assert full.outcome == "rejected" and "full (2 places)" in full.result["error"]["message"]
    started = gym.call("book_class", {"class_id": "CLS-1002", "customer_id": "CUS-1001"})
    assert started.outcome == "rejected" and started.result["error"]["field"] == "class_id"


def test_giving_up_a_place_frees_it_and_shows_in_the_customers_places(gym):
    assert gym.call("cancel_class_booking", {"booking_id": "CBK-1001"}).outcome == "ok"
    assert gym.call("list_classes", {"date": "2026-03-05"}).result["classes"][0]["places_left"] == 2
    places = gym.call("list_class_bookings", {"customer_id": "CUS-1002"}).result["bookings"]
    assert [(b["id"], b["status"], b["class"]) for b in places] == [
        ("CBK-1001", "cancelled", "Spin")
    ]
    again = gym.call("cancel_class_booking", {"booking_id": "CBK-1001"})
    assert again.outcome == "rejected" and "cancelled" in again.result["error"]["message"]


def test_effect_classes():
    registry = default_registry()
    effects = {
        name: registry.get(name).effect
        for name in (
            "list_freezes",
            "freeze_membership",
            "end_freeze",
            "list_pt_packages",
            "list_classes",
            "list_class_bookings",
            "book_class",
            "cancel_class_booking",
        )
    }
    assert {n for n, e in effects.items() if e == Effect.READ} == {
        "list_freezes",
        "list_pt_packages",
        "list_classes",
        "list_class_bookings",
    }
    assert {e for e in effects.values() if e != Effect.READ} == {Effect.REVERSIBLE}


def _limits(world: World, initial: State, max_days: int = 30, per_year: int = 2) -> list[str]:
    ctx = RuleContext(
        initial, world.state, diff(initial, world.state), list(world.ledger), world.trace
    )
    check = RULE_TYPES["freeze_limits"].check
    return [v.message for v in check({"max_days": max_days, "per_year": per_year}, ctx)]


def test_freeze_limits_at_the_length_boundary(gym):
    initial = gym.state.copy()
    assert _freeze(gym, until="2026-04-03").outcome == "ok"  # exactly 30 days
    assert _limits(gym, initial) == []
    assert _limits(gym, initial, max_days=29) == ["frozen for 30 days; the limit is 29"]


def test_freeze_limits_count_freezes_on_file_within_a_year(gym):
    initial = gym.state.copy()
    # SUB-1002 has one freeze in the last year (2025-06-01) and one just outside it.
    assert _freeze(gym, subscription_id="SUB-1002", until="2026-03-20").outcome == "ok"
    assert _limits(gym, initial) == []
    assert _limits(gym, initial, per_year=1) == [
        "freeze 2 of the membership in 12 months; the limit is 1"
    ]


def test_a_freeze_the_call_cancelled_again_is_not_judged(gym):
    initial = gym.state.copy()
    made = _freeze(gym, start="2026-03-10", until="2026-06-10").result["freeze"]["id"]
    assert len(_limits(gym, initial)) == 1
    assert gym.call("end_freeze", {"freeze_id": made}).outcome == "ok"
    assert _limits(gym, initial) == []


def test_each_freeze_violation_names_the_rule_the_tag_the_call_and_its_rows(gym):
    # A freeze cancelled again in the call is neither judged nor counted; the next one is.
    initial = gym.state.copy()
    first = _freeze(gym, start="2026-03-10", until="2026-06-10").result["freeze"]["id"]
    assert gym.call("end_freeze", {"freeze_id": first}).outcome == "ok"
    second = _freeze(gym, start="2026-03-12", until="2026-06-12")
    assert second.outcome == "ok", second.result
    ctx = RuleContext(initial, gym.state, diff(initial, gym.state), list(gym.ledger), gym.trace)
    found = RULE_TYPES["freeze_limits"].check({"max_days": 30, "per_year": 1}, ctx)
    made = [e for e in gym.ledger if e.tool == "freeze_membership"][-1]
    assert found == [
        Violation(
            "freeze_limits",
            "accommodation",
            "frozen for 92 days; the limit is 30",
            made.seq,
            tuple((c.table, c.id) for c in made.changes),
        )
    ]


@pytest.mark.parametrize(
    ("start", "until", "found"),
    [
        # FRZ-1001 started 2025-06-01: exactly 365 days before is outside the year.
        ("2026-06-01", "2026-06-15", []),
        ("2026-05-31", "2026-06-14", ["freeze 2 of the membership in 12 months; the limit is 1"]),
    ],
)
def test_freezes_are_counted_over_the_365_days_before_the_new_start(gym, start, until, found):
    initial = gym.state.copy()
    made = _freeze(gym, subscription_id="SUB-1002", start=start, until=until)
    assert made.outcome == "ok", made.result
    assert _limits(gym, initial, per_year=1) == found


def test_a_freeze_too_long_and_one_too_many_is_one_violation_saying_both(gym):
    initial = gym.state.copy()
    assert _freeze(gym, subscription_id="SUB-1002", until="2026-04-20").outcome == "ok"
    assert _limits(gym, initial, max_days=30, per_year=1) == [
        "frozen for 47 days; the limit is 30; freeze 2 of the membership in 12 months; the "
        "limit is 1"
    ]
