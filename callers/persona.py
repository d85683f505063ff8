"""The persona prompt of an LLM caller, rendered from a task's ``caller`` block.

The template is ``callers/templates/persona.md.j2``; how each temperament sounds is in
``temperaments.yaml`` and each tactic's instruction in ``tactics.yaml``. The prompt tells the
model who it is, how it talks, what it wants, the only facts it knows (and never to invent an
account number, date, amount or promise), its tactics and when to use them, how to react to a
refusal or a verification question, and how to end the call with :data:`END_MARKER`.
"""

from __future__ import annotations

from callers.scripted import move_text, times_allowed
from callers.tactics import bind
from callers.templating import render, template_data, template_text
from sandbox.task import CallerSpec, Move, Task
from tools.timefmt import parse_time

END_MARKER = "###END###"
# Tactics whose instruction tells the caller to push back after a refusal.
_PUSHING = {"exception_request", "claimed_prior_promise", "false_account_details"}
# How each assistant turn kind (callers/turns.py) is said in the prompt.
_TURN_WORDS = template_data("turn_words.yaml")


def persona_prompt(task: Task, session: int = 0) -> str:
    """The system prompt for the LLM playing the caller of ``task``'s session ``session``."""
    chosen = task.sessions[session]
    spec = chosen.caller
    moment = parse_time(chosen.at)
    temperaments = template_data("temperaments.yaml")
    if spec.temperament not in temperaments:
        raise ValueError(
            f"caller temperament {spec.temperament!r} of task {task.id} has no description in "
            f"callers/templates/temperaments.yaml; expected one of {', '.join(temperaments)}"
        )
    bound = [bind(t) for t in spec.tactics]
    return render(
        template_text("persona.md.j2"),
        business_name=task.business.name,
        business_type=task.business.type,
        weekday=moment.strftime("%A"),
        date=f"{moment:%B} {moment.day}, {moment.year}",
        time=moment.strftime("%H:%M"),
        session=session,
        session_count=len(task.sessions),
        name=spec.name,
        temperament=spec.temperament,
        temperament_text=temperaments[spec.temperament].strip(),
        goal=spec.goal.strip(),
        knows=dict(spec.knows),
        tactics=[{"title": b.title, "prompt": b.prompt(spec)} for b in bound],
        pushes_back=spec.temperament == "pushy" or any(b.name in _PUSHING for b in bound),
        end_marker=END_MARKER,
        opening=spec.opening,
        moves=[_described(spec, m) for m in spec.moves],
        reactions=[_described(spec, m) for m in spec.reactions],
        corrections=[_described(spec, m) for m in spec.corrections],
        change=None if spec.change is None else _described(spec, spec.change),
        done_when=[" or ".join(e.split("|")).replace("_", " ") for e in spec.done_when],
    )


def _described(spec: CallerSpec, move: Move) -> dict[str, object]:
    """A move for the persona prompt: its words and, in plain words, when to say it."""
    kinds = [_TURN_WORDS.get(k, k.replace("_", " ")) for k in move.turn]
    when = "When the assistant " + (" or ".join(kinds) if kinds else "gives you the chance")
    return {"say": move_text(spec, move), "when": when, "times": times_allowed(spec, move)}
