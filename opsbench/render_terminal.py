"""Terminal rendering (rich) of reports, comparisons and single episodes. No computing here."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.table import Table

from opsbench.compare import Comparison
from opsbench.metrics import LABELS, METRICS, Rate, UsageTotals
from opsbench.records import EpisodeRecord
from opsbench.report import Report

# The seed's table (and the pass rate) in the scorecard; the other rates in the full report.
SCORECARD = (
    "confident_partial",
    "escalation_precision",
    "escalation_recall",
    "accommodation",
    "unrecoverable",
    "pass",
)
MORE = ("completion", "collateral", "privacy", "disclosure", "misstatement")


def fmt_rate(rate: Rate, *, interval: bool = True) -> str:
    """``83.3% [75.1–89.2]``, or ``–`` when there is nothing to divide by."""
    if rate.value is None:
        return "–"
    text = f"{rate.value:.1%}"
    if interval and rate.interval is not None:
        low, high = rate.interval
        text += f" [{low * 100:.1f}–{high * 100:.1f}]"
    return text


SHORT = {
    "confident_partial": "confident\npartial",
    "escalation_precision": "escalation\nprecision",
    "escalation_recall": "escalation\nrecall",
    "accommodation": "unauthorized\naccomm.",
    "privacy": "privacy\nviolation",
    "unrecoverable": "unrecoverable\nchange",
    "completion": "task\ncompletion",
    "collateral": "collateral\nchange",
    "disclosure": "disclosure",
    "misstatement": "misstate-\nment",
    "pass": "pass\nrate",
}


def cell(rate: Rate) -> str:
    """A compact two-line cell: the rate, then its interval in points."""
    if rate.value is None or rate.interval is None:
        return "–"
    low, high = rate.interval
    return f"{rate.value:.0%}\n[dim]{low * 100:.0f}–{high * 100:.0f}[/]"


def fmt_cost(usage: UsageTotals) -> str:
    """Dollars, or ``unknown`` (with the known part) when some price was unknown — never 0."""
    if usage.cost_known:
        return f"${usage.cost_usd:.4f}"
    if usage.cost_usd:
        return f"unknown (≥ ${usage.cost_usd:.4f}; {usage.unknown_cost} episodes unpriced)"
    return "unknown"


def scorecard(report: Report, console: Console, columns: tuple[str, ...] = SCORECARD) -> None:
    """One row per model with Wilson 95% intervals: the seed's table, or ``columns``."""
    seed_table = columns == SCORECARD
    table = Table(
        title=f"OpsBench scorecard — run {report.run.id}" if seed_table else "more rates",
        caption="rate over scored episodes; below it, its Wilson 95% interval in points",
    )
    table.add_column("model", no_wrap=True)
    for name in columns:
        table.add_column(SHORT[name], justify="right", min_width=len(SHORT[name].split()[0]))
    trials = int(report.run.config.get("trials", 1))
    if seed_table:
        table.add_column("scored", justify="right")
        table.add_column("errors\ninfra/caller", justify="right")
    elif trials > 1:
        table.add_column(f"pass^{trials}", justify="right")
    for model in report.models:
        m = model.metrics
        row = [model.model, *(cell(m.rates[n]) for n in columns)]
        if seed_table:
            row += [str(m.scored), f"{m.infrastructure_errors}/{m.caller_errors}"]
        elif trials > 1:
            row.append(cell(m.rate(f"pass^{trials}")))
        table.add_row(*row)
    console.print(table)


def fmt_gap(row: dict[str, Any]) -> str:
    """``+41.2 pts [22.0–55.1]``, or ``–`` when either side has nothing to divide by."""
    if row["gap"] is None:
        return "–"
    return f"{row['gap'] * 100:+.1f} pts [{row['low'] * 100:+.1f} to {row['high'] * 100:+.1f}]"


def _dict_rate(rate: dict[str, Any]) -> str:
    """A rate as :meth:`Rate.to_dict` gives it (its interval already sized by tasks)."""
    if rate["value"] is None:
        return "–"
    return f"{rate['value']:.1%} [{rate['low'] * 100:.1f}–{rate['high'] * 100:.1f}]"


def gap_table(model: Any, console: Console) -> None:
    """Public, the other set and the gap per metric, each with its 95% interval."""
    other = model.gap_against
    table = Table(
        title=f"{model.model}: public vs {other}, per metric",
        caption="gap = public − " + other + " with a Newcombe 95% interval; one that spans 0 "
        "cannot tell the sets apart",
    )
    for column in ("metric", "public", other, "gap"):
        table.add_column(column, justify="left" if column == "metric" else "right")
    for row in model.set_gaps():
        table.add_row(
            row["label"], _dict_rate(row["public"]), _dict_rate(row["other"]), fmt_gap(row)
        )
    console.print(table)


def provenance_line(provenance: dict[str, Any]) -> str:
    """Scorer version, the servers the models were sent to, and the SDK versions, in one line."""
    if not provenance:
        return "scorer version unrecorded (a run stored before provenance was kept)"
    urls = {m: u for m, u in provenance.get("base_urls", {}).items() if u}
    sdks = provenance.get("sdks", {})
    return (
        f"scorer {provenance.get('scorer_version')}"
        + ("  base URL " + ", ".join(f"{m} → {u}" for m, u in sorted(urls.items())) if urls else "")
        + ("  SDKs " + ", ".join(f"{n} {v}" for n, v in sorted(sdks.items())) if sdks else "")
    )


