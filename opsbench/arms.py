"""Arms of a run: each model under each set of mitigations (``--mitigation``).

``--mitigation none --mitigation ledger-summary,reversibility-guard`` gives two arms; each model
of the run is run under each arm on the same tasks and seeds, and stored as its own model
(``reference/partial`` and ``reference/partial+ledger-summary+reversibility-guard``), so the
reports, ``compare`` and ``--resume`` treat arms like models. No ``--mitigation`` is one arm,
``none``. A model string may also carry its mitigations itself (``-m reference/partial+ledger-summary``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from adapters.mitigations import (
    MitigationError,
    Policy,
    arm_model,
    mitigated,
    parse_arm,
    split_model,
)
from adapters.registry import AnyFactory
from opsbench.errors import SelectionError
from sandbox.task import Task


def parse_arms(texts: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The distinct arms of ``--mitigation`` values (``()`` is ``none``), in the order given."""
    arms: list[tuple[str, ...]] = []
    for text in texts or ("none",):
        try:
            arm = parse_arm(text)
        except MitigationError as exc:
            raise SelectionError(f"--mitigation {text}: {exc}") from None
        if arm not in arms:
            arms.append(arm)
    return tuple(arms)


def run_models(models: Sequence[str], arms: Sequence[str]) -> tuple[str, ...]:
    """Every model of a run under every arm: the names episodes are stored under."""
    out: list[str] = []
    for model in models:
        base, own = split_model(model)
        for arm in parse_arms(arms):
            names = tuple(n for n in (*own, *arm))
            out.append(arm_model(base, parse_arm(",".join(names)) if names else ()))
    return tuple(dict.fromkeys(out))


def policies(tasks: Iterable[Task]) -> dict[str, Policy]:
    """Each business's public policy rules, by business id, for the mitigations."""
    out: dict[str, Policy] = {}
    for task in tasks:
        business = task.business
        out.setdefault(
            business.id,
            Policy(business.id, tuple((r.rule, dict(r.params)) for r in business.rules)),
        )
    return out


def resolve_arms(
    names: Sequence[str], tasks: Iterable[Task], resolve: Callable[[str], AnyFactory]
) -> dict[str, AnyFactory]:
    """A factory per run model: the base model's, wrapped in its arm's mitigations."""
    by_business = policies(tasks)
    base_factories: dict[str, AnyFactory] = {}
    out: dict[str, AnyFactory] = {}
    for name in names:
        base, arm = split_model(name)
        if base not in base_factories:
            base_factories[base] = resolve(base)
        out[name] = mitigated(base_factories[base], arm, by_business)
    return out
