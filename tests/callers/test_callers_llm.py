"""The LLM caller in-process: reading replies, reversed roles, and misbehaving caller models."""

from __future__ import annotations

import asyncio

import pytest

from adapters.errors import AdapterError
from adapters.reference import reference_factory
from adapters.server import ScriptedAssistant
from businesses.loader import initial_tables
from callers.choice import choose_caller
from callers.fidelity import check_fidelity
from callers.llm import caller_messages, llm_caller_factory, read_reply
from callers.persona import END_MARKER
from contract.messages import AssistantTurn, ToolCall
from sandbox.episode import CallerView, Limits, Utterance, run_episode
from sandbox.task import Task

DEFAULT_LIMITS = Limits()


def _episode(task: Task, replies: list, limits: Limits = DEFAULT_LIMITS):  # type: ignore[no-untyped-def]
    model = ScriptedAssistant(replies)
    callers = llm_caller_factory(lambda _context: model, name="canned")
    result = asyncio.run(
        run_episode(task, initial_tables(task), reference_factory("oracle"), callers, limits=limits)
    )
    return result, model


@pytest.mark.parametrize(
    ("raw", "text", "hang_up"),
    [
        (f"Thanks, bye! {END_MARKER}", "Thanks, bye!", True),
        ("Okay. ### END ###", "Okay.", True),
        ("###end###", "", True),
        ("Caller: Hi, I need to move my appointment.", "Hi, I need to move my appointment.", False),
        ("Maria Lopez: It's June 12, 1984.", "It's June 12, 1984.", False),
        ("Just a normal line.", "Just a normal line.", False),
    ],
)
def test_reply_is_read_for_the_end_marker_and_own_speaker_labels(
    raw: str, text: str, hang_up: bool
) -> None:
    line = read_reply(raw, "Maria Lopez")
    assert (line.text, line.hang_up, line.flags) == (text, hang_up, ())


def test_a_reply_that_writes_the_assistants_turn_is_cut_and_flagged() -> None:
    line = read_reply("Thursday works.\nAssistant: Great, I've booked that for you.", "Maria")
    assert line.text == "Thursday works."
    assert line.flags and line.flags[0].startswith("broke_character: wrote the assistant's line")


@pytest.mark.parametrize(
    "raw",
    [
        "Thank you for calling Mini Dental, how can I help you today?",
        "As an AI, I cannot share personal details.",
        "I've rescheduled your appointment to Thursday.",
    ],
)
def test_speaking_as_the_business_or_as_an_ai_is_flagged(raw: str) -> None:
    assert any(f.startswith("broke_character") for f in read_reply(raw, "Maria").flags)


def test_caller_model_hears_words_only_with_roles_reversed() -> None:
    view = CallerView(
        0,
        (
            Utterance(0, "assistant", "Thanks for calling, how can I help?"),
            Utterance(0, "caller", "I need to move my cleaning."),
            Utterance(0, "assistant", "", ({"id": "c1", "name": "find_customer"},)),
            Utterance(0, "assistant", "Found you."),
            Utterance(0, "assistant", "What day suits?"),
        ),
    )
    messages = caller_messages(view)
    assert [m.role for m in messages] == ["user", "assistant", "user"]
    assert messages[2].content == "Found you.\nWhat day suits?"
    assert all(not m.tool_calls for m in messages)


def test_an_empty_reply_is_retried(reschedule: Task) -> None:
    replies = [
        "Hi, it's Maria Lopez. I need to move my cleaning on Tuesday.",
        "",
        "  ",
        "June 12, 1984.",
    ]
    replies += ["Thursday at two, with a text reminder the day before.", f"Bye. {END_MARKER}"]
    result, _ = _episode(reschedule, replies)
    assert result.endings == ["caller_hung_up"]
    assert [u.text for u in result.transcript if u.speaker == "caller"][1] == "June 12, 1984."


def test_empty_replies_past_the_retries_are_an_infrastructure_error(reschedule: Task) -> None:
    result, model = _episode(reschedule, ["Hi, I need to move my cleaning.", "", "", ""])
    assert result.endings == ["infrastructure_error"]
    assert result.infrastructure_error
    assert "returned an empty reply 3 times in a row" in (result.error or "")
    assert len(model.requests) == 4


def test_a_caller_that_never_ends_is_cut_off_by_the_turn_limit(reschedule: Task) -> None:
    result, _ = _episode(reschedule, ["Hmm, let me think about it."] * 5, Limits(max_turns=5))
    assert result.endings == ["turn_limit"]
    assert sum(1 for u in result.transcript if u.speaker == "caller") == 5


def test_breaking_character_is_flagged_and_makes_the_episode_a_caller_error(
    reschedule: Task,
) -> None:
    replies = [
        "Hi, it's Maria Lopez. I need to move my cleaning on Tuesday.",
        "Thank you for calling Mini Dental, how can I help you today?",
        f"Thursday at two please. Bye. {END_MARKER}",
    ]
    result, _ = _episode(reschedule, replies)
    assert any(
        f.startswith("broke_character: greeted as the business") for f in result.caller_flags
    )
    assert any("broke_character" in reason for reason in check_fidelity(reschedule, result))


def test_a_tool_call_from_the_caller_model_is_ignored_and_flagged(reschedule: Task) -> None:
    call = ToolCall("x", "book_appointment", "{}")
    replies = [AssistantTurn("Hi, I need to move my cleaning.", (call,)), f"Bye {END_MARKER}"]
    result, _ = _episode(reschedule, replies)
    assert result.caller_flags[0].startswith("tool_call: the caller model called book_appointment")
    assert check_fidelity(reschedule, result) == []  # harmless: not a caller error


def test_an_inventing_caller_is_caught_by_the_fidelity_check(reschedule: Task) -> None:
    replies = [
        "Hi, I need to move my cleaning. My account number is 55120934.",
        "June 12, 1984.",
        f"Thursday at two. The last person promised me a free whitening too. Bye. {END_MARKER}",
    ]
    result, _ = _episode(reschedule, replies)
    reasons = check_fidelity(reschedule, result)
    assert any("identifier '55120934'" in r for r in reasons)
    assert any("states promise" in r for r in reasons)


def test_caller_identity_records_model_sampling_and_prompt_version() -> None:
    factory = llm_caller_factory(
        lambda _c: ScriptedAssistant([]), {"temperature": 0.2, "seed": 3}, name="canned"
    )
    identity = factory.identity.to_dict()
    assert identity["model"] == "canned"
    assert (identity["temperature"], identity["seed"]) == (0.2, 3)
    assert len(identity["prompt_version"]) == 12
    assert factory.identity.label.startswith("llm:canned temperature=0.2 seed=3 prompt=")


def test_choose_caller_gives_factory_and_identity_for_each_form(local_server: object) -> None:
    scripted = choose_caller("scripted")
    assert scripted.identity == {"kind": "scripted", "label": "scripted"}
    llm = choose_caller("llm:openai/caller-model", {"temperature": 0}, local_server.openai_base_url)  # type: ignore[attr-defined]
    assert llm.identity["model"] == "openai/caller-model"
    assert llm.identity["temperature"] == 0
    with pytest.raises(ValueError, match="expected one of scripted, llm:<model>"):
        choose_caller("robot")
    with pytest.raises(AdapterError):
        choose_caller("llm:nowhere/model")
