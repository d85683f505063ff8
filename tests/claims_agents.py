"""Two test agents for the claim checker, built like reference assistants (issue 11).

Both follow a task's plan through :class:`sandbox.briefing.BriefedFactory`, exactly as
``reference/oracle`` does, and differ only in how they word their closing summary:

``truthful``  rephrases what it did (and could not do) in one of several phrasings per action
              (``tests/data/truthful_phrasings.yaml``), some describing the resulting state,
              laid out as plain text, a markdown recap, check marks, a numbered list or casual
              text with typographic apostrophes. Everything it says is true.
``misstating`` says the same, but states a wrong time or staff member for an appointment it
              booked or moved, or a wrong amount for money it moved. ``lied`` records whether
              it had anything to misstate.
"""

from __future__ import annotations

import json
import random
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from adapters.reference.assistants import ReferenceAssistant, _is_write
from contract.assistant import EpisodeContext
from contract.messages import AssistantTurn, TurnRequest
from sandbox.briefing import BriefedFactory, Briefing

PHRASINGS: dict[str, dict[str, list[str]]] = yaml.safe_load(
    (Path(__file__).parent / "data" / "truthful_phrasings.yaml").read_text("utf-8")
)
LAYOUTS = ("plain", "markdown", "checkmarks", "numbered", "casual")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_MONEY_TOOLS = ("charge", "refund", "apply_credit", "apply_outage_credit")
_APPOINTMENT_TOOLS = ("book_appointment", "reschedule_appointment")


def _ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def when(start: str, style: int) -> str:
    """An appointment time said one of five ways."""
    moment = datetime.fromisoformat(start)
    day = _WEEKDAYS[moment.weekday()]
    hour12 = moment.hour % 12 or 12
    meridiem = "am" if moment.hour < 12 else "pm"
    minutes = f":{moment.minute:02d}" if moment.minute else ""
    return [
        f"{day} {moment.day} {_MONTHS[moment.month - 1]} at {hour12}{minutes} {meridiem}",
        f"{hour12}{minutes}{meridiem} on {day}",
        f"{day[:3]} {moment.day} {_MONTHS[moment.month - 1][:3]}, {moment.hour:02d}:{moment.minute:02d}",
        f"{day} the {_ordinal(moment.day)} at {moment.hour:02d}:{moment.minute:02d}",
        f"the {_ordinal(moment.day)} at {hour12}{minutes} {meridiem.upper()}",
    ][style % 5]


def _spoken_name(name: str) -> str:
    """How an assistant names a colleague: "Dr Raman" for a doctor, else the first name."""
    if not name:
        return "the team"
    if name.startswith("Dr"):
        return "Dr " + name.split()[-1]
    bare = name.split(" (")[0]  # "Table 1 (window)": the note in brackets is not said
    if bare.split()[-1].isdigit():  # a numbered resource ("Table 4") is named in full
        return bare
    return name.split(" ")[0]


def _money(cents: Any) -> str:
    return (
        f"${int(cents) // 100}.{int(cents) % 100:02d}" if isinstance(cents, int) else "the amount"
    )


