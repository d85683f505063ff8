"""The default claim checker's reading of a message, read once per text.

The scorer reads every assistant message of an episode, the scripted caller and the fidelity
check read the same turns during and after it, and reference assistants say the same messages
in many tasks and trials. :meth:`LexiconClaimChecker.extract` depends on the text and the
(shared, immutable) default lexicon alone, and a :class:`~sandbox.claims.Claim` is frozen, so
one reading serves every reader. Bounded, so that memory stays flat over any run.
"""

from __future__ import annotations

from functools import cache, lru_cache

from sandbox.claims import Claim, LexiconClaimChecker
from sandbox.text_cache import TEXT_CACHE


@cache
def default_checker() -> LexiconClaimChecker:
    """The default checker, built on first use (its lexicon is start-up time otherwise)."""
    return LexiconClaimChecker()


@lru_cache(maxsize=TEXT_CACHE)
def default_claims(text: str) -> tuple[Claim, ...]:
    """``default_checker().extract(text)``, as a tuple, remembered."""
    return tuple(default_checker().extract(text))


__all__ = ["default_checker", "default_claims"]
