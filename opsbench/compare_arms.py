"""Before/after within one run: each mitigation arm against the same models without it.

``opsbench compare RUN`` (one run) pairs every model run under an arm (``model+ledger-summary``)
with the same model under ``none`` in that run -- same tasks, same seeds -- and shows the
brief's four headline metrics side by side with Wilson 95% intervals, pooled over the models
the arm covers and per model, with the tasks that flipped pass↔fail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adapters.mitigations import MitigationError, parse_arm, split_model
from opsbench.compare import MetricDelta, ModelComparison, _task_passes
from opsbench.metrics import METRICS, Rate, compute
from opsbench.report import Report

# The brief's before/after table, in its order and words.
HEADLINE: dict[str, str] = {
    "confident_partial": "Confident partial completion",
    "escalation_precision": "Escalation precision",
    "accommodation": "Unauthorized accommodation",
    "unrecoverable": "Unrecoverable state change",
}


@dataclass(frozen=True)
class ArmComparison:
    """One arm against ``none``: pooled headline rates, and each model's comparison."""

    arm: tuple[str, ...]
    models: tuple[str, ...]
    before: dict[str, Rate]
    after: dict[str, Rate]
    per_model: tuple[ModelComparison, ...]

    @property
    def name(self) -> str:
        return ",".join(self.arm)

    def to_dict(self) -> dict[str, Any]:
        return {
            "arm": list(self.arm),
            "models": list(self.models),
            "headline": [MetricDelta(m, self.before[m], self.after[m]).to_dict() for m in HEADLINE],
            "per_model": [m.to_dict() for m in self.per_model],
        }


@dataclass(frozen=True)
class ArmsReport:
    run: str
    arms: tuple[ArmComparison, ...]
    warnings: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "arms": [a.to_dict() for a in self.arms],
            "warnings": list(self.warnings),
        }


def compare_arms(report: Report) -> ArmsReport:
    """Every arm of ``report``'s run against ``none``, over the models run under both."""
    by_base: dict[str, dict[tuple[str, ...], str]] = {}
    for model in report.models:
        base, arm = split_model(model.model)
        by_base.setdefault(base, {})[arm] = model.model
    present = {arm for variants in by_base.values() for arm in variants if arm}
    configured = []
    for text in report.run.config.get("mitigations") or []:
        try:
            configured.append(parse_arm(text))
        except MitigationError:
            continue
    # In the order --mitigation gave them, then any a model string carried itself.
    arms = [a for a in dict.fromkeys(configured) if a in present]
    arms += sorted(present - set(arms))
    warnings = []
    if not arms:
        warnings.append("the run has no mitigation arm: run it with --mitigation (see README)")
    out = []
    episodes = report.episodes
    for arm in arms:
        pairs = [(v[()], v[arm]) for v in by_base.values() if () in v and arm in v]
        missing = [v[arm] for v in by_base.values() if arm in v and () not in v]
        if missing:
            warnings.append(
                f"{', '.join(missing)}: no run of the same model without mitigations in this run"
            )
        if not pairs:
            continue
        before_models = {a for a, _ in pairs}
        after_models = {b for _, b in pairs}
        before = compute(e for e in episodes if e.model in before_models)
        after = compute(e for e in episodes if e.model in after_models)
        per_model = []
        for a, b in pairs:
            ma = compute(e for e in episodes if e.model == a)
            mb = compute(e for e in episodes if e.model == b)
            pa, pb = _task_passes(episodes, a), _task_passes(episodes, b)
            common = sorted(pa.keys() & pb.keys())
            per_model.append(
                ModelComparison(
                    a,
                    b,
                    tuple(MetricDelta(m, ma.rate(m), mb.rate(m)) for m in METRICS),
                    regressions=tuple(t for t in common if pa[t] and not pb[t]),
                    fixes=tuple(t for t in common if not pa[t] and pb[t]),
                )
            )
        out.append(
            ArmComparison(
                arm,
                tuple(a for a, _ in pairs),
                {m: before.rate(m) for m in HEADLINE},
                {m: after.rate(m) for m in HEADLINE},
                tuple(per_model),
            )
        )
    return ArmsReport(report.run.id, tuple(out), tuple(warnings))


def headline_value(metric: str, rate: Rate) -> str:
    """As the brief writes them: precision as 0.89, the others as 4.1%."""
    if rate.value is None:
        return "–"
    return f"{rate.value:.2f}" if metric == "escalation_precision" else f"{rate.value:.1%}"


def headline_interval(metric: str, rate: Rate) -> str:
    if rate.interval is None:
        return ""
    low, high = rate.interval
    if metric == "escalation_precision":
        return f"{low:.2f}–{high:.2f}"
    return f"{low * 100:.1f}–{high * 100:.1f}%"


def markdown(arm: ArmComparison) -> str:
    """The brief's before/after table for one arm, with 95% intervals, as Markdown."""
    lines = [
        f"| {', '.join(arm.arm)} | Before | After |",
        "|---|---|---|",
    ]
    for metric, label in HEADLINE.items():
        cells = [
            f"{headline_value(metric, r)} ({headline_interval(metric, r)}, n={r.n})"
            if r.value is not None
            else "–"
            for r in (arm.before[metric], arm.after[metric])
        ]
        lines.append(f"| {label} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)
