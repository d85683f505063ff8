"""A memoriser scores high on the public draw and collapses on a held-out draw; the report
shows the gap per metric (issue 16, "what must be shown")."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from businesses import load_set
from opsbench.cli import app
from opsbench.kitgen import generate
from tests.helpers import KITS


def run(args: list[str]):
    return CliRunner().invoke(app, args, env={"COLUMNS": "200"})


def test_a_memoriser_passes_public_and_collapses_on_heldout(tmp_path: Path):
    public, heldout = tmp_path / "public", tmp_path / "heldout"
    generate(public, period=None, secret=None, kits_root=KITS)
    generate(heldout, period="2027Q1", secret="memoriser-test", variants=2, kits_root=KITS)
    _, held_tasks = load_set(heldout)
    store = tmp_path / "o.db"
    result = run(
        [
            "run", "-m", "python:tests.memoriser:Memoriser", "-M", f"public_set={public}",
            "--set", f"public={public}", "--set", f"heldout={heldout}", "-q",
            "--store", str(store),
        ]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(run(["report", "--store", str(store), "--json"]).stdout)
    (model,) = report["models"]
    sets = model["breakdowns"]["task_set"]
    assert sets["public"]["rates"]["pass"]["value"] == 1.0
    assert sets["heldout"]["rates"]["pass"]["n"] == len(held_tasks)
    assert sets["heldout"]["rates"]["pass"]["value"] <= 0.2
    assert model["gap_against"] == "heldout" and model["heldout_gap"] >= 0.8
    gaps = {row["metric"]: row for row in model["set_gaps"]}
    assert gaps["pass"]["low"] > 0  # the interval says the sets differ
    assert gaps["pass"]["gap"] == model["heldout_gap"]
    text = run(["report", "--store", str(store)]).stdout
    assert "public vs heldout, per metric" in text
    assert "pass rate" in text and "pts [" in text
    html = tmp_path / "r.html"
    assert run(["report", "--store", str(store), "--html", str(html)]).exit_code == 0
    assert '"set_gaps"' in html.read_text()
