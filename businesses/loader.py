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

from businesses import cache as compiled
from businesses.errors import LoadError
from businesses.smallfile import read_small_file
from sandbox.assertions import MATCHER_KEYS
from sandbox.claims import KINDS
from sandbox.rules import RULE_TYPES
from sandbox.schema_errors import describe, did_you_mean
from sandbox.state import State
from sandbox.tables import STANDARD_TABLES, TableSpec
from sandbox.task import (
    Assertion,
    Business,
    CallerSpec,
    Expect,
    Move,
    RuleSpec,
    Session,
    Tactic,
    Task,
)
from tools import default_registry
from tools.timefmt import parse_time

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


def _schema_problems(data: Any, schema_name: str, file: str) -> list[str]:
    # Imported here: a task set read from the compiled cache validates nothing, and the
    # import is a fifth of a second of start-up.
    import jsonschema

    validator = jsonschema.Draft202012Validator(_schema(schema_name))
    problems = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        # oneOf errors are vague; name the most specific sub-error when there is one.
        best = jsonschema.exceptions.best_match([error]) if error.context else error
        for path, message in describe(best):
            problems.append(f"{file}: {format_path(path)}: {message}")
    return problems


def load_business(directory: str | Path) -> tuple[Business, list[Task]]:
    """Load one business and its tasks. Raises :class:`LoadError` listing every problem.

    A business whose files and loading code are unchanged since it last loaded comes from
    the compiled cache (:mod:`businesses.cache`): the same objects, without parsing or
    checking again.
    """
    directory = Path(directory)
    names = ("business.yaml", "tasks.yaml")
    data = [read_small_file(directory / name) for name in names]
    if any(d is None for d in data):  # missing or unreadable: the loader names the problem
        return _load_business(directory, {})
    files: dict[str, bytes] = {n: d for n, d in zip(names, data, strict=True) if d is not None}
    # The result names its files (task sources), so the folder's path is part of the key.
    name = compiled.key([("directory", str(directory.resolve()).encode()), *files.items()])
    hit = compiled.read(name)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    loaded = _load_business(directory, files)
    compiled.write(name, loaded)
    return loaded


def _read(directory: Path, name: str, files: Mapping[str, bytes]) -> Any:
    # Imported here: a business read from the compiled cache parses no YAML.
    from businesses.yamlfile import decode_yaml, read_yaml

    data = files.get(name)
    return read_yaml(directory / name) if data is None else decode_yaml(data, name)


def _load_business(directory: Path, files: Mapping[str, bytes]) -> tuple[Business, list[Task]]:
    business_file = directory / "business.yaml"
    tasks_file = directory / "tasks.yaml"
    raw_business = _read(directory, business_file.name, files)
    problems = _schema_problems(raw_business, "business", business_file.name)
    if problems:
        raise LoadError(problems)
    business = _business(raw_business, business_file, problems)
    if problems:
        raise LoadError(problems)
    raw_tasks = _read(directory, tasks_file.name, files)
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
                f"{name}: tools[{index}]: unknown tool {tool!r}"
                f"{did_you_mean(tool, list(registry.names()))}; known: {', '.join(registry.names())}"
            )
    rules = []
    for index, spec in enumerate(raw["rules"]):
        rule_type = RULE_TYPES.get(spec["rule"])
        if rule_type is None:
            problems.append(
                f"{name}: rules[{index}].rule: unknown rule type {spec['rule']!r}"
                f"{did_you_mean(spec['rule'], sorted(RULE_TYPES))}; "
                f"known: {', '.join(sorted(RULE_TYPES))}"
            )
            continue
        params = spec.get("params", {})
        # Formats are checked too: a rule's regular expression that does not compile is a load
        # error, not a traceback when the first episode is scored.
        import jsonschema  # see _schema_problems

        validator = jsonschema.Draft202012Validator(
            rule_type.params_schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
        )
        for error in validator.iter_errors(params):
            # A parameter that may take two shapes (a name, or a name with a condition): name
            # the most specific sub-error rather than "not valid under any of the schemas".
            best = jsonschema.exceptions.best_match(error.context) if error.context else error
            for path, message in describe(best):
                problems.append(
                    f"{name}: {format_path(['rules', index, 'params', *path])}: {message}"
                )
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
            problems.append(
                f"{name}: seed.{table}: unknown table{did_you_mean(table, sorted(specs))}; "
                "declare it under tables:"
            )
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
    allowed = _assertions(raw.get("allowed", []), f"{name}: allowed", specs, problems)
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
    raw: list[Mapping[str, Any]], where: str, tables: Mapping[str, TableSpec], problems: list[str]
) -> tuple[Assertion, ...]:
    out = []
    for index, spec in enumerate(raw):
        path = f"{where}[{index}]"
        op = next(k for k in ("insert", "update", "delete") if k in spec)
        table, _, record_id = spec[op].partition("/")
        if table not in tables:
            problems.append(
                f"{path}.{op}: unknown table {table!r}{did_you_mean(table, sorted(tables))}"
            )
        else:
            _check_field_names(spec, tables[table], path, problems)
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


