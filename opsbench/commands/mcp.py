"""``opsbench mcp --task T``: a task's tools as an MCP server (stdio, or HTTP with ``--port``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("mcp")
    def mcp(
        task: Annotated[str, typer.Option("--task", "-t", help="Task whose world is served.")],
        root: Annotated[
            Path | None,
            typer.Option("--set", help="Directory of businesses (default: the public set)."),
        ] = None,
        port: Annotated[
            int | None,
            typer.Option(
                "--port",
                "-p",
                help="Serve streamable HTTP on 127.0.0.1:PORT/mcp (0 picks a free port) "
                "instead of stdio.",
            ),
        ] = None,
        seed: Annotated[int, typer.Option("--seed", help="Seed of the fault schedule.")] = 0,
        record: Annotated[
            Path | None,
            typer.Option(
                "--record",
                help="Write the trace, ledger and state diff (JSON) here after every call.",
            ),
        ] = None,
    ) -> None:
        """Serve one task's business tools over MCP; every call acts on the task's world."""
        import asyncio

        from opsbench.commands._common import user_errors
        from opsbench.commands.serve import _load_task

        try:
            from opsbench.integrations.mcp_tools import require_mcp

            require_mcp()
        except ImportError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        from opsbench.integrations.mcp_serve import (
            TaskWorld,
            announce,
            bind_loopback,
            serve_http,
            serve_stdio,
        )

        with user_errors():
            chosen = _load_task(task, root)
        if record is not None and not record.parent.is_dir():
            typer.echo(f"error: --record {record}: no such directory {record.parent}", err=True)
            raise typer.Exit(2)
        with user_errors():  # a --record path that cannot be written is one line
            world = TaskWorld(chosen, seed=seed, record=record)
        tools = len(world.world.tools.specs())
        if port is None:
            announce(f"OpsBench MCP server (stdio): task {chosen.id}, {tools} tools")
            asyncio.run(serve_stdio(world))
            return
        try:
            sock = bind_loopback(port)
        except (OSError, OverflowError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            typer.echo(f"error: --port {port}: {why}", err=True)
            raise typer.Exit(2) from None
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
        typer.echo(f"OpsBench MCP server for task {chosen.id} ({tools} tools): {url}")
        typer.echo("  streamable HTTP, loopback only. Ctrl-C stops.", err=True)
        try:
            asyncio.run(serve_http(world, sock))
        except KeyboardInterrupt:
            pass
        finally:
            sock.close()
