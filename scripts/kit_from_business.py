"""Turn a hand-written business (business.yaml + tasks.yaml) into a kit whose public draw is it.

    python scripts/kit_from_business.py businesses/public/dental_clinic dental --today 2026-03-09

writes ``businesses/kits/<id>/`` (kit.yaml, pools/, business.yaml.j2, scenarios/) and then checks
that the kit's public draw loads to exactly the same business and tasks as the source files.

What becomes a template variable: each customer (``person(k)``: name, first name and title with
surname where the call is theirs, phone in the forms written, email, date of birth in ISO and
spoken forms, postcode), every record id of the seed tables (``id(prefix, k)``) and every date:
ISO dates and times, and the spoken dates of the text ("Tuesday 17 March", "March 17th", "the
17th", "3/17"), as offsets from the kit's anchor date. Rule parameters are not guessed: add them
to kit.yaml by hand and write the policy text and expectations against them.

The conversion is checked, not trusted: a source the substitutions cannot reproduce exactly is
refused with the first differing path. Names pools (``pools/names.yaml``) are data the held-out
draws take fresh customers from.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTH = "(" + "|".join(MONTHS) + ")"
WEEKDAY = "(" + "|".join(WEEKDAYS) + ")"
TEMPLATE = re.compile(r"\{\{.*?\}\}")
TITLES = ("Mr.", "Mrs.", "Ms.", "Miss", "Dr.")
# A spoken date without a year belongs to the call when it lies this close to the call's date.
NEAR_DAYS = 60
# ISO dates further than this from the anchor (claimed birth dates) are kept as written.
SHIFT_DAYS = 3 * 366


def plain_sub(
    text: str, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str | None]
) -> str:
    """``pattern.sub`` over the text outside ``{{ ... }}``; ``replace`` returning None keeps it."""
    out, last = [], 0
    for match in TEMPLATE.finditer(text):
        out.append(_sub_part(text[last : match.start()], pattern, replace))
        out.append(match.group(0))
        last = match.end()
    out.append(_sub_part(text[last:], pattern, replace))
    return "".join(out)


def _sub_part(
    part: str, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str | None]
) -> str:
    def one(match: re.Match[str]) -> str:
        value = replace(match)
        return match.group(0) if value is None else value

    return pattern.sub(one, part)


def literal(text: str, old: str, new: str, word: bool = True) -> str:
    """Replace ``old`` by ``new`` outside templates (whole words when ``word``)."""
    pattern = re.escape(old)
    if word:
        pattern = rf"(?<![\w@.+-]){pattern}(?![\w@])"
    return plain_sub(text, re.compile(pattern), lambda m: new)


class Converter:
    """The substitutions of one business, with the anchor date its offsets count from."""

    def __init__(self, business: dict[str, Any], anchor: date) -> None:
        self.anchor = anchor
        self.customers = {c["id"]: c for c in business["seed"].get("customers", [])}
        self.k_of = {cid: int(cid.split("-")[1]) - 1000 for cid in self.customers}
        self.prefixes = sorted(
            {r["id"].split("-")[0] for rows in business["seed"].values() for r in rows if "id" in r}
        )

    # ---------------------------------------------------------------------------- people
    def people(self, text: str, own: set[str]) -> str:
        """Each customer's data; first names and titles only in calls about them (``own``)."""
        for cid, c in sorted(self.customers.items(), key=lambda kv: -len(str(kv[1].get("name")))):
            k = self.k_of[cid]
            var = f"person({k})"
            if c.get("email"):
                text = literal(text, c["email"], f"{{{{ {var}.email }}}}")
            phone = c.get("phone")
            if phone and re.fullmatch(r"\+1 \d{3} \d{3} \d{4}", phone):
                a, b, d = phone[3:6], phone[7:10], phone[11:]
                forms = [
                    (phone, f"{{{{ {var}.phone }}}}"),
                    (
                        f"({a}) {b}-{d}",
                        f"({{{{ {var}.phone[3:6] }}}}) {{{{ {var}.phone[7:10] }}}}-{{{{ {var}.phone[11:] }}}}",
                    ),
                    (f"{a}-{b}-{d}", f"{{{{ {var}.phone[3:].replace(' ', '-') }}}}"),
                    (f"{a} {b} {d}", f"{{{{ {var}.phone[3:] }}}}"),
                    (f"{a}{b}{d}", f"{{{{ {var}.phone[3:].replace(' ', '') }}}}"),
                ]
                for old, new in forms:
                    text = literal(text, old, new)
            dob = c.get("dob")
            if dob:
                born = date.fromisoformat(str(dob))
                month, day_n, year = MONTHS[born.month - 1], born.day, born.year
                ordinal = _ordinal(day_n)
                forms = [
                    (
                        f"{month} {ordinal}, {year}",
                        f"{{{{ spoken_date({var}.dob) }}}}, {{{{ {var}.dob[:4] }}}}",
                    ),
                    (
                        f"{month} the {ordinal}, {year}",
                        f"{{{{ date_text({var}.dob, 'month_day').split(' ')[0] }}}} the {{{{ date_text({var}.dob, 'ordinal') }}}}, {{{{ {var}.dob[:4] }}}}",
                    ),
                    (
                        f"{month} {day_n}, {year}",
                        f"{{{{ date_text({var}.dob, 'month_day') }}}}, {{{{ {var}.dob[:4] }}}}",
                    ),
                    (
                        f"{day_n} {month} {year}",
                        f"{{{{ date_text({var}.dob, 'day_month') }}}} {{{{ {var}.dob[:4] }}}}",
                    ),
                    (
                        f"{born.month}/{day_n}/{year}",
                        f"{{{{ date_text({var}.dob, 'numeric') }}}}/{{{{ {var}.dob[:4] }}}}",
                    ),
                    (str(dob), f"{{{{ {var}.dob }}}}"),
                ]
                for old, new in forms:
                    text = literal(text, old, new)
            if c.get("name"):
                text = literal(text, c["name"], f"{{{{ {var}.name }}}}")
            if cid in own and c.get("name"):
                first, _, last = c["name"].partition(" ")
                for title in TITLES:
                    text = literal(text, f"{title} {last}", f"{title} {{{{ {var}.last }}}}")
                text = literal(text, first, f"{{{{ {var}.first }}}}")
            if cid in own and c.get("postcode"):
                text = literal(text, str(c["postcode"]), f"{{{{ {var}.postcode }}}}")
        return text

    def seed_postcodes(self, text: str) -> str:
        """A customer's postcode inside their own seed record (the address holds it too)."""
        lines = text.split("\n")
        for i, line in enumerate(lines):
            for cid, c in self.customers.items():
                if (
                    re.search(rf"\b{cid}\b", line)
                    and "customer_id" not in line
                    and c.get("postcode")
                ):
                    var = f"person({self.k_of[cid]})"
                    lines[i] = literal(line, str(c["postcode"]), f"{{{{ {var}.postcode }}}}")
        return "\n".join(lines)

    # ------------------------------------------------------------------------------- ids
    def ids(self, text: str) -> str:
        pattern = re.compile(r"\b(" + "|".join(self.prefixes) + r")-1(\d{3})\b")
        return plain_sub(
            text, pattern, lambda m: f"{{{{ id('{m.group(1)}', {int(m.group(2))}) }}}}"
        )

    # ----------------------------------------------------------------------------- dates
    def offset(self, d: date) -> int:
        return (d - self.anchor).days

    def iso_dates(self, text: str) -> str:
        pattern = re.compile(r"(?<![\d-])(\d{4})-(\d\d)-(\d\d)(?:T(\d\d:\d\d))?(?![\d:])")

        def one(m: re.Match[str]) -> str | None:
            try:
                d = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            except ValueError:
                return None
            n = self.offset(d)
            if abs(n) > SHIFT_DAYS:
                return None  # a birth date someone claims, not a date of the business's calendar
            if m.group(4):
                return f"{{{{ at({n}, '{m.group(4)}') }}}}"
            return f"{{{{ day({n}) }}}}"

        return plain_sub(text, pattern, one)

    def spoken_dates(self, text: str, near: date) -> str:
        """Spoken dates of the call, resolved to the date nearest ``near`` that fits them."""

        def resolve(month: int | None, day_n: int, weekday: str | None = None) -> date | None:
            best = None
            for delta in range(-NEAR_DAYS, NEAR_DAYS + 1):
                d = near + timedelta(days=delta)
                if d.day != day_n or (month and d.month != month):
                    continue
                if weekday and WEEKDAYS[d.weekday()] != weekday:
                    continue
                if best is None or abs(delta) < abs((best - near).days):
                    best = d
            return best

        def expr(d: date, style: str) -> str:
            n = self.offset(d)
            if style == "long":
                return f"{{{{ long_date(day({n})) }}}}"
            if style == "spoken":
                return f"{{{{ spoken_date(day({n})) }}}}"
            return f"{{{{ date_text(day({n}), '{style}') }}}}"

        # "Tuesday 17 March" (long_date), "Tuesday, 17 March"
        def wdm(m: re.Match[str]) -> str | None:
            d = resolve(MONTHS.index(m.group(4)) + 1, int(m.group(3)), m.group(1))
            if not d:
                return None
            if m.group(2) == " ":
                return expr(d, "long")
            return f"{{{{ weekday(day({self.offset(d)})) }}}}{m.group(2)}{expr(d, 'day_month')}"

        text = plain_sub(
            text, re.compile(WEEKDAY + r"(,? )(\d{1,2}) " + MONTH + r"(?!,? \d{4})"), wdm
        )

        # "March 17th", "March 17" (no year: the year is the call's)
        def md(m: re.Match[str]) -> str | None:
            d = resolve(MONTHS.index(m.group(1)) + 1, int(m.group(2)))
            if not d:
                return None
            return expr(d, "spoken" if m.group(3) else "month_day")

        text = plain_sub(
            text, re.compile(MONTH + r" ([1-9]\d?)(st|nd|rd|th)?\b(?![:.]\d|,? \d{4})"), md
        )

        # "17 March", "the 21st of March"
        def dm(m: re.Match[str]) -> str | None:
            d = resolve(MONTHS.index(m.group(4)) + 1, int(m.group(1)))
            if not d:
                return None
            if m.group(3):  # "21st of March"
                n = self.offset(d)
                return f"{{{{ date_text(day({n}), 'ordinal') }}}} of {{{{ date_text(day({n}), 'month_day').split(' ')[0] }}}}"
            if m.group(2):
                return None
            return expr(d, "day_month")

        text = plain_sub(
            text,
            re.compile(r"(?<![\d:.])([1-9]\d?)(st|nd|rd|th)?( of)? " + MONTH + r"\b(?!,? \d{4})"),
            dm,
        )

        # "the 17th"
        def ordinal(m: re.Match[str]) -> str | None:
            d = resolve(None, int(m.group(2)))
            return f"{m.group(1)}{expr(d, 'ordinal')}" if d else None

        text = plain_sub(text, re.compile(r"\b(the )(\d{1,2})(?:st|nd|rd|th)\b(?! of)"), ordinal)

        # "3/17" in notes
        def numeric(m: re.Match[str]) -> str | None:
            month, day_n = int(m.group(1)), int(m.group(2))
            if not 1 <= month <= 12:
                return None
            d = resolve(month, day_n)
            return expr(d, "numeric") if d else None

        return plain_sub(text, re.compile(r"(?<![\d/#$.,])(\d{1,2})/(\d{1,2})(?![\d/%])"), numeric)

    def convert(self, text: str, near: date, own: set[str]) -> str:
        text = self.people(text, own)
        text = self.ids(text)
        text = self.iso_dates(text)
        return self.spoken_dates(text, near)


