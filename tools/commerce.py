"""Store tools: products and stock, reservations, orders and returns."""

from __future__ import annotations

from typing import Any

from tools.common import public, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict, invalid
from tools.params import integer, obj, ref, text


def _available(product: dict[str, Any]) -> int:
    available: int = product["stock"] - product.get("reserved", 0)
    return available


def search_products(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    words = args["query"].lower().split()
    found = [
        {**public(p), "available": _available(p)}
        for p in tx.rows("products")
        if all(w in f"{p['name']} {p.get('sku', '')}".lower() for w in words)
    ]
    return {"products": found[:20], "count": len(found)}


def check_stock(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    product = require(tx, "products", args["product_id"], "product_id")
    return {
        "product_id": product["id"],
        "name": product["name"],
        "in_stock": product["stock"],
        "reserved": product.get("reserved", 0),
        "available": _available(product),
    }


def reserve_stock(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    product = require(tx, "products", args["product_id"], "product_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    quantity = args["quantity"]
    if quantity > _available(product):
        raise conflict(f"Only {_available(product)} of {product['name']} available.", "quantity")
    tx.update("products", product["id"], reserved=product.get("reserved", 0) + quantity)
    reservation = tx.insert(
        "reservations",
        {
            "product_id": product["id"],
            "customer_id": customer["id"],
            "quantity": quantity,
            "status": "held",
            "created_at": tx.now,
        },
    )
    return {"reservation": reservation}


def release_stock(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    reservation = require(tx, "reservations", args["reservation_id"], "reservation_id")
    if reservation["status"] != "held":
        raise conflict(
            f"Reservation {reservation['id']} is {reservation['status']}.", "reservation_id"
        )
    product = require(tx, "products", reservation["product_id"], "reservation_id")
    tx.update(
        "products",
        product["id"],
        reserved=max(0, product.get("reserved", 0) - reservation["quantity"]),
    )
    return {"reservation": tx.update("reservations", reservation["id"], status="released")}


def list_reservations(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    require(tx, "customers", args["customer_id"], "customer_id")
    return {"reservations": tx.find("reservations", customer_id=args["customer_id"])}


def list_orders(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    require(tx, "customers", args["customer_id"], "customer_id")
    return {"orders": tx.find("orders", customer_id=args["customer_id"])}


def get_order(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    return {"order": require(tx, "orders", args["order_id"], "order_id")}


def place_order(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    items, total = [], 0
    for index, item in enumerate(args["items"]):
        field = f"items[{index}].product_id"
        product = require(tx, "products", item["product_id"], field)
        if product.get("prescription"):
            raise conflict(
                f"{product['name']} needs a prescription and cannot be ordered by phone.", field
            )
        current = tx.get("products", product["id"]) or product
        if item["quantity"] > _available(current):
            raise conflict(
                f"Only {_available(current)} of {product['name']} available.",
                f"items[{index}].quantity",
            )
        tx.update("products", product["id"], stock=current["stock"] - item["quantity"])
        items.append(
            {
                "product_id": product["id"],
                "quantity": item["quantity"],
                "price_cents": product["price_cents"],
            }
        )
        total += product["price_cents"] * item["quantity"]
    order = tx.insert(
        "orders",
        {
            "customer_id": customer["id"],
            "items": items,
            "total_cents": total,
            "status": "placed",
            "placed_at": tx.now,
            "delivered_at": None,
            "return_reason": None,
        },
    )
    return {"order": order, "note": "The order is placed but not paid: charge it separately."}


def cancel_order(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    order = require(tx, "orders", args["order_id"], "order_id")
    if order["status"] != "placed":
        hint = " Start a return instead." if order["status"] == "delivered" else ""
        raise conflict(
            f"Order {order['id']} is {order['status']} and can no longer be cancelled.{hint}",
            "order_id",
        )
    for item in order["items"]:
        product = tx.get("products", item["product_id"])
        if product is not None:
            tx.update("products", product["id"], stock=product["stock"] + item["quantity"])
    return {
        "order": tx.update("orders", order["id"], status="cancelled"),
        "note": "Any payment for this order is not refunded automatically.",
    }


def start_return(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    order = require(tx, "orders", args["order_id"], "order_id")
    if order["status"] != "delivered":
        raise conflict(
            f"Order {order['id']} is {order['status']}; only delivered orders can be returned.",
            "order_id",
        )
    if not args["reason"].strip():
        raise invalid("Give the reason for the return.", "reason")
    return {
        "order": tx.update(
            "orders", order["id"], status="return_started", return_reason=args["reason"]
        ),
        "note": "Refund is not issued automatically; it follows policy.",
    }


_PRODUCT = ref("products", "The product id, e.g. PRD-1001.")
_ORDER = ref("orders", "The order id, e.g. ORD-1001.")
_CUSTOMER = ref("customers", "The customer's id.")

TOOLS = [
    Tool(
        "search_products",
        "Search products by words in the name or SKU; shows price and availability.",
        obj(["query"], query=text("Words to search for.", max_length=200)),
        Effect.READ,
        search_products,
        tables=("products",),
    ),
    Tool(
        "check_stock",
        "Stock on hand, reserved and available for one product.",
        obj(["product_id"], product_id=_PRODUCT),
        Effect.READ,
        check_stock,
        tables=("products",),
    ),
    Tool(
        "reserve_stock",
        "Hold units of a product for a customer.",
        obj(
            ["product_id", "customer_id", "quantity"],
            product_id=_PRODUCT,
            customer_id=_CUSTOMER,
            quantity=integer("How many units.", 1, 100),
        ),
        Effect.REVERSIBLE,
        reserve_stock,
        inverse="release_stock",
        tables=("products", "reservations"),
    ),
    Tool(
        "release_stock",
        "Release a held reservation back to stock.",
        obj(["reservation_id"], reservation_id=ref("reservations", "The reservation id.")),
        Effect.REVERSIBLE,
        release_stock,
        inverse="reserve_stock",
        tables=("reservations",),
    ),
    Tool(
        "list_reservations",
        "A customer's stock reservations (held, released or fulfilled).",
        obj(["customer_id"], customer_id=_CUSTOMER),
        Effect.READ,
        list_reservations,
        tables=("reservations",),
    ),
    Tool(
        "list_orders",
        "A customer's orders with status and items.",
        obj(["customer_id"], customer_id=_CUSTOMER),
        Effect.READ,
        list_orders,
        tables=("orders",),
    ),
    Tool(
        "get_order",
        "One order with status, items, totals and dates.",
        obj(["order_id"], order_id=_ORDER),
        Effect.READ,
        get_order,
        tables=("orders",),
    ),
    Tool(
        "place_order",
        "Place an order for a customer (takes stock; payment is a separate charge).",
        obj(
            ["customer_id", "items"],
            customer_id=_CUSTOMER,
            items={
                "type": "array",
                "minItems": 1,
                "maxItems": 20,
                "description": "What to order.",
                "items": obj(
                    ["product_id", "quantity"],
                    product_id=_PRODUCT,
                    quantity=integer("How many units.", 1, 100),
                ),
            },
        ),
        Effect.REVERSIBLE,
        place_order,
        inverse="cancel_order",
        tables=("orders", "products"),
    ),
    Tool(
        "cancel_order",
        "Cancel an order that has not shipped (restocks it; does not refund).",
        obj(["order_id"], order_id=_ORDER, reason=text("Why.", max_length=500)),
        Effect.REVERSIBLE,
        cancel_order,
        inverse="place_order",
        tables=("orders",),
    ),
    Tool(
        "start_return",
        "Open a return for a delivered order (does not refund by itself).",
        obj(
            ["order_id", "reason"],
            order_id=_ORDER,
            reason=text("Why it is returned.", max_length=500),
        ),
        Effect.REVERSIBLE,
        start_return,
        tables=("orders",),
    ),
]
