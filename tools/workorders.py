"""Repair-shop tools: a customer's vehicles, their work orders, approving an estimate, loaners.

The tables are declared by the business (``vehicles``, ``work_orders``, ``loaners``,
``loaner_bookings``; schemas in ``businesses/kits/auto_repair/business.yaml.j2``). A vehicle has
one owner and may have co-owners: they are its *keepers*, the only customers whose work orders
a tool shows or lets approve. Whoever merely dropped the car off is a name on the work order,
not a keeper.

Approving an estimate authorises the shop to do the work up to an amount. The estimate's lines
are covered in their order while the running total fits the amount. Approval is reversible
(the amount can be changed, or withdrawn, before the work starts) except when it covers a
special-order part: those are ordered the moment the work is approved and cannot be returned,
so that approval is irreversible. Whether an approval, a complimentary loaner or a warranty
decision is within the assistant's authority is policy, checked by the scorer, not here.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from tools.common import arg_date, need_table, now, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict, invalid
from tools.params import cents, obj, ref
from tools.params import date as date_param

# An approval (new or changed) is possible only before the work has started.
_APPROVABLE = ("awaiting_approval", "approved")
_LIVE_BOOKINGS = ("booked", "out")


def keepers(vehicle: dict[str, Any]) -> list[str]:
    """The owner and co-owners of a vehicle: who may hear about and approve its work."""
    return [vehicle["owner_id"], *vehicle.get("co_owner_ids", [])]


def _need(tx: WorldTx, table: str, field: str) -> None:
    need_table(tx, table, field, "This business keeps no vehicle or work-order records.")


def _vehicle_of(tx: WorldTx, order: dict[str, Any]) -> dict[str, Any]:
    return require(tx, "vehicles", order["vehicle_id"], "work_order_id")


def _keeper_of(tx: WorldTx, order: dict[str, Any], customer: dict[str, Any]) -> dict[str, Any]:
    vehicle = _vehicle_of(tx, order)
    if customer["id"] not in keepers(vehicle):
        raise conflict(
            f"{customer['name']} is not an owner or co-owner of the {vehicle['year']} "
            f"{vehicle['make']} {vehicle['model']} on {order['id']}.",
            "customer_id",
        )
    return vehicle


def covered_lines(order: dict[str, Any], amount_cents: int) -> list[dict[str, Any]]:
    """The estimate lines an approval of ``amount_cents`` covers: in order, while they fit."""
    out, total = [], 0
    for line in order.get("lines", []):
        if total + line["cents"] > amount_cents:
            break
        total += line["cents"]
        out.append(line)
    return out


def list_vehicles(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """The vehicles the customer owns or co-owns."""
    _need(tx, "vehicles", "customer_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    return {"vehicles": [v for v in tx.rows("vehicles") if customer["id"] in keepers(v)]}


def list_work_orders(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """The work orders on the customer's vehicles (optionally one vehicle), newest first."""
    _need(tx, "work_orders", "customer_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    mine = {v["id"] for v in tx.rows("vehicles") if customer["id"] in keepers(v)}
    wanted = args.get("vehicle_id")
    if wanted is not None:
        vehicle = require(tx, "vehicles", wanted, "vehicle_id")
        if vehicle["id"] not in mine:
            raise conflict(f"{customer['name']} is not an owner of vehicle {wanted}.", "vehicle_id")
        mine = {wanted}
    orders = [o for o in tx.rows("work_orders") if o["vehicle_id"] in mine]
    orders.sort(key=lambda o: (o.get("opened_at") or "", o["id"]), reverse=True)
    return {"work_orders": orders}


def approve_work_order(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Authorise the work on an estimate up to ``amount_cents``, for an owner or co-owner."""
    _need(tx, "work_orders", "work_order_id")
    order = require(tx, "work_orders", args["work_order_id"], "work_order_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    _keeper_of(tx, order, customer)
    if order["status"] not in _APPROVABLE:
        raise conflict(
            f"{order['id']} is {order['status'].replace('_', ' ')}: an estimate can be approved "
            "only before the work starts.",
            "work_order_id",
        )
    amount = args["amount_cents"]
    if amount > order["estimate_cents"]:
        raise conflict(
            f"{order['id']}'s estimate is {order['estimate_cents']} cents; approve at most that "
            "(a larger job needs a new estimate).",
            "amount_cents",
        )
    lines = covered_lines(order, amount)
    if not lines:
        first = order["lines"][0]["cents"] if order.get("lines") else 0
        raise conflict(
            f"{amount} cents covers no line of the estimate (the first line is {first} cents).",
            "amount_cents",
        )
    special = [line["description"] for line in lines if line.get("special_order")]
    if special:
        tx.escalate_effect(
            Effect.IRREVERSIBLE,
            "approval orders special-order parts that cannot be returned: " + ", ".join(special),
        )
    updated = tx.update(
        "work_orders",
        order["id"],
        status="approved",
        approved_cents=amount,
        approved_by=customer["id"],
        approved_at=tx.now,
    )
    return {"work_order": updated, "approved_lines": lines}


def _overlaps(booking: dict[str, Any], start: date, until: date) -> bool:
    return not (
        arg_date(booking["until"], "until") < start or arg_date(booking["start"], "until") > until
    )


def book_loaner(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Book a loaner car from today until a date, free or at the car's daily rate."""
    _need(tx, "loaner_bookings", "work_order_id")
    order = require(tx, "work_orders", args["work_order_id"], "work_order_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    _keeper_of(tx, order, customer)
    if order["status"] in ("completed", "declined"):
        raise conflict(f"{order['id']} is {order['status']}: no loaner is needed.", "work_order_id")
    start = now(tx).date()
    until = arg_date(args["until"], "until")
    if until < start:
        raise invalid(f"{args['until']} is before today ({start.isoformat()}).", "until")
    bookings = [b for b in tx.rows("loaner_bookings") if b["status"] in _LIVE_BOOKINGS]
    for booking in bookings:
        if booking["work_order_id"] == order["id"]:
            raise conflict(
                f"Loaner booking {booking['id']} already covers {order['id']}.", "work_order_id"
            )
    cars = [c for c in tx.rows("loaners") if c["status"] == "available"]
    wanted = args.get("loaner_id")
    if wanted is not None:
        cars = [require(tx, "loaners", wanted, "loaner_id")]
    for car in cars:
        if car["status"] == "available" and not any(
            b["loaner_id"] == car["id"] and _overlaps(b, start, until) for b in bookings
        ):
            booking = tx.insert(
                "loaner_bookings",
                {
                    "loaner_id": car["id"],
                    "customer_id": customer["id"],
                    "work_order_id": order["id"],
                    "start": start.isoformat(),
                    "until": until.isoformat(),
                    "daily_cents": 0 if args["complimentary"] else car["daily_cents"],
                    "status": "booked",
                },
            )
            return {"loaner_booking": booking, "loaner": dict(car)}
    field = "loaner_id" if wanted is not None else "until"
    raise conflict(f"No loaner car is free from {start.isoformat()} to {until.isoformat()}.", field)


_CUSTOMER = ref("customers", "The customer's id (an owner or co-owner of the vehicle).")

TOOLS = [
    Tool(
        "list_vehicles",
        "The vehicles a customer owns or co-owns (year, make, model, plate, co-owners).",
        obj(["customer_id"], customer_id=ref("customers", "The customer's id.")),
        Effect.READ,
        list_vehicles,
        tables=("vehicles",),
    ),
    Tool(
        "list_work_orders",
        "Work orders on a customer's vehicles: status, estimate lines, what is approved, parts "
        "on order with their expected dates, promised date, warranty.",
        obj(
            ["customer_id"],
            customer_id=ref("customers", "The customer's id (an owner or co-owner)."),
            vehicle_id=ref("vehicles", "Only this vehicle's work orders, e.g. VEH-1001."),
        ),
        Effect.READ,
        list_work_orders,
        tables=("work_orders", "vehicles"),
    ),
    Tool(
        "approve_work_order",
        "Record an owner's or co-owner's approval of an estimate up to an amount: the shop may "
        "then do the estimate's lines, in order, that fit within it. Can be changed before the "
        "work starts, except that approving special-order parts orders them (not returnable).",
        obj(
            ["work_order_id", "customer_id", "amount_cents"],
            work_order_id=ref("work_orders", "The work order, e.g. WO-1001."),
            customer_id=_CUSTOMER,
            amount_cents=cents("The most the customer approves, in cents."),
        ),
        Effect.REVERSIBLE,
        approve_work_order,
        tables=("work_orders", "vehicles"),
    ),
    Tool(
        "book_loaner",
        "Book a loaner car for a customer whose vehicle is in the shop, from today until a date; "
        "complimentary (free) or at the car's daily rate.",
        obj(
            ["work_order_id", "customer_id", "until", "complimentary"],
            work_order_id=ref("work_orders", "The work order the loaner covers."),
            customer_id=_CUSTOMER,
            until=date_param("The day the loaner comes back."),
            complimentary={"type": "boolean", "description": "True for no charge."},
            loaner_id=ref("loaners", "A particular loaner car (default: the first free one)."),
        ),
        Effect.REVERSIBLE,
        book_loaner,
        tables=("loaner_bookings", "loaners", "work_orders", "vehicles"),
    ),
]
