"""``opsbench view RUN``: the full episode browser of a run, served from its SQLite store.

The one-file HTML report carries a bounded share of a large run's episodes; this serves all
of them on 127.0.0.1 with the standard library's HTTP server. ``/`` is a paged list filtered
by business, task, model, metric and flag (query parameters of the same names, ``page``);
``/episode/<id>`` is the report's own page for that episode (:func:`render_html` of a report
holding that one episode in full, opened by ``?episode=``), so the two never drift apart.

At start the server reads one compact row per episode (ids, names, status, the metrics it
counts against and its failure flags: no transcript), so a filter is a scan of a list, and a
page loads only its own rows. The store is only read.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from opsbench import metrics
from opsbench.report import ModelReport, Report
from opsbench.store import Store

PAGE_SIZE = 50
FILTERS = ("business", "task", "model", "metric", "flag")


@dataclass(frozen=True)
class Row:
    """What the list shows and filters on, for one episode."""

    id: str
    model: str
    task_set: str
    task_id: str
    business: str
    trial: int
    status: str
    passed: bool | None
    against: frozenset[str]  # metrics this episode counts against (failed or showed)
    flags: frozenset[str]  # failure classes, and the status when it is not "scored"


def counts_against(score: Mapping[str, Any]) -> frozenset[str]:
    """The metrics of :data:`opsbench.metrics.METRICS` that ``score`` counts against: a
    higher-is-better metric it is eligible for and fails, a lower-is-better one it shows."""
    out = set()
    for name, (test, among) in metrics.EPISODE_TESTS.items():
        if among(dict(score)) and test(dict(score)) != metrics.METRICS[name]:
            out.add(name)
    return frozenset(out)


class Index:
    """The compact rows of one run, in the store's order, and the filters over them."""

    def __init__(self, store: Store, run_id: str | None) -> None:
        self.run = store.run(run_id)
        episodes = store.episodes(self.run.id)
        grouped = metrics.by_model(episodes)
        order = [m for m in self.run.config.get("models", []) if m in grouped]
        order += [m for m in grouped if m not in order]
        # The scorecard beside each episode page; breakdowns (per task, per tactic...) are the
        # report's, and most of its cost at this size, so the viewer leaves them out.
        models = tuple(ModelReport(m, metrics.compute(grouped[m]), {}) for m in order)
        self.summary = Report(self.run, models, ())
        tasks = {(t.task_set, t.task_id): t for t in self.run.tasks}
        rows = []
        for e in episodes:
            task = tasks.get((e.task_set, e.task_id))
            score = e.score or {}
            flags = set(metrics.failure_classes(score)) if e.status == "scored" else {e.status}
            rows.append(
                Row(
                    e.id,
                    e.model,
                    e.task_set,
                    e.task_id,
                    task.business if task else "",
                    e.trial,
                    e.status,
                    None if e.score is None else bool(e.score.get("passed")),
                    counts_against(score) if e.status == "scored" else frozenset(),
                    frozenset(flags),
                )
            )
        self.rows: tuple[Row, ...] = tuple(rows)

        self._choices = self._values()

    def choices(self) -> dict[str, list[str]]:
        """Every value each filter can take in this run."""
        return self._choices

    def _values(self) -> dict[str, list[str]]:
        return {
            "business": sorted({r.business for r in self.rows}),
            "task": sorted({r.task_id for r in self.rows}),
            "model": sorted({r.model for r in self.rows}, key=self._model_order),
            "metric": [m for m in metrics.METRICS],
            "flag": sorted({f for r in self.rows for f in r.flags}),
        }

    def _model_order(self, model: str) -> tuple[int, str]:
        names = [m.model for m in self.summary.models]
        return (names.index(model) if model in names else len(names), model)

    def select(self, wanted: Mapping[str, str]) -> list[Row]:
        """The rows matching every non-empty filter in ``wanted``."""
        tests: list[Callable[[Row], bool]] = []
        if wanted.get("business"):
            tests.append(lambda r: r.business == wanted["business"])
        if wanted.get("task"):
            tests.append(lambda r: r.task_id == wanted["task"])
        if wanted.get("model"):
            tests.append(lambda r: r.model == wanted["model"])
        if wanted.get("metric"):
            tests.append(lambda r: wanted["metric"] in r.against)
        if wanted.get("flag"):
            tests.append(lambda r: wanted["flag"] in r.flags)
        return [r for r in self.rows if all(t(r) for t in tests)]


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def list_page(index: Index, query: Mapping[str, str]) -> str:
    """The paged, filtered episode list as one HTML page."""
    wanted = {k: query.get(k, "") for k in FILTERS}
    rows = index.select(wanted)
    pages = max(1, -(-len(rows) // PAGE_SIZE))
    try:
        page = min(max(1, int(query.get("page", "1"))), pages)
    except ValueError:
        page = 1
    shown = rows[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    selects = []
    for name, values in index.choices().items():
        options = ['<option value="">any</option>'] + [
            f'<option value="{_e(v)}"{" selected" if v == wanted[name] else ""}>{_e(v)}</option>'
            for v in values
        ]
        selects.append(f'<label>{name} <select name="{name}">{"".join(options)}</select></label>')
    body = "".join(
        f'<tr data-id="{_e(r.id)}"><td><a href="/episode/{quote(r.id)}">{_e(r.id)}</a></td>'
        f"<td>{_e(r.model)}</td><td>{_e(r.business)}</td><td>{_e(r.task_id)}</td>"
        f"<td>{r.trial}</td><td>{_e(_verdict(r))}</td><td>{_e(', '.join(sorted(r.flags)))}</td>"
        "</tr>"
        for r in shown
    )

    def link(to: int, label: str) -> str:
        if to < 1 or to > pages or to == page:
            return f"<span>{label}</span>"
        return f'<a rel="{label}" href="/?{urlencode({**wanted, "page": to})}">{label}</a>'

    run = index.run
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{_e(f"OpsBench run {run.id}: episodes")}</title>
<style>body{{font:14px system-ui,sans-serif;margin:1.5em}}table{{border-collapse:collapse}}
td,th{{border-bottom:1px solid #ddd;padding:.25em .6em;text-align:left}}label{{margin-right:1em}}
</style></head>
<body data-rendered="ok">
<h1>Run {_e(run.id)}</h1>
<p id="count">{len(rows):,} of {len(index.rows):,} episodes match · page {page} of {pages}</p>
<form method="get" action="/">{"".join(selects)}<button type="submit">filter</button></form>
<table id="episodes"><thead><tr><th>episode</th><th>model</th><th>business</th><th>task</th>
<th>trial</th><th>verdict</th><th>flags</th></tr></thead><tbody>{body}</tbody></table>
<p id="pager">{link(1, "first")} {link(page - 1, "prev")} {link(page + 1, "next")}
{link(pages, "last")}</p>
</body></html>
"""


def _verdict(row: Row) -> str:
    if row.status != "scored":
        return row.status.replace("_", " ")
    return "pass" if row.passed else "fail"


def episode_page(store: Store, index: Index, episode_id: str) -> str | None:
    """The HTML report's page for one episode of the run, or None if the run has no such."""
    from opsbench.render_html import render_html

    records = list(store.full_episodes(index.run.id, [episode_id]))
    if not records:
        return None
    report = replace(index.summary, episodes=tuple(records), shown=tuple(records), omitted=0)
    return render_html(report)


class _Handler(BaseHTTPRequestHandler):
    server: ViewServer

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        if parts.path == "/":
            self._send(200, list_page(self.server.index, query))
            return
        if parts.path.startswith("/episode/"):
            episode_id = parts.path.removeprefix("/episode/")
            # A connection per request: sqlite connections stay in the thread that made them.
            with Store(self.server.store_path, create=False) as store:
                page = episode_page(store, self.server.index, episode_id)
            if page is not None:
                self._send(200, page)
                return
        self._send(404, f"<!DOCTYPE html><title>not found</title><p>{_e(parts.path)}: not here")

    def _send(self, status: int, text: str) -> None:
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # a quiet local server: the command prints its address once


class ViewServer(ThreadingHTTPServer):
    """The viewer's HTTP server on 127.0.0.1 (``port`` 0: any free one)."""

    daemon_threads = True

    def __init__(self, store_path: Path, run_id: str | None, port: int = 0) -> None:
        self.store_path = Path(store_path)
        with Store(self.store_path, create=False) as store:
            self.index = Index(store, run_id)
        super().__init__(("127.0.0.1", port), _Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"


__all__ = ["FILTERS", "PAGE_SIZE", "Index", "ViewServer", "counts_against", "list_page"]
