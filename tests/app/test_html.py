"""The HTML report opened in headless Chromium: scripts run, charts and an episode render.

Chromium is Debian's ``chromium`` package; ``.ci/run`` installs it. Outside CI the test is
skipped when it is absent. The browser runs with no network features and a throwaway profile;
the page itself forbids any fetch by its Content-Security-Policy.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from opsbench.metrics import METRICS
from opsbench.render_html import write_html
from opsbench.report import build_report
from opsbench.store import Store

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

if CHROMIUM is None and os.environ.get("CI"):
    pytest.fail("CI must have Debian's chromium installed (.ci/run does it)", pytrace=False)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="headless Chromium not installed (apt-get install -y chromium); CI installs it",
)


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / "profile"
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],  # type: ignore[list-item]
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


@pytest.fixture
def report_page(store: Store, mini_run: str, tmp_path: Path) -> tuple[Path, str, object]:
    report = build_report(store, mini_run, full=True)
    failed = next(
        e for e in report.episodes if e.model == "reference/partial" and not e.score["passed"]
    )
    return write_html(report, tmp_path / "report.html"), failed.id, report


def test_the_rendered_dom_has_charts_and_an_expanded_episode(report_page, tmp_path: Path):
    page, episode_id, report = report_page
    dom = _chromium(tmp_path, "--dump-dom", f"{page.as_uri()}?episode={episode_id}").stdout
    assert '<body data-rendered="ok">' in dom, dom[:2000]
    models = len(report.models)
    # One bar per model on each metric's chart (a dash where a rate is undefined).
    assert len(re.findall(r'<svg[^>]*class="metric-chart"', dom)) == len(METRICS)
    assert len(re.findall(r'<rect class="bar"', dom)) >= 5 * models
    assert 'id="failure-chart"' in dom and 'id="gap-chart"' in dom
    assert len(re.findall(r'<details class="episode[ "]', dom)) == len(report.episodes)
    # ?episode= filters the browser to that episode's model.
    shown = len(re.findall(r'<details class="episode"', dom))
    assert shown == sum(1 for e in report.episodes if e.model == "reference/partial")
    opened = re.search(rf'<details class="episode" id="{episode_id}"[^>]*open=""', dom)
    assert opened, "the episode named in the URL is expanded"
    body = dom[opened.end() :]
    body = body[: body.index("</details>")]
    assert "Why the scorer said so" in body and "false claim" in body
    assert "Transcript and tool calls" in body and "find_customer" in body
    assert "Ledger" in body and "State diff" in body
    assert "Wilson 95%" in dom


def test_a_screenshot_shows_the_page(report_page, tmp_path: Path):
    page, episode_id, _ = report_page
    shot = tmp_path / "report.png"
    _chromium(
        tmp_path,
        "--window-size=1400,3000",
        "--hide-scrollbars",
        f"--screenshot={shot}",
        f"{page.as_uri()}?episode={episode_id}",
    )
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # A blank page compresses to a few kilobytes; charts, tables and a transcript do not.
    assert len(data) > 100_000
    keep = os.environ.get("OPSBENCH_KEEP_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


def test_the_page_needs_no_network(report_page):
    page, _, _ = report_page
    text = page.read_text()
    assert not re.search(r'(?:src|href)="(?:https?:)?//', text)
    assert "default-src 'none'" in text
