"""What OpenAI's model families accept, by model name.

Kept in one place because both the adapter (refusing options up front, choosing the API) and
the local server (rejecting what OpenAI rejects) need the same answer.
"""

from __future__ import annotations

import re

# o1, o3, o4-mini, gpt-5, gpt-5.1 … and fine-tunes of them ("ft:o4-mini-…"); gpt-5-chat-latest
# is a non-reasoning model and takes sampling parameters.
_REASONING = re.compile(r"^(ft:)?(o\d|gpt-5)")
_NOT_REASONING = re.compile(r"-chat\b")
# Models OpenAI serves only on the Responses API.
_RESPONSES_ONLY = re.compile(r"^(ft:)?(o\d.*-pro|gpt-5.*-pro|.*codex|.*deep-research|computer-use)")

SAMPLING_OPTIONS = ("temperature", "top_p")
REASONING_REFUSAL = (
    "OpenAI reasoning models (o-series, gpt-5) reject sampling parameters; "
    "leave it out, or set reasoning_effort instead"
)


def is_reasoning_model(model: str) -> bool:
    """True for models that reason before answering and refuse ``temperature``/``top_p``."""
    return bool(_REASONING.match(model)) and not _NOT_REASONING.search(model)


def is_responses_only(model: str) -> bool:
    """True for models that OpenAI serves on the Responses API only."""
    return bool(_RESPONSES_ONLY.match(model))
