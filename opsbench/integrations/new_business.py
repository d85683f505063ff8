"""``opsbench businesses new NAME``: a skeleton business with one example task per coverage cell.

The files are rendered from the templates in ``skeleton/`` (data, not code): a business with a
policy, the rules that check it (verification, no fee waiver, a goodwill limit, a hand-off for
an irreversible cancellation), its tools and seed data, and eleven tasks, one per cell of
``sandbox.task.COVERAGE_CELLS``, that pass ``opsbench businesses validate --matrix`` with no
gap, each commented with pointers to the authoring guide, ``businesses/README.md``.
"""

from __future__ import annotations

import re
from pathlib import Path

SKELETON = Path(__file__).parent / "skeleton"
FILES = ("business.yaml", "tasks.yaml")
_ID = re.compile(r"^[a-z][a-z0-9_]{1,48}$")


class NewBusinessError(ValueError):
    """The name or the output directory cannot be used (one line, for the CLI)."""


def display_name(business_id: str) -> str:
    """``pet_grooming`` -> ``Pet Grooming``."""
    return " ".join(part.capitalize() for part in business_id.split("_") if part)


def write_business(business_id: str, out: Path) -> list[Path]:
    """Write ``out/<business_id>/{business,tasks}.yaml``; refuses to overwrite anything."""
    import jinja2

    if not _ID.match(business_id):
        raise NewBusinessError(
            f"business name {business_id!r} must be lower_snake: a letter, then letters, digits "
            "or underscores (2 to 49 characters), e.g. pet_grooming"
        )
    if out.exists() and not out.is_dir():
        raise NewBusinessError(f"--out {out}: not a directory")
    target = out / business_id
    existing = [target / f for f in FILES if (target / f).exists()]
    if existing:
        raise NewBusinessError(f"{existing[0]} already exists; choose another name or --out")
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(SKELETON),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,  # YAML, not HTML
    )
    values = {"id": business_id, "name": display_name(business_id), "set_dir": str(out)}
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name in FILES:
        path = target / name
        path.write_text(environment.get_template(f"{name}.j2").render(values), encoding="utf-8")
        written.append(path)
    return written
