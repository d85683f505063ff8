"""check_gift_card against the hair salon's own declared gift_cards table and seed."""

from __future__ import annotations

import copy
from datetime import date, timedelta
from pathlib import Path

import pytest

from businesses.loader import load_business
from sandbox import SimClock, State, World
from sandbox.tables import STANDARD_TABLES, TableSpec
from tools import Effect, default_registry

SALON = Path(__file__).resolve().parents[1] / "businesses" / "public" / "hair_salon"


def _world(now: str) -> World:
    business, _ = load_business(SALON)
    specs = {**STANDARD_TABLES, **business.extra_tables}
    return World(State(business.seed, specs), default_registry(), SimClock(now))


@pytest.fixture
def salon() -> World:
    return _world("2026-03-10T10:00")


def _check(world: World, code: str) -> dict:
    record = world.call("check_gift_card", {"code": code})
    assert record.outcome == "ok", record.result
    return record.result


def test_a_part_spent_card_is_found_however_the_code_is_read(salon):
    card = next(c for c in salon.state.tables["gift_cards"].values() if c["id"] == "GFT-1001")
    spoken = card["code"].replace("-", " ").lower()
    result = _check(salon, spoken)
    assert result["gift_card"]["id"] == "GFT-1001"
    assert result["gift_card"]["balance_cents"] == card["initial_cents"] - 4500
    assert result["usable"] is True and result["expired"] is False


def test_an_expired_card_is_reported_expired_and_unusable(salon):
    card = salon.state.tables["gift_cards"]["GFT-1004"]
    result = _check(salon, card["code"])
    assert result["expired"] is True and result["usable"] is False
    assert result["gift_card"]["balance_cents"] == 6000


def test_a_card_is_usable_on_its_expiry_day_and_not_the_day_after():
    card = _world("2026-03-10T10:00").state.tables["gift_cards"]["GFT-1002"]
    on_the_day = _check(_world(f"{card['expires']}T17:00"), card["code"])
    assert on_the_day["expired"] is False and on_the_day["usable"] is True
    next_day = date.fromisoformat(card["expires"]) + timedelta(days=1)
    after = _check(_world(f"{next_day.isoformat()}T09:00"), card["code"])
    assert after["expired"] is True and after["usable"] is False


def test_a_spent_card_is_not_usable(salon):
    card = salon.state.tables["gift_cards"]["GFT-1003"]
    result = _check(salon, card["code"])
    assert result["gift_card"]["balance_cents"] == 0 and result["usable"] is False


def test_an_unknown_code_is_not_found_and_changes_nothing(salon):
    before = copy.deepcopy(salon.state.tables)
    record = salon.call("check_gift_card", {"code": "ZZZZ-0000"})
    assert record.outcome != "ok" and "gift card" in str(record.result)
    assert salon.state.tables == before


def test_a_business_without_gift_cards_says_so(world):
    record = world.call("check_gift_card", {"code": "AB12-3456"})
    assert record.outcome != "ok" and "gift cards" in str(record.result)


def test_check_gift_card_is_a_read():
    tool = default_registry().get("check_gift_card")
    assert tool is not None and tool.effect == Effect.READ and not tool.writes


def _error(world: World, code: str) -> dict:
    before = copy.deepcopy(world.state.tables)
    record = world.call("check_gift_card", {"code": code})
    assert record.outcome == "rejected" and world.state.tables == before
    return record.result["error"]


def test_the_whole_card_is_returned_with_its_state(salon):
    card = dict(salon.state.tables["gift_cards"]["GFT-1002"])
    assert _check(salon, "cp34-3642") == {"gift_card": card, "expired": False, "usable": True}


@pytest.mark.parametrize(
    "status, balance, expires, usable",
    [
        ("active", 1, "2026-03-10", True),  # one cent left, on its last day
        ("active", 0, "2026-12-31", False),  # active but empty
        ("void", 5000, "2026-12-31", False),  # money on it, but voided
        ("used", 5000, "2026-12-31", False),
        ("active", 5000, "2026-03-09", False),  # expired yesterday
    ],
)
def test_a_card_is_usable_only_when_active_unexpired_and_not_empty(
    salon, status, balance, expires, usable
):
    card = salon.state.tables["gift_cards"]["GFT-1002"]
    card.update(status=status, balance_cents=balance, expires=expires)
    result = _check(salon, "CP34-3642")
    assert result["usable"] is usable
    assert result["expired"] is (expires < "2026-03-10")


def test_a_code_typed_on_another_keyboard_is_read_in_capitals(salon):
    # "ı" and "ß" have capitals of their own (I, SS): the code is compared in capitals.
    salon.state.tables["gift_cards"]["GFT-1002"]["code"] = "KISS-2026"
    assert _check(salon, "kıß 2026")["gift_card"]["id"] == "GFT-1002"


def test_a_card_with_no_expiry_never_expires():
    # A business may declare gift cards that never expire (``expires`` null).
    schema = {"type": "object", "required": ["id", "code"]}
    specs = {**STANDARD_TABLES, "gift_cards": TableSpec("gift_cards", "GFT", schema)}
    card = {"id": "GFT-1001", "code": "AB12-CD34", "balance_cents": 2000, "status": "active"}
    for expires in ({}, {"expires": None}):
        seed = {"gift_cards": {"GFT-1001": {**card, **expires}}}
        world = World(State(seed, specs), default_registry(), SimClock("2030-01-01T09:00"))
        result = _check(world, "AB12CD34")
        assert result == {"gift_card": {**card, **expires}, "expired": False, "usable": True}


def test_refusals_name_the_code_and_say_why(salon, world):
    assert _error(salon, "ZZZZ-0000") == {
        "code": "not_found",
        "message": "No gift card with id 'ZZZZ-0000'.",
        "field": "code",
    }
    assert _error(salon, " - -") == {
        "code": "invalid_arguments",
        "message": "The code has no letters or digits.",
        "field": "code",
    }
    assert _error(world, "AB12-3456") == {
        "code": "invalid_arguments",
        "message": "This business does not sell gift cards.",
        "field": "code",
    }


def test_a_code_is_matched_whole_not_by_its_start(salon):
    # The last digit differs: no card, although the first seven characters match one.
    assert _error(salon, "JU17-337")["code"] == "not_found"
    assert _check(salon, "JU17-3371!")["gift_card"]["id"] == "GFT-1001"
