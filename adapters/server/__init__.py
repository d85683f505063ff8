"""A local OpenAI- and Anthropic-compatible provider server, no key needed.

It speaks ``POST /v1/chat/completions``, ``POST /v1/responses`` and ``POST /v1/messages``
(non-streaming) with tool calls, answers with any :class:`~contract.assistant.Assistant` (a
reference assistant, your agent, a :class:`ScriptedAssistant` of canned replies), refuses what
the real providers refuse, and injects :class:`Fault` s on demand. It binds to ``127.0.0.1``
only. Started by ``opsbench serve`` and by the ``local_server`` test fixture::

    with LocalServer(ScriptedAssistant(["Hello!"])) as server:
        client = openai.OpenAI(base_url=server.openai_base_url, api_key="any")
"""

from adapters.server.app import ProviderApp, RecordedRequest, sign_thinking
from adapters.server.faults import Fault
from adapters.server.local import LocalServer
from adapters.server.script import EchoAssistant, ScriptedAssistant, ScriptExhausted, reply

__all__ = [
    "EchoAssistant",
    "Fault",
    "LocalServer",
    "ProviderApp",
    "RecordedRequest",
    "ScriptExhausted",
    "ScriptedAssistant",
    "reply",
    "sign_thinking",
]
