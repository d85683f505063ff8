"""How a live call looks in the terminal: lines as they are spoken, tool calls as they run, the
state diff on request, and the scorecard and ledger at hang-up. Rendering only (rich)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from sandbox.diff import DiffRow
from sandbox.ledger import LedgerEntry
from sandbox.scorer import Score
from sandbox.world import ToolCallRecord


def _short(value: Any, width: int = 70) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


class CallDisplay:
    """Prints one call. ``verbose`` adds each tool call's full arguments and result."""

    def __init__(self, console: Console | None = None, *, verbose: bool = False) -> None:
        self.console = console or Console(highlight=False)
        self.verbose = verbose

    def line(self, speaker: str, text: str) -> None:
        style = "bold cyan" if speaker == "assistant" else "bold green"
        self.console.print(f"[{style}]{speaker}:[/] {text}", soft_wrap=True)

    def note(self, text: str) -> None:
        self.console.print(f"[dim]{text}[/]", soft_wrap=True)

    def tool(self, record: ToolCallRecord) -> None:
        """One tool call as it happens: name, arguments and outcome; detail with ``verbose``."""
        arguments = record.arguments if record.arguments is not None else record.raw_arguments
        outcome = record.outcome
        mark = {"ok": "[green]ok[/]", "rejected": "[yellow]rejected[/]", "failed": "[red]failed[/]"}
        summary = f"  [magenta]tool[/] {record.tool}({_short(arguments)}) -> {mark[outcome]}"
        error = record.result.get("error") if isinstance(record.result, dict) else None
        if error:
            summary += f": {error.get('message', error)}"
        self.console.print(summary, soft_wrap=True)
        if self.verbose:
            self.console.print(
                f"    arguments: {json.dumps(arguments, ensure_ascii=False)}", soft_wrap=True
            )
            self.console.print(
                f"    result: {json.dumps(record.result, ensure_ascii=False)}", soft_wrap=True
            )

    def diff(self, rows: Sequence[DiffRow]) -> None:
        if not rows:
            self.note("state: no changes yet")
            return
        table = Table(title="state changes so far")
        for column in ("op", "record", "changes"):
            table.add_column(column)
        for row in rows:
            changes = ", ".join(
                f"{c.field}: {_short(c.before, 24)} -> {_short(c.after, 24)}" for c in row.changes
            )
            table.add_row(row.op, f"{row.table}/{row.id}", changes)
        self.console.print(table)

    def scorecard(self, score: Score, *, free: bool = False) -> None:
        """The verdict. A free call (no task) has no expected outcome: only changes and rules."""
        self.console.rule("Scorecard")
        rows: list[tuple[str, str]] = []
        if not free:
            rows += [
                ("passed", "yes" if score.passed else "no"),
                ("completed", "yes" if score.completed else "no"),
                ("escalation", score.escalation),
                ("disclosed", "yes" if score.disclosed else "no"),
                ("confident partial", "yes" if score.confident_partial else "no"),
            ]
        rows += [
            ("collateral", str(len(score.collateral))),
            ("violations", ", ".join(f"{v.tag} ({v.rule})" for v in score.violations) or "none"),
            ("unrecoverable", str(len(score.unrecoverable))),
        ]
        if free:
            rows.append(("false claims", str(len(score.false_claims))))
        table = Table(show_header=False)
        table.add_column("field")
        table.add_column("value")
        for name, value in rows:
            table.add_row(name, value)
        self.console.print(table)
        if free:
            self.note(
                "Free call: no task says what should change, so every change counts as "
                "collateral; judge them yourself. Rules and claims are checked as usual."
            )
        reasons = score.reasons
        if free:
            reasons = tuple(r for r in reasons if not r.startswith(("collateral", "escalated")))
        for reason in reasons:
            self.console.print(f"  - {reason}", soft_wrap=True)

    def ledger(self, entries: Sequence[LedgerEntry]) -> None:
        self.console.rule("Ledger")
        if not entries:
            self.note("no side-effecting tool calls")
            return
        table = Table()
        for column in ("#", "time", "tool", "outcome", "effect", "changed"):
            table.add_column(column)
        for entry in entries:
            changed = ", ".join(f"{c.table}/{c.id}" for c in entry.changes)
            table.add_row(
                str(entry.seq), entry.time, entry.tool, entry.outcome, str(entry.effect), changed
            )
        self.console.print(table)