def _ordinal(n: int) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def task_blocks(tasks_text: str) -> list[tuple[str, str]]:
    """(task id, the task's text without its ``id`` line, dedented) in file order."""
    blocks: list[tuple[str, list[str]]] = []
    for line in tasks_text.split("\n"):
        head = re.match(r"^  - id: (\S+)\s*$", line)
        if head:
            blocks.append((head.group(1), []))
        elif blocks and (line.startswith("    ") or not line.strip()):
            blocks[-1][1].append(line[4:])
        elif blocks and line.startswith("  #"):
            blocks.append(("", []))  # a section comment ends the task before it
    return [(tid, "\n".join(lines).rstrip("\n") + "\n") for tid, lines in blocks if tid]


def _near(block: str, anchor: date) -> date:
    found = re.search(r"^now: (\d{4}-\d\d-\d\d)", block, re.M)
    return date.fromisoformat(found.group(1)) if found else anchor


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path, help="folder holding business.yaml and tasks.yaml")
    parser.add_argument("prefix", help="task-id prefix of the public draw (the part before '/')")
    parser.add_argument("--today", required=True, help="anchor date of the public draw YYYY-MM-DD")
    parser.add_argument("--names", type=Path, required=True, help="pools/names.yaml to copy in")
    parser.add_argument("--out", type=Path, default=ROOT / "businesses" / "kits")
    args = parser.parse_args()

    anchor = date.fromisoformat(args.today)
    business_text = (args.source / "business.yaml").read_text("utf-8")
    tasks_text = (args.source / "tasks.yaml").read_text("utf-8")
    business = yaml.safe_load(business_text)
    converter = Converter(business, anchor)
    kit_dir = args.out / business["id"]
    (kit_dir / "scenarios").mkdir(parents=True, exist_ok=True)
    (kit_dir / "pools").mkdir(exist_ok=True)

    template = converter.seed_postcodes(business_text)
    template = converter.convert(template, anchor, own=set())
    template = re.sub(r"^id: \S+$", "id: {{ business.id }}", template, count=1, flags=re.M)
    (kit_dir / "business.yaml.j2").write_text(template, "utf-8")

    for task_id, block in task_blocks(tasks_text):
        own = {cid for cid in converter.customers if re.search(rf"\b{cid}\b", block)}
        slug = task_id.split("/", 1)[1]
        scenario = converter.convert(block, _near(block, anchor), own)
        (kit_dir / "scenarios" / f"{slug}.yaml.j2").write_text(scenario, "utf-8")

    people = [
        {key: value for key, value in c.items() if key not in ("id", "credit_cents", "tags")}
        for c in business["seed"]["customers"]
    ]
    kit = {
        "id": business["id"],
        "prefix": args.prefix,
        "type": business.get("type", business["id"].replace("_", " ")),
        "public": {"today": anchor.isoformat()},
        "params": {},
        "pools": {"people": people},
    }
    header = (
        f"# The {business['id']} kit: its public draw is the hand-written business it was made from\n"
        "# (scripts/kit_from_business.py). Held-out draws take fresh customers, ids and dates.\n"
    )
    (kit_dir / "kit.yaml").write_text(
        header + yaml.safe_dump(kit, sort_keys=False, allow_unicode=True, width=100), "utf-8"
    )
    (kit_dir / "pools" / "names.yaml").write_text(args.names.read_text("utf-8"), "utf-8")
    return check(kit_dir, business, tasks_text)


