"""A run's report as data: per-model metrics and breakdowns, ready for any renderer.

Computing lives here; rendering lives in :mod:`opsbench.render_terminal` and
:mod:`opsbench.render_html`; ``--json`` is :meth:`Report.to_dict`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from opsbench import metrics
from opsbench.metrics import INTERVAL_NOTE, Metrics
from opsbench.store import EpisodeRecord, RunRecord, Store


@dataclass(frozen=True)
class ModelReport:
    """One model's numbers in one run."""

    model: str
    metrics: Metrics
    breakdowns: dict[str, dict[str, Metrics]]

    @property
    def gap_against(self) -> str | None:
        """The label of the one other task set the public set is compared with (``heldout``,
        or whatever label it was given), when the run covered exactly two sets."""
        sets = self.breakdowns.get("task_set", {})
        others = [name for name in sets if name != "public"]
        return others[0] if "public" in sets and len(others) == 1 else None

    @property
    def heldout_gap(self) -> float | None:
        """Public minus the other set's pass rate (see :attr:`gap_against`)."""
        other = self.gap_against
        if other is None:
            return None
        sets = self.breakdowns["task_set"]
        a, b = sets["public"].rates["pass"].value, sets[other].rates["pass"].value
        return None if a is None or b is None else a - b

    def set_gaps(self) -> list[dict[str, Any]]:
        """Per metric: the public rate, the other set's rate, and public minus other with its
        95% interval (:func:`opsbench.metrics.difference`); ``[]`` unless two sets were run.

        A large gap on a metric says the public number overstates the assistant there (it may
        have been trained on, or tuned to, the public tasks); an interval that spans 0 means the
        run cannot tell the sets apart on that metric.
        """
        other = self.gap_against
        if other is None:
            return []
        sets = self.breakdowns["task_set"]
        rows = []
        for name in metrics.METRICS:
            public, held = sets["public"].rates.get(name), sets[other].rates.get(name)
            if public is None or held is None:
                continue
            found = metrics.difference(public, held)
            rows.append(
                {
                    "metric": name,
                    "label": metrics.LABELS[name],
                    "higher_better": metrics.METRICS[name],
                    "public": public.to_dict(),
                    "other": held.to_dict(),
                    "gap": None if found is None else found[0],
                    "low": None if found is None else found[1][0],
                    "high": None if found is None else found[1][1],
                }
            )
        return rows

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "metrics": self.metrics.to_dict(),
            "breakdowns": {
                dim: {group: m.to_dict() for group, m in groups.items()}
                for dim, groups in self.breakdowns.items()
            },
            "heldout_gap": self.heldout_gap,
            "gap_against": self.gap_against,
            "set_gaps": self.set_gaps(),
        }


@dataclass(frozen=True)
class Report:
    """Everything a report shows about one run."""

    run: RunRecord
    models: tuple[ModelReport, ...]
    episodes: tuple[EpisodeRecord, ...]
    failed_attempts: tuple[dict[str, Any], ...] = ()
    note: str = INTERVAL_NOTE

    @property
    def planned(self) -> int:
        return (
            len(self.run.config.get("models", []))
            * len(self.run.tasks)
            * int(self.run.config.get("trials", 1))
        )

    def model(self, name: str) -> ModelReport:
        for report in self.models:
            if report.model == name:
                return report
        raise KeyError(name)

    def retries(self) -> dict[str, dict[str, Any]]:
        """Per model, the failed provider requests of its episodes (assistant, caller and
        judge requests alike): how many, in how many episodes, why, and the time waited."""
        out: dict[str, dict[str, Any]] = {}
        for episode in self.episodes:
            if not episode.retries:
                continue
            summary = out.setdefault(
                episode.model,
                {"failed_requests": 0, "episodes": 0, "waited_s": 0.0, "reasons": {}},
            )
            summary["episodes"] += 1
            for attempt in episode.retries:
                summary["failed_requests"] += 1
                summary["waited_s"] = round(summary["waited_s"] + (attempt.get("wait_s") or 0), 3)
                status = attempt.get("status")
                reason = f"HTTP {status}" if status is not None else "no response"
                summary["reasons"][reason] = summary["reasons"].get(reason, 0) + 1
        return out

    def to_dict(self, *, episodes: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "run": self.run.to_dict(),
            "note": self.note,
            "planned_episodes": self.planned,
            "stored_episodes": len(self.episodes),
            "models": [m.to_dict() for m in self.models],
            "episodes": [
                {
                    "id": e.id,
                    "model": e.model,
                    "task_set": e.task_set,
                    "task_id": e.task_id,
                    "trial": e.trial,
                    "status": e.status,
                    "passed": None if e.score is None else e.score.get("passed"),
                    "error": e.error,
                    "scorer_version": e.scorer_version,
                }
                for e in self.episodes
            ],
            "failed_attempts": list(self.failed_attempts),
            "retries": self.retries(),
        }
        if episodes:
            out["episode_details"] = [e.to_dict() for e in self.episodes]
        return out


def build_report(store: Store, run_id: str | None = None, *, full: bool = False) -> Report:
    """The report of run ``run_id`` (default: the latest); ``full`` loads transcripts too."""
    run = store.run(run_id)
    episodes = store.episodes(run.id, full=full)
    grouped = metrics.by_model(episodes)
    order = [m for m in run.config.get("models", []) if m in grouped]
    order += [m for m in grouped if m not in order]
    models = tuple(
        ModelReport(m, metrics.compute(grouped[m]), metrics.breakdowns(grouped[m])) for m in order
    )
    return Report(run, models, tuple(episodes), tuple(store.failed_attempts(run.id)))
