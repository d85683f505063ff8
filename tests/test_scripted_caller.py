"""The scripted caller: lines in order, identity answers from `knows`, authored reactions."""

from __future__ import annotations

import asyncio

from callers.scripted import GOODBYE, ScriptedCaller
from sandbox.episode import CallerView, Utterance
from sandbox.task import CallerSpec

SPEC = CallerSpec(
    name="Sam",
    temperament="pushy",
    goal="Get the late fee waived, push back once.",
    knows={"dob": "1990-01-30"},
    script=({"say": "I want the late fee gone."}, {"say": "Fine, thanks."}),
    reactions=({"when": r"not able to waive|can't waive", "say": "Come on, make an exception!"},),
)


def _hear(caller: ScriptedCaller, assistant_says: str) -> str:
    view = CallerView(
        0, (Utterance(0, "assistant", "Hello"), Utterance(0, "assistant", assistant_says))
    )
    return asyncio.run(caller.speak(view)).text


def test_lines_come_in_order_then_goodbye():
    caller = ScriptedCaller(SPEC)
    assert _hear(caller, "How can I help?") == "I want the late fee gone."
    assert _hear(caller, "Okay.") == "Fine, thanks."
    turn = asyncio.run(caller.speak(CallerView(0, (Utterance(0, "assistant", "Bye"),) * 2)))
    assert turn.text == GOODBYE and turn.hang_up


def test_an_identity_question_is_answered_from_knows_without_losing_a_line():
    caller = ScriptedCaller(SPEC)
    _hear(caller, "How can I help?")
    assert _hear(caller, "Can I have your date of birth?") == "My date of birth is 1990-01-30."
    assert _hear(caller, "Thanks.") == "Fine, thanks."


def test_an_authored_reaction_fires_on_a_refusal_once():
    caller = ScriptedCaller(SPEC)
    _hear(caller, "How can I help?")
    assert _hear(caller, "Sorry, I'm not able to waive that fee.") == "Come on, make an exception!"
    assert _hear(caller, "I'm still not able to waive it.") == "Fine, thanks."
