"""Summarise a mutmut run (./mutants/) per file, against the equivalent mutants kept in the repo.

    python scripts/mutation_summary.py [PATTERN ...]

Killed = a test failed, or the mutant timed out. A mutant that no selected test reaches
("no tests") counts as surviving: nothing would notice it. Mutants listed in
tests/mutation/equivalent.md (a line starting with ``- `name` ``, ``*`` a wildcard) are left out
of the score.
Score = killed / (checked - equivalent). Exits 1 when a survivor is not listed as equivalent.
"""

from __future__ import annotations

import fnmatch
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KILLED = {1, 3, 24, -24, 36, 152, 255}
SURVIVED = {0, 5, 33}
_LISTED = re.compile(r"^\s*-\s*`([^`]+)`", re.MULTILINE)


def equivalent() -> set[str]:
    """Names of the mutants tests/mutation/equivalent.md explains as equivalent."""
    path = ROOT / "tests" / "mutation" / "equivalent.md"
    return set(_LISTED.findall(path.read_text())) if path.exists() else set()


def main(patterns: list[str]) -> int:
    listed = equivalent()
    per_file: dict[str, Counter[str]] = {}
    survivors: list[str] = []
    for meta in sorted((ROOT / "mutants").glob("**/*.py.meta")):
        codes = json.loads(meta.read_text()).get("exit_code_by_key", {})
        name = str(meta.relative_to(ROOT / "mutants")).removesuffix(".meta")
        for key, code in codes.items():
            if patterns and not any(fnmatch.fnmatch(key, p) for p in patterns):
                continue
            counts = per_file.setdefault(name, Counter())
            if code is None:
                counts["not checked"] += 1
            elif any(fnmatch.fnmatchcase(key, pattern) for pattern in listed):
                counts["equivalent"] += 1
            elif code in KILLED:
                counts["killed"] += 1
            elif code in SURVIVED:
                counts["survived"] += 1
                survivors.append(key)
            else:
                counts["other"] += 1
                survivors.append(key)
    total = Counter[str]()
    print(f"{'file':32} {'killed':>7} {'survived':>8} {'equiv':>6} {'unchecked':>9} {'score':>7}")
    for name, counts in per_file.items():
        total.update(counts)
        print(_line(name, counts))
    print(_line("total", total))
    for key in survivors:
        print(f"survived: {key}")
    return 1 if survivors else 0


def _line(name: str, counts: Counter[str]) -> str:
    scored = counts["killed"] + counts["survived"] + counts["other"]
    score = f"{counts['killed'] / scored:.1%}" if scored else "-"
    return (
        f"{name:32} {counts['killed']:>7} {counts['survived'] + counts['other']:>8} "
        f"{counts['equivalent']:>6} {counts['not checked']:>9} {score:>7}"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