def retry_lines(report: Report) -> list[str]:
    """One line per model whose episodes needed retries."""
    lines = []
    for model, r in report.retries().items():
        reasons = ", ".join(f"{k} x{n}" for k, n in sorted(r["reasons"].items()))
        lines.append(
            f"{model}: {r['failed_requests']} failed requests retried or given up on in "
            f"{r['episodes']} episodes ({reasons}), {r['waited_s']:.1f} s waited"
        )
    return lines


def full_report(report: Report, console: Console, *, breakdowns: bool = True) -> None:
    """Run metadata, the scorecard, breakdowns, failure classes, tokens and cost."""
    run = report.run
    console.print(
        f"[bold]Run {run.id}[/]  opsbench {run.opsbench_version}  commit {run.git_commit or '?'}"
        f"  seed {run.seed}  caller {run.caller}  judge {run.judge or 'lexicon checker'}"
        f"  tasks {len(run.tasks)} (set hash {run.task_set_hash})"
    )
    console.print(provenance_line(run.provenance), highlight=False, markup=False)
    arms = run.config.get("mitigations") or []
    if arms:
        console.print(
            f"mitigation arms: {' | '.join(arms)} (each model under each; "
            f"`opsbench compare {run.id}` for before/after)"
        )
    missing = report.planned - len(report.episodes)
    if missing > 0:
        console.print(
            f"[yellow]{missing} of {report.planned} episodes not run yet: "
            f"`opsbench run --resume {run.id}` finishes them[/]"
        )
    scorecard(report, console)
    scorecard(report, console, MORE)
    console.print(f"[dim]{report.note}[/]")
    for line in retry_lines(report):
        console.print(f"[dim]retries: {line}[/]")
    for model in report.models:
        m = model.metrics
        if m.infrastructure_errors:
            console.print(
                f"[yellow]{model.model}: {m.infrastructure_errors} infrastructure errors "
                f"(excluded; `opsbench run --resume {run.id}` re-runs them)[/]"
            )
        if m.pass_hat_k and len(m.pass_hat_k) > 1:
            console.print(
                f"{model.model}: "
                + "  ".join(f"pass^{k} {fmt_rate(r)}" for k, r in m.pass_hat_k.items())
            )
        if model.heldout_gap is not None:
            console.print(
                f"{model.model}: public − {model.gap_against} pass rate {model.heldout_gap:+.1%}"
            )
            gap_table(model, console)
    if breakdowns:
        for dimension in ("business", "caller_kind", "tactic", "task_set", "sessions"):
            table = Table(title=f"pass rate by {dimension.replace('_', ' ')}")
            table.add_column("model", no_wrap=True)
            groups = sorted({g for m in report.models for g in m.breakdowns.get(dimension, {})})
            if len(groups) < 2 and dimension != "business":
                continue
            for group in groups:
                table.add_column(group, justify="right")
            for model in report.models:
                cells = model.breakdowns.get(dimension, {})
                table.add_row(
                    model.model,
                    *(
                        fmt_rate(cells[g].rates["pass"], interval=False) if g in cells else ""
                        for g in groups
                    ),
                )
            console.print(table)
        failures = Table(title="failure classes (episodes)")
        failures.add_column("model", no_wrap=True)
        failures.add_column("classes")
        for model in report.models:
            classes = ", ".join(f"{k} {v}" for k, v in model.metrics.failure_classes.items())
            failures.add_row(model.model, classes or "none")
        console.print(failures)
    usage = Table(title="tokens and cost")
    for column in ("model", "role", "requests", "input", "output", "cached", "cost"):
        usage.add_column(column, justify="left" if column in ("model", "role") else "right")
    for model in report.models:
        for role, totals in model.metrics.usage.items():
            if role != "assistant" and not totals.requests:
                continue
            usage.add_row(
                model.model,
                role,
                str(totals.requests),
                str(totals.input_tokens),
                str(totals.output_tokens),
                str(totals.cached_tokens),
                fmt_cost(totals),
            )
    console.print(usage)


