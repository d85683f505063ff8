"""Messages to customers, notes on their file, and the hand-off to a person."""

from __future__ import annotations

from typing import Any

from tools.common import require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import conflict
from tools.params import obj, ref, text


def send_sms(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    if not customer.get("phone"):
        raise conflict("The customer has no phone number on file.", "customer_id")
    message = tx.insert(
        "messages",
        {
            "customer_id": customer["id"],
            "channel": "sms",
            "to": customer["phone"],
            "subject": None,
            "body": args["body"],
            "sent_at": tx.now,
        },
    )
    return {"message": message}


def send_email(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    if not customer.get("email"):
        raise conflict("The customer has no email address on file.", "customer_id")
    message = tx.insert(
        "messages",
        {
            "customer_id": customer["id"],
            "channel": "email",
            "to": customer["email"],
            "subject": args["subject"],
            "body": args["body"],
            "sent_at": tx.now,
        },
    )
    return {"message": message}


def add_note(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    return {
        "note": tx.insert(
            "notes", {"customer_id": customer["id"], "body": args["body"], "at": tx.now}
        )
    }


def list_notes(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    require(tx, "customers", args["customer_id"], "customer_id")
    return {"notes": tx.find("notes", customer_id=args["customer_id"])}


def transfer_to_human(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    customer_id = args.get("customer_id")
    if customer_id:
        require(tx, "customers", customer_id, "customer_id")
    escalation = tx.insert(
        "escalations",
        {
            "customer_id": customer_id,
            "reason": args["reason"],
            "summary": args["summary"],
            "at": tx.now,
        },
    )
    return {"escalation": escalation, "note": "The caller is being transferred; the call ends now."}


_CUSTOMER = ref("customers", "The customer's id.")

TOOLS = [
    Tool(
        "send_sms",
        "Send a text message to the customer's phone on file. Cannot be unsent.",
        obj(
            ["customer_id", "body"],
            customer_id=_CUSTOMER,
            body=text("The message.", max_length=640),
        ),
        Effect.IRREVERSIBLE,
        send_sms,
        tables=("messages",),
    ),
    Tool(
        "send_email",
        "Send an email to the customer's address on file. Cannot be unsent.",
        obj(
            ["customer_id", "subject", "body"],
            customer_id=_CUSTOMER,
            subject=text("Subject line.", max_length=200),
            body=text("The message.", max_length=5000),
        ),
        Effect.IRREVERSIBLE,
        send_email,
        tables=("messages",),
    ),
    Tool(
        "add_note",
        "Add a note to the customer's file for staff (not sent to the customer).",
        obj(
            ["customer_id", "body"], customer_id=_CUSTOMER, body=text("The note.", max_length=2000)
        ),
        Effect.REVERSIBLE,
        add_note,
        tables=("notes",),
    ),
    Tool(
        "list_notes",
        "Read the notes on a customer's file.",
        obj(["customer_id"], customer_id=_CUSTOMER),
        Effect.READ,
        list_notes,
        tables=("notes",),
    ),
    Tool(
        "transfer_to_human",
        "Hand the call to a person on staff, with the reason and a summary for them. Ends the call.",
        obj(
            ["reason", "summary"],
            reason=text("Why a person is needed.", max_length=500),
            summary=text("What the caller wants and what was done so far.", max_length=2000),
            customer_id=_CUSTOMER,
        ),
        Effect.REVERSIBLE,
        transfer_to_human,
        tables=("escalations",),
        ends_call=True,
    ),
]
