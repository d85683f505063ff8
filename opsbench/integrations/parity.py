"""The same assistant through ``opsbench run`` and through the Inspect task, task by task.

The local provider server answers both routes with a reference assistant; :class:`PromptRouter`
lets one server answer for many tasks at once by recognising each session from its system
prompt (every session of the public set has its own). :func:`compare` runs the runner and
``inspect eval`` over the same tasks and returns each route's OpsBench score per task.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.assistant import Assistant, EpisodeContext
from contract.messages import AssistantTurn, TurnRequest
from sandbox.task import Task

# Any OpenAI model name does: the local server answers whatever is asked for.
MODEL = "gpt-4.1"


class PromptRouter:
    """Answers each request with the reference assistant of the session whose prompt it has."""

    def __init__(self, tasks: Iterable[Task], model: str) -> None:
        from adapters.registry import make_factory
        from sandbox.briefing import make_assistant
        from sandbox.prompt import system_prompt

        factory = make_factory(model, {})
        self._by_prompt: dict[str, tuple[str, Assistant]] = {}
        for task in tasks:
            for index, session in enumerate(task.sessions):
                prompt = system_prompt(task.business, session.at)
                if prompt in self._by_prompt:
                    other = self._by_prompt[prompt][0]
                    raise ValueError(f"{task.id} and {other} share a system prompt")
                context = EpisodeContext(task.business.id)
                self._by_prompt[prompt] = (task.id, make_assistant(factory, context, task, index))

    async def respond(self, request: TurnRequest) -> AssistantTurn:
        found = self._by_prompt.get(request.system)
        if found is None:
            raise LookupError("no session of the selected tasks has this system prompt")
        return await found[1].respond(request)


@dataclass(frozen=True)
class Comparison:
    """Each route's OpsBench score per task id."""

    opsbench: dict[str, dict[str, Any]]
    inspect: dict[str, dict[str, Any]]

    def disagreements(self) -> list[str]:
        """Task ids whose pass/fail differs between the routes (or that one route lacks)."""
        ids = sorted(set(self.opsbench) | set(self.inspect))
        return [
            i
            for i in ids
            if i not in self.opsbench
            or i not in self.inspect
            or self.opsbench[i]["passed"] != self.inspect[i]["passed"]
        ]


def opsbench_scores(
    tasks: list[Task], base_url: str, store_path: Path, task_set: str = "public"
) -> dict[str, dict[str, Any]]:
    """``opsbench run -m openai/<MODEL> --base-url base_url --task …``: score per task."""
    from opsbench.runner import RunConfig, run_evaluation
    from opsbench.store import Store

    config = RunConfig(
        models=(f"openai/{MODEL}",),
        sets=(task_set,),
        tasks=tuple(t.id for t in tasks),
        base_url=base_url,
    )
    store = Store(store_path)
    outcome = run_evaluation(config, store)
    return {e.task_id: e.score for e in store.episodes(outcome.run_id) if e.score is not None}


def inspect_scores(
    tasks: list[Task], base_url: str, log_dir: Path, task_set: str = "public"
) -> dict[str, dict[str, Any]]:
    """``inspect eval opsbench/opsbench -T set=… -T task=… --model openai/<MODEL>``."""
    from inspect_ai import eval as inspect_eval

    logs = inspect_eval(
        "opsbench/opsbench",
        task_args={"set": task_set, "task": ",".join(t.id for t in tasks)},
        model=f"openai/{MODEL}",
        model_base_url=base_url,
        log_dir=str(log_dir),
        display="none",
    )
    (log,) = logs
    if log.status != "success":
        raise RuntimeError(f"inspect eval ended {log.status}: {log.error}")
    return {
        str(s.id): (s.scores["opsbench_scorer"].metadata or {})["opsbench_score"]
        for s in log.samples or []
        if s.scores
    }


def compare(tasks: list[Task], model: str, workdir: Path) -> Comparison:
    """Both routes over ``tasks``, the local server answered by ``model`` (``reference/…``)."""
    from adapters.server import LocalServer

    with LocalServer(PromptRouter(tasks, model)) as server:
        ours = opsbench_scores(tasks, server.openai_base_url, workdir / "opsbench.db")
        theirs = inspect_scores(tasks, server.openai_base_url, workdir / "inspect-logs")
    return Comparison(ours, theirs)
