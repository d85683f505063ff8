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
        from rich.console import Console
        from rich.table import Table

        # Cells down, businesses across: readable at 80 columns for any number of cells.
        table = Table(title="Businesses: tasks per coverage cell")
        table.add_column("coverage cell")
        for row in rows:
            table.add_column(row["id"], justify="right")
        table.add_row("[bold]tasks[/]", *[str(row["tasks"]) for row in rows])
        for cell in COVERAGE_CELLS:
            table.add_row(cell.replace("_", " "), *[str(row["coverage"][cell]) for row in rows])
        Console().print(table)

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

    @group.command("validate")
    def validate(
        root: SetOption = None,
        business: BusinessOption = None,
        matrix: Annotated[
            bool,
            typer.Option(
                "--matrix",
                help="Also run every reference assistant: each must show its flaw where it applies.",
            ),
        ] = False,
    ) -> None:
        """Load every file, then run each task's reference plan through the real tools and scorer."""
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
            from opsbench.matrix import run_matrix

            cells, _runs = run_matrix(tasks)
            for cell in cells:
                mark = "ok  " if not cell.failures else "FAIL"
                what = f"reference/{cell.expectation.flaw}: {cell.expectation.name}"
                typer.echo(f"{mark} {what}: {cell.held} of {cell.applicable} tasks")
                for task_id in cell.failures:
                    typer.echo(f"     {task_id}")
            failures += sum(len(c.failures) for c in cells)
        if failures:
            raise typer.Exit(1)

    from opsbench.commands.businesses_new import register_new

    register_new(group)
