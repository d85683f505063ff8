"""Pet tools for a veterinary practice: a client's pets, and vaccination reminders.

Both tables are declared by the business (``pets``, ``vaccination_reminders``; schemas in
``businesses/kits/veterinary_clinic/tables.yaml``). A pet has one owner and may have
co-owners; a reminder goes to one of them, so a caller cannot point another household's pet
reminders at themselves.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from tools.common import need_table, now, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict
from tools.params import choice, integer, obj, ref, text
from tools.timefmt import format_time, parse_date


def keepers(pet: dict[str, Any]) -> list[str]:
    """The pet's owner and co-owners (customer ids)."""
    return [pet["owner_id"], *pet.get("co_owner_ids", [])]


def _need(tx: WorldTx, table: str, field: str) -> None:
    need_table(tx, table, field, "This business keeps no pet records.")


def list_pets(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """The pets the customer owns or co-owns, with their vaccinations."""
    _need(tx, "pets", "customer_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    pets = [p for p in tx.rows("pets") if customer["id"] in keepers(p)]
    return {"pets": pets}


def record_vaccination_reminder(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Schedule a reminder ``days_before`` the vaccine's due date, to an owner or co-owner."""
    _need(tx, "vaccination_reminders", "pet_id")
    pet = require(tx, "pets", args["pet_id"], "pet_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    if customer["id"] not in keepers(pet):
        raise conflict(f"{customer['name']} is not an owner of {pet['name']}.", "customer_id")
    wanted = args["vaccine"].strip().lower()
    record = next((v for v in pet.get("vaccinations", []) if v["vaccine"].lower() == wanted), None)
    if record is None:
        known = ", ".join(v["vaccine"] for v in pet.get("vaccinations", [])) or "none"
        raise conflict(
            f"{pet['name']} has no {args['vaccine']} vaccination on record (on record: {known}).",
            "vaccine",
        )
    channel = args["channel"]
    if channel == "email" and not customer.get("email"):
        raise conflict("The customer has no email address on file.", "channel")
    due = parse_date(record["due"])
    days = args.get("days_before", 14)
    send_at = datetime.combine(due - timedelta(days=days), time(9, 0))
    if send_at < now(tx):
        raise conflict(
            f"{pet['name']}'s {record['vaccine']} is due {record['due']}: a reminder {days} days"
            " before would be in the past; book the vaccination instead.",
            "days_before",
        )
    for existing in tx.find("vaccination_reminders", pet_id=pet["id"], status="scheduled"):
        if existing["vaccine"].lower() == wanted and existing["customer_id"] == customer["id"]:
            raise conflict(f"Reminder {existing['id']} is already scheduled.", "vaccine")
    reminder = tx.insert(
        "vaccination_reminders",
        {
            "pet_id": pet["id"],
            "customer_id": customer["id"],
            "vaccine": record["vaccine"],
            "due": record["due"],
            "channel": channel,
            "send_at": format_time(send_at),
            "status": "scheduled",
        },
    )
    return {"reminder": reminder}


TOOLS = [
    Tool(
        "list_pets",
        "The pets a customer owns or co-owns, with vaccinations given and due.",
        obj(["customer_id"], customer_id=ref("customers", "The customer's id.")),
        Effect.READ,
        list_pets,
        tables=("pets",),
    ),
    Tool(
        "record_vaccination_reminder",
        "Schedule a reminder before a pet's vaccination is due, to its owner or a co-owner.",
        obj(
            ["pet_id", "customer_id", "vaccine", "channel"],
            pet_id=ref("pets", "The pet's id, e.g. PET-1001."),
            customer_id=ref("customers", "Who gets the reminder: the owner or a co-owner."),
            vaccine=text("The vaccine as on the pet's record, e.g. Rabies.", max_length=60),
            channel=choice(["sms", "email"], "How to send it."),
            days_before=integer("Days before the due date (default 14).", 1, 60),
        ),
        Effect.REVERSIBLE,
        record_vaccination_reminder,
        tables=("vaccination_reminders", "pets"),
    ),
]
