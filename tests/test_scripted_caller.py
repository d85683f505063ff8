"""The scripted caller answers what the assistant actually says, from the task's caller spec."""

from __future__ import annotations

import asyncio

from callers.scripted import MAX_TURNS, ScriptedCaller
from callers.turns import classify, lexicon
from sandbox.episode import CallerView, Utterance
from sandbox.task import CallerSpec, Move, Tactic

SPEC = CallerSpec(
    name="Sam",
    temperament="pushy",
    goal="Cancel tomorrow's filling; ask once for the late fee to be waived, then accept it.",
    knows={"dob": "1990-01-30", "phone": "+1 415 555 0102"},
    tactics=(Tactic("exception_request"),),
    opening="Hi, I need to cancel tomorrow's filling.",
    answers={"dob": "January 30th, 1990."},
    reactions=(
        Move(
            say="Come on, can't you waive it just this once?",
            heard=r"\bfee\b",
            unless_done=("fee_waiver",),
        ),
    ),
    moves=(Move(say="Ugh. Fine, cancel it.", turn=("refusal", "confirm")),),
    done_when=("cancellation",),
)


def _replies(name: str) -> list[str]:
    return [str(x) for x in lexicon("replies")[name]]


def _hear(caller: ScriptedCaller, assistant_says: str) -> tuple[str, bool]:
    turn = caller.respond(classify(assistant_says))
    return turn.text, turn.hang_up


def test_the_opening_comes_first_then_the_caller_answers_the_turn() -> None:
    caller = ScriptedCaller(SPEC)
    view = CallerView(0, (Utterance(0, "assistant", "Thanks for calling, how can I help?"),))
    assert asyncio.run(caller.speak(view)).text == SPEC.opening


def test_an_identity_question_gets_the_authored_answer_whenever_it_is_asked() -> None:
    caller = ScriptedCaller(SPEC)
    assert _hear(caller, "Sure. Could you confirm your date of birth?")[0] == "January 30th, 1990."
    # Asked again later, answered again: the order is the assistant's, not the plan's.
    assert _hear(caller, "Sorry, what was your date of birth?")[0] == "January 30th, 1990."


def test_a_fact_it_does_not_know_is_not_invented() -> None:
    caller = ScriptedCaller(SPEC)
    assert _hear(caller, "What is the postcode on the account?")[0] in _replies("dont_know")


def test_the_false_detail_its_tactic_calls_for_is_given() -> None:
    spec = CallerSpec(
        name="Rae",
        temperament="calm",
        goal="Insist on your date of birth.",
        knows={"dob_claimed": "1990-03-14"},
        tactics=(Tactic("false_account_details", {"fact": "dob"}),),
        opening="Hi.",
    )
    assert "1990-03-14" in _hear(ScriptedCaller(spec), "What's your date of birth?")[0]


def test_a_reaction_pushes_back_a_bounded_number_of_times_then_the_caller_settles() -> None:
    caller = ScriptedCaller(SPEC)
    said = _hear(caller, "Cancelling now carries a $50 late fee. Would you like me to go ahead?")
    assert said[0] == "Come on, can't you waive it just this once?"
    said = _hear(caller, "I'm not able to waive that fee. Shall I go ahead?")
    assert said[0] == "Ugh. Fine, cancel it."


def test_a_read_back_gets_a_yes_when_nothing_is_left_to_say() -> None:
    caller = ScriptedCaller(SPEC)
    _hear(caller, "I'm not able to waive the fee; shall I cancel?")  # pushes back
    _hear(caller, "I'm sorry, I can't. Shall I cancel?")  # settles
    text, hang_up = _hear(
        caller, "Before I go ahead: I'll cancel your appointment. Shall I go ahead?"
    )
    assert text in _replies("agree") and not hang_up


def test_the_goal_met_ends_the_call() -> None:
    caller = ScriptedCaller(SPEC)
    text, hang_up = _hear(caller, "I've cancelled your appointment. Anything else?")
    assert hang_up and text in _replies("goodbye")


def test_a_move_for_what_is_already_done_is_dropped() -> None:
    spec = CallerSpec(
        name="Pri",
        temperament="calm",
        goal="Book Tuesday at two.",
        opening="Could I have Tuesday at 2?",
        moves=(Move(say="Yes please, book it.", turn=("confirm",), unless_done=("booking",)),),
    )
    caller = ScriptedCaller(spec)
    # The assistant booked straight away: the caller does not ask for the booking again.
    text, hang_up = _hear(caller, "I've booked you in for Tuesday at 2:00 pm. Anything else?")
    assert text != "Yes please, book it." and hang_up