def comparison(result: Comparison, console: Console) -> None:
    for warning in result.warnings:
        console.print(f"[yellow]warning: {warning}[/]")
    for model in result.models:
        title = (
            model.model_a
            if model.model_a == model.model_b
            else f"{model.model_a} → {model.model_b}"
        )
        table = Table(title=f"{title}: {result.run_a} → {result.run_b}")
        for column in ("metric", "A", "B", "Δ", ""):
            table.add_column(column, justify="right" if column else "left")
        for delta in model.deltas:
            sign = ""
            if delta.delta is not None and delta.separated:
                better = (delta.delta > 0) == METRICS[delta.metric]
                sign = "[green]better[/]" if better else "[red]worse[/]"
            table.add_row(
                LABELS[delta.metric],
                fmt_rate(delta.a),
                fmt_rate(delta.b),
                "–" if delta.delta is None else f"{delta.delta * 100:+.1f} pts",
                sign,
            )
        console.print(table)
        console.print("[dim]better/worse: the Wilson 95% intervals do not overlap[/]")
        console.print(
            f"[red]pass → fail ({len(model.regressions)}):[/] " + ", ".join(model.regressions)
        )
        console.print(f"[green]fail → pass ({len(model.fixes)}):[/] " + ", ".join(model.fixes))


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def episode(record: EpisodeRecord, console: Console) -> None:
    """One episode: transcript with tool calls, ledger, diff, and the scorer's reasons."""
    task = record.task
    console.print(
        f"[bold]{record.id}[/]  run {record.run_id}  model {record.model}  task "
        f"{record.task_set}:{record.task_id} (v{record.task_version})  trial {record.trial}  "
        f"seed {record.seed}"
    )
    if task is not None:
        console.print(f"{task.title}  [dim]{task.business} · {task.coverage}[/]")
    result = record.result or {}
    trace = {t["call_id"]: t for t in result.get("trace", [])}
    console.rule("transcript")
    for line in result.get("transcript", []):
        who = "[cyan]assistant[/]" if line["speaker"] == "assistant" else "[magenta]caller[/]"
        if line.get("text"):
            console.print(f"{who} (s{line['session']}): {line['text']}", highlight=False)
        if line.get("original_text") is not None:
            console.print(
                f"    [dim]its own words, replaced by a mitigation: {line['original_text']}[/]",
                highlight=False,
            )
        for call in line.get("tool_calls", []):
            done = trace.get(call["id"], {})
            console.print(
                f"    [dim]→ {call['name']}({call['arguments']}) = {done.get('outcome', '?')}: "
                f"{_json(done.get('result'))[:300]}[/]",
                highlight=False,
            )
    console.rule("ledger")
    for entry in result.get("ledger", []):
        console.print(
            f"#{entry.get('seq')} {entry.get('tool')} {entry.get('outcome')} "
            f"[{entry.get('effect')}] {_json(entry.get('arguments'))}",
            highlight=False,
        )
    if not result.get("ledger"):
        console.print("(no side-effecting calls)")
    console.rule("state diff")
    for row in record.diff or []:
        changes = ", ".join(
            f"{k}: {_json(v['before'])} → {_json(v['after'])}" for k, v in row["changes"].items()
        )
        console.print(
            f"{row['op']} {row['table']}/{row['id']}  {changes if row['op'] == 'update' else ''}",
            highlight=False,
        )
    if not record.diff:
        console.print("(no change)")
    console.rule("score")
    if record.status != "scored":
        console.print(f"[yellow]{record.status}[/]: {record.error or ''}")
    if record.score is not None:
        s = record.score
        verdict = "[green]PASSED[/]" if s["passed"] else "[red]FAILED[/]"
        console.print(
            f"{verdict}  completed={s['completed']} escalation={s['escalation']} "
            f"disclosed={s['disclosed']} confident_partial={s['confident_partial']} "
            f"collateral={len(s['collateral'])} violations={len(s['violations'])} "
            f"unrecoverable={len(s['unrecoverable'])}"
        )
        for reason in s.get("reasons", []):
            console.print(f"  • {reason}", highlight=False)


def arms(result: Any, console: Console) -> None:
    """``opsbench compare RUN``: each mitigation arm before/after (opsbench.compare_arms)."""
    from opsbench.compare_arms import HEADLINE, headline_interval, headline_value

    for warning in result.warnings:
        console.print(f"[yellow]warning: {warning}[/]")
    for arm in result.arms:
        table = Table(
            title=f"{' + '.join(arm.arm)}: before → after, run {result.run} "
            f"({len(arm.models)} model(s), same tasks and seeds)"
        )
        for column in ("", "Before", "After", "Δ", ""):
            table.add_column(column, justify="right" if column else "left")
        for metric, label in HEADLINE.items():
            a, b = arm.before[metric], arm.after[metric]
            delta = None if a.value is None or b.value is None else b.value - a.value
            low_a, low_b = a.interval, b.interval
            sign = ""
            if (
                delta is not None
                and low_a
                and low_b
                and (low_a[1] < low_b[0] or low_b[1] < low_a[0])
            ):
                sign = "[green]better[/]" if (delta > 0) == METRICS[metric] else "[red]worse[/]"
            table.add_row(
                label,
                f"{headline_value(metric, a)} [{headline_interval(metric, a)}]",
                f"{headline_value(metric, b)} [{headline_interval(metric, b)}]",
                "–" if delta is None else f"{delta * 100:+.1f} pts",
                sign,
            )
        console.print(table)
        for model in arm.per_model:
            console.print(
                f"[bold]{model.model_a} → {model.model_b}[/]  "
                f"[red]pass → fail ({len(model.regressions)}):[/] {', '.join(model.regressions)}  "
                f"[green]fail → pass ({len(model.fixes)}):[/] {', '.join(model.fixes)}",
                highlight=False,
            )
    console.print("[dim]better/worse: the Wilson 95% intervals do not overlap[/]")
