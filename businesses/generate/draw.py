"""A draw of a kit: (secret, period, kit, variant), its seeded RNGs, parameters and anchor date.

Every RNG is a :class:`random.Random` seeded from sha256 of the parts it depends on (never
``hash()``, never the clock), so the same (secret, period) gives the same bytes on any machine.
The public draw has no secret: parameters take their ``public`` value, choices their first option.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from businesses.generate.errors import KitError

PERIOD = re.compile(r"^(\d{4})(?:Q([1-4])|-(0[1-9]|1[0-2]))$")


def rng(*parts: object) -> random.Random:
    """A generator seeded from sha256 of ``parts`` (joined with a separator no part contains)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def period_days(period: str) -> tuple[date, date]:
    """First and last day of ``2027Q1`` (a quarter) or ``2027-03`` (a month)."""
    match = PERIOD.match(period)
    if not match:
        raise KitError(
            [f"--period {period!r}: expected a quarter like 2027Q1 or a month like 2027-03"]
        )
    year = int(match.group(1))
    if match.group(2):
        first_month = 3 * (int(match.group(2)) - 1) + 1
        months = 3
    else:
        first_month, months = int(match.group(3)), 1
    start = date(year, first_month, 1)
    end_month = first_month + months
    end = date(year + (end_month - 1) // 12, (end_month - 1) % 12 + 1, 1) - timedelta(days=1)
    return start, end


@dataclass(frozen=True)
class Draw:
    """One instance of a kit. ``secret is None`` is the public draw."""

    kit: str
    secret: str | None = None
    period: str = "public"
    variant: int = 0

    @property
    def public(self) -> bool:
        return self.secret is None

    def parts(self) -> tuple[object, ...]:
        return ("opsbench-kit-draw", self.secret or "", self.period, self.kit, self.variant)

    def rng(self, *more: object) -> random.Random:
        """An RNG for one purpose within this draw (``draw.rng("person")``)."""
        return rng(*self.parts(), *more)

    def rule_rng(self) -> random.Random:
        """Rule parameters depend on (secret, period, kit) only: one rule set per kit a period."""
        return rng("opsbench-kit-rules", self.secret or "", self.period, self.kit)


def draw_params(draw: Draw, params: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each parameter's value in ``draw`` (in the order the kit declares them)."""
    if draw.public:
        return {name: spec["public"] for name, spec in params.items()}
    generator = draw.rule_rng()
    values: dict[str, Any] = {}
    for name, spec in params.items():
        values[name] = _one_param(generator, spec)
    return values


def _one_param(generator: random.Random, spec: dict[str, Any]) -> Any:
    if "range" in spec:
        low, high = spec["range"]
        step = spec.get("step", 1)
        count = int((high - low) // step) + 1
        value = low + step * generator.randrange(count)
        return round(value, 6) if isinstance(value, float) else value
    if "choices" in spec:
        return generator.choice(spec["choices"])
    if "subsets_of" in spec:
        items = list(spec["subsets_of"])
        size = generator.randint(spec.get("min", 0), spec.get("max", len(items)))
        chosen = set(generator.sample(range(len(items)), size))
        return [item for index, item in enumerate(items) if index in chosen]
    return spec["public"]


def anchor_date(draw: Draw, public_today: date) -> date:
    """The draw's ``today``: the public anchor, or a day in the period on the same weekday."""
    if draw.public:
        return public_today
    start, end = period_days(draw.period)
    first = start + timedelta(days=(public_today.weekday() - start.weekday()) % 7)
    candidates = []
    day = first
    while day <= end:
        candidates.append(day)
        day += timedelta(days=7)
    return draw.rng("today").choice(candidates)
