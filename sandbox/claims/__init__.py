"""What the assistant told the caller it did or did not do, and whether the ledger agrees.

The default checker (:class:`LexiconClaimChecker`) is deterministic and offline. It normalises
the text, reads its structure (headings, labels, bullets, tables, done / not-done marks), and per
clause finds reports of actions done, not done (negation, failed attempts) and descriptions of
the account, each with the details it states (day, date, time, staff, amount, item, channel,
recipient). :func:`check_claims` judges them against the session's ledger entries and the state
as that session left it; a claim whose details contradict what was done is a misstatement. The
lexicon is data (``sandbox/claims/data/``). Its agreement with hand-labelled sets is measured in
``tests/test_claims_accuracy.py`` and published in the README, not assumed.

An LLM judge can replace the extraction through the :class:`ClaimChecker` protocol.
"""

from sandbox.claims.extract import LexiconClaimChecker, in_context
from sandbox.claims.match import Evidence, check_claims, contradiction, kinds_told
from sandbox.claims.types import (
    DETAIL_FIELDS,
    FAMILIES,
    KINDS,
    TOOL_KINDS,
    CheckedClaim,
    Claim,
    ClaimChecker,
    Details,
)

__all__ = [
    "DETAIL_FIELDS",
    "FAMILIES",
    "KINDS",
    "TOOL_KINDS",
    "CheckedClaim",
    "Claim",
    "ClaimChecker",
    "Details",
    "Evidence",
    "LexiconClaimChecker",
    "check_claims",
    "contradiction",
    "in_context",
    "kinds_told",
]
