"""The scripted caller: deterministic, no model, answering what the assistant actually says.

Each turn it reads the assistant's last turn (:func:`callers.turns.classify`: asks for an
identity detail, reads back and asks to confirm, offers choices, reports done or failed,
refuses, asks "anything else?", transfers, silence) and picks its move from the task's caller
spec (:class:`sandbox.task.CallerSpec`), in this order:

1. silence: "Hello?" (twice at most, then it hangs up); a hand-off announced but not made:
   "Okay, thanks." once, waiting on the line;
2. a detail that did not match is asked again (``verify_retry``): a matching reaction first
   (the false-details tactic insists), else the answer again;
3. an identity question: the answer, from ``answers`` (the task's wording, or the false detail
   its tactic calls for) or else ``knows``; "I don't have that" for a fact it does not know.
   A move or reaction whose ``heard`` matches the same turn is said after it ("...and tell me
   the new address?");
4. ``change`` (change-after-confirmation): once, at the first read-back, report or "anything
   else?" whose words match it;
5. ``corrections``: a read-back, offer or report that does not match the goal is corrected
   (bounded by ``times``), never agreed to;
6. ``reactions`` whose conditions hold, each at most ``times`` times -- by default as often as
   its tactic's ``push_back`` says (pushing back after a refusal, raising the claimed promise
   when the fee is mentioned);
7. the goal met (every kind of ``done_when`` reported done): goodbye;
8. the next of ``moves``, in the caller's order, when its condition holds; a move whose
   ``unless_done`` kinds were reported done is dropped (it asks for nothing already done);
9. a read-back to confirm: yes; a refusal with nothing left to say: goodbye (refused for
   good); "anything else?" with no move that applies, or a report with nothing left to say:
   goodbye -- but a report of a failure first gets "Okay." (the assistant may still do what it
   said it would); any other turn: "Okay." (bounded).

It also hangs up at its own turn limit. Authored lines are the wording of each move; the order
is the caller's and the assistant's, never the reference plan's. Wordings the task does not
give come from ``callers/lexicon/replies.yaml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from callers.tactics import tactic_for
from callers.turns import FLOOR, Turn, classify, lexicon, satisfied
from sandbox.episode import CallerTurn, CallerView
from sandbox.task import CallerSpec, Move, Task
from sandbox.text_cache import TEXT_CACHE

# More caller turns than any task needs: a caller still talking by then is stuck, so it ends.
MAX_TURNS = 24
_FILLERS = 2
_SILENCES = 2


def move_text(spec: CallerSpec, move: Move) -> str:
    """The words of ``move``: its ``say``, or its tactic's line rendered for ``spec``."""
    if move.say is not None:
        return move.say
    if move.tactic is not None:
        return tactic_for(spec, move.tactic).line(spec)
    raise ValueError(f"caller move {move!r} has neither 'say' nor 'tactic'; expected one")


def _reply(name: str, turn_number: int) -> str:
    pool = lexicon("replies")[name]
    return str(pool[turn_number % len(pool)])


def answer_for(spec: CallerSpec, fact: str) -> str | None:
    """How the caller gives identity fact ``fact``, or ``None`` if it does not know it.

    The task's ``answers`` wording first; then the false value a ``false_account_details``
    tactic insists on; then the value in ``knows``.
    """
    if fact in spec.answers:
        return spec.answers[fact]
    templates = lexicon("replies")["answer"]
    template = str(templates.get(fact, templates["default"]))
    for tactic in spec.tactics:
        if tactic.name == "false_account_details" and tactic.params.get("fact", "dob") == fact:
            value = tactic.params.get("value") or spec.knows.get(f"{fact}_claimed")
            if value is not None:
                return template.format(value=value)
    value = spec.knows.get(fact)
    return None if value is None else template.format(value=value)


def times_allowed(spec: CallerSpec, move: Move) -> int:
    """How often ``move`` may be made: its ``times``, else its tactic's ``push_back``, else 1."""
    if move.times is not None:
        return move.times
    if move.tactic is not None:
        bound = tactic_for(spec, move.tactic).params.get("push_back")
        if isinstance(bound, int) and not isinstance(bound, bool) and bound >= 1:
            return bound
    return 1


# Assistant turns repeat across tasks and trials, and the moves' patterns are few. Bounded.
@lru_cache(maxsize=TEXT_CACHE)
def _matches(pattern: str | None, text: str) -> bool:
    return pattern is None or re.search(pattern, text, re.IGNORECASE) is not None


def move_applies(move: Move, turn: Turn, done: set[str], *, explicit: bool = False) -> bool:
    """Whether ``move``'s conditions hold for ``turn`` (``explicit``: it must name ``heard``)."""
    if explicit and move.heard is None:
        return False
    if move.unless_done and satisfied(move.unless_done, done):
        return False
    if move.turn and not turn.has(*move.turn):
        return False
    if not move.turn and not turn.has(*FLOOR):
        return False
    if move.unless is not None and _matches(move.unless, turn.text):
        return False
    return _matches(move.heard, turn.text)


@dataclass
class _State:
    turns: int = 0
    next_move: int = 0
    used: dict[str, int] = field(default_factory=dict)
    done: set[str] = field(default_factory=set)
    changed: bool = False
    fillers: int = 0
    silences: int = 0
    transfers: int = 0


