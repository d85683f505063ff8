"""Who answers: provider adapters, reference assistants and custom agents, behind one protocol.

Provider SDKs are imported lazily inside the adapter that needs them.
"""

from adapters.errors import AdapterError, ProviderError
from adapters.protocol import Assistant, AssistantFactory, EpisodeContext
from adapters.types import AssistantTurn, Message, ToolCall, ToolResult, TurnRequest, Usage

__all__ = [
    "AdapterError",
    "Assistant",
    "AssistantFactory",
    "AssistantTurn",
    "EpisodeContext",
    "Message",
    "ProviderError",
    "ToolCall",
    "ToolResult",
    "TurnRequest",
    "Usage",
]
