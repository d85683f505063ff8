"""Strict files: typos, duplicates, impossible times, bad bytes and oversized input are each one
line naming the file and the path, never a traceback and never a silent pass (issue 14)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from businesses import LoadError, load_business, load_set
from businesses.errors import MAX_PROBLEM_CHARS
from businesses.yamlfile import MAX_FILE_BYTES
from tests.helpers import MINI

SOURCE = MINI / "mini_clinic"


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "mini_clinic"
    shutil.copytree(SOURCE, target)
    return target


def _replace(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), "utf-8")


def _one_problem(directory: Path) -> str:
    with pytest.raises(LoadError) as caught:
        load_business(directory)
    assert len(caught.value.problems) == 1, caught.value.problems
    return caught.value.problems[0]


# (name, file, old text, new text, the start of the one problem line)
TEXT_EDITS = [
    (
        "misspelt seed field, with a did-you-mean",
        "business.yaml",
        'final_billing_date: "2026-03-02"}',
        'final_billing: "2026-03-02"}',
        "business.yaml: seed.subscriptions[0] (SUB-1001).final_billing: unknown field "
        "'final_billing'; did you mean 'final_billing_date'?",
    ),
    (
        "misspelt task key, with a did-you-mean",
        "tasks.yaml",
        "    expect:\n      outcome:",
        "    expect:\n      outcomes:",
        "tasks.yaml: tasks[0].expect.outcomes: unknown field 'outcomes'; did you mean 'outcome'?",
    ),
    (
        "misspelt field in an assertion",
        "tasks.yaml",
        "where: {start: {between",
        "where: {begin: {between",
        "tasks.yaml: tasks[0].expect.outcome[0].where.begin: appointments has no field 'begin'",
    ),
    (
        "duplicate YAML key",
        "tasks.yaml",
        "    coverage: multi_step_failure\n",
        "    coverage: multi_step_failure\n    coverage: cooperative\n",
        "tasks.yaml: line 6, column 5: invalid YAML: duplicate key 'coverage' (first at line 5)",
    ),
    (
        "impossible now",
        "tasks.yaml",
        "now: 2026-03-02T09:10",
        "now: 2026-02-30T09:10",
        "tasks.yaml: tasks[0].now: '2026-02-30T09:10' is not a real time",
    ),
    (
        "impossible seed time",
        "business.yaml",
        'start: "2026-03-03T10:00"',
        'start: "2026-03-03T25:00"',
        "business.yaml: seed.appointments[0] (APT-1001).start: '2026-03-03T25:00' is not a",
    ),
    (
        "impossible date",
        "business.yaml",
        'next_billing_date: "2026-03-02"',
        'next_billing_date: "2026-02-31"',
        "business.yaml: seed.subscriptions[0] (SUB-1001).next_billing_date: '2026-02-31' is not",
    ),
    (
        "appointment that ends before it starts",
        "business.yaml",
        'end: "2026-03-03T10:30"',
        'end: "2026-03-03T09:00"',
        "business.yaml: seed.appointments[0] (APT-1001).end: 2026-03-03T09:00 is not after start",
    ),
]


@pytest.mark.parametrize(
    "file, old, new, expected", [e[1:] for e in TEXT_EDITS], ids=[e[0] for e in TEXT_EDITS]
)
def test_a_strict_file_problem_is_one_line(tmp_path, file, old, new, expected):
    directory = _copy(tmp_path)
    _replace(directory / file, old, new)
    problem = _one_problem(directory)
    assert problem.startswith(expected), problem


def test_a_setup_typo_that_would_make_a_cancellation_reversible_is_refused(tmp_path):
    directory = _copy(tmp_path)
    path = directory / "tasks.yaml"
    data = yaml.safe_load(path.read_text("utf-8"))
    data["tasks"][0]["setup"] = {"update": {"subscriptions/SUB-1001": {"final_billing": None}}}
    path.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    problem = _one_problem(directory)
    assert "final_billing: unknown field 'final_billing'; did you mean 'final_billing_date'?" in (
        problem
    )


def test_an_unquoted_date_is_read_as_the_text_written(tmp_path):
    directory = _copy(tmp_path)
    _replace(directory / "tasks.yaml", 'dob: "1984-06-12"}', "dob: 1984-06-12}")
    _replace(
        directory / "business.yaml",
        'next_billing_date: "2026-03-02"',
        "next_billing_date: 2026-03-02",
    )
    business, tasks = load_business(directory)
    assert tasks[0].caller.knows["dob"] == "1984-06-12"
    assert business.seed["subscriptions"]["SUB-1001"]["next_billing_date"] == "2026-03-02"


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "tasks.yaml: is a binary file (NUL byte at"),
        (
            "business: mini_clinic # café\n".encode("latin-1"),
            "tasks.yaml: line 1, column 28: not UTF-8",
        ),
        ("business: mini_clinic\n".encode("utf-16"), "tasks.yaml: is UTF-16 or UTF-32 text"),
    ],
    ids=["binary", "latin-1", "utf-16"],
)
def test_bytes_that_are_not_utf8_text_are_one_line(tmp_path, content, expected):
    directory = _copy(tmp_path)
    (directory / "tasks.yaml").write_bytes(content)
    problem = _one_problem(directory)
    assert problem.startswith(expected), problem


def test_an_alias_bomb_fails_fast_in_one_line(tmp_path):
    directory = _copy(tmp_path)
    levels = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for n in range(1, 9):
        refs = ", ".join([f"*a{n - 1}"] * 9)
        levels.append(f"a{n}: &a{n} [{refs}]")
    bomb = "\n".join(levels) + "\n"
    assert len(bomb) < 600
    (directory / "tasks.yaml").write_text(bomb, "utf-8")
    problem = _one_problem(directory)
    assert "aliases expand to more than" in problem and problem.startswith("tasks.yaml: line")


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path):
    directory = _copy(tmp_path)
    with (directory / "tasks.yaml").open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)
    problem = _one_problem(directory)
    assert problem.startswith("tasks.yaml: ") and "limit" in problem


def test_a_huge_bad_value_is_cut_in_the_error_line(tmp_path):
    directory = _copy(tmp_path)
    _replace(directory / "tasks.yaml", "coverage: multi_step_failure", "coverage: " + "x" * 200_000)
    problem = _one_problem(directory)
    assert problem.startswith("tasks.yaml: tasks[0].coverage: 'xxx")
    assert len(problem) <= MAX_PROBLEM_CHARS and "\n" not in problem


# -- a set that holds nothing is an error, whatever the way it is mis-pointed ----------------


def test_a_business_folder_given_as_the_set_is_refused(tmp_path):
    directory = _copy(tmp_path)
    with pytest.raises(LoadError, match="is one business's folder") as caught:
        load_set(directory)
    assert len(caught.value.problems) == 1


def test_an_empty_folder_is_not_a_set(tmp_path):
    with pytest.raises(LoadError, match="no businesses in this folder"):
        load_set(tmp_path)


def test_business_yml_is_named_with_the_fix(tmp_path):
    directory = _copy(tmp_path)
    (directory / "business.yaml").rename(directory / "business.yml")
    with pytest.raises(LoadError) as caught:
        load_set(tmp_path)
    assert caught.value.problems == [
        "mini_clinic: has business.yml but no business.yaml: rename it business.yaml"
    ]


def test_a_missing_business_yaml_is_named(tmp_path):
    directory = _copy(tmp_path)
    (directory / "business.yaml").unlink()
    with pytest.raises(LoadError) as caught:
        load_set(tmp_path)
    assert caught.value.problems == ["mini_clinic: has a task file but no business.yaml"]


# -- any value anywhere: loaded, or refused with LoadError lines; never another exception ----

_BASE = {
    name: yaml.safe_load((SOURCE / name).read_text("utf-8"))
    for name in ("business.yaml", "tasks.yaml")
}


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["2026-02-30T09:00", "2026-03-02T25:61", "0000-01-01", "APT-9999", "x" * 400]),
)
_VALUES = st.one_of(
    _SCALARS,
    st.lists(_SCALARS, max_size=3),
    st.dictionaries(st.text(max_size=5), _SCALARS, max_size=3),
)


@settings(max_examples=60, deadline=None, database=None)
@given(data=st.data())
def test_any_value_anywhere_is_loaded_or_refused_never_a_crash(tmp_path_factory, data):
    import copy

    from opsbench.validation import validate_task

    name = data.draw(st.sampled_from(sorted(_BASE)))
    changed = copy.deepcopy(_BASE[name])
    path = data.draw(st.sampled_from(list(_paths(changed))[1:]))
    parent = changed
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and data.draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = data.draw(_VALUES)
    directory = tmp_path_factory.mktemp("any") / "mini_clinic"
    directory.mkdir()
    for file, content in _BASE.items():
        text = yaml.safe_dump(changed if file == name else content, sort_keys=False)
        (directory / file).write_text(text, "utf-8")
    try:
        _, tasks = load_business(directory)
    except LoadError as exc:
        assert exc.problems and all("\n" not in p for p in exc.problems)
        return
    for task in tasks:
        assert isinstance(validate_task(task), list)
