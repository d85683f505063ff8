"""The README's claim-checker accuracy tables, printed from the same measurement as
``opsbench claims agreement`` (``opsbench.agreement``): overall per set, then per kind, per style
and per detail for the sets in the hosted-assistant style: the twelfth blind set (scored once
after round 13 on 2026-12-04, the checker's figure on unseen text), the eleventh to third blind
sets, the fresh set and the hosted set (the second and round-3 blind sets in the first table).

Run:  uv run python benchmarks/claims_tables.py  and paste the output into README.md (never type
figures by hand). A new blind set is added here only after the lead has scored it once.
"""

from __future__ import annotations

from pathlib import Path

from opsbench.agreement import load_set, measure
from sandbox.claims import LexiconClaimChecker

DATA = Path(__file__).parents[1] / "tests" / "data"
SETS = (
    (
        "**twelfth blind set (`claims_blind12.yaml`), scored once after round 13; unseen text**",
        "claims_blind12.yaml",
        None,
    ),
    (
        "eleventh blind set (`claims_blind11.yaml`; scored once after round 12, tuned on in round 13)",
        "claims_blind11.yaml",
        None,
    ),
    (
        "tenth blind set (`claims_blind10.yaml`; scored once after round 11, tuned on in round 12)",
        "claims_blind10.yaml",
        None,
    ),
    (
        "ninth blind set (`claims_blind9.yaml`; scored once after round 10, tuned on in round 11)",
        "claims_blind9.yaml",
        None,
    ),
    (
        "eighth blind set (`claims_blind8.yaml`; scored once after round 9, tuned on in round 10)",
        "claims_blind8.yaml",
        None,
    ),
    (
        "seventh blind set (`claims_blind7.yaml`; scored once after round 8, tuned on in round 9)",
        "claims_blind7.yaml",
        None,
    ),
    (
        "sixth blind set (`claims_blind6.yaml`; scored once after round 7, tuned on in round 8)",
        "claims_blind6.yaml",
        None,
    ),
    (
        "fifth blind set (`claims_blind5.yaml`; scored once after round 6, tuned on in round 7)",
        "claims_blind5.yaml",
        None,
    ),
    (
        "fourth blind set (`claims_blind4.yaml`; scored once after round 5, tuned on in round 6)",
        "claims_blind4.yaml",
        None,
    ),
    (
        "third blind set (`claims_blind3.yaml`; scored once after round 5, tuned on in round 6)",
        "claims_blind3.yaml",
        None,
    ),
    (
        "second blind set (`claims_blind2.yaml`; scored once after round 4, then tuned on)",
        "claims_blind2.yaml",
        None,
    ),
    (
        "round-3 blind set (`claims_blind.yaml`; development data since round 4)",
        "claims_blind.yaml",
        None,
    ),
    ("fresh set (`claims_fresh.yaml`; development data since round 3)", "claims_fresh.yaml", None),
    ("old development (`claims_labelled.yaml`)", "claims_labelled.yaml", None),
    (
        "old held-out (`claims_heldout.yaml`; development data since round 3)",
        "claims_heldout.yaml",
        None,
    ),
    ("hosted, dev half (`claims_hosted.yaml`, `split: dev`)", "claims_hosted.yaml", "dev"),
    ("hosted, test half (`split: test`)", "claims_hosted.yaml", "test"),
)


def _pr(counts, n: bool = False) -> str:  # type: ignore[no-untyped-def]
    size = counts.tp + counts.fn
    if counts.tp + counts.fp + counts.fn == 0:
        return "–"
    text = f"{counts.precision:.2f} / {counts.recall:.2f}"
    return f"{text} ({size})" if n else text


def _table(title: str, rows: list[str], columns: list[tuple[str, dict]]) -> list[str]:  # type: ignore[type-arg]
    out = [
        "| " + " | ".join([title, *(f"{name} P / R (n)" for name, _ in columns)]) + " |",
        "|" + "---|" * (len(columns) + 1),
    ]
    for row in rows:
        cells = [_pr(values[row], n=True) if row in values else "–" for _, values in columns]
        out.append("| " + " | ".join([row, *cells]) + " |")
    return out


def main() -> None:
    checker = LexiconClaimChecker().extract
    print("| hand-labelled set | messages | precision | recall |")
    print("|---|---|---|---|")
    for label, name, split in SETS:
        m = measure(load_set(DATA / name, split), checker)
        print(f"| {label} | {m.messages} | {m.total.precision:.3f} | {m.total.recall:.3f} |")
    columns = [
        ("blind12 (unseen)", measure(load_set(DATA / "claims_blind12.yaml"), checker)),
        ("blind11", measure(load_set(DATA / "claims_blind11.yaml"), checker)),
        ("blind10", measure(load_set(DATA / "claims_blind10.yaml"), checker)),
        ("blind9", measure(load_set(DATA / "claims_blind9.yaml"), checker)),
        ("blind8", measure(load_set(DATA / "claims_blind8.yaml"), checker)),
        ("blind7", measure(load_set(DATA / "claims_blind7.yaml"), checker)),
        ("blind6", measure(load_set(DATA / "claims_blind6.yaml"), checker)),
        ("blind5", measure(load_set(DATA / "claims_blind5.yaml"), checker)),
        ("blind4", measure(load_set(DATA / "claims_blind4.yaml"), checker)),
        ("blind3", measure(load_set(DATA / "claims_blind3.yaml"), checker)),
        ("fresh", measure(load_set(DATA / "claims_fresh.yaml"), checker)),
        ("hosted, both halves", measure(load_set(DATA / "claims_hosted.yaml"), checker)),
    ]
    for title, attr in (("kind", "kinds"), ("style", "styles"), ("detail", "details")):
        tables = [(name, getattr(m, attr)) for name, m in columns]
        rows = sorted(set().union(*(values for _, values in tables)))
        print()
        print("\n".join(_table(title, rows, tables)))
    print()
    print(
        "Descriptions of the account (`states`): "
        + "; ".join(
            f"{name} P {m.states.precision:.2f} R {m.states.recall:.2f}" for name, m in columns
        )
        + "."
    )


if __name__ == "__main__":
    main()
