"""``opsbench businesses generate``: the public draw, or a held-out draw for a period (KITS.md)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Annotated

import typer

SECRET_ENV = "OPSBENCH_HELDOUT_SECRET"
MAX_VARIANTS = 99  # business ids carry the variant in two digits (<kit>_v07)


def register_generate(group: typer.Typer) -> None:
    @group.command("generate")
    def generate(
        out: Annotated[Path, typer.Option("--out", "-o", help="Directory to write the set into.")],
        period: Annotated[
            str | None,
            typer.Option("--period", help="The period of a held-out draw: 2027Q1 or 2027-03."),
        ] = None,
        variants: Annotated[
            int,
            typer.Option("--variants", help=f"Instances of every scenario (1..{MAX_VARIANTS})."),
        ] = 1,
        public: Annotated[
            bool, typer.Option("--public", help="The public draw (no secret; businesses/public).")
        ] = False,
        secret: Annotated[
            str | None,
            typer.Option(
                "--secret",
                help=f"The held-out secret; prefer the {SECRET_ENV} environment variable "
                "(a command line shows in CI logs and shell history).",
                show_default=False,
            ),
        ] = None,
        kit: Annotated[
            list[str] | None, typer.Option("--kit", help="Only this kit (repeatable).")
        ] = None,
        kits_root: Annotated[
            Path | None, typer.Option("--kits", help="Directory of kits (default businesses/kits).")
        ] = None,
        jobs: Annotated[
            int,
            typer.Option(
                "--jobs", "-j", help="Validation processes (default: the cores, at most 2)."
            ),
        ] = 0,
    ) -> None:
        """Render every kit into business.yaml + tasks.yaml, validate every task (redraw or drop),
        and write DIR/manifest.json with the counts. Held-out: deterministic in (secret, period)."""
        from businesses.generate import KITS_DIR, KitError
        from businesses.generate.draw import period_days
        from businesses.loader import PUBLIC_DIR
        from opsbench.kitgen import generate as run_generate

        def refuse(line: str) -> None:
            typer.echo(f"error: {line}", err=True)
            raise typer.Exit(2)

        if not 1 <= variants <= MAX_VARIANTS:
            refuse(f"--variants {variants}: must be 1..{MAX_VARIANTS}")
        if jobs < 0:
            refuse(f"--jobs {jobs}: must be 0 (automatic) or more")
        if public:
            if secret is not None:
                refuse("--public takes no --secret: the public draw is the same for everyone")
            if period is not None:
                refuse("--public takes no --period: the public draw has its own fixed dates")
            if variants != 1:
                refuse("--public takes no --variants: the public draw is one instance")
            chosen_secret = None
        else:
            chosen_secret = secret if secret is not None else os.environ.get(SECRET_ENV)
            if chosen_secret is None:
                refuse(f"a held-out draw needs a secret: set {SECRET_ENV} (or --secret), or "
                       "give --public")  # fmt: skip
            if not str(chosen_secret).strip():
                refuse(f"the held-out secret is empty: set {SECRET_ENV} to a long random string")
            if period is None:
                refuse("a held-out draw needs --period (2027Q1 or 2027-03)")
            try:
                period_days(str(period))
            except KitError as exc:
                refuse(exc.problems[0])
            if _inside(out, PUBLIC_DIR) or _inside(out, KITS_DIR):
                refuse(f"--out {out}: a held-out draw is never written inside businesses/public "
                       "or businesses/kits (it would be committed); write it outside the repo")  # fmt: skip
        if out.exists() and not out.is_dir():
            refuse(f"--out {out}: is a file, not a directory")
        root = kits_root or KITS_DIR
        if not root.is_dir():
            refuse(f"--kits {root}: no such directory of kits")
        workers = jobs or min(2, os.cpu_count() or 1)
        started = time.perf_counter()
        try:
            generation = run_generate(
                out,
                period=period,
                secret=chosen_secret,
                variants=variants,
                kits_root=root,
                kits=kit,
                jobs=workers,
                say=lambda line: typer.echo(line),
            )
        except KitError as exc:
            for line in exc.problems:
                typer.echo(line, err=True)
            raise typer.Exit(2) from None
        except OSError as exc:
            refuse(f"--out {out}: cannot write: {exc.strerror or exc}")
        seconds = time.perf_counter() - started
        for tally in generation.kits:
            typer.echo(
                f"{tally.kit}: {len(tally.businesses)} business(es), {tally.rendered} tasks "
                f"rendered, {tally.redrawn} redrawn, {len(tally.dropped)} dropped, "
                f"{tally.shipped} shipped"
            )
            for gap in tally.gaps:
                typer.echo(f"  coverage gap: {gap}")
        share = generation.dropped / generation.rendered if generation.rendered else 0.0
        typer.echo(
            f"{'public draw' if public else f'held-out draw {period}'}: "
            f"{generation.rendered - generation.dropped} of {generation.rendered} tasks validated "
            f"and written to {out} ({share:.1%} dropped, {generation.redrawn} redraws) "
            f"in {seconds:.1f}s with {workers} process(es)"
        )
        if not public:
            _warn_if_tracked(out)
        if public and generation.dropped:
            raise typer.Exit(1)  # the public draw ships whole or not at all


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def _warn_if_tracked(out: Path) -> None:
    """A held-out draw inside a git work tree that git would commit gets a warning."""
    try:
        found = subprocess.run(
            ["git", "-C", str(out), "check-ignore", "-q", str(out.resolve() / "manifest.json")],
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return
    if found.returncode == 1:  # inside a work tree and not ignored (128: not a repository)
        typer.echo(
            f"warning: {out} is inside a git work tree and not git-ignored: never commit a "
            "held-out draw (add it to .gitignore, or write it outside the repository)",
            err=True,
        )
