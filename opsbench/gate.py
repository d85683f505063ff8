"""CI gating: ``--fail-under pass=0.8,confident_partial<=0.01`` and JUnit XML.

A threshold ``name=value`` means "at least this good": ``>=`` for metrics where higher is
better (pass, completion, ...), ``<=`` for those where lower is better (collateral,
confident_partial, ...). An explicit operator (``>=``, ``<=``, ``>``, ``<``) says it outright.
Every model of the run must meet every threshold; a model with no scored episode fails.

Rates leave infrastructure errors out, so a run whose provider was down for most tasks could
pass on the few episodes that ran. The gate therefore also fails a model with infrastructure
errors or with planned episodes missing from the store, unless the user opts out
(``allow_errors``, ``--allow-errors`` on the command line) to gate on the scored episodes alone.
"""

from __future__ import annotations

import operator
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from opsbench.errors import SelectionError
from opsbench.metrics import METRICS
from opsbench.report import Report

_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}
_THRESHOLD = re.compile(r"^\s*([a-z_]+(?:\^\d+)?)\s*(>=|<=|>|<|=)\s*(\d+(?:\.\d*)?|\.\d+)\s*$")


@dataclass(frozen=True)
class Threshold:
    metric: str
    op: str
    value: float

    def __str__(self) -> str:
        return f"{self.metric}{self.op}{self.value:g}"


@dataclass(frozen=True)
class GateFailure:
    """A threshold a model missed, or (``threshold`` None) why its scores cannot be trusted."""

    model: str
    threshold: Threshold | None
    found: float | None
    reason: str | None = None

    def __str__(self) -> str:
        if self.threshold is None:
            return f"{self.model}: {self.reason}"
        # A rate with no denominator: no scored episodes, or (for escalation precision/recall)
        # no escalation made / required among them.
        found = (
            "undefined (nothing to measure it on)" if self.found is None else f"{self.found:.4f}"
        )
        return f"{self.model}: {self.threshold.metric} is {found}, required {self.threshold}"


def parse_thresholds(text: str) -> list[Threshold]:
    """Parse ``pass=0.8,confident_partial<=0.01``; unknown metrics are an error."""
    thresholds = []
    if not text.strip(" ,"):
        raise SelectionError(
            "--fail-under: nothing to check in an empty value; expected metric=value or "
            "metric<=value, e.g. pass=0.8,confident_partial<=0.01"
        )
    for part in filter(None, (p.strip() for p in text.split(","))):
        match = _THRESHOLD.match(part)
        if not match:
            raise SelectionError(
                f"--fail-under: cannot read {part!r}; expected metric=value or metric<=value, "
                "e.g. pass=0.8,confident_partial<=0.01"
            )
        name, op, value = match.groups()
        base = "pass" if name.startswith("pass^") else name
        if base not in METRICS:
            raise SelectionError(
                f"--fail-under: unknown metric {name!r}; known: {', '.join(METRICS)}, "
                "and pass^K for a number K (pass^2, pass^3 ...)"
            )
        if float(value) > 1:
            raise SelectionError(
                f"--fail-under: {part!r}: rates are shares from 0 to 1 (write 0.8 for 80%)"
            )
        if op == "=":
            op = ">=" if METRICS[base] else "<="
        thresholds.append(Threshold(name, op, float(value)))
    return thresholds


def check(
    report: Report, thresholds: list[Threshold], *, allow_errors: bool = False
) -> list[GateFailure]:
    """Every (model, threshold) the run does not meet.

    With thresholds, a model with infrastructure errors or missing episodes fails too (its
    rates cover only part of the run) unless ``allow_errors``.
    """
    failures = []
    if thresholds and not allow_errors:
        failures.extend(incomplete(report))
    for model in report.models:
        for threshold in thresholds:
            value = model.metrics.rate(threshold.metric).value
            if value is None or not _OPS[threshold.op](value, threshold.value):
                failures.append(GateFailure(model.model, threshold, value))
    return failures


def incomplete(report: Report) -> list[GateFailure]:
    """Models whose planned episodes are not all stored, or stored as infrastructure errors."""
    trials = int(report.run.config.get("trials", 1))
    planned = len(report.run.tasks) * trials
    stored = {m.model: m.metrics for m in report.models}
    names = list(dict.fromkeys([*report.run.config.get("models", []), *stored]))
    failures = []
    for name in names:
        metrics = stored.get(name)
        errors = metrics.infrastructure_errors if metrics else 0
        missing = max(planned - (metrics.episodes if metrics else 0), 0)
        if not errors and not missing:
            continue
        problems = []
        if errors:
            problems.append(f"{errors} infrastructure errors")
        if missing:
            problems.append(f"{missing} episodes not run")
        reason = (
            f"{' and '.join(problems)} of {planned} planned, so its rates cover only part of "
            f"the run; finish it with `opsbench run --resume {report.run.id}`, or pass "
            "--allow-errors to gate on the scored episodes alone"
        )
        failures.append(GateFailure(name, None, None, reason))
    return failures


def write_junit(report: Report, path: str | Path) -> None:
    """JUnit XML: one test suite per model, one test case per task (all its trials).

    Parents of ``path`` are created, as for the HTML report.
    """
    root = ET.Element("testsuites", name=f"opsbench {report.run.id}")
    for model in report.models:
        by_task: dict[tuple[str, str], list] = {}
        for episode in report.episodes:
            if episode.model == model.model:
                by_task.setdefault((episode.task_set, episode.task_id), []).append(episode)
        suite = ET.SubElement(root, "testsuite", name=model.model, tests=str(len(by_task)))
        counts = {"failures": 0, "errors": 0, "skipped": 0}
        for (task_set, task_id), episodes in sorted(by_task.items()):
            case = ET.SubElement(
                suite, "testcase", classname=model.model, name=f"{task_set}:{task_id}"
            )
            seconds = sum(e.timings.get("total_s", 0.0) for e in episodes)
            case.set("time", f"{seconds:.3f}")
            scored = [e for e in episodes if e.status == "scored" and e.score is not None]
            failed = [e for e in scored if not e.score.get("passed")]  # type: ignore[union-attr]
            if failed:
                counts["failures"] += 1
                reasons = sorted({r for e in failed for r in e.score.get("reasons", [])})  # type: ignore[union-attr]
                node = ET.SubElement(
                    case,
                    "failure",
                    message=f"{len(failed)} of {len(scored)} trials failed",
                    type="opsbench.failed",
                )
                node.text = "\n".join(reasons + [f"episode {e.id}" for e in failed])
            elif not scored:
                errors = [e for e in episodes if e.status == "infrastructure_error"]
                if errors:
                    counts["errors"] += 1
                    node = ET.SubElement(
                        case, "error", message=errors[0].error or "", type="infrastructure_error"
                    )
                else:
                    counts["skipped"] += 1
                    ET.SubElement(case, "skipped", message="caller error: not scored")
        for name, value in counts.items():
            suite.set(name, str(value))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
