"""Normalising tool calls as models and gateways actually return them.

The neutral :class:`~contract.messages.ToolCall` holds the arguments as the raw JSON text the model
wrote, malformed or not: the episode turns bad JSON into a tool error fed back to the model,
which is part of what is measured. What *is* normalised here are the representation quirks
that are not the model's doing:

- arguments delivered as a JSON object instead of a string (litellm for some providers,
  Anthropic always) are serialised to text;
- a call with no arguments (``None`` or an empty string) becomes ``"{}"``;
- a missing or empty call id gets a deterministic one, so a transcript replays identically.
"""

from __future__ import annotations

import json
import re
from typing import Any

# litellm fills a missing id with a bare random uuid4: as good as missing for replay.
_BARE_UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def arguments_text(value: Any) -> str:
    """The arguments as JSON text: strings pass through unchanged, objects are serialised."""
    if value is None:
        return "{}"
    if isinstance(value, str):
        return value if value.strip() else "{}"
    return json.dumps(value, ensure_ascii=False)


def call_id(value: Any, *, turn: int, position: int, replace_random: bool = False) -> str:
    """``value`` if it is a usable id, else ``call_<turn>_<position>``.

    ``turn`` is the number of messages already in the conversation, which makes the generated
    id unique within it. With ``replace_random``, a bare uuid4 (litellm's stand-in for a
    missing id) is replaced too.
    """
    usable = isinstance(value, str) and bool(value.strip())
    if usable and not (replace_random and _BARE_UUID4.match(value)):
        return value
    return f"call_{turn}_{position}"


def parse_arguments(text: str) -> dict[str, Any] | None:
    """The arguments as a JSON object, or ``None`` when the text is not one."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return None
    return value if isinstance(value, dict) else None
