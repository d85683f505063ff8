"""``opsbench serve``: the local OpenAI/Anthropic-compatible provider server, no key needed.

The server answers with an assistant chosen here: a script of canned replies (``--script``),
any model string (``--assistant python:my_agent:make``, or ``reference/<flaw>`` with
``--task``), or by default an echo that calls no tools. Faults are queued with ``--fault``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from contract.assistant import Assistant
    from contract.messages import AssistantTurn, TurnRequest
    from sandbox.task import Task


def task_assistant(task: Task, model: str, options: dict[str, Any] | None = None) -> Assistant:
    """An assistant for ``model`` made for ``task``, one per session of it.

    Reference assistants act from the session's oracle plan, which only their own
    :class:`~sandbox.briefing.BriefedFactory` is given. The server only sees wire requests, so the
    session is recognised by its system prompt (each session has its own date and time), or
    by its start when an agent in between adds instructions to it.
    """
    from adapters.registry import make_factory
    from contract.assistant import EpisodeContext
    from sandbox.briefing import make_assistant
    from sandbox.prompt import system_prompt

    factory = make_factory(model, options or {})
    sessions = {
        system_prompt(task.business, session.at): make_assistant(
            factory, EpisodeContext(task.business.id), task, index
        )
        for index, session in enumerate(task.sessions)
    }
    return _BySystemPrompt(sessions)


class _BySystemPrompt:
    """Hands each request to the assistant of the session whose system prompt it carries."""

    def __init__(self, by_prompt: dict[str, Assistant]) -> None:
        self._by_prompt = by_prompt

    def _session(self, system: str) -> Assistant:
        if system in self._by_prompt:
            return self._by_prompt[system]
        for prompt, assistant in self._by_prompt.items():
            if system.startswith(prompt):
                return assistant
        return next(iter(self._by_prompt.values()))

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        return await self._session(request.system).respond(request)


def _load_task(task_id: str, root: Path | None) -> Task:
    from businesses import PUBLIC_DIR, load_set

    _businesses, tasks = load_set(root or PUBLIC_DIR)
    for task in tasks:
        if task.id == task_id:
            return task
    raise typer.BadParameter(
        f"unknown task {task_id!r} in {root or PUBLIC_DIR}", param_hint="--task"
    )


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        port: Annotated[
            int,
            typer.Option(
                "--port", "-p", min=0, max=65535, help="Port on 127.0.0.1; 0 picks a free one."
            ),
        ] = 0,
        assistant: Annotated[
            str | None,
            typer.Option(
                "--assistant",
                "-a",
                help="Model string answering requests: python:pkg.mod:factory, "
                "reference/<flaw> (with --task), … Default: an echo that calls no tools.",
            ),
        ] = None,
        model_option: Annotated[
            list[str] | None,
            typer.Option("--model-option", "-M", help="name=value for --assistant, repeatable."),
        ] = None,
        task: Annotated[
            str | None, typer.Option("--task", help="Task whose plan reference assistants follow.")
        ] = None,
        root: Annotated[
            Path | None, typer.Option("--set", help="Directory of businesses for --task.")
        ] = None,
        script: Annotated[
            Path | None,
            typer.Option(
                "--script",
                help='JSON list of canned replies: [{"text": …, "tool_calls": [{"name", '
                '"arguments"}]}, …], answered in order.',
            ),
        ] = None,
        fault: Annotated[
            list[str] | None,
            typer.Option(
                "--fault",
                help="Queue a fault: 429,retry_after=2,times=3 · 500 · 529 · 401 · quota · "
                "slow,delay=2 · hang · trickle,delay=0.05 · truncated_arguments · "
                "invalid_arguments · dict_arguments · missing_ids · empty_completion · "
                "no_choices. Repeatable, in order; endpoint=openai|responses|anthropic limits "
                "one to that wire format.",
            ),
        ] = None,
    ) -> None:
        """Run a local OpenAI- and Anthropic-compatible server until Ctrl-C."""
        import asyncio
        import json

        from adapters.errors import AdapterError
        from adapters.options import parse_model_options
        from adapters.server import Fault, LocalServer, ScriptedAssistant
        from businesses import LoadError

        # An option the chosen driver would not read is refused, not silently dropped.
        ignored = [
            (script is not None and assistant is not None, "--script and --assistant: pick one"),
            (task is not None and assistant is None, "--task is the plan for --assistant"),
            (bool(model_option) and assistant is None, "--model-option is for --assistant"),
            (root is not None and task is None, "--set is where --task is looked up"),
        ]
        for given, why in ignored:
            if given:
                typer.echo(f"error: {why}; it would be ignored here", err=True)
                raise typer.Exit(2)
        try:
            faults = [Fault.parse(spec) for spec in fault or []]
            if script is not None:
                driver: Any = ScriptedAssistant(json.loads(script.read_text(encoding="utf-8")))
                source = f"the script {script}"
            elif assistant is not None:
                options = parse_model_options(model_option or [])
                if task is not None:
                    driver = task_assistant(_load_task(task, root), assistant, options)
                    source = f"{assistant} for task {task}"
                elif assistant.startswith("reference/"):
                    raise typer.BadParameter(
                        "reference assistants follow a task's plan: add --task", param_hint="--task"
                    )
                else:
                    from adapters.registry import make_factory
                    from contract.assistant import EpisodeContext
                    from sandbox.briefing import BriefedFactory

                    factory = make_factory(assistant, options)
                    if isinstance(factory, BriefedFactory):
                        raise typer.BadParameter(
                            f"{assistant} follows a task's plan: add --task", param_hint="--task"
                        )
                    driver = factory(EpisodeContext("serve"))
                    source = assistant
            else:
                driver, source = None, "an echo (no assistant attached; see --assistant)"
        except (AdapterError, ValueError, OSError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        except LoadError as exc:
            for line in exc.problems:
                typer.echo(f"error: {line}", err=True)
            raise typer.Exit(2) from None

        server = LocalServer(driver, port=port)
        server.inject(*faults)

        def ready() -> None:
            url = server.url
            typer.echo(
                f"OpsBench local provider server on {url} (loopback only; any API key works)"
            )
            typer.echo(
                f"  --base-url {url} (or {url}/v1) for every model string: openai/<name>, "
                "anthropic/<name>, litellm/openai/<name>, litellm/anthropic/<name>; one port "
                "serves /v1/chat/completions, /v1/responses and /v1/messages"
            )
            typer.echo(f"  answering with {source}; {len(faults)} fault(s) queued. Ctrl-C stops.")

        try:
            asyncio.run(server.serve(ready=ready))
        except KeyboardInterrupt:
            typer.echo("stopped")
        except OSError as exc:  # the port is taken, or not ours to bind
            import os

            why = os.strerror(exc.errno) if exc.errno else str(exc)
            typer.echo(f"error: 127.0.0.1:{port}: {why}", err=True)
            raise typer.Exit(2) from None
