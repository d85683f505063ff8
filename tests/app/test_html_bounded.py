"""The one-file HTML report stays bounded at any run size: failing episodes first, a cap,
a line saying how many more; the metrics still count every episode."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from opsbench.records import episode_id
from opsbench.render_html import render_html, write_html
from opsbench.report import HTML_LIMIT, build_report
from opsbench.store import Store
from tests.app.test_html import CHROMIUM, _chromium


def inflate(path: Path, run_id: str, copies: int) -> int:
    """Copy every episode of ``run_id`` ``copies`` times under new trials and their real ids
    (valid rows, fast); the run's recorded trials follow, so planned = stored. Returns the
    episodes in the run."""
    db = sqlite3.connect(path)
    try:
        columns = [row[1] for row in db.execute("PRAGMA table_info(episodes)")]
        rows = db.execute(
            f"SELECT {', '.join(columns)} FROM episodes WHERE run_id = ?", (run_id,)
        ).fetchall()
        trials = 1 + max(row[columns.index("trial")] for row in rows)
        at = {name: columns.index(name) for name in ("id", "model", "task_set", "task_id", "trial")}
        copied = []
        for copy in range(1, copies + 1):
            for row in rows:
                new = list(row)
                new[at["trial"]] = row[at["trial"]] + copy * trials
                new[at["id"]] = episode_id(
                    run_id,
                    row[at["model"]],
                    row[at["task_set"]],
                    row[at["task_id"]],
                    new[at["trial"]],
                )
                copied.append(new)
        with db:
            marks = ", ".join("?" * len(columns))
            db.executemany(f"INSERT INTO episodes ({', '.join(columns)}) VALUES ({marks})", copied)
            config = json.loads(
                db.execute("SELECT config FROM runs WHERE id = ?", (run_id,)).fetchone()[0]
            )
            config["trials"] = trials * (copies + 1)
            db.execute("UPDATE runs SET config = ? WHERE id = ?", (json.dumps(config), run_id))
        return len(rows) * (copies + 1)
    finally:
        db.close()


def test_a_large_run_gives_a_bounded_report_failing_first(store: Store, mini_run: str):
    total = inflate(store.path, mini_run, 60)
    report = build_report(store, mini_run, full=True)
    assert len(report.episodes) == total
    assert sum(m.metrics.scored for m in report.models) == total
    assert report.shown is not None and 0 < len(report.shown) < total
    assert report.omitted == total - len(report.shown)
    failing = [e for e in report.episodes if not (e.score or {}).get("passed")]
    # Every failing episode that fits comes before any passing one.
    passed_flags = [bool((e.score or {}).get("passed")) for e in report.shown]
    assert passed_flags == sorted(passed_flags)
    assert sum(not p for p in passed_flags) == min(len(failing), len(report.shown))
    page = render_html(report)
    assert len(page.encode()) <= HTML_LIMIT
    assert f'"episodes_omitted":{report.omitted}' in page


def test_a_small_run_keeps_every_episode(store: Store, mini_run: str):
    report = build_report(store, mini_run, full=True)
    assert report.omitted == 0 and len(report.shown) == len(report.episodes)


def test_the_bounded_page_says_how_many_more_in_chromium(
    store: Store, mini_run: str, tmp_path: Path
):
    if CHROMIUM is None:
        import pytest

        pytest.skip("headless Chromium not installed")
    inflate(store.path, mini_run, 60)
    report = build_report(store, mini_run, full=True)
    page = write_html(report, tmp_path / "big.html")
    dom = _chromium(tmp_path, "--dump-dom", page.as_uri()).stdout
    assert '<body data-rendered="ok">' in dom
    assert len(re.findall(r'<details class="episode[ "]', dom)) == len(report.shown)
    note = re.search(r'<p id="episodes-omitted"[^>]*>([^<]*)</p>', dom)
    assert note and note.group(1).startswith(f"{report.omitted} more episodes")
