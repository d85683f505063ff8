"""``opsbench play``: be the caller, or answer a simulated caller, on any task (DESIGN §6).

    opsbench play --business B [--task ID] --model M          you call; M answers
    opsbench play --seat assistant --business B --task ID     a simulated caller calls; you answer
                  [--caller scripted|llm:M]

Without ``--task`` you make a free call against the business's seed data, scored for collateral
and rules only. The work is in :mod:`callers.human`; this module parses and wires it up.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer


class Seat(StrEnum):
    caller = "caller"
    assistant = "assistant"


def register(app: typer.Typer) -> None:
    @app.command("play")
    def play(
        business: Annotated[str, typer.Option("--business", "-b", help="Business id.")],
        task: Annotated[
            str | None,
            typer.Option("--task", "-t", help="Task id; without it, a free call (caller seat)."),
        ] = None,
        model: Annotated[
            str | None,
            typer.Option("--model", "-m", help="Who answers when you call, e.g. reference/oracle."),
        ] = None,
        seat: Annotated[
            Seat, typer.Option("--seat", help="Your seat: the caller, or the assistant.")
        ] = Seat.caller,
        caller: Annotated[
            str,
            typer.Option("--caller", help="Who calls you in the assistant seat: scripted|llm:M."),
        ] = "scripted",
        option: Annotated[
            list[str] | None,
            typer.Option("--model-option", "-M", help="Model option name=value (repeatable)."),
        ] = None,
        caller_option: Annotated[
            list[str] | None,
            typer.Option("--caller-option", "-C", help="Caller-model option name=value."),
        ] = None,
        base_url: Annotated[
            str | None, typer.Option("--base-url", help="OpenAI/Anthropic-compatible server.")
        ] = None,
        now: Annotated[
            str | None,
            typer.Option("--now", help="Simulated time of a free call (default: a task's)."),
        ] = None,
        root: Annotated[
            Path | None,
            typer.Option("--set", help="Directory of businesses (default: the public set)."),
        ] = None,
        seed: Annotated[int, typer.Option("--seed", help="Episode seed (faults).")] = 0,
        verbose: Annotated[
            bool, typer.Option("--verbose", "-v", help="Show tool arguments and results.")
        ] = False,
    ) -> None:
        """Play a call in the terminal; the scorecard and ledger are printed at hang-up."""
        import asyncio

        from adapters.errors import AdapterError
        from adapters.options import parse_model_options
        from businesses import PUBLIC_DIR, LoadError
        from businesses.loader import load_business
        from callers.display import CallDisplay
        from callers.human import (
            free_call_task,
            play_as_assistant,
            play_as_caller,
            terminal_reader,
        )

        def fail(message: str) -> typer.Exit:
            typer.echo(message, err=True)
            return typer.Exit(2)

        ignored = [
            (
                bool(caller_option) and seat is Seat.caller,
                "--caller-option is for --seat assistant",
            ),
            (caller != "scripted" and seat is Seat.caller, "--caller is for --seat assistant"),
            (model is not None and seat is Seat.assistant, "--model answers in the caller seat"),
            (bool(option) and seat is Seat.assistant, "--model-option is for the caller seat"),
        ]
        for given, why in ignored:
            if given:
                raise fail(f"{why}; it would be ignored here")
        try:  # before the call starts, not after its greeting
            model_options = parse_model_options(option or [])
            caller_options = parse_model_options(caller_option or [])
        except AdapterError as exc:
            raise fail(f"opsbench play: {exc}") from None
        if now is not None and task is not None:
            raise fail(
                f"--now sets the time of a free call; task {task} starts at its own time: "
                "drop --now, or drop --task for a free call"
            )
        if now is not None:
            from tools.timefmt import parse_time

            try:
                parse_time(now)
            except ValueError:
                raise fail(f"--now {now!r}: expected a real time YYYY-MM-DDTHH:MM") from None
        directory = (root or PUBLIC_DIR) / business
        if not (directory / "business.yaml").exists():
            known = sorted(p.parent.name for p in (root or PUBLIC_DIR).glob("*/business.yaml"))
            raise fail(f"unknown business {business!r} in {root or PUBLIC_DIR}; known: {known}")
        try:
            found, tasks = load_business(directory)
        except LoadError as exc:
            raise fail("\n".join(exc.problems)) from None
        display = CallDisplay(verbose=verbose)
        try:
            if task is not None:
                chosen = next((t for t in tasks if t.id == task), None)
                if chosen is None:
                    raise fail(
                        f"unknown task {task!r} in {business}; try `opsbench businesses show "
                        f"{business}`"
                    )
            elif seat is Seat.assistant:
                raise fail("--seat assistant needs --task: the simulated caller plays a task")
            else:
                moment = now or (tasks[0].now if tasks else None)
                if moment is None:
                    raise fail(f"{business} has no tasks to take a time from; pass --now")
                chosen = free_call_task(found, moment)
            display.note(f"{found.name}: {chosen.title}" + (f" ({chosen.id})" if task else ""))
            if seat is Seat.caller:
                if model is None:
                    raise fail("--model is required in the caller seat, e.g. reference/oracle")
                from adapters.registry import make_factory

                assistant = make_factory(model, model_options, base_url)
                display.note(f"You are {chosen.caller.name}: {chosen.caller.goal}")
                display.note("Type what you say. /state shows the changes so far, /end hangs up.")
                asyncio.run(
                    play_as_caller(
                        chosen,
                        assistant,
                        terminal_reader,
                        display,
                        free=task is None,
                        seed=seed,
                    )
                )
            else:
                from callers.choice import choose_caller

                choice = choose_caller(caller, caller_options, base_url)
                display.note(f"Caller: {choice.label}")
                asyncio.run(
                    play_as_assistant(chosen, choice.factory, terminal_reader, display, seed=seed)
                )
        except (AdapterError, ValueError) as exc:
            raise fail(f"opsbench play: {exc}") from None
        except KeyboardInterrupt:
            raise fail("\n(call abandoned; nothing was scored)") from None
