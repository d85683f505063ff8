"""Small real assistants and callers for tests of the episode loop (not mocks of our code:
each implements the public protocol the way a custom agent or caller would)."""

from __future__ import annotations

import copy
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from adapters.errors import ProviderError
from businesses import load_set
from contract.messages import AssistantTurn, ToolCall, TurnRequest, Usage
from opsbench.store import Store
from sandbox.episode import CallerTurn, CallerView

if TYPE_CHECKING:
    from sandbox import World

MINI = Path(__file__).parent / "fixtures" / "mini"
KITS = Path(__file__).parent / "fixtures" / "kits"  # mini_kit: the generator's test kit


def mini_tasks():
    return {t.id: t for t in load_set(MINI)[1]}


class ScriptedAssistant:
    """Replies with a fixed list of turns, then with plain text."""

    def __init__(self, turns: list[AssistantTurn]) -> None:
        self.turns = list(turns)
        self.requests: list[TurnRequest] = []

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        self.requests.append(request)
        if self.turns:
            return self.turns.pop(0)
        return AssistantTurn(text="Anything else?", usage=Usage(requests=1))


class FailingAssistant:
    async def respond(self, request: TurnRequest) -> AssistantTurn:
        raise ProviderError("503 from provider after 4 attempts", status=503, attempts=4)


class LoopingAssistant:
    """Calls a read tool forever."""

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        n = sum(1 for m in request.messages if m.role == "assistant")
        return AssistantTurn(tool_calls=(ToolCall(f"c{n}", "find_customer", '{"name": "Maria"}'),))


class EndlessCaller:
    """Never hangs up."""

    async def speak(self, view: CallerView) -> CallerTurn:
        return CallerTurn("And another thing...")


def call(name: str, arguments: str, call_id: str = "c1") -> ToolCall:
    return ToolCall(call_id, name, arguments)


def assert_rate_held(arrivals: list[float], started: float, rpm: int, window_s: float) -> None:
    """At no moment had the server seen more requests than the limiter could have let go.

    A limiter that started at ``started`` (monotonic time, before the run) lets at most ``rpm``
    requests go per window, so by time ``t`` at most ``rpm * (windows begun since started)``.
    A request reaches the server some time after it is let go; that delay only makes arrivals
    later, so the bound holds however loaded the machine is (a half-window test of arrivals
    does not: three requests let go early and delayed can land beside the next window's).
    """
    for seen, t in enumerate(sorted(arrivals), start=1):
        allowed = rpm * (int((t - started) // window_s) + 1)
        assert seen <= allowed, (
            f"{seen} requests had reached the server {t - started:.2f} s after the start; "
            f"a limit of {rpm} per {window_s} s allows {allowed}: {sorted(arrivals)}"
        )


class FullDiskStore(Store):
    """A real store whose disk fills up after ``good`` episodes."""

    def __init__(self, path: Path, good: int) -> None:
        super().__init__(path)
        self.good = good

    # Every write (one episode, or a pool writer's batch) goes through record_encoded.
    def record_encoded(self, run_id, episodes):  # type: ignore[no-untyped-def]
        if self.good < len(episodes):
            raise sqlite3.OperationalError("database or disk is full")
        self.good -= len(episodes)
        return super().record_encoded(run_id, episodes)


def tool_result(world: World, name: str, args: dict) -> dict:
    """The result of a tool call that must succeed (the assertion prints the refusal)."""
    record = world.call(name, args)
    assert record.outcome == "ok", record.result
    return record.result


def tool_refusal(world: World, name: str, args: dict) -> dict:
    """The structured error of a tool call that must be refused and leave the state as it was."""
    before = copy.deepcopy(world.state.tables)
    record = world.call(name, args)
    assert record.outcome == "rejected" and world.state.tables == before, record.result
    return record.result["error"]


def tool_error(code: str, message: str, field: str) -> dict:
    """A tool's structured error as the tools return it."""
    return {"code": code, "message": message, "field": field}


def last_changes(world: World) -> list[tuple]:
    """The (table, before, after) of every change the last ledger entry made."""
    return [(c.table, c.before, c.after) for c in world.ledger.entries[-1].changes]


def next_payment_id(world: World) -> str:
    """The id the next payment row gets: one past the highest PAY- number in the table."""
    return f"PAY-{max(int(i.split('-')[1]) for i in world.state.tables['payments']) + 1}"
