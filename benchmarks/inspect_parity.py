"""The Inspect task against `opsbench run`, over a whole task set, per reference assistant.

    uv run --extra inspect python benchmarks/inspect_parity.py [--set public] [MODEL ...]

Both routes are answered by the same reference assistant through the local model server (no
key). Prints, per assistant, the tasks that pass on each route and any task whose pass/fail or
score differs.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from adapters.reference import FLAWS
from opsbench.integrations.inspect_task import select
from opsbench.integrations.parity import compare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", default=[f"reference/{f}" for f in FLAWS])
    parser.add_argument("--set", default="public")
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "local-any-key")  # the local server takes any
    tasks = [t for _label, t in select(args.set)]
    for model in args.models:
        with tempfile.TemporaryDirectory() as workdir:
            result = compare(tasks, model, Path(workdir))
        ours = sum(bool(s["passed"]) for s in result.opsbench.values())
        theirs = sum(bool(s["passed"]) for s in result.inspect.values())
        differing = [i for i in result.opsbench if result.opsbench[i] != result.inspect.get(i)]
        print(
            f"{model:28} tasks {len(tasks)}  opsbench run passed {ours}  inspect passed {theirs}"
            f"  pass/fail disagreements {len(result.disagreements())}"
            f"  score differences {len(differing)}"
        )
        for task_id in result.disagreements() or differing:
            print(f"    {task_id}")


if __name__ == "__main__":
    main()
