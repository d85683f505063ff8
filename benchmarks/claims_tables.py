"""The README's claim-checker accuracy tables, printed from the same measurement as
``opsbench claims agreement`` (``opsbench.agreement``): overall per set, then per kind, per style
and per detail for the fresh set and the hosted set.

Run:  uv run python benchmarks/claims_tables.py  and paste the output into README.md (never type
figures by hand). Held-out sets are not measured here: the lead scores them once.
"""

from __future__ import annotations

from pathlib import Path

from opsbench.agreement import Agreement, load_set, measure
from sandbox.claims import LexiconClaimChecker

DATA = Path(__file__).parents[1] / "tests" / "data"
SETS = (
    ("fresh set (`claims_fresh.yaml`; development data since round 3)", "claims_fresh.yaml", None),
    ("old development (`claims_labelled.yaml`)", "claims_labelled.yaml", None),
    ("hosted, dev half (`claims_hosted.yaml`, `split: dev`)", "claims_hosted.yaml", "dev"),
    ("hosted, test half (`split: test`)", "claims_hosted.yaml", "test"),
)


def _pr(counts, n: bool = False) -> str:  # type: ignore[no-untyped-def]
    size = counts.tp + counts.fn
    if counts.tp + counts.fp + counts.fn == 0:
        return "–"
    text = f"{counts.precision:.2f} / {counts.recall:.2f}"
    return f"{text} ({size})" if n else text


def _table(title: str, rows: list[str], fresh: dict, hosted: dict) -> list[str]:  # type: ignore[type-arg]
    out = [f"| {title} | fresh P / R (n) | hosted, both halves P / R (n) |", "|---|---|---|"]
    for row in rows:
        f = _pr(fresh[row], n=True) if row in fresh else "–"
        h = _pr(hosted[row], n=True) if row in hosted else "–"
        out.append(f"| {row} | {f} | {h} |")
    return out


def main() -> None:
    checker = LexiconClaimChecker().extract
    print("| hand-labelled set | messages | precision | recall |")
    print("|---|---|---|---|")
    for label, name, split in SETS:
        m = measure(load_set(DATA / name, split), checker)
        print(f"| {label} | {m.messages} | {m.total.precision:.3f} | {m.total.recall:.3f} |")
    fresh: Agreement = measure(load_set(DATA / "claims_fresh.yaml"), checker)
    hosted: Agreement = measure(load_set(DATA / "claims_hosted.yaml"), checker)
    for title, attr in (("kind", "kinds"), ("style", "styles"), ("detail", "details")):
        a, b = getattr(fresh, attr), getattr(hosted, attr)
        print()
        print("\n".join(_table(title, sorted(set(a) | set(b)), a, b)))
    print()
    print(
        f"Descriptions of the account (`states`): fresh set P {fresh.states.precision:.2f} "
        f"R {fresh.states.recall:.2f}; hosted set P {hosted.states.precision:.2f} "
        f"R {hosted.states.recall:.2f}."
    )


if __name__ == "__main__":
    main()
