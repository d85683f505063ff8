"""Internet-provider tools: service accounts, plans, area outages and their credits, cancelling
a service, and porting a phone number away.

The tables are declared by the business (``service_accounts``, ``plans``, ``outages``,
``port_outs``; schemas in ``businesses/kits/internet_provider/business.yaml.j2``). An account
has one holder and may list authorised users. Who may do what is enforced here, because a
provider's billing system enforces it too: the holder or an authorised user may change the plan
and claim an outage credit; only the holder may cancel or port the number away. Every write
takes ``customer_id``, the verified caller acting, so the scorer's verification rule checks the
right person.

Bounds the tools enforce (the policy's soft rules are the scorer's): an outage credit is for an
ended outage in the account's area, at least as long as the plan's credit threshold, once per
outage, and at most one day of the plan's monthly price per started 24 hours of the outage.
Cancelling inside the contract bills the early-termination fee and ends the contract for good,
so that one call is irreversible; a port-out always is.
"""

from __future__ import annotations

import math
from typing import Any

from tools.common import money, need_table, now, require
from tools.contract import Effect, Tool, WorldTx
from tools.customers import same_phone
from tools.errors import conflict
from tools.params import cents, obj, ref, text
from tools.timefmt import parse_date, parse_time

_LINKS = ("order_id", "appointment_id", "subscription_id")


def _need(tx: WorldTx, table: str, field: str) -> None:
    need_table(tx, table, field, "This business keeps no internet service accounts.")


def _role(account: dict[str, Any], customer_id: str) -> str | None:
    if account["holder_id"] == customer_id:
        return "holder"
    if customer_id in account.get("authorised_user_ids", []):
        return "authorised_user"
    return None


