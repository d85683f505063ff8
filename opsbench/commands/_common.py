"""What the run and results commands share: the store option, one-line errors, report outputs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

StoreOption = Annotated[
    Path,
    typer.Option(
        "--store", help="The results store (SQLite).", envvar="OPSBENCH_STORE", show_default=True
    ),
]
DEFAULT_STORE_PATH = Path("opsbench-results") / "opsbench.db"
AllowErrorsOption = Annotated[
    bool,
    typer.Option(
        "--allow-errors",
        help="Exit 0 from a run with infrastructure errors or missing episodes (without this, "
        "run exits 1; a model stopped by a refused key, permission, model or quota exits 1 "
        "still), and let --fail-under judge its scored episodes alone.",
    ),
]

HtmlOption = Annotated[Path | None, typer.Option(help="Write the HTML report here.")]
JunitOption = Annotated[Path | None, typer.Option(help="Write JUnit XML here.")]
FailUnderOption = Annotated[
    str | None,
    typer.Option(help="Exit 1 unless e.g. pass=0.8,confident_partial<=0.01 holds."),
]


def report_console():  # type: ignore[no-untyped-def]
    """A console for tables: on a terminal its width; piped (CI logs, files) wide enough for the
    whole scorecard instead of rich's 80 columns, which would cut the pass rate off."""
    import os
    import sys

    from rich.console import Console

    if sys.stdout.isatty():
        return Console()
    return Console(width=int(os.environ.get("COLUMNS", "0") or 0) or 220)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the errors a user can fix into one line on stderr and exit status 2."""
    from adapters.errors import AdapterError
    from businesses import LoadError
    from opsbench.errors import OpsbenchError

    try:
        yield
    except (OpsbenchError, AdapterError) as exc:
        from contract.redact import redact

        typer.echo(f"error: {redact(str(exc))}", err=True)
        raise typer.Exit(2) from None
    except LoadError as exc:
        for line in exc.problems:
            typer.echo(f"error: {line}", err=True)
        raise typer.Exit(2) from None
    except OSError as exc:
        # A file the user named (--store, --html, --junit, -o) cannot be created or written.
        typer.echo(f"error: {os_error(exc)}", err=True)
        raise typer.Exit(2) from None


def os_error(exc: OSError) -> str:
    """``<path>: <strerror>`` for an OSError about a file, else its text."""
    if exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    return exc.strerror or str(exc)


def check_writable(path: Path | None) -> None:
    """Raise the OSError that writing ``path`` later would raise, before any work is done.

    Parents that do not exist yet are created when the file is written, so it is enough that
    the nearest existing ancestor is a writable directory.
    """
    import errno
    import os

    if path is None:
        return
    if path.is_dir():
        raise OSError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if path.exists():
        with path.open("a", encoding="utf-8"):
            return
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(ancestor))
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise OSError(errno.EACCES, os.strerror(errno.EACCES), str(ancestor))


def finish_report(
    report,  # type: ignore[no-untyped-def]
    *,
    as_json: bool,
    html: Path | None,
    junit: Path | None,
    fail_under: str | None,
    allow_errors: bool = False,
    breakdowns: bool = True,
    scorecard_only: bool = False,
) -> None:
    """Render a report the ways asked for, then apply ``--fail-under`` to the exit status.

    ``allow_errors`` lets a run with infrastructure errors or missing episodes pass the gate
    on its scored episodes alone.
    """
    import json

    from opsbench import gate, render_terminal

    thresholds = gate.parse_thresholds(fail_under) if fail_under is not None else []
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        console = report_console()
        if scorecard_only:
            render_terminal.scorecard(report, console)
            console.print(f"[dim]{report.note}[/]")
            for line in render_terminal.retry_lines(report):
                console.print(f"[dim]retries: {line}[/]")
        else:
            render_terminal.full_report(report, console, breakdowns=breakdowns)
    if html is not None:
        from opsbench.render_html import write_html

        write_html(report, html)
        typer.echo(f"HTML report: {html}", err=as_json)
    if junit is not None:
        gate.write_junit(report, junit)
        typer.echo(f"JUnit XML: {junit}", err=as_json)
    failures = gate.check(report, thresholds, allow_errors=allow_errors)
    for failure in failures:
        typer.echo(f"fail-under: {failure}", err=True)
    if failures:
        raise typer.Exit(1)
