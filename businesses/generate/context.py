"""The names every kit template can use (KITS.md, "Names every template can use").

Data functions (``person``, ``draw``, ``id``) depend on the draw only, so the business and every
scenario of one draw agree on who CUS-1003 is. Slot functions (``pick``, ``phrase``, ``randint``,
``chance``) use the scenario RNG, seeded from (draw, slug, attempt), so a redraw changes them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from businesses.generate.draw import Draw
from businesses.generate.errors import KitError

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip


class TemplateProblem(Exception):
    """Raised by a template function on a bad argument; the renderer adds file and line."""


def _as_date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        raise TemplateProblem(f"{value!r} is not a date YYYY-MM-DD") from None


def _ordinal(n: int) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def weekday(value: Any) -> str:
    """``Tuesday``."""
    return WEEKDAYS[_as_date(value).weekday()]


def long_date(value: Any) -> str:
    """``Tuesday 17 March``."""
    d = _as_date(value)
    return f"{WEEKDAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]}"


def spoken_date(value: Any) -> str:
    """``March 17th``."""
    d = _as_date(value)
    return f"{MONTHS[d.month - 1]} {_ordinal(d.day)}"


def money(cents: Any) -> str:
    """``$1,100`` for whole dollars, ``$25.50`` otherwise; ``-$5`` below zero."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TemplateProblem(f"money() takes integer cents, not {cents!r}")
    sign, cents = ("-", -cents) if cents < 0 else ("", cents)
    dollars, rest = divmod(cents, 100)
    return f"{sign}${dollars:,}" + (f".{rest:02d}" if rest else "")


