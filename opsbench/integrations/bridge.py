"""An agent that runs its own tool loop, answering as an OpsBench assistant.

Agent frameworks (the OpenAI Agents SDK, LangGraph, an MCP client) want to call tools
themselves and return only when they have an answer. OpsBench's episode loop wants to run every
tool call itself, so that each goes through the world, the ledger and the fault schedule, is
shown in the transcript, and can end the call. :class:`BridgeAssistant` reconciles the two:

1. On a caller's turn it starts the agent's run as a task, with an :class:`AgentTurn`.
2. When the agent calls a tool (``await turn.call(name, arguments)``), the call is suspended
   and returned to the episode loop as the assistant's tool call; calls made concurrently in
   the same step are returned together.
3. The loop runs them and asks again with their results; the bridge resumes the suspended
   calls with those results, and the agent goes on.
4. When the agent's run returns its reply, that is the assistant's text for the caller.

So the agent is scored exactly like any other assistant, and it never touches the world. When
the episode ends before the agent does (a transfer, a hang-up, a tool-round limit), the loop
calls :meth:`BridgeAssistant.aclose`, which cancels the run.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from contract.messages import AssistantTurn, Message, ToolCall, TurnRequest, Usage
from tools.registry import ToolSpec

# How many event-loop passes to wait, after a first tool call, for calls the agent makes in the
# same step (frameworks gather parallel tool calls): no I/O happens in between, so this is
# deterministic, and a framework that awaits its calls one by one simply sends one at a time.
_GATHER_PASSES = 8


@dataclass(frozen=True)
class ToolAnswer:
    """What a tool call returned: OpsBench's JSON payload as text, and whether it failed."""

    content: str
    is_error: bool

    def payload(self) -> Any:
        """The content parsed back from JSON."""
        return json.loads(self.content)


@dataclass
class AgentTurn:
    """What an agent is given for one caller turn, and its way to the tools.

    ``instructions`` is the business's system prompt (instructions, policy, simulated time);
    ``caller`` the caller's lines since the agent last answered; ``history`` the whole
    conversation so far in OpsBench's neutral form, for agents that keep no memory of their own.
    """

    instructions: str
    tools: tuple[ToolSpec, ...]
    caller: tuple[str, ...]
    history: tuple[Message, ...]
    _bridge: BridgeAssistant = field(repr=False)

    async def call(self, name: str, arguments: str | Mapping[str, Any] | None) -> ToolAnswer:
        """Run one tool call in the episode (raw JSON text or a mapping of arguments)."""
        return await self._bridge._call(name, arguments)

    def say(self, text: str) -> None:
        """Text the model said alongside the tool calls it is about to make (the caller hears
        it with them, as from any other assistant)."""
        if text and text.strip():
            self._bridge._said.append(text.strip())

    def add_usage(self, usage: Usage) -> None:
        """Report tokens and cost the agent's model used (left unknown if never reported)."""
        self._bridge._usage = usage if self._bridge._usage is None else self._bridge._usage + usage


class BridgedAgent(Protocol):
    """An agent with its own loop: given a caller turn, returns its reply to the caller.

    It may define ``async def aclose(self)``, awaited when its session ends (close clients there).
    """

    async def run(self, turn: AgentTurn) -> str: ...


@dataclass
class _Pending:
    call: ToolCall
    answer: asyncio.Future[ToolAnswer]


class BridgeAssistant:
    """Answers OpsBench turns by running a :class:`BridgedAgent` (one per episode session)."""

    def __init__(self, agent: BridgedAgent) -> None:
        self.agent = agent
        self._run: asyncio.Task[str] | None = None
        self._queued: list[_Pending] = []
        self._waiting: dict[str, _Pending] = {}
        self._said: list[str] = []
        self._usage: Usage | None = None
        self._wake = asyncio.Event()
        self._calls = 0

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        if self._run is None:
            turn = AgentTurn(
                request.system,
                request.tools,
                _caller_lines(request.messages),
                request.messages,
                self,
            )
            self._run = asyncio.ensure_future(self.agent.run(turn))
            self._run.add_done_callback(lambda _task: self._wake.set())
        else:
            self._deliver(request.messages)
        return await self._next()

    async def aclose(self) -> None:
        """Cancel a run the episode will not resume (the call ended while it was working)."""
        run, self._run = self._run, None
        if run is not None and not run.done():
            run.cancel()
            await asyncio.wait({run})
        if run is not None and not run.cancelled():
            run.exception()  # retrieved, so a failure after the episode ended is not reported
        close = getattr(self.agent, "aclose", None)
        if close is not None:
            await close()  # the agent's own clients, closed while their event loop still runs

    # ------------------------------------------------------------------ the agent's side

    async def _call(self, name: str, arguments: str | Mapping[str, Any] | None) -> ToolAnswer:
        self._calls += 1
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments or {})
        pending = _Pending(
            ToolCall(f"call_bridge_{self._calls}", str(name), raw),
            asyncio.get_running_loop().create_future(),
        )
        self._queued.append(pending)
        self._wake.set()
        return await pending.answer

    # ------------------------------------------------------------------ the episode's side

    def _deliver(self, messages: tuple[Message, ...]) -> None:
        """Resume the suspended calls with the results the episode loop sent back."""
        results = messages[-1].tool_results if messages and messages[-1].role == "tool" else ()
        for result in results:
            pending = self._waiting.pop(result.call_id, None)
            if pending is not None and not pending.answer.done():
                pending.answer.set_result(ToolAnswer(result.content, result.is_error))
        for call_id, pending in list(self._waiting.items()):
            # The loop answers every call it is given; one left over means it ended the turn.
            pending.answer.set_exception(RuntimeError(f"no result for tool call {call_id}"))
            del self._waiting[call_id]

    async def _next(self) -> AssistantTurn:
        assert self._run is not None
        while not self._queued and not self._run.done():
            self._wake.clear()
            await self._wake.wait()
        for _ in range(_GATHER_PASSES):
            await asyncio.sleep(0)
        usage, self._usage = (self._usage or Usage()), None
        text, self._said = " ".join(self._said), []
        if self._queued:
            calls, self._queued = self._queued, []
            self._waiting = {p.call.id: p for p in calls}
            return AssistantTurn(text, tuple(p.call for p in calls), usage)
        run, self._run = self._run, None
        reply = run.result()  # the agent's own exception, if it raised, surfaces here
        return AssistantTurn(" ".join(t for t in (text, reply.strip()) if t), usage=usage)


def _caller_lines(messages: tuple[Message, ...]) -> tuple[str, ...]:
    """The caller's lines since the assistant last spoke."""
    lines: list[str] = []
    for message in reversed(messages):
        if message.role != "user":
            break
        lines.append(message.content)
    return tuple(reversed(lines))
