"""Pharmacy tools: a patient's prescriptions, stock, refill and renewal requests, transfers out.

The tables are declared by the business (``prescriptions``, ``stock``, ``carers``, ``refills``,
``renewals``, ``transfers``; schemas in ``businesses/kits/pharmacy/tables.yaml``). A
prescription belongs to one patient (its ``customer_id``); a carer the patient authorised (a
``carers`` row) may hear about it and ask for refills and renewals on the patient's behalf, and
nobody else may. Hard limits are refusals with their own error codes, so the assistant learns
why and what to do instead:

    not_authorised        the requester is neither the patient nor a carer they authorised
    escalation_required   a controlled substance: refills and transfers are the pharmacist's
                          (the code every tool uses for "a person must do this", see tools/errors.py)
    no_refills_remaining  none left: ask the prescriber for a renewal instead
    prescription_inactive transferred out, expired or inactive: nothing more can be filled here

An *early* refill (before the prescription's ``refill_due`` date) is accepted and marked
``early: true``: whether it may be filled is the pharmacist's call, and the business's rules
(not the tool) say the assistant must not request one.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from tools.common import need_table, now, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import ToolError, conflict, invalid
from tools.params import obj, ref, text
from tools.timefmt import format_time, parse_date

_OPEN = ("requested", "ready")
# A refill in stock is ready this long after it is asked for (the pharmacy's fill queue).
_FILL_HOURS = 2


def _need(tx: WorldTx, table: str, field: str) -> None:
    need_table(tx, table, field, "This business keeps no prescription records.")


def _carers(tx: WorldTx, patient_id: str) -> list[dict[str, Any]]:
    if not tx.has_table("carers"):
        return []
    return [c for c in tx.find("carers", patient_id=patient_id) if c.get("status") == "active"]


def _authorise(tx: WorldTx, rx: dict[str, Any], requester_id: str) -> dict[str, Any]:
    """The requester's customer record, if they are the patient or an authorised carer."""
    requester = require(tx, "customers", requester_id, "customer_id")
    if requester["id"] == rx["customer_id"]:
        return requester
    if any(c["carer_id"] == requester["id"] for c in _carers(tx, rx["customer_id"])):
        return requester
    raise ToolError(
        "not_authorised",
        f"{requester['name']} is not the patient on {rx['id']} nor a carer the patient has "
        "authorised: they may not hear about or change this prescription.",
        "customer_id",
    )


def _active(tx: WorldTx, rx: dict[str, Any]) -> None:
    expires = rx.get("expires")
    if expires and now(tx).date() > parse_date(str(expires)):
        raise ToolError(
            "prescription_inactive",
            f"{rx['id']} expired on {expires}: ask the prescriber for a new prescription.",
            "prescription_id",
        )
    if rx["status"] != "active":
        raise ToolError(
            "prescription_inactive",
            f"{rx['id']} is {rx['status']}: nothing more can be filled from it here.",
            "prescription_id",
        )


def _stock_for(tx: WorldTx, rx: dict[str, Any]) -> dict[str, Any] | None:
    if not tx.has_table("stock"):
        return None
    return next(
        (
            s
            for s in tx.rows("stock")
            if s["drug"].lower() == rx["drug"].lower()
            and s.get("strength", "").lower() == rx.get("strength", "").lower()
        ),
        None,
    )