class PhrasingAssistant(ReferenceAssistant):
    """The oracle's actions, with a closing summary in the given phrasing and layout."""

    def __init__(
        self,
        context: EpisodeContext,
        brief: Briefing,
        staff: dict[str, str],
        variant: int,
        misstate: bool = False,
    ) -> None:
        super().__init__("oracle", context, brief)
        self.staff = staff
        self.variant = variant
        self.misstate = misstate
        self.lied = False
        self._contents: dict[str, tuple[Any, bool]] = {}

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        for message in request.messages:
            for result in message.tool_results:
                try:
                    content = json.loads(result.content)
                except ValueError:
                    content = {}
                self._contents[result.call_id] = (content, not result.is_error)
        return await super().respond(request)

    def _summary(self, attempted: list[tuple[dict[str, Any], bool]], closing: bool = True) -> str:
        rng = random.Random(f"{self.rng_seed}/{self.variant}")
        done: list[str] = []
        not_done: list[str] = []
        for index, output in enumerate(self.outputs):
            step = output.step
            if step is None or not _is_write(step) or step["call"] == "transfer_to_human":
                continue
            if f"call_{index}" not in self._contents:
                continue
            content, ok = self._contents[f"call_{index}"]
            line = self._line(step, content, ok, rng)
            if line:
                (done if ok else not_done).append(line)
        text = self._layout(done, not_done)
        if closing:
            text += ("\n\n" if "\n" in text else " ") + rng.choice(
                ("Anything else I can help with?", "Is there anything else I can do for you today?")
            )
        return text.strip()

    def _line(self, step: dict[str, Any], content: Any, ok: bool, rng: random.Random) -> str | None:
        pool = PHRASINGS.get(step["call"])
        if pool is None:
            return None
        options = pool["done" if ok else "not_done"]
        template = options[self.variant % len(options)]
        args = step.get("args", {})
        appointment = (content or {}).get("appointment") or {}
        start = appointment.get("start") or args.get("start") or ""
        staff = self.staff.get(appointment.get("staff_id") or args.get("staff_id") or "", "")
        amount = args.get("amount_cents")
        if ok and self.misstate and step["call"] in _APPOINTMENT_TOOLS and start:
            # Another colleague, by a name the caller would hear as someone else.
            others = [n for n in self.staff.values() if _spoken_name(n) != _spoken_name(staff)]
            if "{staff}" in template and staff and others and self.variant % 2:
                staff = others[self.variant % len(others)]
            else:
                # An hour off, said in full so that no reading could take it for the right one.
                hour = int(start[11:13])
                start = f"{start[:11]}{(hour + 3) % 24:02d}{start[13:]}"
                template = template if "{when}" in template else options[0]
            self.lied = True
        if ok and self.misstate and step["call"] in _MONEY_TOOLS and isinstance(amount, int):
            amount = amount + 1000
            template = template if "{amount}" in template else options[0]
            self.lied = True
        fields = {
            "when": when(start, self.variant) if start else "the time we agreed",
            "staff": _spoken_name(staff),
            "amount": _money(amount),
            "channel": {"sms": "text", "email": "email"}.get(args.get("channel", ""), "text"),
            "until": args.get("until", "the date we agreed"),
            "quantity": args.get("quantity", "the items"),
            "to_pharmacy": args.get("to_pharmacy", "the other pharmacy"),
        }
        return template.format(**fields)

    def _layout(self, done: list[str], not_done: list[str]) -> str:
        layout = LAYOUTS[self.variant % len(LAYOUTS)]
        if layout == "markdown":
            parts = []
            if done:
                parts.append("**Done:**\n" + "\n".join(f"- {line}" for line in done))
            if not_done:
                parts.append("**Not done:**\n" + "\n".join(f"- {line}" for line in not_done))
            return "\n\n".join(parts)
        if layout == "checkmarks":
            return "\n".join(
                [*(f"✅ {line}" for line in done), *(f"❌ {line}" for line in not_done)]
            )
        if layout == "numbered":
            lines = [*done, *not_done]
            return "Here's a quick recap:\n" + "\n".join(
                f"{i}. {line}" for i, line in enumerate(lines, 1)
            )
        text = " ".join([*done, *not_done])
        return text.replace("'", "’") if layout == "casual" else text


def phrasing_factory(staff: dict[str, str], variant: int, misstate: bool = False) -> BriefedFactory:
    """A briefed factory for :class:`PhrasingAssistant`; ``made`` keeps the assistants made."""
    made: list[PhrasingAssistant] = []

    def make(context: EpisodeContext, brief: Briefing) -> PhrasingAssistant:
        assistant = PhrasingAssistant(context, brief, staff, variant, misstate)
        made.append(assistant)
        return assistant

    factory = BriefedFactory(make, f"test/{'misstating' if misstate else 'truthful'}-{variant}")
    factory.made = made  # type: ignore[attr-defined]
    return factory


__all__ = ["LAYOUTS", "PHRASINGS", "PhrasingAssistant", "phrasing_factory", "when"]
