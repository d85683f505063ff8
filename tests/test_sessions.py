"""A caller who returns days later meets a fresh assistant that knows only the state."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from callers.scripted import scripted_caller_factory
from contract.messages import AssistantTurn, ToolCall, TurnRequest
from sandbox.episode import run_episode
from tests.conftest import sample_tables
from tests.helpers import mini_tasks

TASK = "mini_clinic/promised-credit-returns"


class Recorder:
    """Looks the caller up on every session's first turn, then answers politely."""

    made: ClassVar[list[Recorder]] = []

    def __init__(self) -> None:
        self.requests: list[TurnRequest] = []
        Recorder.made.append(self)

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        self.requests.append(request)
        if len(self.requests) == 1:
            return AssistantTurn(
                tool_calls=(ToolCall("h", "list_notes", '{"customer_id": "CUS-1001"}'),)
            )
        return AssistantTurn(text="Thanks, noted.")


def test_each_session_starts_a_fresh_assistant_with_only_the_state():
    task = mini_tasks()[TASK]
    assert len(task.sessions) == 2
    Recorder.made.clear()
    result = asyncio.run(
        run_episode(task, sample_tables(), lambda context: Recorder(), scripted_caller_factory)
    )
    assert len(Recorder.made) == len(task.sessions)
    second = Recorder.made[1].requests[0]
    # Nothing of the first call is in the conversation: only what the caller says now.
    assert [m.role for m in second.messages] == ["user"]
    first_words = {u.text for u in result.transcript if u.session == 0}
    assert not first_words & {m.content for m in second.messages}
    assert second.system != Recorder.made[0].requests[0].system  # the clock moved on
    # What happened before is there through the read tools.
    history = [c for c in result.trace if c.tool == "list_notes" and c.session == 1]
    assert history and history[0].ok
