"""``opsbench view``: the episode browser served from the store, over real HTTP, on a large
generated store (every reference assistant's episodes copied to over 40,000), and its first
page and an episode page rendered in headless Chromium."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from opsbench.runner import run_evaluation
from opsbench.store import Store
from opsbench.viewer import PAGE_SIZE, ViewServer
from tests.app.conftest import mini_config
from tests.app.test_html import CHROMIUM, _chromium
from tests.app.test_html_bounded import inflate

EPISODES = 40_000


@pytest.fixture(scope="module")
def big_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, int]:
    path = tmp_path_factory.mktemp("viewer") / "opsbench.db"
    with Store(path) as store:
        run_id = run_evaluation(mini_config(trials=2), store, workers=1).run_id
        stored = len(store.episodes(run_id))
    total = inflate(path, run_id, -(-EPISODES // stored) - 1)
    assert total >= EPISODES
    return path, run_id, total


@pytest.fixture(scope="module")
def server(big_store: tuple[Path, str, int]) -> Iterator[ViewServer]:
    path, run_id, _ = big_store
    view = ViewServer(path, run_id, 0)
    thread = threading.Thread(target=view.serve_forever, daemon=True)
    thread.start()
    yield view
    view.shutdown()
    view.server_close()
    thread.join()


@pytest.fixture(scope="module")
def client(server: ViewServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield http


def _ids(page: str) -> list[str]:
    return re.findall(r'<tr data-id="([^"]+)">', page)


def _count(page: str) -> tuple[int, int]:
    found = re.search(r'<p id="count">([\d,]+) of ([\d,]+) episodes match', page)
    assert found, page[:500]
    return int(found.group(1).replace(",", "")), int(found.group(2).replace(",", ""))


def _sql(path: Path, where: str = "1", *params: object) -> list[str]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute(f"SELECT id FROM episodes WHERE {where}", params)]


def test_the_first_page_lists_a_page_of_every_episode(client, big_store):
    path, _, total = big_store
    response = client.get("/")
    assert response.status_code == 200
    page = response.text
    assert _count(page) == (total, total)
    ids = _ids(page)
    assert len(ids) == PAGE_SIZE
    assert set(ids) <= set(_sql(path))
    assert 'rel="next"' in page and 'rel="prev"' not in page


def test_pages_cover_the_run_without_overlap(client, big_store):
    _, _, total = big_store
    last = -(-total // PAGE_SIZE)
    seen: list[str] = []
    for number in (1, 2, last):
        seen += _ids(client.get("/", params={"page": number}).text)
    assert len(seen) == len(set(seen)) == 2 * PAGE_SIZE + (total - (last - 1) * PAGE_SIZE)
    # Out of range or nonsense: the nearest page, never an error.
    assert _ids(client.get("/", params={"page": last + 10}).text) == _ids(
        client.get("/", params={"page": last}).text
    )
    assert client.get("/", params={"page": "x"}).status_code == 200


def test_each_filter_selects_what_the_store_holds(client, big_store):
    path, run_id, total = big_store
    with Store(path, create=False) as store:
        run = store.run(run_id)
    model = sorted(set(run.config["models"]))[-1]
    task = run.tasks[0]
    same = [t.task_id for t in run.tasks if t.business == task.business]
    cases = {
        "model": (model, _sql(path, "model = ?", model)),
        "task": (task.task_id, _sql(path, "task_id = ?", task.task_id)),
        "business": (
            task.business,
            _sql(path, f"task_id IN ({','.join('?' * len(same))})", *same),
        ),
        "metric": ("pass", _sql(path, "json_extract(score, '$.passed') = 0")),
    }
    for name, (value, expected) in cases.items():
        page = client.get("/", params={name: value}).text
        matched, of = _count(page)
        assert (matched, of) == (len(expected), total), name
        # The mini set is one business; every other filter picks a proper part of the run.
        assert 0 < matched < total or (name == "business" and matched == total), name
        assert set(_ids(page)) <= set(expected), name
        assert f'value="{value}" selected' in page, name
    nobody = client.get("/", params={"business": "nobody", "model": model}).text
    assert _count(nobody) == (0, total) and not _ids(nobody)


def test_flag_and_metric_filters_agree_with_the_scores(client, big_store):
    path, _, _ = big_store
    page = client.get("/").text
    flags = re.findall(r'<select name="flag">(.*?)</select>', page)[0]
    values = [v for v in re.findall(r'<option value="([^"]*)"', flags) if v]
    assert "collateral" in values
    collateral = _sql(path, "json_extract(score, '$.collateral') != '[]'")
    page = client.get("/", params={"flag": "collateral", "model": ""}).text
    assert _count(page)[0] == len(collateral) > 0
    both = client.get("/", params={"flag": "collateral", "metric": "collateral"}).text
    assert _count(both)[0] == len(collateral)


def test_an_episode_page_is_the_reports_page_for_it(client, big_store):
    path, run_id, _ = big_store
    [episode_id] = _sql(path, "trial = 0 AND json_extract(score, '$.passed') = 0 LIMIT 1")
    response = client.get(f"/episode/{episode_id}")
    assert response.status_code == 200
    embedded = re.search(
        r'<script type="application/json" id="opsbench-data">(.*?)</script>', response.text, re.S
    )
    assert embedded
    data = json.loads(embedded.group(1))
    assert [e["id"] for e in data["episodes"]] == [episode_id]
    assert data["episodes"][0]["result"]["transcript"]
    assert data["run"]["id"] == run_id and data["models"]  # the run's scorecard beside it
    assert client.get("/episode/ep-000000000000").status_code == 404
    assert client.get("/nowhere").status_code == 404


@pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium not installed (apt-get install -y chromium)"
)
def test_first_page_and_an_episode_page_render_in_chromium(server, big_store, tmp_path):
    path, _, _ = big_store
    dom = _chromium(tmp_path, "--dump-dom", server.url).stdout
    assert '<body data-rendered="ok">' in dom
    assert len(re.findall(r"<tr data-id=", dom)) == PAGE_SIZE
    [episode_id] = _sql(path, "trial = 0 LIMIT 1")
    dom = _chromium(
        tmp_path, "--dump-dom", f"{server.url}episode/{episode_id}?episode={episode_id}"
    ).stdout
    assert '<body data-rendered="ok">' in dom
    opened = re.search(rf'<details class="episode[^"]*"[^>]*id="{episode_id}"[^>]*open', dom)
    assert opened, "the episode is opened"
    assert 'class="episode-body"' in dom
