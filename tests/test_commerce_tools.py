"""The store tools (tools/commerce.py) on the sample state: search, stock, reservations, orders
and returns, each result and write whole, each refusal with its field and words.

On the sample day PRD-1001 (Electric toothbrush, TB-1, $49.99) has 5 in stock, PRD-1002 (Floss
(50m), FL-50, $3.99) 40, none reserved; Lena's ORD-1001 is delivered and ORD-1002 placed.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sandbox import World
from tests.helpers import last_changes, tool_error, tool_refusal, tool_result
from tools import Effect

NOW = "2026-03-02T09:10"


def _product(world: World, pid: str) -> dict[str, Any]:
    return world.state.tables["products"][pid]


@pytest.mark.parametrize(
    "query, found",
    [
        ("tooth", ["PRD-1001"]),
        ("ELECTRIC tb-1", ["PRD-1001"]),  # every word, in the name or the SKU, any case
        ("fl-50", ["PRD-1002"]),
        ("floss tb-1", []),
        ("  ", ["PRD-1001", "PRD-1002"]),  # no words: everything
    ],
)
def test_products_are_found_by_every_word_in_their_name_or_sku(world, query, found):
    _product(world, "PRD-1002")["reserved"] = 15
    rows = world.state.tables["products"]
    available = {"PRD-1001": 5, "PRD-1002": 25}
    assert tool_result(world, "search_products", {"query": query}) == {
        "products": [{**rows[p], "available": available[p]} for p in found],
        "count": len(found),
    }


def test_a_product_without_a_sku_is_found_by_its_name_only(world):
    _product(world, "PRD-1002").pop("sku")
    for query in ("xxxx", "none"):
        assert tool_result(world, "search_products", {"query": query}) == {
            "products": [],
            "count": 0,
        }
    assert tool_result(world, "search_products", {"query": "floss"})["count"] == 1


def test_a_search_lists_twenty_products_and_counts_them_all(world):
    for k in range(25):
        world.state.tables["products"][f"PRD-2{k:03d}"] = {
            "id": f"PRD-2{k:03d}",
            "name": f"Brush head {k}",
            "price_cents": 100,
            "stock": k,
        }
    result = tool_result(world, "search_products", {"query": "brush head"})
    assert result["count"] == 25
    assert [p["id"] for p in result["products"]] == [f"PRD-2{k:03d}" for k in range(20)]
    assert result["products"][3]["available"] == 3  # nothing reserved on file


def test_stock_is_shown_on_hand_reserved_and_available(world):
    _product(world, "PRD-1002")["reserved"] = 15
    assert tool_result(world, "check_stock", {"product_id": "PRD-1002"}) == {
        "product_id": "PRD-1002",
        "name": "Floss (50m)",
        "in_stock": 40,
        "reserved": 15,
        "available": 25,
    }
    _product(world, "PRD-1002").pop("reserved")
    result = tool_result(world, "check_stock", {"product_id": "PRD-1002"})
    assert (result["reserved"], result["available"]) == (0, 40)
    assert tool_refusal(world, "check_stock", {"product_id": "PRD-9999"}) == tool_error(
        "not_found", "No product with id 'PRD-9999'.", "product_id"
    )


def test_a_reservation_is_written_whole_and_holds_the_units(world):
    before = copy.deepcopy(_product(world, "PRD-1001"))
    args = {"product_id": "PRD-1001", "customer_id": "CUS-1002", "quantity": 5}
    reservation = {
        "id": "RSV-1001",
        "product_id": "PRD-1001",
        "customer_id": "CUS-1002",
        "quantity": 5,
        "status": "held",
        "created_at": NOW,
    }
    held = {**before, "reserved": 5}
    assert tool_result(world, "reserve_stock", args) == {"reservation": reservation}
    assert _product(world, "PRD-1001") == held
    assert world.state.tables["reservations"]["RSV-1001"] == reservation
    assert world.ledger.entries[-1].effect == Effect.REVERSIBLE
    assert last_changes(world) == [("products", before, held), ("reservations", None, reservation)]
    assert tool_refusal(world, "reserve_stock", {**args, "quantity": 1}) == tool_error(
        "conflict", "Only 0 of Electric toothbrush available.", "quantity"
    )


def test_a_reservation_adds_to_what_is_reserved_up_to_what_is_available(world):
    _product(world, "PRD-1002")["reserved"] = 30
    args = {"product_id": "PRD-1002", "customer_id": "CUS-1002", "quantity": 11}
    assert tool_refusal(world, "reserve_stock", args) == tool_error(
        "conflict", "Only 10 of Floss (50m) available.", "quantity"
    )
    tool_result(world, "reserve_stock", {**args, "quantity": 10})
    assert _product(world, "PRD-1002")["reserved"] == 40
    _product(world, "PRD-1002").pop("reserved")
    tool_result(world, "reserve_stock", {**args, "quantity": 7})
    assert _product(world, "PRD-1002")["reserved"] == 7


def test_a_reservation_for_an_unknown_product_or_customer_is_refused(world):
    args = {"product_id": "PRD-1001", "customer_id": "CUS-1002", "quantity": 1}
    assert tool_refusal(world, "reserve_stock", {**args, "product_id": "PRD-9999"}) == tool_error(
        "not_found", "No product with id 'PRD-9999'.", "product_id"
    )
    assert tool_refusal(world, "reserve_stock", {**args, "customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


def test_a_released_reservation_is_written_whole_and_gives_the_units_back(world):
    tool_result(
        world, "reserve_stock", {"product_id": "PRD-1002", "customer_id": "CUS-1002", "quantity": 4}
    )
    _product(world, "PRD-1002")["reserved"] = 6  # another hold of 2 on file
    product = copy.deepcopy(_product(world, "PRD-1002"))
    reservation = copy.deepcopy(world.state.tables["reservations"]["RSV-1001"])
    released = {**reservation, "status": "released"}
    assert tool_result(world, "release_stock", {"reservation_id": "RSV-1001"}) == {
        "reservation": released
    }
    assert _product(world, "PRD-1002") == {**product, "reserved": 2}
    assert last_changes(world) == [
        ("products", product, {**product, "reserved": 2}),
        ("reservations", reservation, released),
    ]
    assert tool_refusal(world, "release_stock", {"reservation_id": "RSV-1001"}) == tool_error(
        "conflict", "Reservation RSV-1001 is released.", "reservation_id"
    )
    assert tool_refusal(world, "release_stock", {"reservation_id": "RSV-9999"}) == tool_error(
        "not_found", "No reservation with id 'RSV-9999'.", "reservation_id"
    )


@pytest.mark.parametrize("reserved", [None, 0, 3], ids=["none-on-file", "none", "fewer"])
def test_a_release_never_leaves_less_than_nothing_reserved(world, reserved):
    tool_result(
        world, "reserve_stock", {"product_id": "PRD-1002", "customer_id": "CUS-1002", "quantity": 4}
    )
    if reserved is None:
        _product(world, "PRD-1002").pop("reserved")
    else:
        _product(world, "PRD-1002")["reserved"] = reserved
    tool_result(world, "release_stock", {"reservation_id": "RSV-1001"})
    assert _product(world, "PRD-1002")["reserved"] == 0


def test_a_release_whose_product_is_gone_is_refused(world):
    tool_result(
        world, "reserve_stock", {"product_id": "PRD-1002", "customer_id": "CUS-1002", "quantity": 4}
    )
    world.state.tables["reservations"]["RSV-1001"]["product_id"] = "PRD-9999"
    assert tool_refusal(world, "release_stock", {"reservation_id": "RSV-1001"}) == tool_error(
        "not_found", "No product with id 'PRD-9999'.", "reservation_id"
    )


def test_a_customers_reservations_and_orders_are_listed_whole(world):
    tool_result(
        world, "reserve_stock", {"product_id": "PRD-1002", "customer_id": "CUS-1002", "quantity": 4}
    )
    rows = world.state.tables
    assert tool_result(world, "list_reservations", {"customer_id": "CUS-1002"}) == {
        "reservations": [rows["reservations"]["RSV-1001"]]
    }
    assert tool_result(world, "list_reservations", {"customer_id": "CUS-1003"}) == {
        "reservations": []
    }
    assert tool_result(world, "list_orders", {"customer_id": "CUS-1003"}) == {
        "orders": [rows["orders"]["ORD-1001"], rows["orders"]["ORD-1002"]]
    }
    assert tool_result(world, "list_orders", {"customer_id": "CUS-1002"}) == {"orders": []}
    assert tool_result(world, "get_order", {"order_id": "ORD-1002"}) == {
        "order": rows["orders"]["ORD-1002"]
    }
    for name, args, error in [
        (
            "list_reservations",
            {"customer_id": "CUS-9999"},
            tool_error("not_found", "No customer with id 'CUS-9999'.", "customer_id"),
        ),
        (
            "list_orders",
            {"customer_id": "CUS-9999"},
            tool_error("not_found", "No customer with id 'CUS-9999'.", "customer_id"),
        ),
        (
            "get_order",
            {"order_id": "ORD-9999"},
            tool_error("not_found", "No order with id 'ORD-9999'.", "order_id"),
        ),
    ]:
        assert tool_refusal(world, name, args) == error


def test_an_order_is_written_whole_takes_stock_and_is_not_paid(world):
    toothbrush, floss = (copy.deepcopy(_product(world, p)) for p in ("PRD-1001", "PRD-1002"))
    args = {
        "customer_id": "CUS-1002",
        "items": [
            {"product_id": "PRD-1001", "quantity": 2},
            {"product_id": "PRD-1002", "quantity": 3},
        ],
    }
    order = {
        "id": "ORD-1003",
        "customer_id": "CUS-1002",
        "items": [
            {"product_id": "PRD-1001", "quantity": 2, "price_cents": 4999},
            {"product_id": "PRD-1002", "quantity": 3, "price_cents": 399},
        ],
        "total_cents": 2 * 4999 + 3 * 399,
        "status": "placed",
        "placed_at": NOW,
        "delivered_at": None,
        "return_reason": None,
    }
    assert tool_result(world, "place_order", args) == {
        "order": order,
        "note": "The order is placed but not paid: charge it separately.",
    }
    assert world.state.tables["orders"]["ORD-1003"] == order
    assert world.ledger.entries[-1].effect == Effect.REVERSIBLE
    assert last_changes(world) == [
        ("products", toothbrush, {**toothbrush, "stock": 3}),
        ("products", floss, {**floss, "stock": 37}),
        ("orders", None, order),
    ]


def test_an_order_takes_what_is_available_counting_reservations_and_its_own_lines(world):
    _product(world, "PRD-1001")["reserved"] = 1
    line = {"product_id": "PRD-1001", "quantity": 2}
    args = {"customer_id": "CUS-1002", "items": [line, line, {**line, "quantity": 1}]}
    assert tool_refusal(world, "place_order", args) == tool_error(
        "conflict", "Only 0 of Electric toothbrush available.", "items[2].quantity"
    )
    assert tool_refusal(
        world, "place_order", {**args, "items": [{**line, "quantity": 5}]}
    ) == tool_error("conflict", "Only 4 of Electric toothbrush available.", "items[0].quantity")
    result = tool_result(world, "place_order", {**args, "items": [line, line]})
    assert result["order"]["total_cents"] == 4 * 4999
    assert _product(world, "PRD-1001")["stock"] == 1


def test_an_order_with_an_unknown_or_prescription_product_is_refused(world):
    line = {"product_id": "PRD-1002", "quantity": 1}
    args = {"customer_id": "CUS-1002", "items": [line, {**line, "product_id": "PRD-9999"}]}
    assert tool_refusal(world, "place_order", args) == tool_error(
        "not_found", "No product with id 'PRD-9999'.", "items[1].product_id"
    )
    _product(world, "PRD-1001")["prescription"] = True
    args = {"customer_id": "CUS-1002", "items": [line, {**line, "product_id": "PRD-1001"}]}
    assert tool_refusal(world, "place_order", args) == tool_error(
        "conflict",
        "Electric toothbrush needs a prescription and cannot be ordered by phone.",
        "items[1].product_id",
    )
    _product(world, "PRD-1001")["prescription"] = False
    assert tool_result(world, "place_order", args)["order"]["total_cents"] == 399 + 4999
    assert tool_refusal(world, "place_order", {**args, "customer_id": "CUS-9999"}) == tool_error(
        "not_found", "No customer with id 'CUS-9999'.", "customer_id"
    )


def test_a_cancelled_order_is_written_whole_and_restocked(world):
    order = copy.deepcopy(world.state.tables["orders"]["ORD-1002"])
    floss = copy.deepcopy(_product(world, "PRD-1002"))
    cancelled = {**order, "status": "cancelled"}
    assert tool_result(
        world, "cancel_order", {"order_id": "ORD-1002", "reason": "changed mind"}
    ) == {
        "order": cancelled,
        "note": "Any payment for this order is not refunded automatically.",
    }
    assert world.state.tables["orders"]["ORD-1002"] == cancelled
    assert last_changes(world) == [
        ("products", floss, {**floss, "stock": 42}),
        ("orders", order, cancelled),
    ]
    assert tool_refusal(world, "cancel_order", {"order_id": "ORD-1002"}) == tool_error(
        "conflict", "Order ORD-1002 is cancelled and can no longer be cancelled.", "order_id"
    )


def test_an_order_whose_product_is_gone_is_cancelled_without_restocking_it(world):
    world.state.tables["orders"]["ORD-1002"]["items"].insert(
        0, {"product_id": "PRD-9999", "quantity": 1, "price_cents": 100}
    )
    tool_result(world, "cancel_order", {"order_id": "ORD-1002"})
    assert _product(world, "PRD-1002")["stock"] == 42


def test_a_delivered_order_is_not_cancelled_but_returned(world):
    assert tool_refusal(world, "cancel_order", {"order_id": "ORD-1001"}) == tool_error(
        "conflict",
        "Order ORD-1001 is delivered and can no longer be cancelled. Start a return instead.",
        "order_id",
    )
    assert tool_refusal(world, "cancel_order", {"order_id": "ORD-9999"}) == tool_error(
        "not_found", "No order with id 'ORD-9999'.", "order_id"
    )
    order = copy.deepcopy(world.state.tables["orders"]["ORD-1001"])
    returned = {**order, "status": "return_started", "return_reason": "Too loud"}
    assert tool_result(world, "start_return", {"order_id": "ORD-1001", "reason": "Too loud"}) == {
        "order": returned,
        "note": "Refund is not issued automatically; it follows policy.",
    }
    assert last_changes(world) == [("orders", order, returned)]
    assert world.ledger.entries[-1].effect == Effect.REVERSIBLE


def test_a_return_needs_a_delivered_order_and_a_reason(world):
    assert tool_refusal(
        world, "start_return", {"order_id": "ORD-1002", "reason": "x"}
    ) == tool_error(
        "conflict",
        "Order ORD-1002 is placed; only delivered orders can be returned.",
        "order_id",
    )
    assert tool_refusal(
        world, "start_return", {"order_id": "ORD-1001", "reason": "  "}
    ) == tool_error("invalid_arguments", "Give the reason for the return.", "reason")
    assert tool_refusal(
        world, "start_return", {"order_id": "ORD-9999", "reason": "x"}
    ) == tool_error("not_found", "No order with id 'ORD-9999'.", "order_id")
