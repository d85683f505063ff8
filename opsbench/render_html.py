"""The HTML report: one self-contained file (inline CSS, JS and SVG; no network to open it).

The run's data is embedded as JSON; ``assets/report.js`` renders the scorecard, the charts
(models side by side on each metric with their intervals, failure classes, public vs held-out)
and the episode browser (transcript with tool calls, ledger, state diff and the scorer's reasons).
When rendering finishes it sets ``<body data-rendered="ok">``, which the headless-browser test
waits for. ``#<episode id>`` in the URL opens that episode.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from opsbench.metrics import LABELS, METRICS
from opsbench.report import Report


def _asset(name: str) -> str:
    return resources.files("opsbench").joinpath("assets", name).read_text("utf-8")


def report_data(report: Report) -> dict[str, Any]:
    """What the page renders: the report plus its shown episodes in full (all of them for a
    report built without a budget) and how many it leaves out."""
    data = report.to_dict()
    data["metric_list"] = [
        {"name": name, "label": LABELS[name], "higher_better": better}
        for name, better in METRICS.items()
    ]
    episodes = []
    for e in report.episodes if report.shown is None else report.shown:
        if e.result is None:
            raise ValueError("the HTML report needs full episodes: build_report(..., full=True)")
        record = e.to_dict(full=True)
        record.setdefault("title", "")
        record.setdefault("business", "")
        record.setdefault("coverage", "")
        episodes.append(record)
    data["episodes"] = episodes
    data["episodes_omitted"] = report.omitted
    return data


def _embed(data: Any) -> str:
    """JSON that is safe inside ``<script>``: no ``</script>``, no ``<!--``, no U+2028 breaks."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def render_html(report: Report) -> str:
    """The whole page as one string."""
    title = html.escape(f"OpsBench report — run {report.run.id}")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>{title}</title>
<style>{_asset("report.css")}</style>
</head>
<body data-rendered="no">
<header id="header"></header>
<main>
<section><h2>Scorecard</h2><div id="scorecard"></div></section>
<section><h2>Charts</h2><div id="charts"></div></section>
<section><h2>Episodes</h2><div id="episodes"></div></section>
<section><h2>Breakdowns</h2><div id="breakdowns"></div></section>
<noscript><p>This report draws its tables and charts with JavaScript; enable it to see them.</p></noscript>
</main>
<script type="application/json" id="opsbench-data">{_embed(report_data(report))}</script>
<script>{_asset("report.js")}</script>
</body>
</html>
"""


def write_html(report: Report, path: str | Path) -> Path:
    """Write the report to ``path`` (parents created); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(report), encoding="utf-8")
    return path