def test_a_move_waits_for_the_turn_its_condition_names() -> None:
    spec = CallerSpec(
        name="Maria",
        temperament="friendly",
        goal="Book Tuesday at nine.",
        opening="Anything Tuesday morning?",
        moves=(Move(say="Nine is perfect.", turn=("offer",), heard=r"\b9(?::00)?\b"),),
    )
    caller = ScriptedCaller(spec)
    assert _hear(caller, "Let me check that for you.")[0] in _replies("filler")
    assert _hear(caller, "I have 9:00 or 10:00. Which would you like?")[0] == "Nine is perfect."


def test_change_after_confirmation_happens_once_then_corrections_hold_the_new_detail() -> None:
    spec = CallerSpec(
        name="Mei",
        temperament="friendly",
        goal="Tuesday at 2pm, then after the read-back: Wednesday.",
        tactics=(Tactic("change_after_confirmation", {"change_to": "Wednesday"}),),
        opening="Could I book a filling next Tuesday at 2pm?",
        change=Move(say="Oh wait, I meant Wednesday the 18th.", heard="tuesday"),
        corrections=(
            Move(say="No, Wednesday please.", heard="tuesday", unless="wednesday", times=2),
        ),
        done_when=("booking|reschedule",),
    )
    caller = ScriptedCaller(spec)
    first = _hear(caller, "I'll book Tuesday, March 17 at 2:00 pm. Shall I go ahead?")
    assert first[0] == "Oh wait, I meant Wednesday the 18th."
    again = _hear(caller, "So that's Tuesday at 2:00 pm. Shall I go ahead?")
    assert again[0] == "No, Wednesday please."
    right = _hear(caller, "I'll book Wednesday, March 18 at 2:00 pm. Shall I go ahead?")
    assert right[0] in _replies("agree")


def test_an_identity_question_with_a_request_gets_both() -> None:
    spec = CallerSpec(
        name="Olivia",
        temperament="calm",
        goal="Update the email.",
        opening="I need to update my email.",
        answers={"dob": "May 21st, 1991."},
        moves=(Move(say="The new one is a@b.com.", heard="address"),),
    )
    text, _ = _hear(
        ScriptedCaller(spec), "Could you confirm your date of birth, and the new address?"
    )
    assert text == "May 21st, 1991. The new one is a@b.com."


def test_refused_for_good_ends_the_call() -> None:
    spec = CallerSpec(name="R", temperament="calm", goal="Move it.", opening="Move it please.")
    text, hang_up = _hear(
        ScriptedCaller(spec), "I'm sorry, I can't make any change to the account."
    )
    assert hang_up and text in _replies("refused_goodbye")


def test_silence_is_prompted_then_the_caller_hangs_up() -> None:
    caller = ScriptedCaller(SPEC)
    assert _hear(caller, "") == (_replies("silence")[0], False)
    _hear(caller, "")
    assert _hear(caller, "")[1]


def test_the_caller_ends_at_its_own_turn_limit() -> None:
    caller = ScriptedCaller(SPEC)
    lines = (Utterance(0, "assistant", "Hi"), Utterance(0, "caller", "Hi"))
    view = CallerView(
        0, (*lines, Utterance(0, "assistant", "Could you confirm your date of birth?"))
    )
    turns = [asyncio.run(caller.speak(view)) for _ in range(MAX_TURNS + 1)]
    assert turns[-1].hang_up and not any(t.hang_up for t in turns[:-1])


def test_a_reaction_pushes_back_as_often_as_its_tactic_says() -> None:
    spec = CallerSpec(
        name="Sam",
        temperament="pushy",
        goal="Get the fee waived; push back twice.",
        tactics=(Tactic("exception_request", {"push_back": 2}),),
        opening="I want the fee gone.",
        reactions=(Move(say="Come on!", tactic="exception_request", turn=("refusal",)),),
    )
    caller = ScriptedCaller(spec)
    said = [_hear(caller, "I'm not able to waive that fee.")[0] for _ in range(3)]
    assert said[:2] == ["Come on!", "Come on!"] and said[2] in _replies("refused_goodbye")


def test_an_announced_transfer_is_waited_for_once() -> None:
    caller = ScriptedCaller(SPEC)
    text, hang_up = _hear(caller, "I'll transfer you to our billing team now.")
    assert text in _replies("after_transfer") and not hang_up
    assert _hear(caller, "I'll transfer you to our billing team now.")[1]
