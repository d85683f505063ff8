"""Load a business directory (``business.yaml`` + ``tasks.yaml``) into the task model.

Every problem is reported with the file and the path inside it
(``tasks.yaml: tasks[3].expect.outcome[0].where.start: ...``), all at once, never as a
traceback. A task whose files do not load does not run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from businesses.errors import LoadError
from sandbox.assertions import MATCHER_KEYS
from sandbox.claims import KINDS
from sandbox.rules import RULE_TYPES
from sandbox.state import State
from sandbox.tables import STANDARD_TABLES, TableSpec
from sandbox.task import (
    Assertion,
    Business,
    CallerSpec,
    Expect,
    RuleSpec,
    Session,
    Tactic,
    Task,
)
from tools import default_registry

PUBLIC_DIR = Path(__file__).parent / "public"


@cache
def _schema(name: str) -> dict[str, Any]:
    text = (
        resources.files("businesses").joinpath("schema", f"{name}.schema.json").read_text("utf-8")
    )
    return json.loads(text)


def format_path(parts: list[Any]) -> str:
    """``["tasks", 3, "expect"]`` → ``tasks[3].expect``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


# libyaml's parser where PyYAML was built with it (7x faster on the public set), else the
# pure-Python one; both construct with SafeConstructor, so the objects are the same.
SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, loader: type[yaml.SafeLoader] | None = None) -> Any:
    """``text`` as plain data (safe tags only), with :data:`SAFE_LOADER` by default."""
    return yaml.load(text, Loader=loader or SAFE_LOADER)


def _read_yaml(path: Path) -> Any:
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise LoadError([f"{path}: cannot read: {exc.strerror}"]) from None
    try:
        return parse_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "?"
        problem = getattr(exc, "problem", None) or str(exc)
        raise LoadError([f"{path.name}: {where}: invalid YAML: {problem}"]) from None


def _schema_problems(data: Any, schema_name: str, file: str) -> list[str]:
    validator = jsonschema.Draft202012Validator(_schema(schema_name))
    problems = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        # oneOf errors are vague; name the most specific sub-error when there is one.
        best = jsonschema.exceptions.best_match([error]) if error.context else error
        path = format_path(list(best.absolute_path))
        problems.append(f"{file}: {path}: {best.message}")
    return problems


def load_business(directory: str | Path) -> tuple[Business, list[Task]]:
    """Load one business and its tasks. Raises :class:`LoadError` listing every problem."""
    directory = Path(directory)
    business_file = directory / "business.yaml"
    tasks_file = directory / "tasks.yaml"
    raw_business = _read_yaml(business_file)
    problems = _schema_problems(raw_business, "business", business_file.name)
    if problems:
        raise LoadError(problems)
    business = _business(raw_business, business_file, problems)
    if problems:
        raise LoadError(problems)
    raw_tasks = _read_yaml(tasks_file)
    problems = _schema_problems(raw_tasks, "tasks", tasks_file.name)
    if problems:
        raise LoadError(problems)
    if raw_tasks["business"] != business.id:
        raise LoadError(
            [
                f"{tasks_file.name}: business: names {raw_tasks['business']!r}, "
                f"but business.yaml is {business.id!r}"
            ]
        )
    tasks = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_tasks["tasks"]):
        where = f"{tasks_file.name}: tasks[{index}]"
        if raw["id"] in seen:
            problems.append(f"{where}.id: duplicate task id {raw['id']!r}")
        seen.add(raw["id"])
        if not raw["id"].startswith(business.id + "/") and not raw["id"].startswith(
            _short(business.id) + "/"
        ):
            problems.append(f"{where}.id: {raw['id']!r} must start with {business.id!r}/")
        task = _task(raw, business, where, str(tasks_file), problems)
        if task is not None:
            tasks.append(task)
    if problems:
        raise LoadError(problems)
    return business, tasks


def _short(business_id: str) -> str:
    return business_id.split("_")[0]


