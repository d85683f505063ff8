"""Prescription tools for a veterinary practice: a pet's prescriptions, and refill requests
(``list_pet_prescriptions``, ``request_pet_refill``; a pharmacy's are in :mod:`tools.prescriptions`).

Both tables are declared by the business (``prescriptions``, ``refill_requests``; schemas in
``businesses/kits/veterinary_clinic/tables.yaml``). A refill is never dispensed by phone: the
request goes to the vet's queue (``pending_vet``) and a vet approves or declines it. A
prescription with no refills left, expired or stopped cannot be queued: a vet has to prescribe
again, so the tool refuses with code ``escalation_required`` (the call belongs to a person), as
a practice system would. It also refuses another household's pet and a second pending request.
"""

from __future__ import annotations

from typing import Any

from tools.common import need_table, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import ToolError, conflict
from tools.params import obj, ref, text
from tools.pets import keepers


def _need(tx: WorldTx, table: str, field: str) -> None:
    need_table(tx, table, field, "This business keeps no prescription records.")


def list_pet_prescriptions(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """The pet's prescriptions: drug, directions, refills left, expiry, status."""
    _need(tx, "prescriptions", "pet_id")
    pet = require(tx, "pets", args["pet_id"], "pet_id")
    return {"prescriptions": tx.find("prescriptions", pet_id=pet["id"])}


def request_pet_refill(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Queue a refill request for the vet to approve, on behalf of the pet's owner or co-owner."""
    _need(tx, "refill_requests", "prescription_id")
    rx = require(tx, "prescriptions", args["prescription_id"], "prescription_id")
    pet = require(tx, "pets", rx["pet_id"], "prescription_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    if customer["id"] not in keepers(pet):
        raise conflict(f"{customer['name']} is not an owner of {pet['name']}.", "customer_id")
    why = {"stopped": "was stopped by the vet", "expired": "has expired"}.get(rx["status"])
    if why is None and rx["refills_left"] <= 0:
        why = "has no refills left"
    if why is not None:
        raise ToolError(
            "escalation_required",
            f"{rx['drug']} for {pet['name']} {why}: a vet must speak with the owner before any"
            " more is dispensed. Nothing was queued; transfer the call to a person.",
            "prescription_id",
        )
    pending = tx.find("refill_requests", prescription_id=rx["id"], status="pending_vet")
    if pending:
        raise conflict(
            f"Refill request {pending[0]['id']} is already with the vet.", "prescription_id"
        )
    request = tx.insert(
        "refill_requests",
        {
            "prescription_id": rx["id"],
            "pet_id": pet["id"],
            "customer_id": customer["id"],
            "status": "pending_vet",
            "requested_at": tx.now,
            "note": args.get("note", ""),
        },
    )
    return {"refill_request": request}


TOOLS = [
    Tool(
        "list_pet_prescriptions",
        "A pet's prescriptions: drug, strength, directions, refills left, expiry and status.",
        obj(["pet_id"], pet_id=ref("pets", "The pet's id, e.g. PET-1001.")),
        Effect.READ,
        list_pet_prescriptions,
        tables=("prescriptions",),
    ),
    Tool(
        "request_pet_refill",
        "Send a refill request to the vet's queue for approval (nothing is dispensed until a vet"
        " approves it), for the pet's owner or a co-owner.",
        obj(
            ["prescription_id", "customer_id"],
            prescription_id=ref("prescriptions", "The prescription's id, e.g. RX-1001."),
            customer_id=ref("customers", "Who asks: the pet's owner or a co-owner."),
            note=text("Anything the vet should know (how many doses are left).", max_length=500),
        ),
        Effect.REVERSIBLE,
        request_pet_refill,
        tables=("refill_requests", "prescriptions", "pets"),
    ),
]
