"""Customer tools: find, verify, read and update contact details."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from tools.common import public, require
from tools.contract import Effect, Tool, WorldTx
from tools.errors import invalid
from tools.params import date, obj, ref, text

_NOT_DIGIT = re.compile(r"\D")


# A phone lookup compares the given number with every customer's: the stored side repeats
# across calls and episodes. Bounded, so memory stays flat.
@lru_cache(maxsize=8192)
def _digits(value: str) -> str:
    return _NOT_DIGIT.sub("", value)


def same_phone(given: str, stored: str | None) -> bool:
    """Phones match when one's digits end the other's (country codes vary), 7 digits at least."""
    return _same_digits(_digits(given), _digits(stored or ""))


def _same_digits(a: str, b: str) -> bool:
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 7 and long.endswith(short)


def find_customer(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    phone, email, name = args.get("phone"), args.get("email"), args.get("name")
    if not (phone or email or name):
        raise invalid("Give at least one of phone, email or name.", "phone")
    matches = []
    # The given side read once, not once per customer (a lookup reads every record).
    given_digits = _digits(phone) if phone else ""
    given_email = email.strip().lower() if email else ""
    given_name = name.strip().lower() if name else ""
    for record in tx.rows("customers"):
        if phone and not _same_digits(given_digits, _digits(record.get("phone") or "")):
            continue
        if email and given_email != (record.get("email") or "").lower():
            continue
        if name and given_name not in record.get("name", "").lower():
            continue
        matches.append({k: record.get(k) for k in ("id", "name", "phone", "email")})
    return {"matches": matches[:10], "count": len(matches)}


def verify_customer(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    record = require(tx, "customers", args["customer_id"], "customer_id")
    given = {k: args[k] for k in ("dob", "postcode", "phone") if args.get(k)}
    if not given:
        raise invalid("Give at least one of dob, postcode or phone to check.", "dob")
    mismatched = []
    for key, value in given.items():
        stored = record.get(key)
        if key == "phone":
            same = same_phone(value, stored)
        else:
            same = stored is not None and value.strip().lower() == str(stored).lower()
        if not same:
            mismatched.append(key)
    return {
        "customer_id": record["id"],
        "verified": not mismatched,
        "checked": sorted(given),
        "mismatched": mismatched,
    }


def get_customer(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    return {"customer": public(require(tx, "customers", args["customer_id"], "customer_id"))}


def update_customer_contact(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    require(tx, "customers", args["customer_id"], "customer_id")
    changes = {k: args[k] for k in ("phone", "email", "address") if k in args}
    if not changes:
        raise invalid("Give at least one of phone, email or address to change.", "phone")
    record = tx.update("customers", args["customer_id"], **changes)
    return {"customer": public(record), "updated": sorted(changes)}


_CUSTOMER = ref("customers", "The customer's id, e.g. CUS-1001.")

TOOLS = [
    Tool(
        "find_customer",
        "Look up customers by phone number, email or (part of) name. Returns id, name and contact.",
        obj(
            phone=text("Phone number, any formatting."),
            email=text("Email address."),
            name=text("Full or partial name."),
        ),
        Effect.READ,
        find_customer,
        tables=("customers",),
    ),
    Tool(
        "verify_customer",
        "Check identity details the caller gave against the customer's record. "
        "Returns verified true/false; never reveals the stored values.",
        obj(
            ["customer_id"],
            customer_id=_CUSTOMER,
            dob=date("Date of birth the caller stated."),
            postcode=text("Postcode the caller stated.", max_length=20),
            phone=text("Phone number the caller stated.", max_length=40),
        ),
        Effect.READ,
        verify_customer,
        tables=("customers",),
    ),
    Tool(
        "get_customer",
        "Read a customer's record (contact details, store credit, tags).",
        obj(["customer_id"], customer_id=_CUSTOMER),
        Effect.READ,
        get_customer,
        tables=("customers",),
    ),
    Tool(
        "update_customer_contact",
        "Change a customer's phone, email or postal address.",
        obj(
            ["customer_id"],
            customer_id=_CUSTOMER,
            phone=text("New phone number.", max_length=40),
            email=text("New email address.", max_length=200),
            address=text("New postal address.", max_length=300),
        ),
        Effect.REVERSIBLE,
        update_customer_contact,
        inverse="update_customer_contact",
        tables=("customers",),
    ),
]
