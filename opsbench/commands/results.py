"""``opsbench report|compare|show|export|runs``: read the results store."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from opsbench.commands._common import (
    DEFAULT_STORE_PATH,
    AllowErrorsOption,
    FailUnderOption,
    HtmlOption,
    JunitOption,
    StoreOption,
    check_writable,
    finish_report,
    report_console,
    user_errors,
)


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report(
        run: Annotated[str | None, typer.Argument(help="Run id (default: the latest).")] = None,
        store: StoreOption = DEFAULT_STORE_PATH,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        html: HtmlOption = None,
        junit: JunitOption = None,
        fail_under: FailUnderOption = None,
        allow_errors: AllowErrorsOption = False,
    ) -> None:
        """The scorecard with intervals, breakdowns, tokens and cost of a run."""
        from opsbench import gate
        from opsbench.report import build_report
        from opsbench.store import Store

        with user_errors():
            if fail_under is not None:
                gate.parse_thresholds(fail_under)  # a typo fails before the report is printed
            check_writable(html)
            check_writable(junit)
            with Store(store, create=False) as db:
                built = build_report(db, run, full=html is not None)
            finish_report(
                built,
                as_json=as_json,
                html=html,
                junit=junit,
                fail_under=fail_under,
                allow_errors=allow_errors,
            )

    @app.command("compare")
    def compare(
        run_a: Annotated[str, typer.Argument(help="The earlier run.")],
        run_b: Annotated[
            str | None,
            typer.Argument(help="The later run; omitted: the run's mitigation arms, before/after."),
        ] = None,
        store: StoreOption = DEFAULT_STORE_PATH,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        as_markdown: Annotated[
            bool,
            typer.Option("--markdown", help="With one run: the before/after tables as Markdown."),
        ] = False,
    ) -> None:
        """Metric deltas with intervals, and the tasks that flipped pass↔fail.

        With one run: each mitigation arm against the same models without it (same tasks and
        seeds), the brief's four headline metrics side by side.
        """
        if run_b is None:
            _compare_arms(run_a, store, as_json, as_markdown)
            return

        from opsbench import render_terminal
        from opsbench.compare import compare as compare_runs
        from opsbench.report import build_report
        from opsbench.store import Store

        with user_errors():
            with Store(store, create=False) as db:
                result = compare_runs(build_report(db, run_a), build_report(db, run_b))
            if as_json:
                typer.echo(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
            else:
                render_terminal.comparison(result, report_console())

    def _compare_arms(run: str, store: Path, as_json: bool, as_markdown: bool) -> None:
        from opsbench import render_terminal
        from opsbench.compare_arms import compare_arms, markdown
        from opsbench.report import build_report
        from opsbench.store import Store

        with user_errors():
            with Store(store, create=False) as db:
                result = compare_arms(build_report(db, run))
            if as_json:
                typer.echo(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
            elif as_markdown:
                typer.echo("\n\n".join(markdown(arm) for arm in result.arms))
            else:
                render_terminal.arms(result, report_console())

    @app.command("show")
    def show(
        episode: Annotated[str, typer.Argument(help="Episode id (ep-…; a prefix is enough).")],
        store: StoreOption = DEFAULT_STORE_PATH,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """One episode: transcript, tool calls, ledger, state diff and the scorer's reasons."""

        from opsbench import render_terminal
        from opsbench.store import Store

        with user_errors():
            with Store(store, create=False) as db:
                record = db.episode(episode)
            if as_json:
                typer.echo(json.dumps(record.to_dict(), indent=2, ensure_ascii=False))
            else:
                render_terminal.episode(record, report_console())

    @app.command("export")
    def export(
        run: Annotated[str, typer.Argument(help="Run id.")],
        jsonl: Annotated[
            bool, typer.Option("--jsonl", help="One JSON object per episode (the only format).")
        ] = False,
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="File (default: stdout).")
        ] = None,
        store: StoreOption = DEFAULT_STORE_PATH,
    ) -> None:
        """Every episode of a run, with the run's metadata, for other tools."""
        from opsbench.export import export_jsonl
        from opsbench.store import Store

        with user_errors():
            if not jsonl:
                typer.echo("error: choose a format: --jsonl", err=True)
                raise typer.Exit(2)
            with Store(store, create=False) as db:
                if output is None:
                    count = export_jsonl(db, run, sys.stdout)
                else:
                    with output.open("w", encoding="utf-8") as out:
                        count = export_jsonl(db, run, out)
            if output is not None:
                typer.echo(f"{count} episodes written to {output}", err=True)

    @app.command("runs")
    def runs(store: StoreOption = DEFAULT_STORE_PATH) -> None:
        """The runs in the store, oldest first."""
        from opsbench.store import Store

        with user_errors(), Store(store, create=False) as db:
            for run_id in db.run_ids():
                record = db.run(run_id)
                count = len(db.episodes(run_id))
                models = ", ".join(record.config.get("models", []))
                typer.echo(f"{run_id}  {record.created_at}  {count} episodes  {models}")
