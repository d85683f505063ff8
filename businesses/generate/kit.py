"""Reading a kit folder: ``kit.yaml``, ``pools/*.yaml``, ``business.yaml.j2`` and its scenarios.

Every problem is one line naming the kit file and the key inside it, all at once.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from businesses.errors import LoadError
from businesses.generate.errors import KitError
from businesses.yamlfile import read_yaml

KITS_DIR = Path(__file__).parents[1] / "kits"
KIT_ID = re.compile(r"^[a-z][a-z0-9_]*$")
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
KIT_KEYS = {"id", "prefix", "type", "public", "params", "pools"}
PARAM_KINDS = ("range", "choices", "subsets_of")
SCENARIO_SUFFIX = ".yaml.j2"
# A record id a template draws with ``id('PAY', k)``, and the same shape written out by hand.
DRAWN_PREFIX = re.compile(r"""\bid\(\s*['"]([A-Z]{2,5})['"]""")
LITERAL_ID = re.compile(r"\b([A-Z]{2,5})-\d{4}\b")


@dataclass(frozen=True)
class Kit:
    """A kit as read from its folder (templates kept as text; rendering is :mod:`render`)."""

    id: str
    prefix: str
    type: str
    today: date
    params: dict[str, dict[str, Any]]
    pools: dict[str, Any]
    root: Path
    scenarios: tuple[str, ...]  # slugs, sorted

    def scenario_file(self, slug: str) -> Path:
        return self.root / "scenarios" / f"{slug}{SCENARIO_SUFFIX}"

    def content_hash(self) -> str:
        """sha256 over every file of the kit (path and bytes), so a manifest names its source."""
        digest = hashlib.sha256()
        for path in sorted(p for p in self.root.rglob("*") if p.is_file()):
            if "__pycache__" in path.parts:
                continue
            digest.update(path.relative_to(self.root).as_posix().encode("utf-8") + b"\0")
            digest.update(path.read_bytes() + b"\0")
        return digest.hexdigest()


def kit_dirs(root: Path = KITS_DIR) -> list[Path]:
    """Every kit folder under ``root`` (a folder holding ``kit.yaml``), sorted by name."""
    if not root.is_dir():
        raise KitError([f"{root}: no such directory of kits"])
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / "kit.yaml").is_file())


def load_kit(directory: Path) -> Kit:
    """Read and check one kit folder. Raises :class:`KitError` listing every problem."""
    where = directory / "kit.yaml"
    try:
        raw = read_yaml(where)
    except LoadError as exc:
        raise KitError([f"{directory.name}/{line}" for line in exc.problems]) from None
    name = f"{directory.name}/kit.yaml"
    if not isinstance(raw, dict):
        raise KitError([f"{name}: must be a mapping with id, prefix, type, public, params, pools"])
    problems = [
        f"{name}: {key}: unknown key; known: {', '.join(sorted(KIT_KEYS))}"
        for key in raw
        if key not in KIT_KEYS
    ]
    for key in ("id", "prefix", "type", "public"):
        if key not in raw:
            problems.append(f"{name}: {key}: missing")
    kit_id, prefix = raw.get("id"), raw.get("prefix")
    if kit_id is not None and (not isinstance(kit_id, str) or not KIT_ID.match(kit_id)):
        problems.append(f"{name}: id: {kit_id!r} must be lower_snake")
    elif kit_id is not None and kit_id != directory.name:
        problems.append(f"{name}: id: {kit_id!r} must equal the folder name {directory.name!r}")
    if prefix is not None and isinstance(kit_id, str):
        # The loader takes task ids that start with the business id or its part before "_".
        allowed = (kit_id, kit_id.split("_")[0])
        if prefix not in allowed:
            problems.append(f"{name}: prefix: {prefix!r} must be {' or '.join(map(repr, allowed))}")
    today = _public_today(raw.get("public"), name, problems)
    params = raw.get("params") or {}
    if not isinstance(params, dict):
        problems.append(f"{name}: params: must be a mapping of name -> spec")
        params = {}
    for pname, spec in params.items():
        problems.extend(_param_problems(pname, spec, f"{name}: params.{pname}"))
    pools = _pools(directory, raw.get("pools") or {}, name, problems)
    if not (directory / "business.yaml.j2").is_file():
        problems.append(f"{directory.name}: business.yaml.j2: missing")
    scenarios = _scenarios(directory, problems)
    problems.extend(literal_id_problems(directory, scenarios))
    if problems:
        raise KitError(problems)
    return Kit(
        id=str(kit_id),
        prefix=str(prefix),
        type=str(raw["type"]),
        today=today,  # type: ignore[arg-type]
        params=params,
        pools=pools,
        root=directory,
        scenarios=scenarios,
    )


def _public_today(public: Any, name: str, problems: list[str]) -> date | None:
    if public is None:
        return None
    if not isinstance(public, dict) or "today" not in public:
        problems.append(f"{name}: public: must be a mapping with today: YYYY-MM-DD")
        return None
    for key in public:
        if key != "today":
            problems.append(f"{name}: public.{key}: unknown key; known: today")
    try:
        return date.fromisoformat(str(public["today"]))
    except ValueError:
        problems.append(f"{name}: public.today: {public['today']!r} is not a date YYYY-MM-DD")
        return None


