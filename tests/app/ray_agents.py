"""Agents for the Ray executor's tests, loaded as ``python:tests.app.ray_agents:<name>``.

They run in Ray worker processes, which import them by name (the driver's working directory is
on a local Ray instance's path), so they take their settings as model options, never from the
test process's memory.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from contract.assistant import EpisodeContext
from contract.messages import AssistantTurn, TurnRequest, Usage

REPLY = "I'm sorry, I can't change anything on your account today. Is there anything else?"


class KillsItsWorker:
    """Always the same reply; but the first time any episode of trial ``trial`` asks it (no
    ``marker`` file yet), it creates the marker, waits ``wait_s`` (so the driver hears the
    episode started) and kills its own worker process, as an out-of-memory kill would."""

    def __init__(
        self, context: EpisodeContext, marker: str, trial: int = 2, wait_s: float = 1.5
    ) -> None:
        self.context, self.marker, self.trial, self.wait_s = context, Path(marker), trial, wait_s

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        if self.context.trial == self.trial:
            try:
                self.marker.touch(exist_ok=False)
            except FileExistsError:
                pass
            else:
                await asyncio.sleep(self.wait_s)
                os.kill(os.getpid(), signal.SIGKILL)
        return AssistantTurn(REPLY, usage=Usage(input_tokens=10, output_tokens=10, requests=1))


class Buggy:
    """Always the same reply, except that it raises (a bug, not a provider failure) on every
    episode of trial ``trial``."""

    def __init__(self, context: EpisodeContext, trial: int = 1) -> None:
        self.context, self.trial = context, trial

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        if self.context.trial == self.trial:
            raise RuntimeError("agent bug: list index out of range")
        return AssistantTurn(REPLY, usage=Usage(input_tokens=10, output_tokens=10, requests=1))
