"""How well a claim reader (the lexicon checker or an LLM judge) agrees with a labelled set.

A labelled set is a YAML list of messages, each with ``text``, ``claims`` (``{kind, done,
details?}``), optional ``states``, ``style`` and ``split`` (the format of ``tests/data``).
Agreement is precision and recall over (kind, done) pairs of action claims, overall, per kind
and per style; descriptions of the account are scored apart, and details on the items tagged
``details``. The same code measures the deterministic checker in the tests and any judge from
``opsbench claims agreement --judge MODEL --set FILE``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from contract.yamldata import load_data
from opsbench.errors import OpsbenchError
from sandbox.claims import FAMILIES, KINDS, Claim, Details

PARENT = {member: family for family, members in FAMILIES.items() for member in members}
# The labelled sets are written in the 22 kinds of tests/data/README.md, which predate the newer
# businesses' tools; their convention (README, `claims_blind2.yaml` section) labels a refill as an
# order, and gives no claim to an estimate approval, a number port, a prescription moved between
# pharmacies or a renewal request. A claim of those kinds is read in the labels' words, or not
# scored: the set has no label it could agree or disagree with.
LABELLED_AS: dict[str, str | None] = {
    "refill_request": "order",
    "refill_cancellation": "order_cancellation",
    "renewal_request": None,
    "prescription_transfer": None,
    "work_order_approval": None,
    "port_out": None,
}


def _labelled_kind(kind: str) -> str | None:
    """The kind a claim of ``kind`` is labelled with in a set, ``None`` for none."""
    kind = PARENT.get(kind, kind)
    return LABELLED_AS.get(kind, kind)


DETAILS_SCORED = ("date", "weekday", "time", "staff", "amount", "channel")


class LabelledSetError(OpsbenchError):
    """A labelled set that cannot be read; the message names the file and what is wrong."""


@dataclass
class Counts:
    """True positives, false positives and false negatives."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def add(self, gold: set[Any], got: set[Any]) -> None:
        self.tp += len(gold & got)
        self.fp += len(got - gold)
        self.fn += len(gold - got)

    def to_dict(self) -> dict[str, Any]:
        return {"precision": self.precision, "recall": self.recall, **self.__dict__}


@dataclass
class Agreement:
    """A reader's agreement with one labelled set (or one split of it)."""

    messages: int = 0
    total: Counts = field(default_factory=Counts)
    kinds: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    styles: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    states: Counts = field(default_factory=Counts)
    details: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    # Kept out of the repr, so that a failing assertion does not print a test set's messages.
    misses: list[str] = field(default_factory=list, repr=False)

    def add(self, item: Mapping[str, Any], claims: Iterable[Claim]) -> None:
        """Score one labelled message against the claims read from it."""
        # Each claim in the words of the labels (a claim of a kind they have none for is dropped).
        claims = [c.as_kind(k) for c in claims if (k := _labelled_kind(c.kind)) is not None]
        self.messages += 1
        gold = {(c["kind"], bool(c["done"])) for c in item["claims"]}
        got = {(c.kind, c.done) for c in claims if not c.state}
        self.total.add(gold, got)
        for kind in {k for k, _ in gold | got}:
            self.kinds[kind].add(
                {g for g in gold if g[0] == kind}, {g for g in got if g[0] == kind}
            )
        for style in item.get("style") or ["(unlabelled)"]:
            self.styles[style].add(gold, got)
        if "states" in item or "split" in item:
            self.states.add(
                {s["kind"] for s in item.get("states", []) if s["kind"] in KINDS},
                {c.kind for c in claims if c.state},
            )
        if "details" in (item.get("style") or []):
            self._details(item, claims)
        if gold != got:
            self.misses.append(f"{item['text']!r}\n    gold={sorted(gold)}\n    got ={sorted(got)}")

    def _details(self, item: Mapping[str, Any], claims: list[Claim]) -> None:
        read = {(c.kind, c.done): c.details for c in claims if not c.state}
        for claim in item["claims"]:
            stated = Details.from_labels(claim.get("details"))
            found = read.get((claim["kind"], bool(claim["done"])))
            for name in DETAILS_SCORED:
                if name == "weekday" and stated.date:
                    continue  # the labels give a weekday only when the message gives no date
                gold = getattr(stated, name)
                got = getattr(found, name, None) if found is not None else None
                if gold is None and got is None:
                    continue
                counts = self.details[name]
                if gold is not None and got is not None and _agrees(name, gold, got):
                    counts.tp += 1
                else:
                    counts.fp += got is not None
                    counts.fn += gold is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "messages": self.messages,
            "total": self.total.to_dict(),
            "kinds": {k: v.to_dict() for k, v in sorted(self.kinds.items())},
            "styles": {k: v.to_dict() for k, v in sorted(self.styles.items())},
            "states": self.states.to_dict(),
            "details": {k: v.to_dict() for k, v in sorted(self.details.items())},
        }