def _param_problems(pname: str, spec: Any, where: str) -> list[str]:
    if not isinstance(spec, dict) or "public" not in spec:
        return [
            f"{where}: must be a mapping with public: and at most one of {', '.join(PARAM_KINDS)}"
        ]
    kinds = [k for k in PARAM_KINDS if k in spec]
    allowed = {
        "public",
        *kinds,
        *({"step"} if "range" in kinds else ()),
        *({"min", "max"} if "subsets_of" in kinds else ()),
    }
    problems = [
        f"{where}.{key}: unknown key; known: {', '.join(sorted(allowed))}"
        for key in spec
        if key not in allowed
    ]
    if len(kinds) > 1:
        problems.append(f"{where}: give one of {', '.join(PARAM_KINDS)}, not {' and '.join(kinds)}")
    if "range" in spec:
        bounds, step = spec["range"], spec.get("step", 1)
        numbers = (
            isinstance(bounds, list)
            and len(bounds) == 2
            and all(isinstance(b, int | float) and not isinstance(b, bool) for b in bounds)
        )
        if not numbers or bounds[0] > bounds[1]:
            problems.append(f"{where}.range: must be [low, high] numbers with low <= high")
        if not isinstance(step, int | float) or isinstance(step, bool) or step <= 0:
            problems.append(f"{where}.step: must be a number above 0")
    if "choices" in spec and (not isinstance(spec["choices"], list) or not spec["choices"]):
        problems.append(f"{where}.choices: must be a non-empty list")
    if "subsets_of" in spec:
        items = spec["subsets_of"]
        if not isinstance(items, list) or not items:
            problems.append(f"{where}.subsets_of: must be a non-empty list")
        else:
            low, high = spec.get("min", 0), spec.get("max", len(items))
            if not (
                isinstance(low, int) and isinstance(high, int) and 0 <= low <= high <= len(items)
            ):
                problems.append(
                    f"{where}: need 0 <= min <= max <= {len(items)} (the list's length)"
                )
    return problems


def _pools(directory: Path, inline: Any, name: str, problems: list[str]) -> dict[str, Any]:
    if not isinstance(inline, dict):
        problems.append(f"{name}: pools: must be a mapping of name -> list")
        return {}
    pools = dict(inline)
    origin = {key: name for key in pools}
    folder = directory / "pools"
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        label = f"{directory.name}/pools/{path.name}"
        try:
            more = read_yaml(path)
        except LoadError as exc:
            problems.extend(f"{directory.name}/pools/{line}" for line in exc.problems)
            continue
        if not isinstance(more, dict):
            problems.append(f"{label}: must be a mapping of pool name -> list")
            continue
        for key, value in more.items():
            if key in pools:
                problems.append(f"{label}: {key}: pool already given in {origin[key]}")
                continue
            pools[key], origin[key] = value, label
    for key, value in pools.items():
        if key == "phrasings":
            if not isinstance(value, dict) or not all(
                isinstance(v, list) and v for v in value.values()
            ):
                problems.append(f"{origin[key]}: phrasings: must map each key to a non-empty list")
        elif not isinstance(value, list) or not value:
            problems.append(f"{origin[key]}: {key}: a pool must be a non-empty list")
    return pools


def _scenarios(directory: Path, problems: list[str]) -> tuple[str, ...]:
    folder = directory / "scenarios"
    if not folder.is_dir():
        problems.append(f"{directory.name}/scenarios: missing (one <slug>.yaml.j2 per task)")
        return ()
    slugs = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(("_", ".")) or not path.is_file():
            continue  # shared macros (_macros.j2) and editor files are not scenarios
        if not path.name.endswith(SCENARIO_SUFFIX):
            problems.append(
                f"{directory.name}/scenarios/{path.name}: a scenario file is "
                f"<slug>{SCENARIO_SUFFIX}"
            )
            continue
        slug = path.name[: -len(SCENARIO_SUFFIX)]
        if not SLUG.match(slug):
            problems.append(
                f"{directory.name}/scenarios/{path.name}: slug {slug!r} must be "
                "lower-case letters, digits and dashes"
            )
            continue
        slugs.append(slug)
    if not slugs and folder.is_dir():
        problems.append(f"{directory.name}/scenarios: holds no <slug>{SCENARIO_SUFFIX}")
    return tuple(slugs)


def literal_id_problems(directory: Path, scenarios: tuple[str, ...]) -> list[str]:
    """Record ids written literally where the kit draws ids of that prefix with ``id()``.

    A held-out draw moves every drawn id by a base of its own (``PAY-1007`` becomes
    ``PAY-3107``), so a literal ``PAY-2001`` that is free in the public draw is a seeded
    record's id in some other draw: the task then fails to load for that secret alone.
    """
    files = [directory / "business.yaml.j2"]
    files += [directory / "scenarios" / f"{slug}{SCENARIO_SUFFIX}" for slug in scenarios]
    texts = {path: path.read_text(encoding="utf-8") for path in files if path.is_file()}
    drawn = {prefix for text in texts.values() for prefix in DRAWN_PREFIX.findall(text)}
    problems: list[str] = []
    for path, text in texts.items():
        for number, line in enumerate(text.splitlines(), 1):
            found = {m.group(0): m.group(1) for m in LITERAL_ID.finditer(line)}
            problems += [
                f"{path.relative_to(directory.parent).as_posix()}: line {number}: "
                f"record id {literal!r} written literally; another draw can give a seeded "
                f"record that id: write {{{{ id({prefix!r}, k) }}}}"
                for literal, prefix in found.items()
                if prefix in drawn
            ]
    return problems
