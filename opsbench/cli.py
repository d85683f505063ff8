"""The ``opsbench`` command line. Commands are thin: parse, call a function, render.

Heavy modules (provider SDKs, the runner, reports) are imported inside the commands that need
them, so ``opsbench --help`` stays fast.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

# Typer's rich help imports markdown and syntax highlighting (~250 ms on every --help); plain help
# keeps `opsbench --help` instant. TYPER_USE_RICH=1 brings rich help back.
os.environ.setdefault("TYPER_USE_RICH", "0")

import typer
from typer.core import TyperGroup

from opsbench import __version__

# Typer may carry its own copy of click: take its exception base from an exception it exports.
_ClickException: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)


class OneLineErrors(TyperGroup):
    """The root command: a bad option or argument is one line on stderr and exit status 2.

    Click's own report is three lines (usage, a hint, the error); a CI log or a user scanning
    for what went wrong needs the error alone, in the same ``error: ...`` shape as every other
    one-line error of the CLI.
    """

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _ClickException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # a bare group prints its help
                exc.show()  # type: ignore[attr-defined]
            else:
                typer.echo(usage_line(exc), err=True)
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        except typer.Abort:
            typer.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def usage_line(exc: Exception) -> str:
    """``error: <click's message> (see `opsbench run --help`)`` on one line."""
    message = " ".join(exc.format_message().split())  # type: ignore[attr-defined]
    ctx = getattr(exc, "ctx", None)
    hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
    return f"error: {message}{hint}"


app = typer.Typer(
    cls=OneLineErrors,
    name="opsbench",
    help="Evaluate assistants that act by what they change, not by what they say.",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
)
tools_app = typer.Typer(help="The business operations an assistant can call.", no_args_is_help=True)
app.add_typer(tools_app, name="tools")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"opsbench {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def main_callback(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Evaluate assistants that act by what they change, not by what they say."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


class ToolFormat(StrEnum):
    json = "json"
    openai = "openai"
    anthropic = "anthropic"


@tools_app.command("list")
def tools_list(
    format: Annotated[
        ToolFormat | None,
        typer.Option(
            "--format", "-f", help="Print the schemas as JSON in this shape instead of a table."
        ),
    ] = None,
    business: Annotated[
        str | None,
        typer.Option(
            "--business", "-b", help="Only this business's tools, as its assistant sees them."
        ),
    ] = None,
    task_set: Annotated[
        Path | None,
        typer.Option("--set", help="Directory of businesses (default: the public set)."),
    ] = None,
) -> None:
    """List the tools with their effect class, or print their schemas."""
    from tools import default_registry, formats

    if task_set is not None and business is None:
        typer.echo("error: --set is where --business is looked up; give --business too", err=True)
        raise typer.Exit(2)
    registry = default_registry() if business is None else _business_registry(business, task_set)
    if format is None:
        from rich.table import Table

        from opsbench.commands._common import report_console

        table = Table(title=f"{len(registry)} tools" + (f" of {business}" if business else ""))
        for column in ("tool", "effect", "inverse", "description"):
            table.add_column(column)
        for tool in registry:
            table.add_row(tool.name, str(tool.effect), tool.inverse or "", tool.description)
        report_console().print(table)
        return
    convert = {
        "json": formats.to_json,
        "openai": formats.to_openai,
        "anthropic": formats.to_anthropic,
    }
    typer.echo(json.dumps(convert[format.value](registry.specs()), indent=2, ensure_ascii=False))


def _business_registry(business: str, task_set: Path | None):  # type: ignore[no-untyped-def]
    from businesses import PUBLIC_DIR, LoadError, load_business
    from sandbox.episode import business_tools

    root = task_set or PUBLIC_DIR
    if not (root / business / "business.yaml").exists():
        known = sorted(p.parent.name for p in root.glob("*/business.yaml"))
        typer.echo(
            f"error: no business {business!r} in {root}; known: {', '.join(known)}", err=True
        )
        raise typer.Exit(2)
    try:
        loaded, _ = load_business(root / business)
    except LoadError as exc:
        for line in exc.problems:
            typer.echo(line, err=True)
        raise typer.Exit(2) from None
    return business_tools(loaded)


# Command groups living in their own modules register themselves here (one line each).
from opsbench.commands import register_all  # noqa: E402

register_all(app)


def main() -> None:
    """Console-script entry point."""
    _redact_last_words()
    app()


def _redact_last_words() -> None:
    """Text that reaches the terminal outside our own messages is redacted too: a traceback
    nothing caught, and records of loggers that have no handler (Python's last resort)."""
    import logging
    import sys
    import traceback

    from contract.redact import RedactingFormatter, redact

    def hook(kind, value, tb) -> None:  # type: ignore[no-untyped-def]
        sys.stderr.write(redact("".join(traceback.format_exception(kind, value, tb))))

    sys.excepthook = hook
    if logging.lastResort is not None:
        logging.lastResort.setFormatter(RedactingFormatter())
