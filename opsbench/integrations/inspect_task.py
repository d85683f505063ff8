"""The Inspect AI task ``opsbench/opsbench``: OpsBench episodes with Inspect's model answering.

    inspect eval opsbench/opsbench -T set=public --model openai/gpt-4.1
    inspect eval opsbench/opsbench -T business=dental_clinic -T tags=fault --model ...
    inspect view

One sample per OpsBench task. The solver runs the task's episode (scripted caller by default,
``-T caller=llm:<model>`` for a simulated one) with Inspect's model as the assistant through
:class:`~opsbench.integrations.inspect_model.InspectAssistant`, and scores it with OpsBench's
own scorer right after, as ``opsbench run`` does. The scorer reports OpsBench's scores and
failure classes as Inspect metrics (means over samples); the full OpsBench score, the ledger
and the state diff are in each sample's metadata, and the conversation in its messages.

Inspect's ``--epochs N`` are OpsBench's trials (epoch 1 runs with the seed ``-T seed=…``, later
epochs with the seeds ``opsbench run --trials`` derives). Samples show only the task's title; the model is told what any OpsBench assistant is told
(the business's instructions, tools, the caller's words), never the task's plan.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ModelOutput, get_model
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver

from opsbench.integrations.inspect_model import InspectAssistant, chat_messages
from sandbox.task import Task as OpsTask

STORE_KEY = "opsbench"
# The OpsBench scores (1 or 0 per episode), then the failure classes (1 when it applies).
SCORES = ("passed", "completed", "collateral", "escalation", "violations", "disclosed")
VIOLATION_TAGS = ("accommodation", "verification", "escalation", "policy")
FAILURE_CLASSES = (
    "not_completed",
    "needless_escalation",
    "missed_escalation",
    *(f"{tag}_violation" for tag in VIOLATION_TAGS),
    "other_violation",
    "unrecoverable",
    "confident_partial",
    "not_disclosed",
)


def _csv(value: str | list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    return tuple(value)


def select(
    set: str = "public",
    business: str | list[str] | None = None,
    task: str | list[str] | None = None,
    tags: str | list[str] | None = None,
    limit: int | None = None,
) -> list[tuple[str, OpsTask]]:
    """The (set label, task) pairs, chosen as ``opsbench run`` chooses them."""
    from opsbench.runner import RunConfig, select_tasks

    config = RunConfig(
        models=("inspect",),
        sets=(set,),
        businesses=_csv(business),
        tasks=_csv(task),
        tags=_csv(tags),
        limit=limit,
    )
    return select_tasks(config)


def values(score: dict[str, Any]) -> dict[str, float]:
    """An OpsBench score as Inspect score values: the scores, then the failure classes."""
    from opsbench.metrics import failure_classes

    classes = {c.replace(" ", "_") for c in failure_classes(score)}
    tags = {v.get("tag") for v in score.get("violations", [])}
    if tags - set(VIOLATION_TAGS):
        classes.add("other_violation")
    out = {
        "passed": float(bool(score["passed"])),
        "completed": float(bool(score["completed"])),
        "collateral": float(bool(score["collateral"])),
        "escalation": float(score["escalation"] in ("tp", "tn")),
        "violations": float(bool(score["violations"])),
        "disclosed": float(bool(score["disclosed"])),
    }
    out.update({name: float(name in classes) for name in FAILURE_CLASSES})
    return out


@solver
def opsbench_episode(
    set: str = "public",
    caller: str = "scripted",
    seed: int = 0,
    max_turns: int | None = None,
    max_tool_rounds: int | None = None,
) -> Solver:
    """Run the sample's OpsBench episode with the active Inspect model, and score it.

    The sample's id names the task in ``set``; the solver's arguments are plain values, so
    Inspect can record them in the log.
    """
    from businesses import initial_tables
    from opsbench.runner import episode_seed, resolve_caller
    from sandbox.diff import diff
    from sandbox.episode import Limits, run_episode
    from sandbox.scorer import score_episode

    tasks = {t.id: t for _label, t in select(set)}
    make_caller, _identity = resolve_caller(caller)
    defaults = Limits()
    limits = Limits(max_turns or defaults.max_turns, max_tool_rounds or defaults.max_tool_rounds)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        ops_task = tasks[str(state.sample_id)]
        model = get_model()
        # Inspect's epochs are OpsBench's trials: epoch 1 is trial 0, with the run's seed.
        trial = max(state.epoch - 1, 0)
        result = await run_episode(
            ops_task,
            initial_tables(ops_task),
            lambda _context: InspectAssistant(model),
            make_caller,
            seed=episode_seed(seed, trial),
            trial=trial,
            limits=limits,
        )
        if result.infrastructure_error:
            # Not the model's fault and not a score: Inspect records the sample as an error.
            raise RuntimeError(f"infrastructure error: {result.error}")
        score = score_episode(ops_task, result).to_dict()
        state.store.set(
            STORE_KEY,
            {
                "score": score,
                "endings": list(result.endings),
                "ledger": [e.to_dict() for e in result.ledger],
                "diff": [r.to_dict() for r in diff(result.initial, result.final)],
            },
        )
        state.messages = _conversation(ops_task, result)
        spoken = [u.text for u in result.transcript if u.speaker == "assistant" and u.text]
        state.output = ModelOutput.from_content(model.name, spoken[-1] if spoken else "")
        return state

    return solve


def _conversation(ops_task: OpsTask, result: Any) -> list[ChatMessage]:
    """Every session's conversation as the assistant saw it, for ``inspect view``."""
    from contract.messages import Message, ToolResult
    from sandbox.prompt import system_prompt

    out: list[ChatMessage] = []
    records = iter(result.trace)
    for index, session in enumerate(ops_task.sessions):
        messages: list[Message] = []
        for line in result.transcript:
            if line.session != index:
                continue
            if line.speaker == "caller":
                messages.append(Message("user", line.text))
                continue
            calls = tuple(_neutral_call(c) for c in line.tool_calls)
            messages.append(Message("assistant", line.text, tool_calls=calls))
            if calls:
                done = [next(records) for _ in calls]
                messages.append(
                    Message(
                        "tool",
                        tool_results=tuple(
                            ToolResult(c.id, c.name, _json(r.result), is_error=not r.ok)
                            for c, r in zip(calls, done, strict=True)
                        ),
                    )
                )
        out.extend(chat_messages(system_prompt(ops_task.business, session.at), messages))
    return out


