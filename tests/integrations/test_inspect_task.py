"""The Inspect AI task `opsbench/opsbench`: with the local model server answering, it gives the
same per-task OpsBench scores (hence pass/fail) as `opsbench run` with the same assistant, and
it is found through its entry point by Inspect's own CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip(
    "inspect_ai", reason="the inspect extra is not installed (uv sync --extra inspect)"
)

from opsbench.integrations.parity import PromptRouter, compare
from tests.integrations.support import tasks_by_shape

TASKS = list(tasks_by_shape("writes", "tool-fault", "transfer", "multi-session").values())


@pytest.fixture(autouse=True)
def any_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # Inspect's OpenAI provider insists on a key; the local server accepts any.
    monkeypatch.setenv("OPENAI_API_KEY", "local-any-key")


@pytest.mark.parametrize("model", ["reference/oracle", "reference/partial", "reference/sentiment"])
def test_inspect_scores_each_task_as_opsbench_run_does(model, tmp_path):
    result = compare(TASKS, model, tmp_path)
    assert sorted(result.opsbench) == sorted(t.id for t in TASKS)
    assert result.disagreements() == []
    assert result.inspect == result.opsbench  # not only pass/fail: every field of the score
    passes = [s["passed"] for s in result.opsbench.values()]
    if model == "reference/oracle":
        assert all(passes)
    else:
        assert not all(passes), "a flawed assistant should fail some of these tasks"


def test_inspect_cli_finds_the_task_by_its_entry_point(tmp_path):
    from inspect_ai.log import list_eval_logs, read_eval_log

    from adapters.server import LocalServer

    task = TASKS[0]
    with LocalServer(PromptRouter([task], "reference/oracle")) as server:
        proc = subprocess.run(
            [
                str(Path(sys.executable).with_name("inspect")),
                "eval",
                "opsbench/opsbench",
                "-T",
                f"task={task.id}",
                "--model",
                "openai/gpt-4.1",
                "--model-base-url",
                server.openai_base_url,
                "--log-dir",
                str(tmp_path),
                "--display",
                "none",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert proc.returncode == 0, proc.stderr[-2000:]
    (info,) = list_eval_logs(str(tmp_path))
    log = read_eval_log(info)
    assert log.eval.task == "opsbench/opsbench"
    (sample,) = log.samples or []
    assert sample.id == task.id
    value = sample.scores["opsbench_scorer"].value
    assert value["passed"] == 1.0 and value["not_completed"] == 0.0
    names = {s.name for s in log.results.scores}
    assert {"passed", "completed", "collateral", "escalation", "violations", "disclosed"} <= names
    assert {"confident_partial", "missed_escalation", "unrecoverable"} <= names
    # The conversation, tool calls and results included, is in the log for `inspect view`.
    roles = [m.role for m in sample.messages]
    assert roles[0] == "system" and "tool" in roles and "user" in roles
