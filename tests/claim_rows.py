"""The table-driven claim-checker tests' shared parts: a row is (message, the action claims it
makes), a claim (kind, done); descriptions of the account (state claims) are left out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from sandbox.claims import LexiconClaimChecker

CHECKER = LexiconClaimChecker()


def action_claims(text: str) -> set[tuple[str, bool]]:
    """The (kind, done) pairs of the action claims the default checker reads in ``text``."""
    return {(c.kind, c.done) for c in CHECKER.extract(text) if not c.state}


def claim_cases(rows: Sequence[tuple[str, set[tuple[str, bool]]]]) -> Any:
    """``rows`` as pytest cases ``text, claims``, each named by the start of its message."""
    return pytest.mark.parametrize("text, claims", rows, ids=[r[0][:60] for r in rows])
