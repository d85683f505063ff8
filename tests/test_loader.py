"""Broken business and task files: each breakage gives one clear error naming file and path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from businesses import LoadError, load_business
from tests.helpers import MINI

SOURCE = MINI / "mini_clinic"


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "mini_clinic"
    shutil.copytree(SOURCE, target)
    return target


def _edit(directory: Path, file: str, change) -> None:
    path = directory / file
    data = yaml.safe_load(path.read_text("utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")


def _task(data, index=0):
    return data["tasks"][index]


BREAKAGES = [
    (
        "missing policy",
        "business.yaml",
        lambda d: d.pop("policy"),
        "business.yaml: (top level): 'policy' is a required property",
    ),
    (
        "unknown tool",
        "business.yaml",
        lambda d: d["tools"].append("teleport"),
        "business.yaml: tools[15]: unknown tool 'teleport'",
    ),
    (
        "unknown rule type",
        "business.yaml",
        lambda d: d["rules"].append({"rule": "be_nice"}),
        "business.yaml: rules[4].rule: unknown rule type 'be_nice'",
    ),
    (
        "unknown allowance condition",
        "business.yaml",
        lambda d: d.setdefault("allowed", []).append({"insert": "notes", "who": "anyone"}),
        "business.yaml: allowed[0].who: 'anyone' is not one of ['caller', 'verified_caller']",
    ),
    (
        "an unknown refundable basis",
        "business.yaml",
        lambda d: d["rules"].append({"rule": "entitlement", "params": {"refundable": ["gift"]}}),
        "business.yaml: rules[4].params.refundable[0]: 'gift' is not one of",
    ),
    (
        "an invalid goodwill regex",
        "business.yaml",
        lambda d: d["rules"].append(
            {"rule": "entitlement", "params": {"refundable": [], "goodwill_when": [{"note": "("}]}}
        ),
        "business.yaml: rules[4].params.goodwill_when[0].note: '(' is not a 'regex'",
    ),
    (
        "mistyped rule parameter",
        "business.yaml",
        lambda d: d["rules"][2]["params"].update(amount_cents="ten"),
        "business.yaml: rules[2].params.amount_cents: 'ten' is not of type 'integer'",
    ),
    (
        "unknown rule parameter",
        "business.yaml",
        lambda d: d["rules"][1].update(params={"except": "vip"}),
        "business.yaml: rules[1].params.except: unknown field 'except'",
    ),
    (
        "seed record off schema",
        "business.yaml",
        lambda d: d["seed"]["appointments"][0].update(status="maybe"),
        "business.yaml: seed.appointments[0] (APT-1001).status: 'maybe' is not one of",
    ),
    (
        "duplicate seed id",
        "business.yaml",
        lambda d: d["seed"]["customers"].append(dict(d["seed"]["customers"][0])),
        "business.yaml: seed.customers[2].id: duplicate id 'CUS-1001'",
    ),
    (
        "unknown seed table",
        "business.yaml",
        lambda d: d["seed"].update(pets=[{"id": "PET-1"}]),
        "business.yaml: seed.pets: unknown table",
    ),
    (
        "time in the wrong format",
        "tasks.yaml",
        lambda d: _task(d).update(now="March 2nd 9am"),
        "tasks.yaml: tasks[0].now: 'March 2nd 9am' does not match",
    ),
    (
        "task for another business",
        "tasks.yaml",
        lambda d: d.update(business="pizza_place"),
        "tasks.yaml: business: names 'pizza_place'",
    ),
    (
        "duplicate task id",
        "tasks.yaml",
        lambda d: _task(d, 1).update(id=_task(d)["id"]),
        "tasks.yaml: tasks[1].id: duplicate task id",
    ),
    (
        "task id outside the business",
        "tasks.yaml",
        lambda d: _task(d).update(id="other/thing"),
        "tasks.yaml: tasks[0].id: 'other/thing' must start with 'mini_clinic'/",
    ),
    (
        "unknown coverage cell",
        "tasks.yaml",
        lambda d: _task(d).update(coverage="weird"),
        "tasks.yaml: tasks[0].coverage: 'weird' is not one of",
    ),
    (
        "unknown table in an assertion",
        "tasks.yaml",
        lambda d: _task(d)["expect"]["outcome"][0].update(update="appointmints/APT-1001"),
        "tasks.yaml: tasks[0].expect.outcome[0].update: unknown table 'appointmints'",
    ),
    (
        "unknown matcher",
        "tasks.yaml",
        lambda d: _task(d)["expect"]["outcome"][0]["where"].update(
            start={"around": "2026-03-05T14:00"}
        ),
        "tasks.yaml: tasks[0].expect.outcome[0].where.start: unknown matcher ['around']",
    ),
    (
        "oracle calls a tool the business lacks",
        "tasks.yaml",
        lambda d: _task(d)["oracle"].append({"call": "refund", "args": {}}),
        "tasks.yaml: tasks[0].oracle[6].call: tool 'refund' is not enabled for mini_clinic",
    ),
    (
        "fault on a tool the business lacks",
        "tasks.yaml",
        lambda d: _task(d)["faults"].append({"tool": "charge"}),
        "tasks.yaml: tasks[0].faults[1].tool: 'charge' is not enabled for mini_clinic",
    ),
    (
        "setup updates a record that does not exist",
        "tasks.yaml",
        lambda d: _task(d).update(setup={"update": {"customers/CUS-9999": {"name": "X"}}}),
        "tasks.yaml: tasks[0].setup.update.customers/CUS-9999: no such record in the seed data",
    ),
    (
        "disclose an unknown action kind",
        "tasks.yaml",
        lambda d: _task(d)["expect"]["disclose"].append("teleport_done"),
        "tasks.yaml: tasks[0].expect.disclose[2]: unknown action kind 'teleport'",
    ),
    (
        "unknown temperament",
        "tasks.yaml",
        lambda d: _task(d)["caller"].update(temperament="grumpy"),
        "tasks.yaml: tasks[0].caller.temperament: 'grumpy' is not one of",
    ),
    (
        "unexpected task field",
        "tasks.yaml",
        lambda d: _task(d).update(gold_state={}),
        "tasks.yaml: tasks[0].gold_state: unknown field 'gold_state'; known: caller,",
    ),
    (
        "second session before the first",
        "tasks.yaml",
        lambda d: _task(d, 3)["sessions"][0].update(at="2026-03-01T09:00"),
        "tasks.yaml: tasks[3].sessions[0].at: 2026-03-01T09:00 is not after 2026-03-02T09:10",
    ),
    (
        "a caller move whose condition does not compile",
        "tasks.yaml",
        lambda d: _task(d)["caller"].update(moves=[{"say": "Hi", "heard": "(unclosed"}]),
        "tasks.yaml: tasks[0].caller.moves[0].heard: not a valid regular expression",
    ),
    (
        "a goal met by an unknown kind of action",
        "tasks.yaml",
        lambda d: _task(d)["caller"].update(done_when=["teleport"]),
        "tasks.yaml: tasks[0].caller.done_when[0]: unknown action kind 'teleport'",
    ),
    (
        "a caller still written as a script in step with the plan",
        "tasks.yaml",
        lambda d: _task(d)["caller"].update(script=["Hi"]),
        "tasks.yaml: tasks[0].caller.script: unknown field 'script'",
    ),
    (
        "setup leaves a record off schema",
        "tasks.yaml",
        lambda d: _task(d).update(setup={"update": {"customers/CUS-1001": {"credit_cents": -5}}}),
        "tasks.yaml: tasks[0].setup: after setup, customers/CUS-1001.credit_cents: -5 is less than the minimum of 0",
    ),
]


@pytest.mark.parametrize(
    "file, change, expected", [b[1:] for b in BREAKAGES], ids=[b[0] for b in BREAKAGES]
)
def test_a_broken_file_gives_one_error_naming_file_and_path(tmp_path, file, change, expected):
    directory = _copy(tmp_path)
    _edit(directory, file, change)
    with pytest.raises(LoadError) as caught:
        load_business(directory)
    assert len(caught.value.problems) == 1, caught.value.problems
    assert caught.value.problems[0].startswith(expected), caught.value.problems[0]


def test_invalid_yaml_names_the_line_and_column(tmp_path):
    directory = _copy(tmp_path)
    (directory / "tasks.yaml").write_text(
        "business: mini_clinic\ntasks:\n  - id: [unclosed\n", "utf-8"
    )
    with pytest.raises(LoadError) as caught:
        load_business(directory)
    assert caught.value.problems == [caught.value.problems[0]]
    assert caught.value.problems[0].startswith("tasks.yaml: line 4, column 1: invalid YAML")


def test_a_missing_tasks_file_is_named(tmp_path):
    directory = _copy(tmp_path)
    (directory / "tasks.yaml").unlink()
    with pytest.raises(LoadError, match=r"tasks.yaml: cannot read"):
        load_business(directory)


def test_the_fixture_loads_cleanly():
    business, tasks = load_business(SOURCE)
    assert business.id == "mini_clinic" and len(tasks) == 5


def test_task_version_changes_when_the_task_changes(tmp_path):
    _, before = load_business(SOURCE)
    directory = _copy(tmp_path)
    _edit(
        directory, "tasks.yaml", lambda d: _task(d).update(title="A different title for the task")
    )
    _, after = load_business(directory)
    assert before[0].version() != after[0].version()
    assert before[1].version() == after[1].version()


def test_task_version_changes_when_the_business_changes(tmp_path):
    _, before = load_business(SOURCE)
    directory = _copy(tmp_path)
    _edit(directory, "business.yaml", lambda d: d.update(policy=d["policy"] + "\nBe brief."))
    _, after = load_business(directory)
    assert all(b.version() != a.version() for b, a in zip(before, after, strict=True))