class ScriptedCaller:
    """Plays one session of a task's caller spec, responsively (see the module docstring)."""

    def __init__(self, spec: CallerSpec) -> None:
        self.spec = spec
        self._state = _State()

    def _use(self, key: str, move: Move) -> bool:
        """Count one use of reaction/correction ``key``; ``False`` when it is used up."""
        used = self._state.used.get(key, 0)
        if used >= times_allowed(self.spec, move):
            return False
        self._state.used[key] = used + 1
        return True

    def _say(self, move: Move) -> CallerTurn:
        return CallerTurn(move_text(self.spec, move), hang_up=move.hang_up)

    def _bye(self, name: str = "goodbye") -> CallerTurn:
        return CallerTurn(_reply(name, self._state.turns), hang_up=True)

    def _reaction(self, turn: Turn, *, explicit: bool = False) -> Move | None:
        for index, move in enumerate(self.spec.reactions):
            key = f"reaction:{index}"
            if self._state.used.get(key, 0) >= times_allowed(self.spec, move):
                continue
            if move_applies(move, turn, self._state.done, explicit=explicit):
                self._use(key, move)
                return move
        return None

    def _pending_move(self, turn: Turn, *, explicit: bool = False) -> Move | None:
        """The next of ``moves`` if its condition holds (dropping those already done)."""
        moves = self.spec.moves
        state = self._state
        while state.next_move < len(moves):
            move = moves[state.next_move]
            if move.unless_done and satisfied(move.unless_done, state.done):
                state.next_move += 1
                continue
            if move_applies(move, turn, state.done, explicit=explicit):
                state.next_move += 1
                return move
            return None
        return None

    def _moves_left(self) -> bool:
        moves = self.spec.moves[self._state.next_move :]
        return any(
            not (m.unless_done and satisfied(m.unless_done, self._state.done)) for m in moves
        )

    def _answer(self, turn: Turn) -> str:
        parts = []
        for fact in turn.asked:
            answer = answer_for(self.spec, fact)
            if answer is not None and answer not in parts:
                parts.append(answer)
        return " ".join(parts) if parts else _reply("dont_know", self._state.turns)

    def respond(self, turn: Turn) -> CallerTurn:
        """The caller's move for assistant turn ``turn`` (its state advances)."""
        state = self._state
        state.done.update(turn.done)
        if turn.has("silence"):
            state.silences += 1
            if state.silences > _SILENCES:
                return self._bye()
            return CallerTurn(_reply("silence", state.turns))
        if turn.has("transfer") and not turn.has("confirm"):
            # It waits on the line once: an assistant may announce the hand-off, then make it.
            state.transfers += 1
            if state.transfers > 1:
                return self._bye()
            return CallerTurn(_reply("after_transfer", state.turns))
        if turn.has("verify_retry"):
            reaction = self._reaction(turn)
            if reaction is not None:
                return self._say(reaction)
        if turn.has("identity"):
            answer = self._answer(turn)
            extra = self._reaction(turn, explicit=True) or self._pending_move(turn, explicit=True)
            text = answer if extra is None else f"{answer} {move_text(self.spec, extra)}"
            return CallerTurn(text)
        change = self.spec.change
        if change is not None and not state.changed:
            kinds = change.turn or ("confirm", "done", "anything_else", "offer")
            if turn.has(*kinds) and _matches(change.heard, turn.text):
                state.changed = True
                return self._say(change)
        for index, correction in enumerate(self.spec.corrections):
            kinds = correction.turn or ("confirm", "offer", "done", "anything_else")
            if (
                turn.has(*kinds)
                and _matches(correction.heard, turn.text)
                and (correction.unless is None or not _matches(correction.unless, turn.text))
                and self._use(f"correction:{index}", correction)
            ):
                return self._say(correction)
        reaction = self._reaction(turn)
        if reaction is not None:
            return self._say(reaction)
        if self.spec.done_when and satisfied(self.spec.done_when, state.done):
            return self._bye()
        move = self._pending_move(turn)
        if move is not None:
            return self._say(move)
        if turn.has("confirm"):
            return CallerTurn(_reply("agree", state.turns))
        if not self._moves_left() and turn.has("refusal") and not turn.has("done"):
            return self._bye("refused_goodbye")
        # Asked for more with nothing that applies, or told it all with nothing left: done.
        if turn.has("anything_else") or (
            not self._moves_left() and turn.has("done", "info") and not turn.has("failed")
        ):
            return self._bye()
        state.fillers += 1
        if state.fillers > _FILLERS:
            return self._bye()
        return CallerTurn(_reply("filler", state.turns))

    async def speak(self, view: CallerView) -> CallerTurn:
        state = self._state
        state.turns += 1
        if state.turns > MAX_TURNS:
            return self._bye()
        heard = _last_turn(view)
        if heard is None:
            return CallerTurn(self.spec.opening or _reply("filler", 0))
        return self.respond(classify(heard))


def _last_turn(view: CallerView) -> str | None:
    """Everything the assistant said since the caller last spoke; ``None`` before the opening."""
    said: list[str] = []
    for line in reversed(view.lines):
        if line.speaker == "caller":
            break
        said.append(line.text)
    else:
        return None
    return " ".join(t for t in reversed(said) if t)


def scripted_caller_factory(task: Task, session: int) -> ScriptedCaller:
    """A :data:`sandbox.episode.CallerFactory` for scripted callers."""
    return ScriptedCaller(task.sessions[session].caller)