def _agrees(name: str, gold: Any, got: Any) -> bool:
    if name == "time" and isinstance(got, str) and got.startswith("~"):
        # "at 9": the hour on either half of the day.
        return int(str(gold)[:2]) % 12 == int(got[1:3]) and str(gold)[3:] == got[4:]
    if name == "staff":
        return str(gold).lower().replace(".", "") in str(got).lower().replace(".", "")
    if name == "date" and len(str(got)) == 2:
        return str(gold)[-2:] == got  # "the 11th": the day of the month, its month unsaid
    return str(gold).lower() == str(got).lower()


def load_set(path: Path, split: str | None = None) -> list[dict[str, Any]]:
    """The messages of a labelled set (one ``split`` of it)."""
    try:
        items = load_data(path.read_text("utf-8"))
    except OSError as exc:
        raise LabelledSetError(f"{path}: cannot read the labelled set ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        # One line: the parser's own message spans several, with a caret diagram.
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or type(exc).__name__
        raise LabelledSetError(f"{path}: not valid YAML{where}: {problem}") from None
    if not isinstance(items, list) or not all(
        isinstance(i, dict) and isinstance(i.get("text"), str) and isinstance(i.get("claims"), list)
        for i in items
    ):
        raise LabelledSetError(f"{path}: expected a list of messages with `text` and `claims`")
    if split is not None:
        items = [i for i in items if i.get("split") == split]
        if not items:
            raise LabelledSetError(f"{path}: no message has split: {split}")
    return items


def measure(items: Iterable[Mapping[str, Any]], read: Callable[[str], list[Claim]]) -> Agreement:
    """Agreement of a synchronous reader (``LexiconClaimChecker().extract``) with ``items``."""
    agreement = Agreement()
    for item in items:
        agreement.add(item, read(item["text"]))
    return agreement


async def measure_async(
    items: Iterable[Mapping[str, Any]], read: Callable[[str], Awaitable[list[Claim]]]
) -> Agreement:
    """Agreement of an asynchronous reader (an LLM judge) with ``items``."""
    agreement = Agreement()
    for item in items:
        agreement.add(item, await read(item["text"]))
    return agreement


def render(title: str, agreement: Agreement) -> str:
    """Plain-text tables: overall, per kind, per style, details, states."""

    def table(name: str, rows: Mapping[str, Counts]) -> list[str]:
        lines = [name, f"  {'':28} {'P':>6} {'R':>6} {'n':>5}"]
        for key, c in sorted(rows.items()):
            lines.append(f"  {key:28} {c.precision:6.3f} {c.recall:6.3f} {c.tp + c.fn:5d}")
        return lines

    out = [
        f"{title}: {agreement.messages} messages, precision {agreement.total.precision:.3f}, "
        f"recall {agreement.total.recall:.3f}",
        *table("per kind", agreement.kinds),
        *table("per style", agreement.styles),
    ]
    if agreement.details:
        out += table("details (messages tagged 'details')", agreement.details)
    if agreement.states.tp + agreement.states.fn:
        out.append(
            f"descriptions of the account: precision {agreement.states.precision:.3f}, "
            f"recall {agreement.states.recall:.3f}"
        )
    return "\n".join(out)


__all__ = [
    "Agreement",
    "Counts",
    "LabelledSetError",
    "load_set",
    "measure",
    "measure_async",
    "render",
]
