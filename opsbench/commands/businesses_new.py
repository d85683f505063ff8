"""``opsbench businesses new NAME``: a skeleton business, one task per coverage cell."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register_new(group: typer.Typer) -> None:
    @group.command("new")
    def new(
        name: Annotated[str, typer.Argument(help="Business id, lower_snake (e.g. pet_grooming).")],
        out: Annotated[
            Path,
            typer.Option("--out", "-o", help="Directory of businesses to write it into."),
        ] = Path("."),
    ) -> None:
        """A new business: business.yaml and one example task per coverage cell (guide linked)."""
        from opsbench.integrations.new_business import NewBusinessError, write_business

        try:
            written = write_business(name, out)
        except (NewBusinessError, OSError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        for path in written:
            typer.echo(f"wrote {path}")
        typer.echo(f"check it: opsbench businesses validate --set {out} --business {name} --matrix")
        typer.echo("then edit the policy, seed data and tasks (guide: businesses/README.md)")
