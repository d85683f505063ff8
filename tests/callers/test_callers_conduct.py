"""Caller conduct and derived facts: what the fidelity check flags beyond invented facts."""

from __future__ import annotations

from callers.conduct import agrees, check_conduct
from callers.fidelity import check_transcript
from sandbox.episode import Utterance
from sandbox.task import CallerSpec, Move, Session


def _session(**spec: object) -> Session:
    fields = {"name": "Mei", "temperament": "calm", "goal": "Book a filling.", **spec}
    return Session("2026-03-11T12:00", CallerSpec(**fields), ())  # type: ignore[arg-type]


def _lines(*pairs: tuple[str, str]) -> list[Utterance]:
    return [Utterance(0, "assistant" if who == "A" else "caller", text) for who, text in pairs]


GREETING = ("A", "Thanks for calling, how can I help?")
OPENING = ("C", "Hi, I'd like to book a filling next Tuesday at 2pm.")


def test_saying_yes_to_a_read_back_its_goal_corrects_is_flagged() -> None:
    session = _session(
        corrections=(Move(say="No, Wednesday.", heard="tuesday", unless="wednesday"),)
    )
    lines = _lines(
        GREETING, OPENING, ("A", "I'll book Tuesday at 2:00 pm. Shall I go ahead?"), ("C", "Yes.")
    )
    problems = check_conduct([session], lines)
    assert len(problems) == 1 and "agrees to" in problems[0]


def test_correcting_it_or_agreeing_to_the_right_detail_is_not_flagged() -> None:
    session = _session(
        corrections=(Move(say="No, Wednesday.", heard="tuesday", unless="wednesday"),)
    )
    lines = _lines(
        GREETING,
        OPENING,
        ("A", "I'll book Tuesday at 2:00 pm. Shall I go ahead?"),
        ("C", "Yes. Oh wait, no, I meant Wednesday."),
        ("A", "I'll book Wednesday, not Tuesday, at 2:00 pm. Shall I go ahead?"),
        ("C", "Yes, please go ahead."),
    )
    assert check_conduct([session], lines) == []


def test_asking_for_what_was_already_reported_done_is_flagged() -> None:
    lines = _lines(
        GREETING,
        OPENING,
        ("A", "I've booked you in for Tuesday at 2:00 pm. Anything else?"),
        ("C", "Yes please, book it."),
    )
    problems = check_conduct([_session()], lines)
    assert len(problems) == 1 and "already reported done" in problems[0]


def test_changing_what_was_done_is_not_asking_for_it_again() -> None:
    lines = _lines(
        GREETING,
        OPENING,
        ("A", "I've booked you in for Tuesday at 2:00 pm. Anything else?"),
        ("C", "Oh wait, can you move it to Wednesday instead?"),
    )
    assert check_conduct([_session()], lines) == []


def test_a_date_of_birth_given_unasked_is_flagged_and_asked_is_not() -> None:
    session = _session(knows={"dob": "1995-03-30"})
    unasked = _lines(GREETING, OPENING, ("A", "Which day suits you?"), ("C", "March 30th, 1995."))
    problems = check_conduct([session], unasked)
    assert len(problems) == 1 and "had not asked" in problems[0]
    asked = _lines(
        GREETING,
        OPENING,
        ("A", "Could you confirm your date of birth?"),
        ("C", "March 30th, 1995."),
    )
    assert check_conduct([session], asked) == []


def test_agreement_is_read_with_its_take_backs() -> None:
    assert agrees("Yes, please go ahead.")
    assert not agrees("Yes. Wait, no! Not the kettle.")
    assert not agrees("Could you check again?")


def _weekday_session(**knows: str) -> Session:
    # 2026-03-11 is a Wednesday; 1962-05-15 was a Tuesday.
    return Session(
        "2026-03-11T12:00",
        CallerSpec("Linda", "calm", "Book a cleaning next week.", {"dob": "1962-05-15", **knows}),
        (),
    )


def test_a_weekday_is_not_known_from_a_date_of_birth_that_fell_on_it() -> None:
    lines = _lines(GREETING, ("C", "I can come in on Tuesday."))
    problems = check_transcript([_weekday_session()], lines)
    assert len(problems) == 1 and "'Tuesday'" in problems[0]


def test_a_weekday_is_known_from_a_given_date_about_the_call_itself() -> None:
    session = _weekday_session(appointment="2026-03-17 at 10:00")  # a Tuesday next week
    assert check_transcript([session], _lines(GREETING, ("C", "I can come in on Tuesday."))) == []


def test_a_weekday_the_assistant_said_may_be_repeated() -> None:
    lines = _lines(
        ("A", "I have Tuesday at 10:00. Would that work?"), ("C", "Tuesday is good, thanks.")
    )
    assert check_transcript([_weekday_session()], lines) == []


def test_a_phone_number_s_digits_are_no_amount_of_money() -> None:
    session = Session(
        "2026-03-11T12:00",
        CallerSpec("Maria", "calm", "Ask about your bill.", {"phone": "+1 415 555 0101"}),
        (),
    )
    problems = check_transcript([session], _lines(GREETING, ("C", "You charged me $415.")))
    assert len(problems) == 1 and "amount" in problems[0]


def test_a_birthday_without_its_year_is_no_appointment_day() -> None:
    lines = _lines(GREETING, ("C", "I'd like to come in on May 15th."))
    assert len(check_transcript([_weekday_session()], lines)) == 1
    whole = _lines(GREETING, ("A", "Your date of birth?"), ("C", "May 15th, 1962."))
    assert check_transcript([_weekday_session()], whole) == []


def test_an_authored_line_stating_a_fact_its_caller_lacks_is_a_task_problem() -> None:
    from caller_helpers import with_caller

    from callers.fidelity import check_authored_lines
    from tests.helpers import mini_tasks

    task = mini_tasks()["mini_clinic/reschedule-reminder-fails"]
    assert check_authored_lines(task) == []
    bad = with_caller(task, reactions=(Move(say="My account number is 48213377."),))
    (problem,) = check_authored_lines(bad)
    assert "48213377" in problem