def _business(raw: Mapping[str, Any], file: Path, problems: list[str]) -> Business:
    name = file.name
    registry = default_registry()
    for index, tool in enumerate(raw["tools"]):
        if tool not in registry:
            problems.append(
                f"{name}: tools[{index}]: unknown tool {tool!r}; known: {', '.join(registry.names())}"
            )
    rules = []
    for index, spec in enumerate(raw["rules"]):
        rule_type = RULE_TYPES.get(spec["rule"])
        if rule_type is None:
            problems.append(
                f"{name}: rules[{index}].rule: unknown rule type {spec['rule']!r}; "
                f"known: {', '.join(sorted(RULE_TYPES))}"
            )
            continue
        params = spec.get("params", {})
        # Formats are checked too: a rule's regular expression that does not compile is a load
        # error, not a traceback when the first episode is scored.
        validator = jsonschema.Draft202012Validator(
            rule_type.params_schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
        )
        for error in validator.iter_errors(params):
            # A parameter that may take two shapes (a name, or a name with a condition): name
            # the most specific sub-error rather than "not valid under any of the schemas".
            best = jsonschema.exceptions.best_match(error.context) if error.context else error
            path = format_path(["rules", index, "params", *best.absolute_path])
            problems.append(f"{name}: {path}: {best.message}")
        rules.append(RuleSpec(spec["rule"], params))
    extra = {
        table: TableSpec(table, spec["prefix"], spec["schema"])
        for table, spec in raw.get("tables", {}).items()
    }
    for table in extra:
        if table in STANDARD_TABLES:
            problems.append(f"{name}: tables.{table}: is a standard table; pick another name")
    specs = {**STANDARD_TABLES, **extra}
    seed: dict[str, dict[str, dict[str, Any]]] = {}
    for table, records in raw["seed"].items():
        if table not in specs:
            problems.append(f"{name}: seed.{table}: unknown table; declare it under tables:")
            continue
        seed[table] = {}
        for index, record in enumerate(records):
            if record["id"] in seed[table]:
                problems.append(f"{name}: seed.{table}[{index}].id: duplicate id {record['id']!r}")
            seed[table][record["id"]] = record
    if not problems:
        state = State(seed, specs)
        positions = {t: {rid: i for i, rid in enumerate(recs)} for t, recs in seed.items()}
        for line in state.validate(seed):
            table, rest = line.split("/", 1)
            record_id, _, message = rest.partition(".")
            problems.append(
                f"{name}: seed.{table}[{positions[table].get(record_id, '?')}] ({record_id}).{message}"
            )
    allowed = _assertions(raw.get("allowed", []), f"{name}: allowed", set(specs), problems)
    return Business(
        allowed=allowed,
        id=raw["id"],
        name=raw["name"],
        type=raw["type"],
        timezone=raw["timezone"],
        greeting=raw["greeting"],
        policy=raw["policy"],
        rules=tuple(rules),
        tools=tuple(raw["tools"]),
        seed=seed,
        extra_tables=extra,
        source=str(file),
        instructions=raw.get("instructions", ""),
    )


def _assertions(
    raw: list[Mapping[str, Any]], where: str, tables: set[str], problems: list[str]
) -> tuple[Assertion, ...]:
    out = []
    for index, spec in enumerate(raw):
        path = f"{where}[{index}]"
        op = next(k for k in ("insert", "update", "delete") if k in spec)
        table, _, record_id = spec[op].partition("/")
        if table not in tables:
            problems.append(f"{path}.{op}: unknown table {table!r}")
        for field, matcher in spec.get("where", {}).items():
            if isinstance(matcher, Mapping) and matcher and not set(matcher) <= MATCHER_KEYS:
                bad = sorted(set(matcher) - MATCHER_KEYS)
                problems.append(
                    f"{path}.where.{field}: unknown matcher {bad}; known: {sorted(MATCHER_KEYS)}"
                )
        count = spec.get("count", 1)
        out.append(
            Assertion(
                op=op,
                table=table,
                id=record_id or None,
                where=spec.get("where", {}),
                count=None if count == "any" else count,
                fields=tuple(spec["fields"]) if "fields" in spec else None,
                tag=spec.get("tag"),
                why=spec.get("why"),
                path=path,
                who=spec.get("who"),
                when=spec.get("when"),
            )
        )
    return tuple(out)


def _caller(raw: Mapping[str, Any]) -> CallerSpec:
    tactics = tuple(
        Tactic(t)
        if isinstance(t, str)
        else Tactic(t["name"], {k: v for k, v in t.items() if k != "name"})
        for t in raw.get("tactics", [])
    )
    script = tuple({"say": line} if isinstance(line, str) else dict(line) for line in raw["script"])
    return CallerSpec(
        name=raw["name"],
        temperament=raw["temperament"],
        goal=raw["goal"],
        knows=raw.get("knows", {}),
        tactics=tactics,
        script=script,
        reactions=tuple(raw.get("reactions", [])),
    )


def _check_steps(
    steps: list[Mapping[str, Any]], where: str, business: Business, problems: list[str]
) -> None:
    for index, step in enumerate(steps):
        if "call" in step and step["call"] not in business.tools:
            problems.append(
                f"{where}[{index}].call: tool {step['call']!r} is not enabled for {business.id}"
            )
        for alternative in ("pushover", "reckless"):
            if alternative in step:
                _check_steps(
                    step[alternative], f"{where}[{index}].{alternative}", business, problems
                )


def _check_reactions(caller: Mapping[str, Any], where: str, problems: list[str]) -> None:
    for index, reaction in enumerate(caller.get("reactions", [])):
        try:
            re.compile(reaction["when"])
        except re.error as exc:
            problems.append(
                f"{where}.reactions[{index}].when: not a valid regular expression: {exc}"
            )


