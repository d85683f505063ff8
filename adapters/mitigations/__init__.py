"""Mitigations: wrappers around any assistant that change what it may do or say.

    ledger-summary        what it tells the caller it did is generated from the ledger
    reversibility-guard   irreversible and compensable calls need the caller's explicit yes
    escalation-policy     transfers follow the business's rules, not the caller's temperament

An *arm* is a set of mitigations (``none``, or names joined by commas); a model run under an arm
is named ``<model>+<mitigation>+...`` (canonical order), so each arm is its own model in the
store, the reports and ``--resume``. :func:`mitigated` wraps a factory -- a reference one
(briefed) and a plain one alike -- giving each wrapper the business's public policy rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from adapters.mitigations.base import Mitigation, Policy, tool_error
from adapters.mitigations.escalation import EscalationPolicy
from adapters.mitigations.guard import ReversibilityGuard
from adapters.mitigations.ledger_summary import LedgerSummary
from contract.assistant import Assistant, AssistantFactory
from sandbox.briefing import BriefedFactory

# Innermost first: the summary rewrites the assistant's words, the guard and the policy gate
# its calls; the policy's gate is asked first (a call reserved for a person is not a matter
# of confirmation).
MITIGATIONS: dict[str, type[Mitigation]] = {
    "ledger-summary": LedgerSummary,
    "reversibility-guard": ReversibilityGuard,
    "escalation-policy": EscalationPolicy,
}
NONE = "none"


class MitigationError(ValueError):
    """An unknown mitigation name, or ``none`` combined with others."""


def parse_arm(text: str) -> tuple[str, ...]:
    """``none`` -> ``()``; ``a,b`` -> the names in canonical order. Raises :class:`MitigationError`."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise MitigationError("an empty mitigation: give none or names like ledger-summary")
    if names == [NONE]:
        return ()
    unknown = [n for n in names if n not in MITIGATIONS]
    if unknown or NONE in names:
        raise MitigationError(
            f"unknown mitigation {', '.join(map(repr, unknown or [NONE]))} in {text!r}: expected "
            f"{NONE} or a comma-separated set of {', '.join(MITIGATIONS)}"
        )
    return tuple(n for n in MITIGATIONS if n in names)


def arm_model(model: str, arm: Sequence[str]) -> str:
    """The model name of ``model`` under ``arm``: ``reference/partial+ledger-summary``."""
    return "+".join([model, *arm])


def split_model(name: str) -> tuple[str, tuple[str, ...]]:
    """``reference/partial+ledger-summary`` -> (``reference/partial``, (``ledger-summary``,))."""
    parts = name.split("+")
    arm: list[str] = []
    while len(parts) > 1 and parts[-1] in MITIGATIONS:
        arm.insert(0, parts.pop())
    return "+".join(parts), tuple(n for n in MITIGATIONS if n in arm)


def mitigated(
    factory: AssistantFactory | BriefedFactory,
    names: Sequence[str],
    policies: Mapping[str, Policy],
) -> AssistantFactory | BriefedFactory:
    """``factory`` with every assistant it makes wrapped in the mitigations ``names``.

    ``policies`` maps a business id to its public policy rules; a business it lacks gets none.
    """
    if not names:
        return factory
    order = [n for n in MITIGATIONS if n in names]

    def make_wrap(business: str) -> Callable[[Assistant], Assistant]:
        policy = policies.get(business, Policy(business))

        def wrap(assistant: Assistant) -> Assistant:
            for name in order:
                assistant = MITIGATIONS[name](assistant, policy)
            return assistant

        return wrap

    if isinstance(factory, BriefedFactory):
        inner = factory
        return BriefedFactory(
            lambda context, brief: make_wrap(context.business)(inner(context, brief)),
            arm_model(inner.name, order),
        )
    plain = factory
    return lambda context: make_wrap(context.business)(plain(context))


__all__ = [
    "MITIGATIONS",
    "NONE",
    "EscalationPolicy",
    "LedgerSummary",
    "Mitigation",
    "MitigationError",
    "Policy",
    "ReversibilityGuard",
    "arm_model",
    "mitigated",
    "parse_arm",
    "split_model",
    "tool_error",
]
