"""How the scripted caller reads an assistant turn (callers/lexicon/turns.yaml + claim checker).

Phrasings from several assistants' styles, not only the reference plans': a caller that misreads
a read-back as small talk runs out of step with any assistant that confirms first.
"""

from __future__ import annotations

import pytest

from callers.turns import TURN_KINDS, classify, lexicon


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("Could you confirm your date of birth?", {"identity"}),
        ("May I have your zip code?", {"identity"}),
        ("Can you give me the phone number on the account?", {"identity"}),
        ("That doesn't match our records. Could you double-check it?", {"verify_retry"}),
        ("Shall I go ahead?", {"confirm"}),
        ("Would you like me to book that?", {"confirm"}),
        ("Does that work for you?", {"confirm"}),
        ("Is it okay if I charge the deposit now?", {"confirm"}),
        ("Just to make sure: Tuesday at 9 with Jenna, correct?", {"confirm"}),
        ("Let me read that back: olivia at gmail dot com. Is that right?", {"confirm"}),
        ("I have 9:00 or 10:00 with Jenna. Which would you like?", {"offer"}),
        ("Would Tuesday at 9 or 10 work better?", {"offer"}),
        ("I have openings at 9:00, 10:00 and 11:00.", {"offer"}),
        ("I'm not able to waive that fee.", {"refusal"}),
        ("I still can't waive it; that's our policy.", {"refusal"}),
        ("Unfortunately, that is not something I can do.", {"refusal"}),
        ("Your appointment is now booked for Tuesday at 9.", {"done"}),
        ("I couldn't set the reminder.", {"failed"}),
        ("Is there anything else I can help with today?", {"anything_else"}),
        ("I will transfer you to our billing team now.", {"transfer"}),
        ("What is the reason for the cancellation?", {"question"}),
        ("Let me check that for you.", {"info"}),
        ("First, please confirm your date of birth.", {"identity"}),
        ("Thanks. I'll need the zip code on the account.", {"identity"}),
        ("", {"silence"}),
    ],
)
def test_each_kind_of_turn_is_recognised(text: str, kinds: set[str]) -> None:
    assert kinds <= classify(text).kinds


@pytest.mark.parametrize(
    "text",
    [
        "The phone number on the account has not been changed, and no text has been sent.",
        "The email on the account hasn't been changed and nothing has been sent.",
    ],
)
def test_a_report_that_names_an_identity_detail_does_not_ask_for_it(text: str) -> None:
    assert "identity" not in classify(text).kinds


def test_a_turn_can_be_several_kinds_and_names_what_was_done() -> None:
    turn = classify("I've booked you in for Tuesday and set a text reminder. Anything else?")
    assert {"done", "anything_else"} <= turn.kinds
    assert {"booking", "reminder"} <= turn.done


def test_the_lexicon_names_only_known_kinds() -> None:
    assert set(lexicon("turns")) - {"identity", "identity_request"} <= set(TURN_KINDS)
