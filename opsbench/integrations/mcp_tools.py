"""A set of OpsBench tools as an MCP server, through the official ``mcp`` SDK.

The server lists each tool with its JSON Schema exactly as a provider adapter would send it,
and hands every call to a *door*: a coroutine that runs it and says what came back. The door is
what binds the server to a world. For ``opsbench mcp`` it is :meth:`sandbox.world.World.call`
itself; inside an episode (:mod:`opsbench.integrations.mcp_agent`) it passes the call to the
episode loop, which runs it like any other route. Either way arguments are validated by the
world, not by the SDK, so a malformed call gets OpsBench's own structured tool error.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tools.registry import ToolSpec

if TYPE_CHECKING:
    from mcp.server import Server

MISSING_SDK = (
    "the MCP integration needs the official `mcp` SDK: install the extra "
    "(`uv sync --extra mcp` or `pip install 'opsbench[mcp]'`)"
)


@dataclass(frozen=True)
class DoorAnswer:
    """What one call returned: the JSON payload shown to the model, and whether it succeeded."""

    payload: Any
    ok: bool


ToolDoor = Callable[[str, Mapping[str, Any] | None], Awaitable[DoorAnswer]]
"""Runs one tool call (name, arguments as the client sent them) and returns its answer."""


def require_mcp() -> None:
    """Raise ``ImportError`` with the install hint when the ``mcp`` SDK is missing."""
    try:
        import mcp  # noqa: F401
    except ImportError as exc:
        raise ImportError(MISSING_SDK) from exc


def tool_server(
    specs: Iterable[ToolSpec], door: ToolDoor, *, name: str, instructions: str | None = None
) -> Server:
    """An MCP server offering ``specs`` whose calls all go through ``door``.

    ``instructions`` reach the client at initialisation (MCP's place for what a deployed
    assistant is told about the server); OpsBench puts the business's system prompt there.
    """
    require_mcp()
    import mcp.types as types
    from mcp.server import Server

    listed = [
        types.Tool(name=s.name, description=s.description, input_schema=dict(s.parameters))
        for s in specs
    ]

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        answer = await door(params.name, params.arguments)
        text = json.dumps(answer.payload, ensure_ascii=False)
        return types.CallToolResult(
            content=[types.TextContent(text=text)],
            structured_content=answer.payload if isinstance(answer.payload, dict) else None,
            is_error=not answer.ok,
        )

    return Server(
        name,
        version=_version(),
        instructions=instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def result_text(result: Any) -> str:
    """The text of an MCP ``CallToolResult`` (its text blocks joined), for a model to read."""
    parts = [getattr(block, "text", "") for block in getattr(result, "content", []) or []]
    return "".join(p for p in parts if p)


def _version() -> str:
    from opsbench import __version__

    return __version__
