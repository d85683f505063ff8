"""How many tests name each rule type of sandbox/rules.py (exit 1 if one is named by none).

    uv run --extra dev python scripts/rule_coverage.py

A test *names* a rule type when its id (a parametrized case's id included) or its function's
source holds the rule type's name. Collection only: no test is run.
"""

from __future__ import annotations

import inspect
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox.rules import RULE_TYPES  # noqa: E402


class _Count:
    def __init__(self) -> None:
        self.named: Counter[str] = Counter()
        self.items = 0

    def pytest_collection_modifyitems(self, items: list[Any]) -> None:
        sources: dict[Any, str] = {}
        for item in items:
            function = getattr(item, "function", None)
            if function not in sources:
                try:
                    sources[function] = inspect.getsource(function) if function else ""
                except (OSError, TypeError):
                    sources[function] = ""
            text = item.nodeid + "\n" + sources[function]
            self.items += 1
            for name in RULE_TYPES:
                if name in text:
                    self.named[name] += 1


def main() -> int:
    count = _Count()
    code = pytest.main(
        ["--collect-only", "-q", "-p", "no:cacheprovider", str(ROOT / "tests")],
        plugins=[count],
    )
    if code not in (0, 5):
        return 2
    print(f"\n{'rule type':24} tests naming it (of {count.items} collected)")
    for name in sorted(RULE_TYPES):
        print(f"{name:24} {count.named[name]}")
    missing = [n for n in RULE_TYPES if not count.named[n]]
    if missing:
        print("named by no test: " + ", ".join(missing))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
