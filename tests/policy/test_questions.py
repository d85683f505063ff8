"""``questions_for_person`` over a real world and a transcript of several sessions: which session
raised a topic, whether that session (and not another) was handed to a person, and the
violation it leaves — its rule, tag, message, and no call or row (the breach is what was said,
not a write)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sandbox.episode import Utterance
from sandbox.rules import Violation, check_rules
from sandbox.rules_questions import raised_topic
from tests.policy.support import context

PARAMS = {
    "why": "the pharmacist answers these",
    "topics": {
        "dosage": ["double up", "take two"],
        "interaction": ["take it with"],
    },
}
TRANSFER = ("transfer_to_human", {"reason": "a pharmacist's question", "summary": "s"})
# A transfer naming a customer who does not exist fails: nobody was handed over.
FAILED_TRANSFER = ("transfer_to_human", {"reason": "r", "summary": "s", "customer_id": "CUS-9"})
NEXT = ("session", "2026-03-09T09:00")


def _caller(session: int, text: str) -> Utterance:
    return Utterance(session, "caller", text)


def _missed(session: int, topic: str, phrase: str) -> Violation:
    return Violation(
        "questions_for_person",
        "escalation",
        f"session {session}: the caller asked about {topic} ({phrase!r}) and was not handed "
        "to a person: the pharmacist answers these",
        None,
        (),
    )


CASES = [
    ("asked, not handed over", [], [_caller(0, "Can I double up?")], [(0, "dosage", "double up")]),
    ("asked and handed over", [TRANSFER], [_caller(0, "Can I double up?")], []),
    ("a transfer that failed hands nobody over", [FAILED_TRANSFER],
     [_caller(0, "Can I double up?")], [(0, "dosage", "double up")]),
    ("the assistant saying the phrase is not the caller asking", [],
     [Utterance(0, "assistant", "Never double up."), _caller(0, "Thanks.")], []),
    ("nothing asked in the first session, asked in the second", [NEXT],
     [_caller(0, "Hello."), _caller(1, "Can I take it with coffee?")],
     [(1, "interaction", "take it with")]),
    ("handed over in the first session, asked again in the second", [TRANSFER, NEXT],
     [_caller(0, "Can I double up?"), _caller(1, "Can I take two?")],
     [(1, "dosage", "take two")]),
    ("the second session's transfer does not cover the first", [NEXT, TRANSFER],
     [_caller(0, "Can I double up?"), _caller(1, "Bye.")], [(0, "dosage", "double up")]),
    ("each session on its own words", [TRANSFER, NEXT],
     [_caller(0, "Can I double up?"), _caller(1, "Bye.")], []),
    ("asked in both, handed over in neither", [NEXT],
     [_caller(0, "Can I double up?"), _caller(1, "Or take it with food?")],
     [(0, "dosage", "double up"), (1, "interaction", "take it with")]),
    # The caller's lines are read as separate lines: a phrase ending one line and one starting
    # the next are both whole words.
    ("a phrase at the end of a line", [],
     [_caller(0, "Maybe I should take two"), _caller(0, "tonight.")], [(0, "dosage", "take two")]),
    ("a phrase at the start of a later line", [],
     [_caller(0, "One more thing:"), _caller(0, "take it with milk?")],
     [(0, "interaction", "take it with")]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "script", "transcript", "missed"), CASES, ids=[c[0] for c in CASES]
)
def test_a_session_that_raised_a_topic_must_be_handed_over(name, script, transcript, missed):
    ctx = replace(context(script), transcript=tuple(transcript))
    found = check_rules([("questions_for_person", PARAMS)], ctx)
    assert found == [_missed(*m) for m in missed]


def test_the_first_topic_listed_wins_and_the_phrase_is_reported_as_said():
    text = "I TAKE IT WITH food; can I double up?"
    assert raised_topic(PARAMS, text) == ("dosage", "double up")
    assert raised_topic({"topics": {"interaction": ["take it with"]}}, text) == (
        "interaction",
        "TAKE IT WITH",
    )


def test_the_longest_phrase_of_a_topic_is_the_one_reported():
    params = {"topics": {"dosage": ["take", "take two"]}}
    assert raised_topic(params, "may I take two") == ("dosage", "take two")


@pytest.mark.parametrize(
    "text",
    [
        "Can't I take it with tea?",
        "Can\u2019t I take it with tea?",
        "CAN\u2019T I take it with tea?",
    ],
)
def test_a_phrase_with_an_apostrophe_is_raised_whichever_apostrophe_is_typed(text):
    params = {"topics": {"interaction": ["can't I take it"]}}
    assert raised_topic(params, text) is not None
    assert raised_topic(params, text.replace("\u2019", "").replace("'", "")) is None
