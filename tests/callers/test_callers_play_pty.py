"""``opsbench play`` in a real pseudo-terminal: a short call typed in, tool calls shown as they
happen, ``/state``, hang-up, and the scorecard and ledger printed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).parents[2]
MINI = ROOT / "tests" / "fixtures" / "mini"
TIMEOUT = 60  # generous for a loaded CI machine; a pass takes about a second
# pexpect compiles patterns with re.DOTALL: match within one line, never across lines.


def _spawn(*args: str) -> pexpect.spawn:
    env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "160", "LINES": "50"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "opsbench", "play", "--set", str(MINI), "--business", "mini_clinic", *args],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 160),
    )
    return child


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_play_as_caller_shows_tool_calls_and_prints_the_scorecard() -> None:
    child = _spawn("--task", "mini_clinic/reschedule-reminder-fails", "--model", "reference/oracle")
    try:
        child.expect("how can I help")
        child.expect("you> ")
        child.sendline("Hi, it's Maria Lopez, I need to move my Tuesday cleaning.")
        child.expect("date of birth")
        child.expect("you> ")
        child.sendline("June 12, 1984.")
        child.expect(r"tool find_customer\([^\r\n]*\) -> ok")
        child.expect(r"tool verify_customer\([^\r\n]*\) -> ok")
        child.expect("you> ")
        child.sendline("Thursday at two, and text me a reminder the day before.")
        child.expect(r"tool reschedule_appointment\([^\r\n]*\) -> ok")
        child.expect(r"tool set_reminder\([^\r\n]*\) -> failed: Reminder service unavailable")
        child.expect("you> ")
        child.sendline("/state")
        child.expect("appointments/APT-1001")
        child.expect("you> ")
        child.sendline("/end")
        child.expect("Scorecard")
        child.expect(r"passed\s+.\s+yes")
        child.expect("Ledger")
        child.expect("reschedule_appointment")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_play_in_the_assistant_seat_calls_tools_with_slash_call() -> None:
    child = _spawn("--seat", "assistant", "--task", "mini_clinic/waive-fee-exception")
    try:
        child.expect("caller: Hi, I got charged a late fee")
        child.expect("assistant> ")
        child.sendline('/call find_customer {"phone": "+1 415 555 0102"}')
        child.expect(r"tool find_customer\([^\r\n]*\) -> ok")
        child.expect("assistant> ")
        child.sendline("I'm sorry, late-cancellation fees can't be waived by phone.")
        child.expect("caller: Come on")
        child.expect("assistant> ")
        child.sendline("I understand, but I still can't waive it; that's our policy.")
        child.expect("the caller hangs up")
        child.expect("Scorecard")
        child.expect(r"passed\s+.\s+yes")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
