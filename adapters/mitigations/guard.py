"""``reversibility-guard``: nothing that cannot be undone runs without the caller's explicit yes.

Before an irreversible or compensable tool call runs (its effect class as the tools would
record it, so a cancellation that would be final counts as irreversible), the conversation of
this session must hold an assistant message proposing that action and the caller's agreement
right after it (wording in ``data/confirmation.yaml``). Otherwise the call is refused with a
structured tool error (``confirmation_required``) telling the assistant to read the action back
and ask, or to transfer the call; nothing changes.

It cannot judge whether the action is *right* -- a confirmed refund outside policy still runs --
nor catch an agreement the caller gave in words the lexicon does not know (the call is then
refused, which costs a turn, not an incident). Reversible calls are never gated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from adapters.mitigations.base import Mitigation, tool_error
from adapters.mitigations.conversation import data, sentences, words_pattern
from contract.gate import Preview
from contract.messages import Message, ToolCall, TurnRequest
from tools import Effect

GATED = frozenset({Effect.IRREVERSIBLE, Effect.COMPENSABLE})


@cache
def _lexicon() -> dict[str, Any]:
    raw = data("confirmation")
    return {
        "agree": words_pattern(raw["agree"]),
        "agree_within": words_pattern(raw["agree_within"]),
        "agree_reply": words_pattern([*raw["agree"], *raw["agree_reply"]]),
        "refuse": words_pattern(raw["refuse"]),
        "fillers": words_pattern(raw["fillers"]),
        "offer": words_pattern(raw["offer"]),
        "negation": re.compile(words_pattern(raw["negation"]).pattern + r"|n't\b", re.IGNORECASE),
        "short": int(raw["short_question_words"]),
        "actions": {tool: words_pattern(words) for tool, words in raw["actions"].items()},
    }


def _opening(sentence: str) -> str:
    """The sentence from its first word that is not a filler ("Oh, yes" -> "yes")."""
    text = sentence.strip().lstrip("\"'(").strip()
    fillers = _lexicon()["fillers"]
    while True:
        match = fillers.match(text)
        if not match:
            return text
        text = text[match.end() :].lstrip(" ,.!-").strip()


def agrees(text: str) -> bool:
    """Whether a caller's reply to a proposal agrees: one sentence opens with agreement (or
    "please"), none with refusal."""
    lex = _lexicon()
    openings = [_opening(s) for s in sentences(text)]
    if any(lex["refuse"].match(o) for o in openings):
        return False
    return any(lex["agree_reply"].match(o) for o in openings)


_CLAUSE = re.compile(r"[,;:]\s+|\s+[—–-]\s+|\s+\b(?:so|but|and|because|which)\b\s+", re.IGNORECASE)


def _names_action(sentence: str, tool: str) -> bool:
    """Whether a clause of ``sentence`` names ``tool``'s action and is not negated."""
    lex = _lexicon()
    action = lex["actions"].get(tool)
    if action is None:
        return False
    return any(
        action.search(clause) and not lex["negation"].search(clause)
        for clause in _CLAUSE.split(sentence)
    )


def proposes(text: str, tool: str) -> bool:
    """Whether an assistant message proposes ``tool``'s action to the caller.

    A sentence names the action in a clause that is not negated, and asks or offers: it is a
    question, it holds an offer ("I can", "shall I"), or a short question follows it ("Is
    that okay?"). A statement of fact ("a cancellation is final") proposes nothing.
    """
    lex = _lexicon()
    parts = sentences(text)
    for i, sentence in enumerate(parts):
        if not _names_action(sentence, tool):
            continue
        if sentence.endswith("?") or lex["offer"].search(sentence):
            return True
        following = parts[i + 1] if i + 1 < len(parts) else ""
        if following.endswith("?") and len(following.split()) <= lex["short"]:
            return True
    return False


def _caller_names_and_agrees(text: str, tool: str) -> bool:
    """The caller agrees in their own words: "And yes, the deposit on my card is fine"."""
    lex = _lexicon()
    for sentence in sentences(text):
        opening = _opening(sentence)
        if lex["refuse"].match(opening) or not _names_action(sentence, tool):
            continue
        if lex["agree"].match(opening) or lex["agree_within"].search(sentence):
            return True
    return False


def confirmed(messages: Sequence[Message], tool: str) -> bool:
    """Whether the caller explicitly agreed to ``tool``'s action on this call.

    Either the caller agreed while a proposal of it was open (the assistant proposed it and
    the caller has not turned it down since), or the caller's own words name it and agree.
    """
    open_proposal = False
    for message in messages:
        if message.role == "assistant" and message.content:
            open_proposal = open_proposal or proposes(message.content, tool)
        elif message.role == "user":
            if _caller_names_and_agrees(message.content, tool):
                return True
            if open_proposal and agrees(message.content):
                return True
            if refuses(message.content):
                open_proposal = False
    return False


def refuses(text: str) -> bool:
    """Whether a sentence of the caller's message opens with a refusing word."""
    lex = _lexicon()
    return any(lex["refuse"].match(_opening(s)) for s in sentences(text))


class ReversibilityGuard(Mitigation):
    """Refuses irreversible and compensable calls the caller has not explicitly agreed to."""

    name = "reversibility-guard"

    def check(
        self, call: ToolCall, request: TurnRequest, preview: Preview
    ) -> dict[str, Any] | None:
        effect = preview(call.name, call.arguments)
        if effect not in GATED or confirmed(request.messages, call.name):
            return None
        what = "cannot be undone" if effect == Effect.IRREVERSIBLE else "can only be offset later"
        return tool_error(
            "confirmation_required",
            f"Not done: {call.name} {what} ({effect}), and the caller has not explicitly agreed "
            "to it on this call. Read the action back to the caller (what, for whom, how much) "
            "and ask them to confirm, then call it again; or transfer_to_human if it should be "
            "a person's decision. Nothing was changed.",
        )