class Names:
    """The template namespace of one draw: data functions plus a scenario RNG for the slots."""

    def __init__(self, draw: Draw, today: date, params: dict[str, Any], pools: dict[str, Any]):
        self.draw = draw
        self.today = today
        self.params = params
        self.pools = pools
        self._people: list[dict[str, Any]] = []
        self._shuffles: dict[str, list[Any]] = {}
        self._bases: dict[str, int] = {}
        self._order: tuple[list[Any], list[Any], list[int]] | None = None

    # dates -------------------------------------------------------------------------------
    def day(self, n: int) -> str:
        """The date ``n`` days from today, ``YYYY-MM-DD``."""
        return (self.today + timedelta(days=_int(n, "day"))).isoformat()

    def at(self, n: int, hhmm: str) -> str:
        """``YYYY-MM-DDTHH:MM``, ``n`` days from today."""
        try:
            clock = datetime.strptime(str(hhmm), "%H:%M")
        except ValueError:
            raise TemplateProblem(f"at(): {hhmm!r} is not a time HH:MM") from None
        return f"{self.day(n)}T{clock:%H:%M}"

    # data --------------------------------------------------------------------------------
    def pool(self, name: str) -> list[Any]:
        if name not in self.pools:
            known = ", ".join(sorted(self.pools)) or "none"
            raise TemplateProblem(f"no pool {name!r}; the kit's pools: {known}")
        return self.pools[name]

    def draw_item(self, name: str, k: int) -> Any:
        """The k-th item of the pool: in order (public), or of a per-draw shuffle (distinct per k)."""
        items = self.pool(name)
        k = _index(k, len(items), f"draw({name!r}, {k})", f"pool {name!r}")
        if self.draw.public:
            return items[k - 1]
        if name not in self._shuffles:
            shuffled = list(items)
            self.draw.rng("pool", name).shuffle(shuffled)
            self._shuffles[name] = shuffled
        return self._shuffles[name][k - 1]

    def record_id(self, prefix: str, k: int) -> str:
        """``<PREFIX>-{1000+k}`` (public) or ``<PREFIX>-{base+k}``, base drawn per (draw, prefix)."""
        k = _int(k, "id")
        if k < 1 or k > 899:
            raise TemplateProblem(f"id({prefix!r}, {k}): k must be 1..899")
        if self.draw.public:
            return f"{prefix}-{1000 + k}"
        if prefix not in self._bases:
            self._bases[prefix] = self.draw.rng("id", prefix).randrange(1, 90) * 100
        return f"{prefix}-{1000 + self._bases[prefix] + k}"

    def person(self, k: int) -> dict[str, Any]:
        """The k-th person: ``pools.people[k-1]`` (public) or a generated person, distinct per k."""
        k = _int(k, "person")
        if self.draw.public:
            people = self.pool("people")
            k = _index(k, len(people), f"person({k})", "pool 'people'")
            return _with_names(people[k - 1])
        while len(self._people) < k:
            self._people.append(self._new_person(len(self._people) + 1))
        return self._people[k - 1]

    def _new_person(self, k: int) -> dict[str, Any]:
        firsts, lasts = self.pool("first_names"), self.pool("last_names")
        if k > len(firsts) or k > len(lasts):
            raise TemplateProblem(
                f"person({k}): the pools first_names ({len(firsts)}) and last_names "
                f"({len(lasts)}) must each hold at least {k} names"
            )
        if k > 100:
            raise TemplateProblem(f"person({k}): at most 100 people per draw (distinct phones)")
        if not self._order:
            generator = self.draw.rng("people")
            order_first, order_last, endings = list(firsts), list(lasts), list(range(100))
            generator.shuffle(order_first)
            generator.shuffle(order_last)
            generator.shuffle(endings)
            self._order = (order_first, order_last, endings)
        order_first, order_last, endings = self._order
        person_rng = self.draw.rng("person", k)
        first, last = order_first[k - 1], order_last[k - 1]
        area = person_rng.randint(201, 989)
        born = date(1950, 1, 1) + timedelta(days=person_rng.randrange(365 * 55))
        record: dict[str, Any] = {}
        people = self.pools.get("people") or []
        if people:
            # Fields no rule generates (an address, a loyalty tier) come from a shuffled record.
            record.update(people[person_rng.randrange(len(people))])
        record.update(
            name=f"{first} {last}",
            first=first,
            last=last,
            phone=f"+1 {area} 555 01{endings[k - 1]:02d}",
            email=f"{first.lower()}.{last.lower()}@example.com".replace(" ", ""),
            dob=born.isoformat(),
        )
        if "postcodes" in self.pools:
            record["postcode"] = str(person_rng.choice(self.pools["postcodes"]))
        return record

    def namespace(self, slot_rng: random.Random) -> dict[str, Callable[..., Any] | Any]:
        """The names a template sees, with ``slot_rng`` behind pick/phrase/randint/chance."""
        public = self.draw.public

        def pick(options: Any) -> Any:
            options = list(options)
            if not options:
                raise TemplateProblem("pick() of an empty list")
            return options[0] if public else slot_rng.choice(options)

        def phrase(key: str) -> Any:
            phrasings = self.pools.get("phrasings") or {}
            if key not in phrasings:
                known = ", ".join(sorted(phrasings)) or "none"
                raise TemplateProblem(f"no phrasing {key!r} in pools.phrasings; known: {known}")
            return pick(phrasings[key])

        def randint(low: int, high: int) -> int:
            if _int(low, "randint") > _int(high, "randint"):
                raise TemplateProblem(f"randint({low}, {high}): low is above high")
            return low if public else slot_rng.randint(low, high)

        def chance(x: float) -> bool:
            return False if public else slot_rng.random() < float(x)

        return {
            "p": self.params,
            "today": self.today.isoformat(),
            "day": self.day,
            "at": self.at,
            "weekday": weekday,
            "long_date": long_date,
            "spoken_date": spoken_date,
            "money": money,
            "person": self.person,
            "draw": self.draw_item,
            "id": self.record_id,
            "pick": pick,
            "phrase": phrase,
            "randint": randint,
            "chance": chance,
            "public_draw": public,
        }


def _with_names(record: Any) -> dict[str, Any]:
    if not isinstance(record, dict) or "name" not in record:
        raise TemplateProblem(f"pools.people: each person needs at least a name, not {record!r}")
    out = dict(record)
    first, _, last = str(record["name"]).partition(" ")
    out.setdefault("first", first)
    out.setdefault("last", last)
    return out


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TemplateProblem(f"{where}() takes a whole number, not {value!r}")
    return value


def _index(k: Any, size: int, call: str, what: str) -> int:
    k = _int(k, call.split("(")[0])
    if not 1 <= k <= size:
        raise TemplateProblem(f"{call}: {what} has {size} items (k counts from 1)")
    return k


__all__ = ["KitError", "Names", "TemplateProblem", "long_date", "money", "spoken_date", "weekday"]
