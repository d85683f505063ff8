"""``opsbench mcp --task T``: one task's world as an MCP server, over stdio or streamable HTTP.

The world is the one an episode of the task starts from (business seed plus task setup, the
task's simulated time and fault schedule, under ``seed``), and every call goes through
:meth:`sandbox.world.World.call`: the same validation, faults, ledger and structured tool errors
as any other route. The server is what a deployed assistant would be given: the business's
instructions and its tools. Nothing of the task's expectations or reference plan is served.

With ``record`` set, the trace, the ledger and the state diff so far are written there (JSON,
replaced atomically) after every call, so what an MCP client did can be inspected or scored.
Only the first session of a multi-session task is served.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from opsbench.integrations.mcp_tools import DoorAnswer, tool_server

if TYPE_CHECKING:
    from mcp.server import Server

    from sandbox.task import Task

CALL_ENDED = {
    "error": {
        "code": "call_ended",
        "message": "The call was transferred to a person; no further tools can be used.",
        "field": None,
    }
}


class TaskWorld:
    """The world of one task, behind an MCP door, recording what happened."""

    def __init__(self, task: Task, *, seed: int = 0, record: Path | None = None) -> None:
        from businesses import initial_tables
        from sandbox.episode import build_world
        from sandbox.prompt import system_prompt

        self.task = task
        self.seed = seed
        self.world = build_world(task, seed, initial_tables(task))
        self.initial = self.world.state.copy()
        self.instructions = system_prompt(task.business, task.sessions[0].at)
        self.record_path = record
        self._calls = 0
        if record is not None:
            self.write_record()

    async def call(self, name: str, arguments: Mapping[str, Any] | None) -> DoorAnswer:
        """Run one call through the world (refused, and not run, once the call has ended)."""
        if self.world.call_ended:
            return DoorAnswer(CALL_ENDED, ok=False)
        self._calls += 1
        record = self.world.call(name, dict(arguments or {}), f"mcp-{self._calls}")
        if self.record_path is not None:
            self.write_record()
        return DoorAnswer(record.result, ok=record.ok)

    def record(self) -> dict[str, Any]:
        """The task id and version, seed, trace, ledger and state diff so far."""
        from sandbox.diff import diff

        return {
            "task_id": self.task.id,
            "task_version": self.task.version(),
            "seed": self.seed,
            "call_ended": self.world.call_ended,
            "trace": [t.to_dict() for t in self.world.trace],
            "ledger": [e.to_dict() for e in self.world.ledger.entries],
            "diff": [row.to_dict() for row in diff(self.initial, self.world.state)],
        }

    def write_record(self) -> None:
        assert self.record_path is not None
        temporary = self.record_path.with_name(self.record_path.name + ".tmp")
        temporary.write_text(json.dumps(self.record(), indent=2, ensure_ascii=False) + "\n")
        os.replace(temporary, self.record_path)

    def server(self) -> Server:
        """The MCP server for this world: the business's instructions and enabled tools."""
        return tool_server(
            self.world.tools.specs(),
            self.call,
            name=f"opsbench-{self.task.business.id}",
            instructions=self.instructions,
        )


async def serve_stdio(world: TaskWorld) -> None:
    """Serve over stdin/stdout until the client closes the connection."""
    from mcp.server.stdio import stdio_server

    server = world.server()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def bind_loopback(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (``port`` 0 picks a free one). Raises ``OSError``."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    return sock


async def serve_http(world: TaskWorld, sock: socket.socket) -> None:
    """Serve streamable HTTP at ``http://127.0.0.1:<port>/mcp`` until interrupted."""
    import uvicorn

    app = world.server().streamable_http_app(host="127.0.0.1")
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve(sockets=[sock])


def announce(text: str) -> None:
    """A status line on stderr (stdout is the protocol channel under stdio)."""
    print(text, file=sys.stderr, flush=True)