def _acting(
    tx: WorldTx, args: dict[str, Any], *, holder_only: bool = False
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The account and the customer acting on it, refused unless they may."""
    _need(tx, "service_accounts", "account_id")
    account = require(tx, "service_accounts", args["account_id"], "account_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    role = _role(account, customer["id"])
    if role is None:
        raise conflict(
            f"{customer['name']} is neither the holder nor an authorised user of {account['id']}.",
            "customer_id",
        )
    if holder_only and role != "holder":
        raise conflict(
            f"{customer['name']} is an authorised user of {account['id']}; only the account"
            " holder may do this.",
            "customer_id",
        )
    if account["status"] != "active":
        raise conflict(f"Account {account['id']} is {account['status']}.", "account_id")
    return account, customer


def _ongoing(tx: WorldTx, outage: dict[str, Any]) -> bool:
    # The network team enters the expected end with the outage; until then it is ongoing.
    return not outage.get("end") or parse_time(outage["end"]) > now(tx)


def _hours(outage: dict[str, Any]) -> float:
    return (parse_time(outage["end"]) - parse_time(outage["start"])).total_seconds() / 3600


def outage_credit_limit(tx: WorldTx, outage: dict[str, Any], plan: dict[str, Any]) -> int:
    """The most an outage earns on a plan: a day's price (monthly / 30, rounded down) per
    started 24 hours, never more than the monthly price; 0 if it is ongoing or too short."""
    if _ongoing(tx, outage):
        return 0
    hours = _hours(outage)
    if hours < plan["outage_credit_after_hours"]:
        return 0
    days = max(1, math.ceil(hours / 24))
    return int(min(plan["price_cents"], days * (plan["price_cents"] // 30)))


def list_service_accounts(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """The accounts a customer holds or is an authorised user on, with their plan and role."""
    _need(tx, "service_accounts", "customer_id")
    customer = require(tx, "customers", args["customer_id"], "customer_id")
    out = []
    for account in tx.rows("service_accounts"):
        role = _role(account, customer["id"])
        if role:
            plan = tx.get("plans", account["plan_id"]) or {}
            out.append({**account, "role": role, "plan": plan.get("name")})
    return {"accounts": out}


def list_plans(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Every plan: price, speed, contract length, early-termination fee, outage-credit threshold."""
    _need(tx, "plans", "plan_id")
    return {"plans": list(tx.rows("plans"))}


def list_outages(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Outages in the account's area, newest first, with length and the credit each earns."""
    _need(tx, "outages", "account_id")
    account = require(tx, "service_accounts", args["account_id"], "account_id")
    plan = require(tx, "plans", account["plan_id"], "plan_id")
    rows = []
    for outage in tx.rows("outages"):
        if outage["area"] != account["area"] or parse_time(outage["start"]) > now(tx):
            continue
        ongoing = _ongoing(tx, outage)
        rows.append(
            {
                **outage,
                "end": None if ongoing else outage["end"],
                "ongoing": ongoing,
                "hours": None if ongoing else round(_hours(outage), 1),
                "credited": outage["id"] in account.get("credited_outages", []),
                "credit_limit_cents": outage_credit_limit(tx, outage, plan),
            }
        )
    rows.sort(key=lambda o: o["start"], reverse=True)
    return {"area": account["area"], "outages": rows}


def apply_outage_credit(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Credit the account's bill for one outage in its area, within the outage's limit."""
    account, _ = _acting(tx, args)
    outage = require(tx, "outages", args["outage_id"], "outage_id")
    if outage["area"] != account["area"]:
        raise conflict(
            f"Outage {outage['id']} was in {outage['area']}; {account['id']} is in {account['area']}.",
            "outage_id",
        )
    if _ongoing(tx, outage):
        raise conflict(
            f"Outage {outage['id']} is still ongoing: credit it once it ends.", "outage_id"
        )
    if outage["id"] in account.get("credited_outages", []):
        raise conflict(f"{account['id']} was already credited for {outage['id']}.", "outage_id")
    plan = require(tx, "plans", account["plan_id"], "plan_id")
    limit = outage_credit_limit(tx, outage, plan)
    if limit == 0:
        raise conflict(
            f"Outage {outage['id']} lasted {_hours(outage):.1f} hours; {plan['name']} earns a credit"
            f" only for outages of {plan['outage_credit_after_hours']} hours or more.",
            "outage_id",
        )
    amount = args["amount_cents"]
    if amount > limit:
        raise conflict(
            f"At most {money(limit)} for outage {outage['id']} on {plan['name']}.", "amount_cents"
        )
    updated = tx.update(
        "service_accounts",
        account["id"],
        credit_cents=account.get("credit_cents", 0) + amount,
        credited_outages=[*account.get("credited_outages", []), outage["id"]],
    )
    payment = tx.insert(
        "payments",
        {
            "customer_id": account["holder_id"],
            "kind": "credit",
            "amount_cents": amount,
            "status": "completed",
            "refunded_cents": 0,
            "description": f"Outage credit: {outage['id']} ({account['id']})",
            "at": tx.now,
            **{k: None for k in _LINKS},
            "refund_of": None,
        },
    )
    return {"payment": payment, "account": updated, "credit_limit_cents": limit}


def change_service_plan(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Move the account to another plan; the contract end date stays as it is."""
    account, _ = _acting(tx, args)
    plan = require(tx, "plans", args["plan_id"], "plan_id")
    if account["plan_id"] == plan["id"]:
        raise conflict(f"{account['id']} is already on {plan['name']}.", "plan_id")
    return {"account": tx.update("service_accounts", account["id"], plan_id=plan["id"])}


def cancel_service(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Cancel the account's service (holder only). Inside the contract the early-termination
    fee is billed and the contract ends for good: that call is irreversible."""
    account, _ = _acting(tx, args, holder_only=True)
    ends = account.get("contract_ends")
    fee = None
    if ends and now(tx).date() < parse_date(ends):
        plan = require(tx, "plans", account["plan_id"], "plan_id")
        tx.escalate_effect(
            Effect.IRREVERSIBLE,
            f"cancelled inside the contract (ends {ends}): the early-termination fee of"
            f" {money(plan['etf_cents'])} is billed and the contract cannot be restored",
        )
        fee = tx.insert(
            "payments",
            {
                "customer_id": account["holder_id"],
                "kind": "fee",
                "amount_cents": plan["etf_cents"],
                "status": "due",
                "refunded_cents": 0,
                "description": f"Early-termination fee ({account['id']})",
                "at": tx.now,
                **{k: None for k in _LINKS},
                "refund_of": None,
            },
        )
    cancelled = tx.update(
        "service_accounts",
        account["id"],
        status="cancelled",
        cancelled_at=tx.now,
        cancel_reason=args["reason"],
    )
    return {"account": cancelled, "early_termination_fee": fee}


def request_port_out(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """Release the account's phone number to another provider (holder only). Final: once the
    new provider takes the number it cannot be brought back."""
    account, customer = _acting(tx, args, holder_only=True)
    number = account.get("phone_number")
    if not number or not same_phone(args["phone_number"], number):
        raise conflict(
            f"{args['phone_number']} is not the phone number on {account['id']}.", "phone_number"
        )
    port = tx.insert(
        "port_outs",
        {
            "account_id": account["id"],
            "number": number,
            "new_provider": args["new_provider"],
            "requested_by": customer["id"],
            "at": tx.now,
            "status": "submitted",
        },
    )
    tx.update("service_accounts", account["id"], phone_number=None)
    return {"port_out": port}


_ACCOUNT = ref("service_accounts", "The service account id, e.g. ACC-1001.")
_ACTING = ref("customers", "The verified caller acting: the holder or an authorised user.")

TOOLS = [
    Tool(
        "list_service_accounts",
        "The internet accounts a customer holds or is an authorised user on: plan, area,"
        " contract end date, phone number, authorised users, and the customer's role.",
        obj(["customer_id"], customer_id=ref("customers", "The customer's id.")),
        Effect.READ,
        list_service_accounts,
        tables=("service_accounts",),
    ),
    Tool(
        "list_plans",
        "The plans on offer: monthly price, speed, contract length, early-termination fee and"
        " the outage length from which an outage earns a credit.",
        obj(),
        Effect.READ,
        list_plans,
        tables=("plans",),
    ),
    Tool(
        "list_outages",
        "Outages in an account's area, newest first: start, end (none while ongoing), hours,"
        " whether the account was credited, and the most credit each earns on its plan.",
        obj(["account_id"], account_id=_ACCOUNT),
        Effect.READ,
        list_outages,
        tables=("outages", "service_accounts"),
    ),
    Tool(
        "apply_outage_credit",
        "Credit an account's bill for one ended outage in its area, up to the credit the outage"
        " earns on the account's plan (see list_outages). Once per outage.",
        obj(
            ["account_id", "outage_id", "customer_id", "amount_cents"],
            account_id=_ACCOUNT,
            outage_id=ref("outages", "The outage id, e.g. OUT-1001."),
            customer_id=_ACTING,
            amount_cents=cents("The credit, in cents."),
        ),
        Effect.COMPENSABLE,
        apply_outage_credit,
        tables=("service_accounts", "payments"),
    ),
    Tool(
        "change_service_plan",
        "Move an account to another plan (list_plans); the contract end date does not change.",
        obj(
            ["account_id", "plan_id", "customer_id"],
            account_id=_ACCOUNT,
            plan_id=ref("plans", "The new plan's id.", enum_ids=True),
            customer_id=_ACTING,
        ),
        Effect.REVERSIBLE,
        change_service_plan,
        inverse="change_service_plan",
        tables=("service_accounts",),
    ),
    Tool(
        "cancel_service",
        "Cancel an account's internet service (account holder only). Inside the contract this"
        " bills the early-termination fee and is final.",
        obj(
            ["account_id", "customer_id", "reason"],
            account_id=_ACCOUNT,
            customer_id=_ACTING,
            reason=text("Why.", max_length=500),
        ),
        Effect.REVERSIBLE,
        cancel_service,
        tables=("service_accounts", "payments"),
    ),
    Tool(
        "request_port_out",
        "Release the account's phone number to another provider (account holder only)."
        " Irreversible: the number cannot be brought back.",
        obj(
            ["account_id", "customer_id", "phone_number", "new_provider"],
            account_id=_ACCOUNT,
            customer_id=_ACTING,
            phone_number=text("The phone number to port, as on the account.", max_length=30),
            new_provider=text("The provider taking the number.", max_length=100),
        ),
        Effect.IRREVERSIBLE,
        request_port_out,
        tables=("port_outs", "service_accounts"),
    ),
]
