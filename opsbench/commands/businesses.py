"""``opsbench businesses list|show|validate``: browse and check the businesses and their tasks."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

SetOption = Annotated[
    Path | None, typer.Option("--set", help="Directory of businesses (default: the public set).")
]
BusinessOption = Annotated[str | None, typer.Option("--business", "-b", help="Only this business.")]


def _load(root: Path | None, business: str | None):  # type: ignore[no-untyped-def]
    from businesses import PUBLIC_DIR, LoadError, load_set

    try:
        found, tasks = load_set(root or PUBLIC_DIR)
    except LoadError as exc:
        for line in exc.problems:
            typer.echo(line, err=True)
        raise typer.Exit(2) from None
    if business is not None:
        known = [b.id for b in found]
        if business not in known:
            typer.echo(f"unknown business {business!r}; known: {', '.join(known)}", err=True)
            raise typer.Exit(2)
        found = [b for b in found if b.id == business]
        tasks = [t for t in tasks if t.business.id == business]
    return found, tasks


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        help="Browse and validate the simulated businesses and their tasks.", no_args_is_help=True
    )
    app.add_typer(group, name="businesses")

    @group.command("list")
    def list_(
        root: SetOption = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Each business with its task count and its count per coverage cell."""
        from sandbox.task import COVERAGE_CELLS

        found, tasks = _load(root, None)
        rows = []
        for business in found:
            mine = [t for t in tasks if t.business.id == business.id]
            cells = Counter(t.coverage for t in mine)
            rows.append(
                {
                    "id": business.id,
                    "name": business.name,
                    "type": business.type,
                    "tasks": len(mine),
                    "coverage": {c: cells.get(c, 0) for c in COVERAGE_CELLS},
                }
            )
        if as_json:
            typer.echo(json.dumps(rows, indent=2))
            return
        from rich.table import Table

        from opsbench.commands._common import report_console

        # Cells down, businesses across; piped output is as wide as the table needs (eleven
        # businesses do not fit rich's default 80 columns).
        table = Table(title="Businesses: tasks per coverage cell")
        table.add_column("coverage cell")
        for row in rows:
            table.add_column(row["id"], justify="right")
        table.add_row("[bold]tasks[/]", *[str(row["tasks"]) for row in rows])
        for cell in COVERAGE_CELLS:
            table.add_row(cell.replace("_", " "), *[str(row["coverage"][cell]) for row in rows])
        report_console().print(table)

    @group.command("show")
    def show(
        business: Annotated[str, typer.Argument(help="Business id.")],
        task: Annotated[
            str | None, typer.Option("--task", "-t", help="Show one task in full.")
        ] = None,
        root: SetOption = None,
    ) -> None:
        """A business's policy, rules and tasks; or one task in full."""
        from rich.console import Console

        console = Console()
        found, tasks = _load(root, business)
        biz = found[0]
        if task is None:
            console.print(f"[bold]{biz.name}[/] ({biz.id}, {biz.type}, {biz.timezone})")
            console.print(biz.policy)
            console.print(
                "[bold]Rules[/]: " + ", ".join(f"{r.rule} {dict(r.params)}" for r in biz.rules)
            )
            console.print("[bold]Tools[/]: " + ", ".join(biz.tools))
            console.print(
                "[bold]Seed[/]: " + ", ".join(f"{k}={len(v)}" for k, v in biz.seed.items())
            )
            for t in tasks:
                console.print(f"  {t.id:48} {t.coverage:26} {t.title}")
            return
        chosen = [t for t in tasks if t.id == task]
        if not chosen:
            typer.echo(f"unknown task {task!r} in {business}", err=True)
            raise typer.Exit(2)
        import yaml

        console.print(yaml.safe_dump(dict(chosen[0]._raw), sort_keys=False, allow_unicode=True))

    @group.command("reference")
    def reference(
        write: Annotated[
            bool, typer.Option("--write", help="Update the section in businesses/README.md.")
        ] = False,
        check: Annotated[
            bool, typer.Option("--check", help="Exit 1 if businesses/README.md is out of date.")
        ] = False,
    ) -> None:
        """The tables with their fields and the rule types with what each checks, as Markdown
        generated from the schemas and rule definitions (the authoring guide's reference)."""
        _reference(write, check)

    @group.command("validate")
    def validate(
        root: SetOption = None,
        business: BusinessOption = None,
        matrix: Annotated[
            bool,
            typer.Option(
                "--matrix",
                help="Also run every reference assistant on every task: each flaw must show "
                "where it is offered, each task must offer what its coverage cell implies, "
                "and every business must fill every cell.",
            ),
        ] = False,
    ) -> None:
        """Load every file, then run each task by every valid route (oracle, confirm-first,
        route-varying) through the real tools, scorer and scripted caller.

        Exits 0 only when everything was checked and held: 2 when a file does not load or the
        set holds no task, 1 when a task (or, with --matrix, the matrix) fails.
        """
        from opsbench.validation import validate_task

        found, tasks = _load(root, business)
        failures = 0
        for task in tasks:
            problems = validate_task(task)
            if problems:
                failures += 1
                typer.echo(f"FAIL {task.id}")
                for problem in problems:
                    typer.echo(f"     {problem}")
        typer.echo(
            f"{len(tasks) - failures} of {len(tasks)} tasks valid in {len(found)} "
            + ("business" if len(found) == 1 else "businesses")
        )
        if matrix:
            failures += _matrix(found, tasks)
        if failures:
            raise typer.Exit(1)

    from opsbench.commands.businesses_generate import register_generate
    from opsbench.commands.businesses_new import register_new

    register_new(group)
    register_generate(group)


def _reference(write: bool, check: bool) -> None:
    from businesses.reference import GUIDE, GuideError, reference_markdown, with_reference

    if not (write or check):
        typer.echo(reference_markdown(), nl=False)
        return
    current = GUIDE.read_text("utf-8")
    try:
        wanted = with_reference(current)
    except GuideError as exc:
        typer.echo(f"error: {GUIDE}: {exc}", err=True)
        raise typer.Exit(2) from None
    if check:
        if wanted != current:
            typer.echo(f"{GUIDE}: the reference section is out of date; run with --write", err=True)
            raise typer.Exit(1)
        typer.echo(f"{GUIDE}: the reference section is up to date")
        return
    GUIDE.write_text(wanted, "utf-8")
    typer.echo(f"{GUIDE}: reference section " + ("unchanged" if wanted == current else "updated"))


def _matrix(found, tasks) -> int:  # type: ignore[no-untyped-def]
    """Print the reference-assistant matrix of a set and its gaps; the number of gaps."""
    from opsbench.matrix import check_set

    checked = check_set(found, tasks)
    typer.echo(f"reference-assistant matrix over {len(tasks)} tasks:")
    for cell in checked.cells:
        exp = cell.expectation
        mark = "ok  " if cell.held == cell.applicable and cell.applicable else "GAP "
        typer.echo(
            f"  {mark}{'reference/' + exp.flaw:28} {exp.name}: {cell.held} of {cell.applicable}"
        )
    for gap in checked.gaps:
        typer.echo(f"GAP {gap}")
    typer.echo(
        f"{len(checked.gaps)} gaps in the matrix" if checked.gaps else "matrix complete: no gaps"
    )
    return len(checked.gaps)
