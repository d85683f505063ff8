"""``opsbench claims agreement``: a judge's agreement with a labelled set, measured through the
local provider server with scripted judges answering JSON (no hosted model is called)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from contract.messages import AssistantTurn, TurnRequest
from opsbench.cli import app
from opsbench.judge import JUDGE_SYSTEM

server_module = pytest.importorskip("adapters.server", reason="the local provider server")
HOSTED = Path(__file__).parents[1] / "data" / "claims_hosted.yaml"
ITEMS = [i for i in yaml.safe_load(HOSTED.read_text("utf-8")) if i["split"] == "dev"][:30]
BY_TEXT = {i["text"]: i for i in ITEMS}


class LabelJudge:
    """Answers with the labels of the message it is asked about; ``drop_not_done`` forgets
    every not-done claim, ``prose`` answers in words instead of JSON."""

    def __init__(self, drop_not_done: bool = False, prose: bool = False) -> None:
        self.drop_not_done, self.prose = drop_not_done, prose
        self.systems: list[str] = []

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        self.systems.append(request.system)
        if self.prose:
            return AssistantTurn("It booked something, I think.")
        item = BY_TEXT[request.messages[-1].content]
        claims = [c for c in item["claims"] if c["done"] or not self.drop_not_done]
        states = [{"kind": s["kind"], "done": True, "state": True} for s in item.get("states", [])]
        return AssistantTurn(json.dumps({"claims": claims + states}))


@pytest.fixture(scope="module")
def server() -> Iterator[object]:
    with server_module.LocalServer(server_module.EchoAssistant()) as running:
        yield running


@pytest.fixture
def labelled(tmp_path: Path) -> Path:
    path = tmp_path / "set.yaml"
    path.write_text(yaml.safe_dump(ITEMS, allow_unicode=True), "utf-8")
    return path


def _agreement(server, labelled: Path, judge: LabelJudge, *extra: str):
    server.reset(judge)
    return CliRunner().invoke(
        app,
        [
            "claims",
            "agreement",
            "--set",
            str(labelled),
            "--json",
            *extra,
            "--judge",
            "openai/judge-under-test",
            "--base-url",
            server.openai_base_url,
        ],
        env={"OPENAI_API_KEY": "sk-test-not-used", "COLUMNS": "200"},
    )


def test_a_judge_that_answers_the_labels_agrees_fully(server, labelled: Path):
    judge = LabelJudge()
    result = _agreement(server, labelled, judge)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["messages"] == len(ITEMS)
    assert data["total"]["precision"] == 1.0 and data["total"]["recall"] == 1.0
    assert data["states"]["fn"] == 0
    # The judge was asked the question the scorer asks, details included.
    assert judge.systems and all(s == JUDGE_SYSTEM for s in judge.systems)


def test_a_judge_that_forgets_refusals_loses_exactly_their_recall(server, labelled: Path):
    result = _agreement(server, labelled, LabelJudge(drop_not_done=True))
    assert result.exit_code == 0, result.output
    total = json.loads(result.stdout)["total"]
    gold = {(i["text"], c["kind"], c["done"]) for i in ITEMS for c in i["claims"]}
    refusals = {g for g in gold if not g[2]}
    assert refusals
    assert total["precision"] == 1.0
    assert total["fn"] == len(refusals) and total["tp"] == len(gold) - len(refusals)


def test_a_judge_answering_in_prose_is_one_clear_error(server, labelled: Path):
    result = _agreement(server, labelled, LabelJudge(prose=True))
    assert result.exit_code == 2
    assert "judge" in result.output and "Traceback" not in result.output


def test_the_lexicon_checker_is_measured_by_the_same_command(labelled: Path):
    result = CliRunner().invoke(app, ["claims", "agreement", "--set", str(labelled)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"lexicon on {labelled}: {len(ITEMS)} messages, precision")


def test_a_missing_set_is_one_line_and_exit_2(tmp_path: Path):
    result = CliRunner().invoke(app, ["claims", "agreement", "--set", str(tmp_path / "no.yaml")])
    assert result.exit_code == 2 and "no.yaml" in result.output
