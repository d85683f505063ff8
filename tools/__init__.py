"""Business operations an assistant can call: one definition per tool (schema, effect, handler).

Public API: :class:`Tool`, :class:`Effect`, :class:`ToolError`, :class:`ToolRegistry`,
:class:`ToolSpec`, :func:`default_registry`, and the provider formats in :mod:`tools.formats`.
"""

from tools.contract import Effect, Tool, WorldTx
from tools.errors import ToolError
from tools.registry import ToolRegistry, ToolSpec, default_registry

__all__ = ["Effect", "Tool", "ToolError", "ToolRegistry", "ToolSpec", "WorldTx", "default_registry"]
