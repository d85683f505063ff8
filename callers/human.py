"""A person on the line: as the caller (``opsbench play``), or answering a simulated caller
(``opsbench play --seat assistant``), with the call shown as it happens.

    /state   the state diff so far          /end    hang up (as the caller) or end the call
    /help    the commands                   /call TOOL {json}   (assistant seat) call a tool
    /tools   (assistant seat) the tools and their parameters

The episode itself is the ordinary :func:`sandbox.episode.run_episode`: the person is one more
:class:`~sandbox.episode.Caller` or :class:`~contract.assistant.Assistant`, so a human call is
scored exactly like a model's. To show tool results the moment they happen and the diff on
``/state`` mid-call, a :class:`Mirror` world replays each tool call the assistant makes: the
episode's world is deterministic under its seed, so the mirror holds the same state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from businesses.loader import initial_tables
from callers.display import CallDisplay
from contract.assistant import Assistant, AssistantFactory, EpisodeContext
from contract.messages import AssistantTurn, ToolCall, TurnRequest
from sandbox.briefing import BriefedFactory, wrapped
from sandbox.diff import DiffRow, diff
from sandbox.episode import (
    Caller,
    CallerFactory,
    CallerTurn,
    CallerView,
    EpisodeResult,
    Limits,
    build_world,
    run_episode,
)
from sandbox.scorer import Score, score_episode
from sandbox.task import Business, CallerSpec, Expect, Session, Task
from sandbox.world import ToolCallRecord

# Reads one line typed by the person; ``None`` at end of input (Ctrl-D).
LineReader = Callable[[str], "str | None"]
# People take longer than models to finish a call; the limit only stops a runaway simulator.
HUMAN_LIMITS = Limits(max_turns=200, max_tool_rounds=50)
CALLER_HELP = "Type what you say. /state shows the changes so far, /end hangs up."
ASSISTANT_HELP = (
    "Type what you say to the caller. /call TOOL {json} calls a tool, /tools lists them, "
    "/state shows the changes so far, /end ends the call."
)


def terminal_reader(prompt: str) -> str | None:
    """Read a line from the terminal; ``None`` on Ctrl-D."""
    try:
        return input(prompt)
    except EOFError:
        return None


def free_call_task(business: Business, now: str) -> Task:
    """A call with no task: the business's seed data, no expected outcome, scored for
    collateral and rules only."""
    caller = CallerSpec(name="You", temperament="calm", goal="A free call: whatever you ask.")
    return Task(
        id=f"{business.id}/free-call",
        business=business,
        title="Free call",
        coverage="cooperative",
        tags=("free",),
        setup={},
        faults=(),
        sessions=(Session(now, caller, ()),),
        expect=Expect(),
        requires_action=False,
    )


class Mirror:
    """A second world fed the same tool calls as the episode's, for showing state mid-call."""

    def __init__(self, task: Task, seed: int = 0) -> None:
        self.task = task
        self.world = build_world(task, seed, initial_tables(task))
        self.initial = self.world.state.copy()
        self.session = 0

    def start_session(self, index: int) -> None:
        while self.session < index:
            self.session += 1
            self.world.start_session(self.task.sessions[self.session].at)

    def apply(self, call: ToolCall) -> ToolCallRecord:
        return self.world.call(call.name, call.arguments, call.id)

    def diff(self) -> list[DiffRow]:
        return diff(self.initial, self.world.state)


class ShownAssistant:
    """Wraps the assistant under test: shows its words and each tool call as it makes them."""

    def __init__(self, inner: Assistant, mirror: Mirror, display: CallDisplay) -> None:
        self.inner = inner
        self.mirror = mirror
        self.display = display

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        turn = await self.inner.respond(request)
        if turn.text:
            self.display.line("assistant", turn.text)
        for call in turn.tool_calls:
            self.display.tool(self.mirror.apply(call))
        return turn


class HumanCaller:
    """The person at the keyboard is the caller."""

    def __init__(self, read: LineReader, display: CallDisplay, mirror: Mirror) -> None:
        self.read = read
        self.display = display
        self.mirror = mirror
        self.greeted = False

    async def speak(self, view: CallerView) -> CallerTurn:
        if not self.greeted and view.lines:
            self.greeted = True
            self.display.line("assistant", view.lines[0].text)
        while True:
            typed = self.read("you> ")
            if typed is None or typed.strip() == "/end":
                self.display.note("(you hang up)")
                return CallerTurn("", hang_up=True)
            text = typed.strip()
            if text == "/state":
                self.display.diff(self.mirror.diff())
            elif text in ("/help", "/?"):
                self.display.note(CALLER_HELP)
            elif text.startswith("/"):
                self.display.note(f"unknown command {text.split()[0]!r}. {CALLER_HELP}")
            elif text:
                return CallerTurn(text)


@dataclass
class AssistantSeat:
    """What the person in the assistant's seat has asked for across the call."""

    ended: bool = False
    calls: int = 0
    session: int = field(default=0)