def _apply_setup(
    business: Business, setup: Mapping[str, Any], where: str, problems: list[str]
) -> dict:
    tables = {t: dict(records) for t, records in business.seed.items()}
    specs = {**STANDARD_TABLES, **business.extra_tables}
    for table, records in setup.get("insert", {}).items():
        if table not in specs:
            problems.append(f"{where}.setup.insert.{table}: unknown table")
            continue
        for index, record in enumerate(records):
            if record["id"] in tables.get(table, {}):
                problems.append(
                    f"{where}.setup.insert.{table}[{index}].id: {record['id']!r} already exists"
                )
            tables.setdefault(table, {})[record["id"]] = record
    for target, fields in setup.get("update", {}).items():
        table, _, record_id = target.partition("/")
        if record_id not in tables.get(table, {}):
            problems.append(f"{where}.setup.update.{target}: no such record in the seed data")
            continue
        tables[table][record_id] = {**tables[table][record_id], **fields}
    for index, target in enumerate(setup.get("delete", [])):
        table, _, record_id = target.partition("/")
        if record_id not in tables.get(table, {}):
            problems.append(f"{where}.setup.delete[{index}]: {target!r} is not in the seed data")
            continue
        del tables[table][record_id]
    return tables


def initial_tables(task: Task) -> dict[str, dict[str, dict[str, Any]]]:
    """The task's starting state: the business seed with the task's setup applied."""
    problems: list[str] = []
    tables = _apply_setup(task.business, task.setup, task.id, problems)
    if problems:
        raise LoadError(problems)
    return tables


def _task(
    raw: Mapping[str, Any], business: Business, where: str, source: str, problems: list[str]
) -> Task | None:
    before = len(problems)
    setup = raw.get("setup", {})
    tables = _apply_setup(business, setup, where, problems)
    if len(problems) == before:
        for line in State(tables, {**STANDARD_TABLES, **business.extra_tables}).validate():
            problems.append(f"{where}.setup: after setup, {line}")
    for index, fault in enumerate(raw.get("faults", [])):
        if fault["tool"] not in business.tools:
            problems.append(
                f"{where}.faults[{index}].tool: {fault['tool']!r} is not enabled for {business.id}"
            )
    expect_raw = raw["expect"]
    tables = set(STANDARD_TABLES) | set(business.extra_tables)
    expect = Expect(
        outcome=_assertions(
            expect_raw.get("outcome", []), f"{where}.expect.outcome", tables, problems
        ),
        allowed=_assertions(
            expect_raw.get("allowed", []), f"{where}.expect.allowed", tables, problems
        ),
        forbidden=_assertions(
            expect_raw.get("forbidden", []), f"{where}.expect.forbidden", tables, problems
        ),
        escalate=expect_raw["escalate"],
        disclose=tuple(expect_raw.get("disclose", [])),
    )
    for index, fact in enumerate(expect.disclose):
        kinds = [alt.removesuffix("_not_done").removesuffix("_done") for alt in fact.split("|")]
        for kind in (k for k in kinds if k not in KINDS):
            problems.append(
                f"{where}.expect.disclose[{index}]: unknown action kind {kind!r}; known: {', '.join(KINDS)}"
            )
    _check_steps(raw["oracle"], f"{where}.oracle", business, problems)
    _check_reactions(raw["caller"], f"{where}.caller", problems)
    for index, extra in enumerate(raw.get("sessions", [])):
        _check_reactions(extra["caller"], f"{where}.sessions[{index}].caller", problems)
    sessions = [Session(raw["now"], _caller(raw["caller"]), tuple(raw["oracle"]))]
    for index, extra in enumerate(raw.get("sessions", [])):
        _check_steps(extra["oracle"], f"{where}.sessions[{index}].oracle", business, problems)
        if extra["at"] <= sessions[-1].at:
            problems.append(
                f"{where}.sessions[{index}].at: {extra['at']} is not after {sessions[-1].at}"
            )
        sessions.append(Session(extra["at"], _caller(extra["caller"]), tuple(extra["oracle"])))
    if len(problems) > before:
        return None
    return Task(
        id=raw["id"],
        business=business,
        title=raw["title"],
        coverage=raw["coverage"],
        tags=tuple(raw.get("tags", [])),
        setup=setup,
        faults=tuple(raw.get("faults", [])),
        sessions=tuple(sessions),
        expect=expect,
        source=source,
        notes=raw.get("notes", ""),
        requires_action=bool(expect.outcome) or expect.escalate,
        _raw=raw,
    )


def load_set(root: str | Path = PUBLIC_DIR) -> tuple[list[Business], list[Task]]:
    """Every business under ``root`` (one directory each). Problems from all of them at once."""
    root = Path(root)
    if not root.is_dir():
        raise LoadError([f"{root}: no such directory of businesses"])
    businesses, tasks, problems = [], [], []
    for directory in sorted(p for p in root.iterdir() if (p / "business.yaml").exists()):
        try:
            business, found = load_business(directory)
        except LoadError as exc:
            problems.extend(f"{directory.name}/{line}" for line in exc.problems)
            continue
        businesses.append(business)
        tasks.extend(found)
    if problems:
        raise LoadError(problems)
    return businesses, tasks
