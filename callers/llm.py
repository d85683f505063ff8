"""The LLM caller: any :class:`adapters.Assistant` plays the customer from a persona prompt.

Roles are reversed: the assistant under test's words are the caller model's *user* messages and
the caller's own earlier lines are its *assistant* messages. The caller model is given no tools
and never sees the assistant's tool calls, only what was said aloud (:class:`CallerView`).

Misbehaving caller models are handled here, so a bad simulator is not scored as a bad assistant:

    ends the call        :data:`END_MARKER` (or a close variant) anywhere in the reply: stripped
                         from the text, and the call hangs up after this line
    never ends           the episode's turn limit ends the call (``sandbox.episode.Limits``)
    empty reply          asked again up to ``empty_retries`` times, then :class:`ProviderError`,
                         which the episode records as an infrastructure error
    breaks character     flagged in ``CallerTurn.flags`` as ``broke_character: <what>``; a line
                         written for the assistant ("Assistant: ...") is cut off
    calls a tool         ignored and flagged ``tool_call``

:func:`llm_caller_factory` makes a :data:`~sandbox.episode.CallerFactory` from a model string
(through :func:`adapters.registry.make_factory`) or from an
:data:`~contract.assistant.AssistantFactory`; its :attr:`LLMCallerFactory.identity` is what the
runner pins in a run's metadata (model, temperature, seed, prompt version).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from callers.persona import END_MARKER, persona_prompt
from callers.templating import prompt_version
from contract.assistant import Assistant, AssistantFactory, EpisodeContext
from contract.errors import AdapterError, ProviderError
from contract.messages import AssistantTurn, Message, TurnRequest, Usage
from sandbox.briefing import BriefedFactory
from sandbox.episode import CallerTurn, CallerView
from sandbox.task import Task

EMPTY_RETRIES = 2

# The marker, tolerating the spacing and case models produce ("### END ###", "###end###").
_END = re.compile(r"#{2,}\s*END\s*#{2,}", re.IGNORECASE)
# A speaker label for the other side at the start of a line: the model wrote the assistant's turn.
_OTHER_SIDE = re.compile(
    r"^\s*\**\s*(assistant|agent|receptionist|representative|operator|ai|business|staff)"
    r"\s*\**\s*:",
    re.IGNORECASE | re.MULTILINE,
)
# Phrases only the business's side (or a model out of role) would say.
_OUT_OF_ROLE = {
    "greeted as the business": re.compile(
        r"\bthanks? (?:you )?for calling\b|\bhow (?:can|may) I (?:help|assist) you\b", re.I
    ),
    "spoke as an AI": re.compile(
        r"\bas an ai\b|\bI(?:'m| am) (?:an ai|a language model|an assistant)\b|"
        r"\blanguage model\b|\bI can(?:not|'t) (?:role-?play|pretend)\b",
        re.I,
    ),
    "acted on the account": re.compile(
        r"\bI(?:'ve| have) (?:now )?(?:booked|rescheduled|cancelled|canceled|refunded|"
        r"updated|processed) (?:your|the customer's)\b|\blet me (?:pull up|look up|check) "
        r"your (?:account|booking|appointment|order|file)\b",
        re.I,
    ),
}


def _own_label(name: str) -> re.Pattern[str]:
    first = re.escape(name.split()[0]) if name.split() else "caller"
    return re.compile(
        rf"^\s*\**\s*(?:caller|customer|me|user|{re.escape(name)}|{first})\s*\**\s*:\s*",
        re.IGNORECASE,
    )


@dataclass(frozen=True)
class CallerLine:
    """A caller model's reply after the harness read it: text to speak, whether it hangs up."""

    text: str
    hang_up: bool
    flags: tuple[str, ...] = ()


def read_reply(raw: str, caller_name: str = "") -> CallerLine:
    """Strip the end marker and speaker labels from a raw reply; flag breaking character."""
    flags: list[str] = []
    hang_up = bool(_END.search(raw))
    text = _END.sub(" ", raw)
    other = _OTHER_SIDE.search(text)
    if other is not None:
        flags.append(f"broke_character: wrote the assistant's line ({other.group(0).strip()!r})")
        text = text[: other.start()]
    text = _own_label(caller_name or "caller").sub("", text.strip())
    text = re.sub(r"[ \t]+", " ", text).strip()
    for what, pattern in _OUT_OF_ROLE.items():
        found = pattern.search(text)
        if found is not None:
            flags.append(f"broke_character: {what} ({found.group(0)!r})")
    return CallerLine(text, hang_up, tuple(flags))


def caller_messages(view: CallerView) -> tuple[Message, ...]:
    """The spoken lines, roles reversed: the assistant's words are the caller model's input.

    Lines with no words (a tool-only assistant turn) are skipped: the caller hears nothing of
    them. Consecutive lines of one side are joined, so the roles alternate as providers require,
    and the conversation always ends on the assistant's side (the caller model's turn to speak).
    """
    turns: list[tuple[str, str]] = []
    for line in view.lines:
        if not line.text.strip():
            continue
        role = "user" if line.speaker == "assistant" else "assistant"
        if turns and turns[-1][0] == role:
            turns[-1] = (role, f"{turns[-1][1]}\n{line.text}")
        else:
            turns.append((role, line.text))
    if not turns or turns[0][0] != "user":
        turns.insert(0, ("user", "(The phone is picked up. Silence.)"))
    if turns[-1][0] != "user":
        turns.append(("user", "(The assistant says nothing.)"))
    return tuple(Message(role, text) for role, text in turns)  # type: ignore[arg-type]