class HumanAssistant:
    """The person at the keyboard answers the call: speaks, and calls tools with ``/call``."""

    def __init__(
        self, read: LineReader, display: CallDisplay, mirror: Mirror, seat: AssistantSeat
    ) -> None:
        self.read = read
        self.display = display
        self.mirror = mirror
        self.seat = seat

    def _tools(self, request: TurnRequest) -> None:
        for spec in request.tools:
            params = spec.parameters.get("properties", {})
            required = set(spec.parameters.get("required", []))
            names = ", ".join(f"{p}{'' if p in required else '?'}" for p in params)
            self.display.note(f"{spec.name}({names}) - {spec.description}")

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        while True:
            typed = self.read("assistant> ")
            text = "/end" if typed is None else typed.strip()
            if text == "/end":
                self.seat.ended = True
                return AssistantTurn()
            if text == "/state":
                self.display.diff(self.mirror.diff())
            elif text == "/tools":
                self._tools(request)
            elif text in ("/help", "/?"):
                self.display.note(ASSISTANT_HELP)
            elif text.startswith("/call"):
                call = self._call(text.removeprefix("/call").strip())
                if call is not None:
                    self.display.tool(self.mirror.apply(call))
                    return AssistantTurn(tool_calls=(call,))
            elif text.startswith("/"):
                self.display.note(f"unknown command {text.split()[0]!r}. {ASSISTANT_HELP}")
            elif text:
                return AssistantTurn(text=text)

    def _call(self, rest: str) -> ToolCall | None:
        name, _, arguments = rest.partition(" ")
        if not name:
            self.display.note('usage: /call TOOL {"field": "value"}')
            return None
        arguments = arguments.strip() or "{}"
        try:
            json.loads(arguments)
        except json.JSONDecodeError as exc:
            # Sent as typed would be a tool error; a person more likely mistyped: ask again.
            self.display.note(
                f"the arguments are not JSON ({exc.msg}); expected /call {name} {{...}}"
            )
            return None
        self.seat.calls += 1
        return ToolCall(f"human_{self.seat.calls}", name, arguments)


class ShownCaller:
    """Wraps a simulated caller for the assistant seat: shows its lines, hangs up on ``/end``."""

    def __init__(self, inner: Caller, display: CallDisplay, seat: AssistantSeat) -> None:
        self.inner = inner
        self.display = display
        self.seat = seat
        self.greeted = False

    async def speak(self, view: CallerView) -> CallerTurn:
        if not self.greeted and view.lines:
            self.greeted = True
            self.display.line("assistant", view.lines[0].text)
        if self.seat.ended:
            self.display.note("(the call is ended)")
            return CallerTurn("", hang_up=True)
        turn = await self.inner.speak(view)
        if turn.text:
            self.display.line("caller", turn.text)
        for flag in turn.flags:
            self.display.note(f"caller flag: {flag}")
        if turn.hang_up:
            self.display.note("(the caller hangs up)")
        return turn


@dataclass(frozen=True)
class PlayedCall:
    """A finished human call: the episode and its score (``free``: a call with no task)."""

    task: Task
    result: EpisodeResult
    score: Score
    free: bool


async def play_as_caller(
    task: Task,
    make_assistant: AssistantFactory | BriefedFactory,
    read: LineReader,
    display: CallDisplay,
    *,
    free: bool = False,
    seed: int = 0,
) -> PlayedCall:
    """The person calls; ``make_assistant`` answers. Returns the scored episode."""
    mirror = Mirror(task, seed)

    assistant = wrapped(make_assistant, lambda inner: ShownAssistant(inner, mirror, display))

    def caller(_task: Task, session: int) -> Caller:
        # The episode makes the session's assistant, then its caller, before anyone speaks.
        mirror.start_session(session)
        if session > 0:
            display.note(f"-- session {session + 1}: {task.sessions[session].at} --")
        return HumanCaller(read, display, mirror)

    return await _finish(task, assistant, caller, display, free, seed)


async def play_as_assistant(
    task: Task,
    make_caller: CallerFactory,
    read: LineReader,
    display: CallDisplay,
    *,
    seed: int = 0,
) -> PlayedCall:
    """A simulated caller calls; the person answers. Returns the scored episode."""
    mirror = Mirror(task, seed)
    seat = AssistantSeat()

    def assistant(context: EpisodeContext) -> Assistant:
        return HumanAssistant(read, display, mirror, seat)

    def caller(task_: Task, session: int) -> Caller:
        mirror.start_session(session)
        seat.ended = False
        if session > 0:
            display.note(f"-- session {session + 1}: {task.sessions[session].at} --")
        return ShownCaller(make_caller(task_, session), display, seat)

    display.note(ASSISTANT_HELP)
    return await _finish(task, assistant, caller, display, False, seed)


async def _finish(
    task: Task,
    assistant: AssistantFactory | BriefedFactory,
    caller: CallerFactory,
    display: CallDisplay,
    free: bool,
    seed: int,
) -> PlayedCall:
    result = await run_episode(
        task, initial_tables(task), assistant, caller, seed=seed, limits=HUMAN_LIMITS
    )
    if result.error:
        display.note(f"the call ended on an error: {result.error}")
    display.note(f"call ended: {', '.join(result.endings)}")
    score = score_episode(task, result)
    display.scorecard(score, free=free)
    display.ledger(result.ledger)
    return PlayedCall(task, result, score, free)