def _move(raw: Mapping[str, Any] | str) -> Move:
    if isinstance(raw, str):
        return Move(say=raw)
    turn = raw.get("turn", ())
    unless_done = raw.get("unless_done", ())
    return Move(
        say=raw.get("say"),
        tactic=raw.get("tactic"),
        turn=(turn,) if isinstance(turn, str) else tuple(turn),
        heard=raw.get("heard"),
        unless=raw.get("unless"),
        unless_done=(unless_done,) if isinstance(unless_done, str) else tuple(unless_done),
        times=int(raw["times"]) if "times" in raw else None,
        hang_up=bool(raw.get("hang_up", False)),
    )


def _check_field_names(
    spec: Mapping[str, Any], table: TableSpec, path: str, problems: list[str]
) -> None:
    """A field an assertion names must be a field of its table (a typo would never match)."""
    known = table.schema.get("properties")
    if not known or table.schema.get("additionalProperties", True) is not False:
        return  # an open schema (an extra table's) may hold any field
    names = [(f"where.{f}", f) for f in spec.get("where", {})]
    names += [(f"fields[{i}]", f) for i, f in enumerate(spec.get("fields", []))]
    for where, field in names:
        # A dotted path (``items.0.product_id``) reaches into a field: its head must exist.
        field = str(field).split(".", 1)[0]
        if field not in known:
            problems.append(
                f"{path}.{where}: {table.name} has no field {field!r}"
                f"{did_you_mean(field, sorted(known))}"
            )


def _check_time(text: str, where: str, problems: list[str]) -> bool:
    """Whether ``text`` (already of the schema's shape) is a real time; if not, say so."""
    try:
        parse_time(text)
    except ValueError as exc:
        problems.append(f"{where}: {text!r} is not a real time ({exc})")
        return False
    return True


def _caller(raw: Mapping[str, Any]) -> CallerSpec:
    tactics = tuple(
        Tactic(t)
        if isinstance(t, str)
        else Tactic(t["name"], {k: v for k, v in t.items() if k != "name"})
        for t in raw.get("tactics", [])
    )
    change = raw.get("change")
    return CallerSpec(
        name=raw["name"],
        temperament=raw["temperament"],
        goal=raw["goal"],
        knows=raw.get("knows", {}),
        tactics=tactics,
        opening=raw["opening"],
        answers={str(k): str(v) for k, v in (raw.get("answers") or {}).items()},
        moves=tuple(_move(m) for m in raw.get("moves", [])),
        reactions=tuple(_move(m) for m in raw.get("reactions", [])),
        corrections=tuple(_move(m) for m in raw.get("corrections", [])),
        change=None if change is None else _move(change),
        done_when=tuple(raw.get("done_when", [])),
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
    """Every regular expression of a caller spec compiles; every action kind it names exists."""
    for index, entry in enumerate(caller.get("done_when", [])):
        for kind in (k for k in str(entry).split("|") if k not in KINDS):
            problems.append(
                f"{where}.done_when[{index}]: unknown action kind {kind!r}; known: {', '.join(KINDS)}"
            )
    groups = {
        "moves": caller.get("moves", []),
        "reactions": caller.get("reactions", []),
        "corrections": caller.get("corrections", []),
    }
    if "change" in caller:
        groups["change"] = [caller["change"]]
    for group, moves in groups.items():
        for index, move in enumerate(moves):
            if not isinstance(move, Mapping):
                continue
            done = move.get("unless_done", [])
            for kind in (
                k for e in ([done] if isinstance(done, str) else done) for k in e.split("|")
            ):
                if kind not in KINDS:
                    problems.append(
                        f"{where}.{group}[{index}].unless_done: unknown action kind {kind!r}"
                    )
            for key in ("heard", "unless"):
                if key not in move:
                    continue
                try:
                    re.compile(move[key])
                except re.error as exc:
                    place = group if group == "change" else f"{group}[{index}]"
                    problems.append(f"{where}.{place}.{key}: not a valid regular expression: {exc}")


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
        # The seed was validated once with its business: only the records this task's setup
        # inserts or updates need checking (every schema check is per record).
        touched: dict[str, set[str]] = {}
        for table, inserted in setup.get("insert", {}).items():
            touched.setdefault(table, set()).update(r["id"] for r in inserted)
        for target in setup.get("update", {}):
            table, _, record_id = target.partition("/")
            touched.setdefault(table, set()).add(record_id)
        if touched:
            state = State(tables, {**STANDARD_TABLES, **business.extra_tables})
            overlay = {t: ids for t, ids in sorted(touched.items()) if t in state.tables}
            for line in state.validate(records=overlay):
                problems.append(f"{where}.setup: after setup, {line}")
    for index, fault in enumerate(raw.get("faults", [])):
        if fault["tool"] not in business.tools:
            problems.append(
                f"{where}.faults[{index}].tool: {fault['tool']!r} is not enabled for {business.id}"
            )
    expect_raw = raw["expect"]
    tables = {**STANDARD_TABLES, **business.extra_tables}
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
    _check_time(raw["now"], f"{where}.now", problems)
    sessions = [Session(raw["now"], _caller(raw["caller"]), tuple(raw["oracle"]))]
    for index, extra in enumerate(raw.get("sessions", [])):
        _check_steps(extra["oracle"], f"{where}.sessions[{index}].oracle", business, problems)
        real = _check_time(extra["at"], f"{where}.sessions[{index}].at", problems)
        if real and extra["at"] <= sessions[-1].at:
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