@dataclass(frozen=True)
class CallerIdentity:
    """Which model played the caller and how: pinned in run metadata so results with different
    caller models, settings or prompts are never compared silently."""

    model: str
    temperature: float | None
    seed: int | None
    options: Mapping[str, Any] = field(default_factory=dict)
    prompt_version: str = field(default_factory=prompt_version)

    @property
    def label(self) -> str:
        """``llm:<model>`` plus what would change its behaviour, e.g. for a report column."""
        parts = [f"llm:{self.model}"]
        if self.temperature is not None:
            parts.append(f"temperature={self.temperature}")
        if self.seed is not None:
            parts.append(f"seed={self.seed}")
        parts.append(f"prompt={self.prompt_version}")
        return " ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "llm",
            "model": self.model,
            "temperature": self.temperature,
            "seed": self.seed,
            "options": dict(self.options),
            "prompt_version": self.prompt_version,
        }


class LLMCaller:
    """Plays one session's caller through a model. Satisfies :class:`sandbox.episode.Caller`."""

    def __init__(
        self,
        task: Task,
        session: int,
        model: Assistant,
        *,
        label: str = "caller model",
        empty_retries: int = EMPTY_RETRIES,
    ) -> None:
        self.task = task
        self.session = session
        self.spec = task.sessions[session].caller
        self.model = model
        self.label = label
        self.empty_retries = empty_retries
        self.system = persona_prompt(task, session)

    def request(self, view: CallerView) -> TurnRequest:
        """What the caller model is sent for its next line: persona, no tools, reversed roles."""
        return TurnRequest(self.system, (), caller_messages(view))

    async def speak(self, view: CallerView) -> CallerTurn:
        request = self.request(view)
        usage = Usage.zero()
        flags: list[str] = []
        for _attempt in range(self.empty_retries + 1):
            turn: AssistantTurn = await self.model.respond(request)
            usage = usage + turn.usage
            if turn.tool_calls:
                names = ", ".join(c.name for c in turn.tool_calls)
                flags.append(f"tool_call: the caller model called {names}; ignored")
            line = read_reply(turn.text, self.spec.name)
            if line.text or line.hang_up:
                return CallerTurn(line.text, line.hang_up, usage, (*flags, *line.flags))
        raise ProviderError(
            f"{self.label} returned an empty reply {self.empty_retries + 1} times in a row "
            f"(task {self.task.id}, session {self.session}); expected a line of speech or "
            f"{END_MARKER}",
            attempts=self.empty_retries + 1,
        )


class LLMCallerFactory:
    """A :data:`~sandbox.episode.CallerFactory` of :class:`LLMCaller` s, with its identity."""

    def __init__(
        self,
        make_model: AssistantFactory,
        identity: CallerIdentity,
        *,
        empty_retries: int = EMPTY_RETRIES,
    ) -> None:
        self.make_model = make_model
        self.identity = identity
        self.empty_retries = empty_retries

    def __call__(self, task: Task, session: int) -> LLMCaller:
        # The caller model gets no oracle plan: ``reference`` stays empty on purpose.
        context = EpisodeContext(task.business.id)
        return LLMCaller(
            task,
            session,
            self.make_model(context),
            label=f"caller model {self.identity.model}",
            empty_retries=self.empty_retries,
        )


def llm_caller_factory(
    model: str | AssistantFactory,
    options: Mapping[str, Any] | None = None,
    base_url: str | None = None,
    *,
    name: str | None = None,
    empty_retries: int = EMPTY_RETRIES,
) -> LLMCallerFactory:
    """Callers played by ``model``: a model string (``anthropic/claude-haiku-4-5``, as in
    ``--caller llm:<model>``) or an :data:`AssistantFactory` (then ``name`` labels it).

    ``options`` go to the model like ``-M`` options. No temperature or seed is added: some
    providers refuse sampling parameters, so they are sent only when given, and recorded in the
    identity either way (``None``: the provider's default). Raises :class:`adapters.errors.AdapterError` for a bad model
    string, option or missing key, before any call.
    """
    chosen = dict(options or {})
    if isinstance(model, str):
        from adapters.registry import make_factory

        made = make_factory(model, chosen, base_url)
        if isinstance(made, BriefedFactory):
            raise AdapterError(f"{model} cannot play the caller: it answers from a task's plan")
        make_model: AssistantFactory = made
        label = model
    else:
        make_model = model
        label = name or str(getattr(model, "__qualname__", type(model).__name__))
    identity = CallerIdentity(
        model=label,
        temperature=chosen.get("temperature"),
        seed=chosen.get("seed"),
        options=chosen,
    )
    return LLMCallerFactory(make_model, identity, empty_retries=empty_retries)
