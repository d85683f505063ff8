"""A set of businesses: one folder per business under a root, loaded all at once."""

from __future__ import annotations

from pathlib import Path

from businesses.errors import LoadError
from businesses.loader import PUBLIC_DIR, load_business
from sandbox.task import Business, Task


def load_set(root: str | Path = PUBLIC_DIR) -> tuple[list[Business], list[Task]]:
    """Every business under ``root`` (one directory each). Problems from all of them at once.

    A set that holds no business is an error, not an empty success: a gate pointed at the
    wrong folder must fail, not pass with nothing checked.
    """
    root = Path(root)
    if not root.is_dir():
        raise LoadError([f"{root}: no such directory of businesses"])
    if (root / "business.yaml").exists():
        raise LoadError(
            [
                f"{root}: is one business's folder; a set is the folder that holds business "
                f"folders: use {root.parent}"
            ]
        )
    businesses, tasks, problems = [], [], []
    for directory in sorted(p for p in root.iterdir() if p.is_dir()):
        if not (directory / "business.yaml").exists():
            misnamed = _misnamed(directory)
            if misnamed:
                problems.append(f"{directory.name}: {misnamed}")
            continue
        try:
            business, found = load_business(directory)
        except LoadError as exc:
            problems.extend(f"{directory.name}/{line}" for line in exc.problems)
            continue
        businesses.append(business)
        tasks.extend(found)
    if problems:
        raise LoadError(problems)
    if not businesses:
        raise LoadError(
            [
                f"{root}: no businesses in this folder: expected one folder per business, each "
                "with business.yaml and tasks.yaml"
            ]
        )
    return businesses, tasks


def _misnamed(directory: Path) -> str | None:
    """Why a folder that looks like a business is not one, or None if it does not look like one."""
    names = {p.name for p in directory.iterdir() if p.is_file()}
    for name in sorted(names):
        if name.lower() in ("business.yml", "business.yaml") and name != "business.yaml":
            return f"has {name} but no business.yaml: rename it business.yaml"
    if "tasks.yaml" in names or "tasks.yml" in names:
        return "has a task file but no business.yaml"
    return None