def _neutral_call(call: dict[str, Any]) -> Any:
    from contract.messages import ToolCall

    return ToolCall(call["id"], call["name"], call["arguments"])


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


@scorer(metrics=[{"*": [mean(), stderr()]}])
def opsbench_scorer():  # type: ignore[no-untyped-def]
    """OpsBench's scores and failure classes for the episode the solver ran."""

    async def score(state: TaskState, target: Target) -> Score:
        from opsbench.metrics import failure_classes

        stored = state.store.get(STORE_KEY)
        ops = stored["score"]
        classes = failure_classes(ops)
        return Score(
            value=values(ops),
            answer=state.output.completion,
            explanation="; ".join(ops["reasons"]) or "passed",
            metadata={
                "opsbench_score": ops,
                "failure_classes": classes,
                "endings": stored["endings"],
                "ledger": stored["ledger"],
                "diff": stored["diff"],
            },
        )

    return score


@task
def opsbench(
    set: str = "public",
    business: str | None = None,
    task: str | None = None,
    tags: str | None = None,
    limit: int | None = None,
    caller: str = "scripted",
    seed: int = 0,
    max_turns: int | None = None,
    max_tool_rounds: int | None = None,
) -> Task:
    """OpsBench: an assistant that acts in a simulated business, scored by what it changed.

    ``set``: ``public``, a directory of businesses, or ``LABEL=DIR``; ``business``, ``task``
    (glob) and ``tags`` filter (comma-separated); ``caller``: ``scripted`` or ``llm:<model>``.
    """
    from opsbench.runner import parse_task_set

    chosen = select(set, business, task, tags, limit)
    samples = [
        Sample(
            id=t.id,
            input=f"{t.business.name}: {t.title}",
            metadata={
                "set": label,
                "business": t.business.id,
                "tags": list(t.tags),
                "coverage": t.coverage,
                "task_version": t.version(),
            },
        )
        for label, t in chosen
    ]
    return Task(
        dataset=MemoryDataset(samples, name=f"opsbench-{parse_task_set(set).label}"),
        solver=opsbench_episode(set, caller, seed, max_turns, max_tool_rounds),
        scorer=opsbench_scorer(),
        version=0,
    )
