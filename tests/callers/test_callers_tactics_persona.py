"""Tactic definitions, the persona prompt, and the scripted caller rendering a tactic."""

from __future__ import annotations

import asyncio

import pytest
from caller_helpers import with_caller, with_tactic

from adapters.reference import reference_factory
from businesses.loader import initial_tables
from callers.persona import END_MARKER, persona_prompt
from callers.scripted import scripted_caller_factory
from callers.tactics import TacticError, bind, definitions
from callers.templating import prompt_version
from callers.turns import classify
from sandbox.episode import run_episode
from sandbox.task import TACTICS, TEMPERAMENTS, Move, Tactic, Task


def test_every_tactic_of_the_task_model_has_one_definition() -> None:
    assert tuple(definitions()) == TACTICS
    for definition in definitions().values():
        assert definition.summary and definition.prompt and definition.line


@pytest.mark.parametrize("name", TACTICS)
def test_each_tactic_renders_into_the_persona_with_its_parameters(
    name: str, reschedule: Task
) -> None:
    task = with_tactic(reschedule, name)
    prompt = persona_prompt(task)
    rendered = bind(Tactic(name)).prompt(task.caller)
    assert rendered in prompt
    assert definitions()[name].title in prompt
    assert "{{" not in prompt and "None" not in prompt


def test_tactic_parameters_override_defaults_and_reach_the_prompt(reschedule: Task) -> None:
    task = with_tactic(reschedule, "exception_request", request="waive the $25 fee", push_back=2)
    prompt = persona_prompt(task)
    assert "You want the business to waive the $25 fee" in prompt
    assert "push back 2 times" in prompt


def test_unknown_tactic_or_parameter_is_refused_by_name() -> None:
    with pytest.raises(TacticError, match="unknown tactic 'flattery'"):
        bind(Tactic("flattery"))
    with pytest.raises(TacticError, match=r"no parameter 'amount'.*takes request, reason"):
        bind(Tactic("exception_request", {"amount": 5}))


def test_a_scripted_line_needing_a_parameter_says_which(reschedule: Task) -> None:
    with pytest.raises(TacticError, match=r"changes_mind.*needs instead"):
        bind(Tactic("changes_mind")).line(reschedule.caller)


def test_persona_states_identity_temperament_goal_facts_and_the_end_marker(
    reschedule: Task,
) -> None:
    prompt = persona_prompt(reschedule)
    spec = reschedule.caller
    assert f"Your name is {spec.name}" in prompt
    assert "How you talk: calm" in prompt and "Polite, even and patient" in prompt
    assert spec.goal in prompt
    for value in spec.knows.values():
        assert str(value) in prompt
    assert "Never make up an account number" in prompt
    assert "a promise that someone made you" in prompt
    assert "asks to verify your identity" in prompt
    assert "transferring you to a person" in prompt
    assert END_MARKER in prompt
    assert "It is Monday March 2, 2026, 09:10" in prompt
    print(prompt)


@pytest.mark.parametrize("temperament", TEMPERAMENTS)
def test_every_temperament_has_a_way_of_speaking(temperament: str, reschedule: Task) -> None:
    prompt = persona_prompt(with_caller(reschedule, temperament=temperament))
    assert f"How you talk: {temperament}" in prompt


def test_a_caller_with_no_facts_is_told_it_has_none(reschedule: Task) -> None:
    assert "You have no account details to hand" in persona_prompt(
        with_caller(reschedule, knows={})
    )


def test_prompt_version_is_a_stable_short_hash() -> None:
    assert prompt_version() == prompt_version()
    assert len(prompt_version()) == 12


def test_scripted_caller_says_a_tactic_line_when_a_move_names_it(reschedule: Task) -> None:
    task = with_caller(
        reschedule,
        opening="Hi, it's Maria Lopez, I need to move my cleaning on Tuesday.",
        answers={"dob": "Sure, it's June 12, 1984."},
        moves=(Move(tactic="changes_mind", turn=("offer", "question")),),
        tactics=(Tactic("changes_mind", {"instead": "Thursday at two, with a text reminder"}),),
    )
    result = asyncio.run(
        run_episode(
            task, initial_tables(task), reference_factory("oracle"), scripted_caller_factory
        )
    )
    said = [u.text for u in result.transcript if u.speaker == "caller"]
    assert said[2] == (
        "Hmm, actually no, I've changed my mind. I'd rather Thursday at two, with a text reminder."
    )


def test_scripted_caller_keeps_say_when_a_move_also_names_a_tactic(reschedule: Task) -> None:
    task = with_caller(reschedule, moves=(Move(say="Exactly these words.", tactic="confused"),))
    caller = scripted_caller_factory(task, 0)
    assert caller.respond(classify("Which day would you like?")).text == "Exactly these words."


def test_the_llm_persona_gets_the_same_moves_as_guidance(reschedule: Task) -> None:
    task = with_caller(
        reschedule,
        reactions=(Move(say="Come on, just this once?", turn=("refusal",), times=2),),
        corrections=(Move(say="No, Thursday please.", heard="friday"),),
        change=Move(say="Oh wait, make it three.", heard="two"),
        done_when=("reschedule",),
    )
    prompt = persona_prompt(task)
    assert "Answer what the assistant just said" in prompt
    assert f'To open the call: "{task.caller.opening}"' in prompt
    assert 'When the assistant refuses (at most 2 times): "Come on, just this once?"' in prompt
    assert '(never agree to it): "No, Thursday please."' in prompt
    assert 'Once, after the assistant first reads back or confirms the detail: "Oh wait' in prompt
    assert "once the assistant tells you it has done: reschedule." in prompt
    assert "Never give a date of birth, postcode or other verification detail" in prompt
