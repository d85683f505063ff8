"""Gift-card tools: look a card up by the code printed on it.

Gift cards live in a table the business declares (``gift_cards``, see
``businesses/kits/hair_salon/business.yaml.j2``): the code is what the caller reads off the card,
so the lookup is by code, and a card's state (balance, expiry) is what the caller may hear.
Redeeming a card is done at the till, not by phone, so there is no write tool here.
"""

from __future__ import annotations

from typing import Any

from tools.common import now
from tools.contract import Effect, Tool, WorldTx
from tools.errors import invalid, not_found
from tools.params import obj, text
from tools.timefmt import parse_date


def _normalise(code: str) -> str:
    # Callers read codes in groups ("AB12 CD34") or with dashes; the card's code has neither.
    return "".join(ch for ch in code.upper() if ch.isalnum())


def check_gift_card(tx: WorldTx, args: dict[str, Any]) -> dict[str, Any]:
    """The card whose code matches: balance, original value, expiry and whether it can be used."""
    if not tx.has_table("gift_cards"):
        raise invalid("This business does not sell gift cards.", "code")
    wanted = _normalise(args["code"])
    if not wanted:
        raise invalid("The code has no letters or digits.", "code")
    for card in tx.rows("gift_cards"):
        if _normalise(card["code"]) == wanted:
            expires = card.get("expires")
            expired = expires is not None and now(tx).date() > parse_date(str(expires))
            usable = card["status"] == "active" and not expired and card["balance_cents"] > 0
            return {"gift_card": dict(card), "expired": expired, "usable": usable}
    raise not_found("gift card", args["code"], "code")


TOOLS = [
    Tool(
        "check_gift_card",
        "Look up a gift card by the code printed on it: balance, expiry, and whether it can be used.",
        obj(["code"], code=text("The code on the card, as the caller reads it.", max_length=40)),
        Effect.READ,
        check_gift_card,
        tables=("gift_cards",),
    ),
]
