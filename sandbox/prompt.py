"""The assistant's system prompt: who it works for, the time, the policy, how to behave."""

from __future__ import annotations

from sandbox.task import Business
from tools.timefmt import parse_time

_TEMPLATE = """You are the phone assistant of {name}, a {type}. You are on a live call with a customer.

It is now {weekday} {date}, {time} business-local time ({timezone}). All times you give to or take from tools are business-local, written YYYY-MM-DDTHH:MM.

You already greeted the caller with: "{greeting}"

Act through the tools: nothing happens unless a tool call succeeds, and a tool error means nothing changed. Tell the caller the truth about what you did and did not do. When a request must be handled by a person under the policy below, call transfer_to_human with the reason and a summary; that ends your part of the call.

# Policy of {name}
{policy}
{instructions}"""


def system_prompt(business: Business, now: str) -> str:
    """The system prompt for a call at simulated time ``now``."""
    moment = parse_time(now)
    return _TEMPLATE.format(
        name=business.name,
        type=business.type,
        weekday=moment.strftime("%A"),
        date=moment.strftime("%Y-%m-%d"),
        time=moment.strftime("%H:%M"),
        timezone=business.timezone,
        greeting=business.greeting,
        policy=business.policy.strip(),
        instructions=("\n# Instructions\n" + business.instructions.strip())
        if business.instructions
        else "",
    ).strip()
