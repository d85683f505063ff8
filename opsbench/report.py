"""A run's report as data: per-model metrics and breakdowns, ready for any renderer.

Computing lives here; rendering lives in :mod:`opsbench.render_terminal` and
:mod:`opsbench.render_html`; ``--json`` is :meth:`Report.to_dict`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from opsbench import metrics
from opsbench.metrics import INTERVAL_NOTE, Metrics
from opsbench.records import EpisodeRecord, RunRecord
from opsbench.store import Store


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
    # The episodes the HTML file carries in full (failing first, within a byte budget), and
    # how many of the run's episodes it leaves to the store; None: not built for HTML.
    shown: tuple[EpisodeRecord, ...] | None = None
    omitted: int = 0

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


# The one-file HTML report stays under HTML_LIMIT bytes so that it opens in a browser at any
# run size: the summary, charts and intervals always cover every episode, and full episodes
# (transcripts, ledgers, diffs) fill what is left, at most HTML_EPISODE_BUDGET bytes of them
# and HTML_EPISODE_CAP episodes. The page's own code and styles take HTML_OVERHEAD at most.
HTML_LIMIT = 5_000_000
HTML_EPISODE_BUDGET = 4 * 2**20
HTML_EPISODE_CAP = 1000
HTML_OVERHEAD = 100_000
# Escaping for <script> (\u003c for <) makes the embedded JSON a little larger than canonical.
_EMBED_MARGIN = 1.1


def _failing_first(episode: EpisodeRecord) -> int:
    if episode.status == "scored":
        return 1 if episode.score and episode.score.get("passed") else 0
    return 0  # an infrastructure or caller error is worth a look as much as a failure


def _shown_in_html(
    store: Store, run_id: str, episodes: list[EpisodeRecord], budget: int
) -> list[EpisodeRecord]:
    """Full records of the episodes the HTML carries: failing first, within ``budget`` bytes."""
    from sandbox.canonical import canonical_json

    shown: list[EpisodeRecord] = []
    used = 0
    order = (e.id for e in sorted(episodes, key=_failing_first))  # stable within a group
    for record in store.full_episodes(run_id, order):
        if len(shown) >= HTML_EPISODE_CAP:
            break
        size = int(len(canonical_json(record.to_dict(full=True)).encode("utf-8")) * _EMBED_MARGIN)
        if used + size > budget:
            break
        shown.append(record)
        used += size
    return shown


def build_report(store: Store, run_id: str | None = None, *, full: bool = False) -> Report:
    """The report of run ``run_id`` (default: the latest).

    ``full`` (for the HTML file) also loads, in :attr:`Report.shown`, the full records of the
    episodes the file carries: the failing ones first, within :data:`HTML_EPISODE_BUDGET`;
    the metrics always count every episode.
    """
    run = store.run(run_id)
    episodes = store.episodes(run.id)
    grouped = metrics.by_model(episodes)
    order = [m for m in run.config.get("models", []) if m in grouped]
    order += [m for m in grouped if m not in order]
    models = tuple(
        ModelReport(m, metrics.compute(grouped[m]), metrics.breakdowns(grouped[m])) for m in order
    )
    report = Report(run, models, tuple(episodes), tuple(store.failed_attempts(run.id)))
    if not full:
        return report
    from sandbox.canonical import canonical_json

    # The summary grows with models × tasks, not with episodes; episodes get what it leaves.
    summary = int(len(canonical_json(report.to_dict()).encode("utf-8")) * _EMBED_MARGIN)
    budget = min(HTML_EPISODE_BUDGET, HTML_LIMIT - HTML_OVERHEAD - summary)
    shown = _shown_in_html(store, run.id, episodes, budget)
    return replace(report, shown=tuple(shown), omitted=len(episodes) - len(shown))
