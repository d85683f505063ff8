"""One call (or several, for a multi-session task), end to end.

    state = business seed + task setup;  clock = task.now
    harness greets for the assistant, then:
    caller speaks -> assistant responds, calling tools (all calls of a turn run in order and are
    fed back) until it answers in text -> caller ...
    ends: caller hangs up | transfer_to_human | turn or tool-round limit | infrastructure error

The loop owns no provider SDK: it talks to the assistant through :class:`contract.assistant.Assistant`
and to the caller through :class:`Caller`. Deterministic under a seed.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Protocol, TypeVar

from contract.assistant import AssistantFactory, EpisodeContext
from contract.errors import ProviderError
from contract.gate import ToolGate, gate_of
from contract.messages import Message, ToolCall, ToolResult, TurnRequest, Usage
from sandbox.briefing import BriefedFactory
from sandbox.briefing import make_assistant as briefed_or_plain
from sandbox.clock import SimClock
from sandbox.faults import Fault, FaultInjector
from sandbox.ledger import LedgerEntry, replay
from sandbox.prompt import system_prompt
from sandbox.state import State
from sandbox.tables import STANDARD_TABLES
from sandbox.task import Business, Task
from sandbox.world import ToolCallRecord, World
from tools import ToolRegistry, ToolSpec, default_registry

T = TypeVar("T")

Ending = Literal[
    "caller_hung_up", "transferred", "turn_limit", "tool_round_limit", "infrastructure_error"
]


@dataclass(frozen=True)
class Utterance:
    """One line of the transcript. ``speaker`` is ``assistant`` or ``caller``."""

    session: int
    speaker: Literal["assistant", "caller"]
    text: str
    tool_calls: tuple[dict[str, Any], ...] = ()
    # The assistant's own words when a mitigation replaced them (the caller heard ``text``).
    original_text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"session": self.session, "speaker": self.speaker, "text": self.text}
        if self.tool_calls:
            out["tool_calls"] = list(self.tool_calls)
        if self.original_text is not None:
            out["original_text"] = self.original_text
        return out


@dataclass(frozen=True)
class CallerTurn:
    """What the caller says; ``hang_up`` ends the call after it. ``flags`` note caller problems."""

    text: str
    hang_up: bool = False
    usage: Usage | None = None
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class CallerView:
    """What a caller may see: the spoken words so far (never tool calls), and its session."""

    session: int
    lines: tuple[Utterance, ...]

    @property
    def last_assistant(self) -> str:
        for line in reversed(self.lines):
            if line.speaker == "assistant":
                return line.text
        return ""


class Caller(Protocol):
    """Plays the caller for one session."""

    async def speak(self, view: CallerView) -> CallerTurn: ...


CallerFactory = Callable[[Task, int], Caller]


@dataclass(frozen=True)
class Limits:
    """When a call is cut off: caller turns per session, tool rounds per assistant turn."""

    max_turns: int = 30
    max_tool_rounds: int = 12


@dataclass
class EpisodeResult:
    """Everything that happened in one episode; the scorer reads it, the store keeps it."""

    task_id: str
    task_version: str
    seed: int
    trial: int
    endings: list[Ending]
    transcript: list[Utterance]
    trace: list[ToolCallRecord]
    ledger: list[LedgerEntry]
    initial: State
    final: State
    usage: Usage
    caller_usage: Usage
    caller_flags: list[str] = field(default_factory=list)
    error: str | None = None
    # The provider's last HTTP status when an infrastructure error ended the episode.
    error_status: int | None = None
    # Wall-clock time is kept apart from the result bytes: same seed, same bytes.
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def infrastructure_error(self) -> bool:
        return "infrastructure_error" in self.endings

    def state_after(self, session: int) -> State:
        """The state as it stood when session ``session`` ended (the last one: ``final``).

        A multi-session call's later sessions change what the earlier ones left: what the
        assistant said at the end of session one is about the state then, not after session two.
        """
        if not any(e.session > session for e in self.ledger):
            return self.final  # nothing was written after it
        return replay(self.initial.copy(), (e for e in self.ledger if e.session <= session))

    def to_dict(self) -> dict[str, Any]:
        """The deterministic record of the episode (no timings)."""
        return {
            "task_id": self.task_id,
            "task_version": self.task_version,
            "seed": self.seed,
            "trial": self.trial,
            "endings": list(self.endings),
            "error": self.error,
            "error_status": self.error_status,
            "transcript": [u.to_dict() for u in self.transcript],
            "trace": [t.to_dict() for t in self.trace],
            "ledger": [e.to_dict() for e in self.ledger],
            "usage": self.usage.to_dict(),
            "caller_usage": self.caller_usage.to_dict(),
            "caller_flags": list(self.caller_flags),
        }


@lru_cache(maxsize=256)
def _business_tools(
    enabled: tuple[str, ...], catalogue: tuple[tuple[str, tuple[str, ...]], ...]
) -> ToolRegistry:
    # Specialising schemas and compiling their validators costs far more than a scripted call:
    # do it once per business (and catalogue), not once per episode.
    return default_registry().select(enabled).specialise({t: list(ids) for t, ids in catalogue})


def business_tools(
    business: Business, tables: Mapping[str, Mapping[str, Any]] | None = None
) -> ToolRegistry:
    """The tools ``business`` enables, their schemas listing its services and staff.

    ``tables`` defaults to the business's seed data (a task's setup may add services).
    """
    tables = business.seed if tables is None else tables
    catalogue = tuple((t, tuple(tables.get(t, {}))) for t in ("services", "staff") if t in tables)
    return _business_tools(tuple(business.tools), catalogue)


def build_world(task: Task, seed: int, tables: dict[str, dict[str, dict[str, Any]]]) -> World:
    """A fresh world for ``task`` from its initial tables."""
    business = task.business
    state = State(tables, {**STANDARD_TABLES, **business.extra_tables})
    tools = business_tools(business, state.tables)
    faults = FaultInjector([Fault.from_dict(f) for f in task.faults], seed=f"{task.id}/{seed}")
    return World(state, tools, SimClock(task.now), faults)


class EpisodeDeadlineError(ProviderError):
    """The episode ran past its deadline (``--episode-timeout``)."""


async def _before(deadline: float | None, seconds: float | None, step: Awaitable[T]) -> T:
    """``await step``, cut off (as an :class:`EpisodeDeadlineError`) at loop time ``deadline``."""
    if deadline is None:
        return await step
    try:
        async with asyncio.timeout_at(deadline):
            return await step
    except TimeoutError:
        if asyncio.get_running_loop().time() < deadline:
            raise  # a timeout of the step's own, not the episode's deadline
        raise EpisodeDeadlineError(
            f"the episode ran past its deadline of {seconds:g} s (--episode-timeout)"
        ) from None


def _run_call(
    world: World,
    gate: ToolGate | None,
    call: ToolCall,
    system: str,
    specs: tuple[ToolSpec, ...],
    messages: list[Message],
    results: list[ToolResult],
) -> ToolCallRecord:
    """Run one tool call, asking the assistant's :class:`ToolGate` first when it has one."""
    if gate is not None:
        so_far = tuple(messages)
        if results:
            so_far += (Message("tool", tool_results=tuple(results)),)
        refusal = gate.gate_tool_call(
            call, TurnRequest(system, specs, so_far), world.preview_effect
        )
        if refusal is not None:
            return world.refuse(call.name, call.arguments, call.id, refusal)
    return world.call(call.name, call.arguments, call.id)