def check(kit_dir: Path, business: dict[str, Any], tasks_text: str) -> int:
    """The kit's public draw must load to the source business and tasks, field for field."""
    from businesses.generate.draw import Draw
    from businesses.generate.kit import load_kit
    from businesses.generate.render import KitRenderer

    kit = load_kit(kit_dir)
    rendered = KitRenderer(kit).render(Draw(kit=kit.id))
    got_business = yaml.safe_load(rendered.business_text)
    if got_business != business:
        return _first_difference("business.yaml", business, got_business)
    want = {t["id"]: t for t in yaml.safe_load(tasks_text)["tasks"]}
    got = {t["id"]: t for t in yaml.safe_load(rendered.tasks_text())["tasks"]}
    if set(want) != set(got):
        print(f"task ids differ: {sorted(set(want) ^ set(got))}")
        return 1
    for tid in want:
        if want[tid] != got[tid]:
            return _first_difference(tid, want[tid], got[tid])
    print(f"{kit.id}: public draw equals the source ({len(want)} tasks)")
    return 0


def _first_difference(where: str, want: Any, got: Any) -> int:
    if isinstance(want, dict) and isinstance(got, dict):
        for key in list(want) + [k for k in got if k not in want]:
            if want.get(key) != got.get(key):
                return _first_difference(f"{where}.{key}", want.get(key), got.get(key))
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            if a != b:
                return _first_difference(f"{where}[{i}]", a, b)
    print(f"{where}: source {want!r} != public draw {got!r}")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
