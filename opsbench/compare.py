"""``opsbench compare RUN_A RUN_B``: metric deltas with intervals, and tasks that flipped.

Models are paired by model string; when each run holds exactly one model and the names differ
(comparing two versions of a model), those two are paired. A task *passes* in a run when every
scored trial of it passed; a flip is a task that passes in one run and not in the other.
Metric deltas are computed over the tasks both runs hold at the same version only. Differences
that make the comparison unfair (task versions, caller model, judge) are listed as warnings
rather than hidden. Runs scored by different scorer versions (``opsbench.provenance``) are
warned about, and deltas and flips are restricted to the tasks whose episodes were scored by the
same scorer version in both runs. "Separated" means the two 95% intervals do not overlap: conservative, not a
paired test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from opsbench.metrics import METRICS, Rate, compute
from opsbench.records import EpisodeRecord
from opsbench.report import ModelReport, Report


@dataclass(frozen=True)
class MetricDelta:
    metric: str
    a: Rate
    b: Rate

    @property
    def delta(self) -> float | None:
        if self.a.value is None or self.b.value is None:
            return None
        return self.b.value - self.a.value

    @property
    def separated(self) -> bool:
        """The two 95% intervals do not overlap (a conservative sign of a real change)."""
        ia, ib = self.a.interval, self.b.interval
        return ia is not None and ib is not None and (ia[1] < ib[0] or ib[1] < ia[0])

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "delta": self.delta,
            "intervals_separated": self.separated,
        }


@dataclass(frozen=True)
class ModelComparison:
    model_a: str
    model_b: str
    deltas: tuple[MetricDelta, ...]
    regressions: tuple[str, ...]  # passed in A, fails in B
    fixes: tuple[str, ...]  # failed in A, passes in B

    def to_dict(self) -> dict[str, Any]:
        return {
            "model_a": self.model_a,
            "model_b": self.model_b,
            "deltas": [d.to_dict() for d in self.deltas],
            "regressions": list(self.regressions),
            "fixes": list(self.fixes),
        }


@dataclass(frozen=True)
class Comparison:
    run_a: str
    run_b: str
    models: tuple[ModelComparison, ...]
    warnings: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_a": self.run_a,
            "run_b": self.run_b,
            "models": [m.to_dict() for m in self.models],
            "warnings": list(self.warnings),
        }


def _task_passes(episodes: tuple[EpisodeRecord, ...], model: str) -> dict[str, bool]:
    trials: dict[str, list[bool]] = {}
    for e in episodes:
        if e.model == model and e.status == "scored" and e.score is not None:
            trials.setdefault(f"{e.task_set}:{e.task_id}", []).append(bool(e.score["passed"]))
    return {task: all(v) for task, v in trials.items()}


def _on(episodes: tuple[EpisodeRecord, ...], model: str, tasks: set[str]) -> list[EpisodeRecord]:
    return [e for e in episodes if e.model == model and f"{e.task_set}:{e.task_id}" in tasks]


def _scorers(episodes: tuple[EpisodeRecord, ...]) -> dict[str, set[str | None]]:
    """The scorer versions each task's episodes were scored by."""
    out: dict[str, set[str | None]] = {}
    for e in episodes:
        if e.status == "scored":
            out.setdefault(f"{e.task_set}:{e.task_id}", set()).add(e.scorer_version)
    return out


def _pairs(a: Report, b: Report) -> list[tuple[ModelReport, ModelReport]]:
    names_b = {m.model: m for m in b.models}
    pairs = [(m, names_b[m.model]) for m in a.models if m.model in names_b]
    if not pairs and len(a.models) == 1 and len(b.models) == 1:
        pairs = [(a.models[0], b.models[0])]
    return pairs


def compare(a: Report, b: Report) -> Comparison:
    """Compare run ``a`` (before) with run ``b`` (after)."""
    warnings = []
    versions_a = {(t.task_set, t.task_id): t.task_version for t in a.run.tasks}
    versions_b = {(t.task_set, t.task_id): t.task_version for t in b.run.tasks}
    changed = sorted(
        f"{s}:{t}" for (s, t), v in versions_a.items() if versions_b.get((s, t), v) != v
    )
    if changed:
        warnings.append(
            f"{len(changed)} task(s) changed version between the runs and are not comparable: "
            + ", ".join(changed[:5])
        )
    only = sorted(
        {f"{s}:{t}" for s, t in versions_a.keys() ^ versions_b.keys()},
    )
    if only:
        warnings.append(f"{len(only)} task(s) are in only one of the runs")
    for name in ("caller", "judge"):
        if getattr(a.run, name) != getattr(b.run, name):
            warnings.append(
                f"different {name}: {getattr(a.run, name)} vs {getattr(b.run, name)}; "
                "differences may come from it, not from the model"
            )
    identity_a = a.run.config.get("caller_identity")
    identity_b = b.run.config.get("caller_identity")
    if a.run.caller == b.run.caller and identity_a != identity_b:
        warnings.append(f"different caller settings: {identity_a} vs {identity_b}")
    pairs = _pairs(a, b)
    if not pairs:
        warnings.append("no model appears in both runs")
    skip = set(changed)
    if a.run.scorer_version != b.run.scorer_version:
        scorers_a, scorers_b = _scorers(a.episodes), _scorers(b.episodes)
        # Comparable: one known scorer version for the task in each run, the same in both.
        unlike = set()
        for task in scorers_a.keys() & scorers_b.keys():
            versions = scorers_a[task] | scorers_b[task]
            if len(versions) != 1 or None in versions:
                unlike.add(task)
        skip |= unlike
        warnings.append(
            f"the runs were scored by different scorer versions: "
            f"{a.run.scorer_version or 'unrecorded'} vs {b.run.scorer_version or 'unrecorded'}; "
            f"{len(unlike)} task(s) scored differently are left out of the deltas and flips"
        )
    # Deltas are over the tasks both runs hold at the same version, so a change in the task
    # list is never read as a change in the model.
    shared = {f"{s}:{t}" for s, t in versions_a.keys() & versions_b.keys()} - skip
    if only or skip:
        warnings.append(f"metric deltas are over the {len(shared)} task(s) both runs share")
    models = []
    for ma, mb in pairs:
        metrics_a = compute(_on(a.episodes, ma.model, shared))
        metrics_b = compute(_on(b.episodes, mb.model, shared))
        deltas = tuple(
            MetricDelta(name, metrics_a.rate(name), metrics_b.rate(name)) for name in METRICS
        )
        pa, pb = _task_passes(a.episodes, ma.model), _task_passes(b.episodes, mb.model)
        common = sorted(t for t in pa.keys() & pb.keys() if t not in skip)
        models.append(
            ModelComparison(
                ma.model,
                mb.model,
                deltas,
                regressions=tuple(t for t in common if pa[t] and not pb[t]),
                fixes=tuple(t for t in common if not pa[t] and pb[t]),
            )
        )
    return Comparison(a.run.id, b.run.id, tuple(models), tuple(warnings))