async def run_episode(
    task: Task,
    tables: dict[str, dict[str, dict[str, Any]]],
    make_assistant: AssistantFactory | BriefedFactory,
    make_caller: CallerFactory,
    *,
    seed: int = 0,
    trial: int = 0,
    limits: Limits = Limits(),
    deadline_s: float | None = None,
) -> EpisodeResult:
    """Run every session of ``task`` and return what happened (scoring is separate).

    ``deadline_s`` bounds the whole episode (every session, caller and assistant): past it,
    the episode ends as an infrastructure error saying so (:class:`EpisodeDeadlineError`).
    """
    started = time.perf_counter()
    loop = asyncio.get_running_loop()
    deadline = None if deadline_s is None else loop.time() + deadline_s
    world = build_world(task, seed, tables)
    initial = world.state.copy()
    specs = tuple(world.tools.specs())
    transcript: list[Utterance] = []
    usage, caller_usage = Usage.zero(), Usage.zero()
    endings: list[Ending] = []
    flags: list[str] = []
    error: str | None = None
    error_status: int | None = None
    model_seconds = 0.0

    for index, session in enumerate(task.sessions):
        if index > 0:
            world.start_session(session.at)
        context = EpisodeContext(task.business.id, seed, trial)
        assistant = briefed_or_plain(make_assistant, context, task, index)
        # A mitigation may refuse tool calls before they run (contract.gate).
        gate = gate_of(assistant)
        caller = make_caller(task, index)
        system = system_prompt(task.business, session.at)
        transcript.append(Utterance(index, "assistant", task.business.greeting))
        messages: list[Message] = []
        ending: Ending | None = None
        turns = 0
        try:
            while ending is None:
                if turns >= limits.max_turns:
                    ending = "turn_limit"
                    break
                heard = await _before(
                    deadline,
                    deadline_s,
                    caller.speak(
                        CallerView(index, tuple(u for u in transcript if u.session == index))
                    ),
                )
                turns += 1
                if heard.usage is not None:
                    caller_usage = caller_usage + heard.usage
                flags.extend(heard.flags)
                if heard.text:
                    transcript.append(Utterance(index, "caller", heard.text))
                    messages.append(Message("user", heard.text))
                if heard.hang_up:
                    ending = "caller_hung_up"
                    break
                rounds = 0
                while True:
                    tick = time.perf_counter()
                    try:
                        turn = await _before(
                            deadline,
                            deadline_s,
                            assistant.respond(TurnRequest(system, specs, tuple(messages))),
                        )
                    finally:
                        # Retries that end in a provider error are model time too, not harness.
                        model_seconds += time.perf_counter() - tick
                    usage = usage + turn.usage
                    messages.append(turn.as_message())
                    if turn.text or turn.tool_calls:
                        transcript.append(
                            Utterance(
                                index,
                                "assistant",
                                turn.text,
                                tuple(c.to_dict() for c in turn.tool_calls),
                                turn.original_text,
                            )
                        )
                    if not turn.tool_calls:
                        break
                    results: list[ToolResult] = []
                    for call in turn.tool_calls:
                        record = _run_call(world, gate, call, system, specs, messages, results)
                        results.append(
                            ToolResult(
                                call.id,
                                call.name,
                                json.dumps(record.result, ensure_ascii=False),
                                is_error=not record.ok,
                            )
                        )
                    messages.append(Message("tool", tool_results=tuple(results)))
                    if world.call_ended:
                        ending = "transferred"
                        break
                    rounds += 1
                    if rounds >= limits.max_tool_rounds:
                        ending = "tool_round_limit"
                        break
        except ProviderError as exc:
            ending = "infrastructure_error"
            error = f"{type(exc).__name__}: {exc}"
            error_status = exc.status
        finally:
            # An assistant with work in flight (an agent framework's own loop) is told its
            # session is over, whatever ended it.
            close = getattr(assistant, "aclose", None)
            if close is not None:
                await close()
        endings.append(ending or "caller_hung_up")
        if ending == "infrastructure_error":
            break

    total = time.perf_counter() - started
    return EpisodeResult(
        task_id=task.id,
        task_version=task.version(),
        seed=seed,
        trial=trial,
        endings=endings,
        transcript=transcript,
        trace=list(world.trace),
        ledger=list(world.ledger.entries),
        initial=initial,
        final=world.state,
        usage=usage,
        caller_usage=caller_usage,
        caller_flags=flags,
        error=error,
        error_status=error_status,
        timings={"total_s": total, "model_s": model_seconds, "harness_s": total - model_seconds},
    )