def list_prescriptions(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """The patient's prescriptions, their open refill requests and their authorised carers."""
    _need(tx, "prescriptions", "customer_id")
    patient = require(tx, "customers", args["customer_id"], "customer_id")
    rxs = [dict(r) for r in tx.find("prescriptions", customer_id=patient["id"])]
    ids = {r["id"] for r in rxs}
    refills = [
        dict(r)
        for r in (tx.rows("refills") if tx.has_table("refills") else [])
        if r["prescription_id"] in ids and r["status"] in _OPEN
    ]
    carers = []
    for c in _carers(tx, patient["id"]):
        person = tx.get("customers", c["carer_id"])
        name = person["name"] if person else c["carer_id"]
        carers.append(
            {"customer_id": c["carer_id"], "name": name, "relationship": c["relationship"]}
        )
    return {"prescriptions": rxs, "open_refills": refills, "authorised_carers": carers}


def check_drug_stock(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Stock on hand of the drugs whose name contains ``drug`` (and the next delivery)."""
    _need(tx, "stock", "drug")
    wanted = args["drug"].strip().lower()
    if not wanted:
        raise invalid("Name the drug to check.", "drug")
    rows = [dict(s) for s in tx.rows("stock") if wanted in s["drug"].lower()]
    return {"stock": rows, "count": len(rows)}


def _ready_at(tx: WorldTx, rx: dict[str, Any]) -> str | None:
    stock = _stock_for(tx, rx)
    if stock is not None and stock["on_hand"] >= rx["quantity"]:
        return format_time(now(tx) + timedelta(hours=_FILL_HOURS))
    if stock is not None and stock.get("restock_on"):
        return format_time(datetime.combine(parse_date(stock["restock_on"]), time(14, 0)))
    return None


def request_refill(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Queue a refill of the prescription for pick-up, asked for by the patient or a carer."""
    _need(tx, "refills", "prescription_id")
    rx = require(tx, "prescriptions", args["prescription_id"], "prescription_id")
    requester = _authorise(tx, rx, args["customer_id"])
    _active(tx, rx)
    if rx.get("controlled"):
        raise ToolError(
            "escalation_required",
            f"{rx['drug']} is a controlled substance: only the pharmacist can refill it.",
            "prescription_id",
        )
    if rx["refills_remaining"] <= 0:
        raise ToolError(
            "no_refills_remaining",
            f"{rx['id']} has no refills left: ask the prescriber ({rx['prescriber']}) for a "
            "renewal instead.",
            "prescription_id",
        )
    for existing in tx.find("refills", prescription_id=rx["id"]):
        if existing["status"] in _OPEN:
            raise conflict(
                f"Refill {existing['id']} is already {existing['status']}.", "prescription_id"
            )
    due = rx.get("refill_due")
    early = bool(due) and now(tx).date() < parse_date(str(due))
    refill = tx.insert(
        "refills",
        {
            "prescription_id": rx["id"],
            "customer_id": rx["customer_id"],
            "requested_by": requester["id"],
            "status": "requested",
            "early": early,
            "requested_at": tx.now,
            "ready_at": _ready_at(tx, rx),
        },
    )
    return {"refill": refill, "early": early, "refill_due": due}


def cancel_refill(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Withdraw a refill request that has not been filled yet."""
    _need(tx, "refills", "refill_id")
    refill = require(tx, "refills", args["refill_id"], "refill_id")
    rx = require(tx, "prescriptions", refill["prescription_id"], "refill_id")
    _authorise(tx, rx, args["customer_id"])
    if refill["status"] != "requested":
        raise conflict(
            f"Refill {refill['id']} is {refill['status']}: it can no longer be withdrawn.",
            "refill_id",
        )
    return {"refill": tx.update("refills", refill["id"], status="cancelled")}


def request_renewal(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Ask the prescriber for a new prescription when none are left or it has expired."""
    _need(tx, "renewals", "prescription_id")
    rx = require(tx, "prescriptions", args["prescription_id"], "prescription_id")
    requester = _authorise(tx, rx, args["customer_id"])
    if rx["status"] == "transferred":
        raise ToolError(
            "prescription_inactive", f"{rx['id']} was transferred out.", "prescription_id"
        )
    expires = rx.get("expires")
    expired = bool(expires) and now(tx).date() > parse_date(str(expires))
    if rx["refills_remaining"] > 0 and not expired:
        raise conflict(
            f"{rx['id']} still has {rx['refills_remaining']} refill(s): request a refill instead.",
            "prescription_id",
        )
    for existing in tx.find("renewals", prescription_id=rx["id"]):
        if existing["status"] == "sent":
            raise conflict(
                f"Renewal {existing['id']} was already sent to the prescriber.", "prescription_id"
            )
    renewal = tx.insert(
        "renewals",
        {
            "prescription_id": rx["id"],
            "customer_id": rx["customer_id"],
            "requested_by": requester["id"],
            "prescriber": rx["prescriber"],
            "status": "sent",
            "requested_at": tx.now,
        },
    )
    return {"renewal": renewal}


def transfer_prescription(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Move the prescription, with its remaining refills, to another pharmacy. Cannot be undone."""
    _need(tx, "transfers", "prescription_id")
    rx = require(tx, "prescriptions", args["prescription_id"], "prescription_id")
    patient = require(tx, "customers", args["customer_id"], "customer_id")
    if patient["id"] != rx["customer_id"]:
        raise ToolError(
            "not_authorised",
            f"Only the patient on {rx['id']} may move it elsewhere.",
            "customer_id",
        )
    _active(tx, rx)
    if rx.get("schedule") == "II":
        raise ToolError(
            "escalation_required",
            f"{rx['drug']} is Schedule II: it cannot be transferred; the patient needs a new "
            "prescription at the other pharmacy.",
            "prescription_id",
        )
    record = tx.insert(
        "transfers",
        {
            "prescription_id": rx["id"],
            "customer_id": rx["customer_id"],
            "to_pharmacy": args["to_pharmacy"],
            "to_phone": args["to_phone"],
            "refills_transferred": rx["refills_remaining"],
            "at": tx.now,
        },
    )
    moved = tx.update("prescriptions", rx["id"], status="transferred", refills_remaining=0)
    return {"transfer": record, "prescription": moved}


_RX = ref("prescriptions", "The prescription's id, e.g. RX-1001.")
_WHO = ref(
    "customers",
    "Who is asking, verified on this call: the patient, or a carer the patient authorised.",
)

TOOLS = [
    Tool(
        "list_prescriptions",
        "A patient's prescriptions (drug, strength, refills left, refill due date, controlled or "
        "not, prescriber, status), their open refill requests and the carers they authorised.",
        obj(["customer_id"], customer_id=ref("customers", "The patient's customer id.")),
        Effect.READ,
        list_prescriptions,
        tables=("prescriptions",),
    ),
    Tool(
        "check_drug_stock",
        "How much of a drug the pharmacy has on hand, by strength, and when more arrives.",
        obj(["drug"], drug=text("The drug name, or part of it, e.g. metformin.", max_length=80)),
        Effect.READ,
        check_drug_stock,
        tables=("stock",),
    ),
    Tool(
        "request_refill",
        "Queue a refill of a prescription for pick-up. Refused for controlled substances "
        "(pharmacist only), with no refills left (ask for a renewal), or for a requester who is "
        "neither the patient nor an authorised carer. Says whether the refill is early.",
        obj(["prescription_id", "customer_id"], prescription_id=_RX, customer_id=_WHO),
        Effect.REVERSIBLE,
        request_refill,
        inverse="cancel_refill",
        tables=("refills", "prescriptions"),
    ),
    Tool(
        "cancel_refill",
        "Withdraw a refill request that has not been filled yet.",
        obj(
            ["refill_id", "customer_id"],
            refill_id=ref("refills", "The refill request's id, e.g. RF-1001."),
            customer_id=_WHO,
        ),
        Effect.REVERSIBLE,
        cancel_refill,
        inverse="request_refill",
        tables=("refills", "prescriptions"),
    ),
    Tool(
        "request_renewal",
        "Send the prescriber a request for a new prescription (no refills left, or expired).",
        obj(["prescription_id", "customer_id"], prescription_id=_RX, customer_id=_WHO),
        Effect.REVERSIBLE,
        request_renewal,
        tables=("renewals", "prescriptions"),
    ),
    Tool(
        "transfer_prescription",
        "Transfer a prescription and its remaining refills to another pharmacy. Irreversible: "
        "the prescription can no longer be filled here.",
        obj(
            ["prescription_id", "customer_id", "to_pharmacy", "to_phone"],
            prescription_id=_RX,
            customer_id=ref("customers", "The patient (only they may move it)."),
            to_pharmacy=text("The receiving pharmacy's name and branch.", max_length=120),
            to_phone=text("The receiving pharmacy's phone number.", max_length=40),
        ),
        Effect.IRREVERSIBLE,
        transfer_prescription,
        tables=("transfers", "prescriptions"),
    ),
]
