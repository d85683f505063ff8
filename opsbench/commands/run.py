"""``opsbench run``: models × tasks × trials into the results store, then the scorecard."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any, cast

import typer

from contract.redact import RedactingFormatter, redact
from opsbench.commands._common import (
    DEFAULT_STORE_PATH,
    AllowErrorsOption,
    FailUnderOption,
    HtmlOption,
    JunitOption,
    StoreOption,
    check_writable,
    finish_report,
    user_errors,
)

# What decides what a run measures, by parameter name and flag. --resume finishes a run as it
# was started, so none of them may be given with it.
MEASUREMENT_FLAGS = {
    "model": "--model",
    "task_set": "--set",
    "business": "--business",
    "task": "--task",
    "tags": "--tags",
    "limit": "--limit",
    "trials": "--trials",
    "judge": "--judge",
    "caller": "--caller",
    "seed": "--seed",
    "mitigation": "--mitigation",
}


def _options(pairs: list[str]) -> dict[str, Any]:
    """``-M name=value`` pairs; values are read as YAML scalars (numbers, booleans, strings)."""
    import yaml

    from opsbench.errors import SelectionError

    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise SelectionError(f"-M expects name=value, e.g. -M temperature=0; got {pair!r}")
        out[name.strip()] = yaml.safe_load(value) if value.strip() else ""
    return out


def _check_options_are_used(options: dict[str, Any], models: tuple[str, ...]) -> None:
    """Refuse -M options that no model of the run would read (reference assistants take none),
    rather than run as if they had been applied."""
    from opsbench.errors import SelectionError

    if all(m.startswith("reference/") for m in models):
        names = ", ".join(f"-M {name}" for name in options)
        raise SelectionError(
            f"{names}: no model of this run takes options (reference assistants take none); "
            "drop it, or add the --model it is meant for"
        )


def _split(values: list[str]) -> tuple[str, ...]:
    """Repeatable options that also accept comma-separated lists."""
    return tuple(v.strip() for value in values for v in value.split(",") if v.strip())


class ProgressDisplay:
    """A rich progress bar per model: episodes done/total, pass rate, errors, tokens, cost."""

    def __init__(self, quiet: bool, log_dir: Path) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self.quiet = quiet
        self.log_dir = log_dir
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[stats]}"),
            TimeRemainingColumn(),
            disable=quiet,
        )
        self.tasks: dict[str, Any] = {}
        self.stats: dict[str, dict[str, Any]] = {}
        self.handler: logging.Handler | None = None

    def log_path(self, run_id: str) -> Path:
        """The run log: progress, episode errors and tracebacks."""
        return self.log_dir / f"{run_id}.log"

    def started(self, run_id: str, todo: dict[str, int], done: dict[str, int]) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.handler = logging.FileHandler(self.log_path(run_id), encoding="utf-8")
        # Every line of the run log (messages, tracebacks) is redacted: an agent's own SDK error
        # may quote the key it was given.
        self.handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(message)s"))
        logger = logging.getLogger("opsbench")
        logger.addHandler(self.handler)
        logger.setLevel(logging.INFO)
        if not self.quiet:
            typer.echo(f"run {run_id}: {sum(todo.values())} episodes to run", err=True)
        self.progress.start()
        for model, count in todo.items():
            self.stats[model] = {"passed": 0, "scored": 0, "errors": 0, "tokens": 0, "cost": 0.0}
            self.tasks[model] = self.progress.add_task(
                model, total=count + done[model], completed=done[model], stats=""
            )

    def episode(self, done: Any) -> None:
        s = self.stats[done.model]
        if done.status == "scored":
            s["scored"] += 1
            s["passed"] += int(bool(done.passed))
        else:
            s["errors"] += 1
        s["tokens"] += done.tokens
        s["cost"] = (
            None if s["cost"] is None or done.cost_usd is None else s["cost"] + done.cost_usd
        )
        rate = f"{s['passed'] / s['scored']:.0%}" if s["scored"] else "–"
        cost = "cost unknown" if s["cost"] is None else f"${s['cost']:.4f}"
        stats = f"pass {rate}  errors {s['errors']}  tokens {s['tokens']}  {cost}"
        self.progress.update(self.tasks[done.model], advance=1, stats=stats)

    def stop(self) -> None:
        """Stop the display and close the run log; safe to call twice."""
        self.progress.stop()
        if self.handler is not None:
            logging.getLogger("opsbench").removeHandler(self.handler)
            self.handler.close()
            self.handler = None


def halted_lines(outcome: Any) -> list[str]:
    """One line per stop reason: the models it stopped, why, and the --resume hint."""
    by_reason: dict[str, list[str]] = {}
    for model, why in outcome.halted.items():
        by_reason.setdefault(why, []).append(model)
    lines = []
    for why, models in by_reason.items():
        left = sum(outcome.left.get(m, 0) for m in models)
        lines.append(
            f"error: {', '.join(models)} stopped: {why}. Fix that, then `opsbench run --resume "
            f"{outcome.run_id}` runs the {left} episode{'' if left == 1 else 's'} left"
        )
    return lines


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the user set parameter ``name`` (on the command line or through its env var)."""
    # Compared by name: typer may bring its own copy of click and of its ParameterSource enum.
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run(
        ctx: typer.Context,
        model: Annotated[
            list[str],
            typer.Option(
                "--model",
                "-m",
                help="Model string, repeatable: openai/…, anthropic/…, litellm/…, "
                "reference/<flaw>, python:pkg.mod:factory. Default: every reference assistant.",
            ),
        ] = [],  # noqa: B006 -- typer reads the default, never mutates it
        task_set: Annotated[
            list[str],
            typer.Option(
                "--set",
                help="Task set, repeatable: public, a directory (labelled heldout), or LABEL=DIR.",
            ),
        ] = [],  # noqa: B006
        business: Annotated[
            list[str], typer.Option("--business", "-b", help="Only these businesses.")
        ] = [],  # noqa: B006
        task: Annotated[
            list[str], typer.Option("--task", "-t", help="Only tasks whose id matches this glob.")
        ] = [],  # noqa: B006
        tags: Annotated[
            list[str], typer.Option("--tags", help="Only tasks with any of these tags.")
        ] = [],  # noqa: B006
        limit: Annotated[int | None, typer.Option(min=1, help="At most this many tasks.")] = None,
        trials: Annotated[int, typer.Option("--trials", "-k", min=1, help="Trials per task.")] = 1,
        caller: Annotated[str, typer.Option(help="scripted, or llm:<model string>.")] = "scripted",
        judge: Annotated[
            str | None, typer.Option(help="Model string of an LLM claim judge.")
        ] = None,
        seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
        mitigation: Annotated[
            list[str],
            typer.Option(
                "--mitigation",
                help="An arm: none, or mitigations joined by commas (ledger-summary, "
                "reversibility-guard, escalation-policy); repeat for a before/after run.",
            ),
        ] = [],  # noqa: B006
        concurrency: Annotated[int, typer.Option(min=1, help="Episodes in flight per model.")] = 4,
        workers: Annotated[
            int | None,
            typer.Option(
                "--workers",
                min=1,
                help="Processes for an offline run (reference assistants, scripted caller, no "
                "judge); default one per core. A run that uses the network stays in one "
                "process unless given: N splits --concurrency and --rpm/--tpm across N "
                "processes. With --executor ray: the local Ray instance's "
                "worker processes (or the cluster's share). Results are the same at any count.",
            ),
        ] = None,
        executor: Annotated[
            str,
            typer.Option(
                "--executor",
                help="local (this machine), or ray: the episodes as shards on a Ray cluster "
                "(the opsbench[ray] extra); one store, the same results.",
            ),
        ] = "local",
        ray_address: Annotated[
            str | None,
            typer.Option(
                "--ray-address",
                help="With --executor ray: the cluster to join (host:port, ray://…); default "
                "RAY_ADDRESS, else a local Ray instance of --workers processes.",
            ),
        ] = None,
        rpm: Annotated[
            int | None, typer.Option(min=1, help="Requests per minute, per model.")
        ] = None,
        tpm: Annotated[
            int | None, typer.Option(min=1, help="Tokens per minute, per model.")
        ] = None,
        model_option: Annotated[
            list[str], typer.Option("--model-option", "-M", help="name=value, repeatable.")
        ] = [],  # noqa: B006
        base_url: Annotated[
            str | None,
            typer.Option(
                help="OpenAI-compatible server for the models.", envvar="OPSBENCH_BASE_URL"
            ),
        ] = None,
        episode_timeout: Annotated[
            float,
            typer.Option(
                "--episode-timeout",
                min=0,
                help="Seconds one episode (and, apart, its judging) may take in all; past it "
                "the episode is an infrastructure error. 0: no limit. -M timeout bounds each "
                "request.",
            ),
        ] = 1800.0,
        resume: Annotated[
            str | None,
            typer.Option(help="Finish run RUN: only missing and infrastructure-error episodes."),
        ] = None,
        run_id: Annotated[str | None, typer.Option(help="Id for the new run.", hidden=True)] = None,
        store: StoreOption = DEFAULT_STORE_PATH,
        as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
        html: HtmlOption = None,
        junit: JunitOption = None,
        fail_under: FailUnderOption = None,
        allow_errors: AllowErrorsOption = False,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
    ) -> None:
        """Run models × tasks × trials; with no arguments, the offline reference run."""
        from opsbench import gate
        from opsbench.errors import AgentCrashError, ResumeRefusedError
        from opsbench.report import build_report
        from opsbench.runner import DEFAULT_MODELS, Observer, RunConfig, run_evaluation
        from opsbench.store import Store

        with user_errors():
            if fail_under is not None:
                gate.parse_thresholds(fail_under)  # a typo fails now, not after the run
            # An unwritable report path fails now too, not after an hour of episodes.
            check_writable(html)
            check_writable(junit)
            options = _options(model_option)
            if options and resume is None:
                _check_options_are_used(options, _split(model) or DEFAULT_MODELS)
            overrides: dict[str, Any] = {}
            if resume is not None:
                measured = [flag for name, flag in MEASUREMENT_FLAGS.items() if _given(ctx, name)]
                if measured:
                    raise ResumeRefusedError(
                        f"--resume {resume} finishes the run as it was started; "
                        f"{', '.join(measured)} would change what it measures, so "
                        f"{'it' if len(measured) == 1 else 'they'} cannot be given with "
                        "--resume: drop them, or start a new run"
                    )
                # Only what the user gives replaces the run's stored values.
                for name, value in (("concurrency", concurrency), ("rpm", rpm), ("tpm", tpm)):
                    if _given(ctx, name):
                        overrides[name] = value
                if _given(ctx, "episode_timeout"):
                    overrides["episode_timeout"] = episode_timeout or None
                if options:
                    overrides["options"] = options
                if base_url:
                    overrides["base_url"] = base_url
                config = RunConfig()  # unused: the run's own config is reloaded
            else:
                config = RunConfig(
                    models=_split(model) or DEFAULT_MODELS,
                    sets=tuple(task_set) or ("public",),
                    businesses=_split(business),
                    tasks=tuple(task),
                    tags=_split(tags),
                    limit=limit,
                    trials=trials,
                    caller=caller,
                    judge=judge,
                    seed=seed,
                    concurrency=concurrency,
                    rpm=rpm,
                    tpm=tpm,
                    options=options,
                    base_url=base_url,
                    episode_timeout=episode_timeout or None,
                    mitigations=tuple(mitigation),
                )
            display = ProgressDisplay(quiet or as_json, store.parent / "logs")
            # A resume opens the store it names and never creates one (a typo'd --store).
            with Store(store, create=resume is None) as db:
                try:
                    # ProgressDisplay has the two callbacks of an Observer.
                    observer = cast("Observer", display)
                    outcome = run_evaluation(
                        config,
                        db,
                        observer,
                        resume=resume,
                        run_id=run_id,
                        workers=workers,
                        executor=executor,
                        ray_address=ray_address,
                        **overrides,
                    )
                except AgentCrashError as exc:
                    display.stop()
                    typer.echo(
                        f"error: {redact(str(exc))}; traceback in {display.log_path(exc.run_id)}",
                        err=True,
                    )
                    raise typer.Exit(1) from None
                finally:
                    display.stop()
                for line in halted_lines(outcome):
                    typer.echo(line, err=True)
                if not quiet and not as_json and outcome.skipped:
                    typer.echo(f"{outcome.skipped} episodes already done, {outcome.ran} run")
                report = build_report(db, outcome.run_id, full=html is not None)
            finish_report(
                report,
                as_json=as_json,
                html=html,
                junit=junit,
                fail_under=fail_under,
                allow_errors=allow_errors,
                scorecard_only=True,
            )
            if not as_json:
                typer.echo(
                    f"stored in {store} as run {outcome.run_id}; "
                    f"`opsbench report {outcome.run_id}` for breakdowns, --html for a browser"
                )
            if outcome.halted:
                raise typer.Exit(1)
            if not allow_errors and not fail_under:
                # Infrastructure errors leave the run unfinished: its numbers cover part of it.
                # (With --fail-under the gate has said so already.)
                from opsbench.gate import incomplete

                problems = incomplete(report)
                for problem in problems:
                    typer.echo(f"error: {problem}", err=True)
                if problems:
                    raise typer.Exit(1)
