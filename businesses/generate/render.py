"""Rendering a kit draw into the ``business.yaml`` + ``tasks.yaml`` the loader already reads.

Templates run in Jinja2's sandbox with ``StrictUndefined`` (a misspelt name is an error, never an
empty string). The business renders first; its seed tables and identity are then given to every
scenario template. The rendered files are loaded by the ordinary strict loader, and every problem
is one line naming the kit file and scenario that produced it.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from businesses.errors import LoadError
from businesses.generate.context import Names, TemplateProblem
from businesses.generate.draw import Draw, anchor_date, draw_params, rng
from businesses.generate.errors import KitError
from businesses.generate.kit import Kit
from businesses.loader import load_business
from businesses.yamlfile import parse_yaml
from sandbox.task import Business, Task

MAX_ATTEMPTS = 5
_TASK_LINE = re.compile(r"^tasks\.yaml: tasks\[(\d+)\]\.?(.*)$")


def business_id(kit: Kit, draw: Draw) -> str:
    """``<kit_id>`` for the public draw, ``<kit_id>_v<NN>`` for a held-out variant."""
    return kit.id if draw.public else f"{kit.id}_v{draw.variant:02d}"


def task_id(kit: Kit, draw: Draw, slug: str) -> str:
    """``<prefix>/<slug>`` (public) or ``<business_id>/<slug>`` (held-out)."""
    return f"{kit.prefix if draw.public else business_id(kit, draw)}/{slug}"


def label(draw: Draw, attempt: int | None = None) -> str:
    """How a problem names the draw: never the secret."""
    text = "public draw" if draw.public else f"{draw.period} v{draw.variant:02d}"
    return text + (f" attempt {attempt}" if attempt and attempt > 1 else "")


@dataclass
class RenderedDraw:
    """One draw rendered: the business text and one task block per scenario that rendered."""

    kit: Kit
    draw: Draw
    business_id: str
    business_text: str
    blocks: dict[str, str] = field(default_factory=dict)  # slug -> task block text
    attempts: dict[str, int] = field(default_factory=dict)

    def tasks_text(self, slugs: list[str] | None = None) -> str:
        chosen = sorted(self.blocks) if slugs is None else slugs
        body = "\n".join(self.blocks[s] for s in chosen)
        tasks = f"tasks:\n{body}" if chosen else "tasks: []\n"
        return f"{_header(self.kit, self.draw)}business: {self.business_id}\n{tasks}"

    def write(self, directory: Path, slugs: list[str] | None = None) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "business.yaml").write_text(self.business_text, "utf-8")
        (directory / "tasks.yaml").write_text(self.tasks_text(slugs), "utf-8")


class KitRenderer:
    """Renders draws of one kit (the Jinja environment and compiled templates are shared)."""

    def __init__(self, kit: Kit) -> None:
        self.kit = kit
        self.env = SandboxedEnvironment(
            loader=jinja2.FileSystemLoader(str(kit.root)),
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
            trim_blocks=True,  # a {% if %} line leaves no blank line in the YAML
            lstrip_blocks=True,
            autoescape=False,
        )
        self._names: dict[Draw, tuple[Names, dict[str, Any]]] = {}

    def _where(self, relative: str) -> str:
        return f"{self.kit.id}/{relative}"

    def _render(self, relative: str, context: dict[str, Any], tag: str) -> str:
        where = f"{self._where(relative)} ({tag})"
        try:
            return self.env.get_template(relative).render(context)
        except jinja2.TemplateSyntaxError as exc:
            raise KitError([f"{where}: line {exc.lineno}: {exc.message}"]) from None
        except (jinja2.TemplateError, TemplateProblem, TypeError, ValueError, KeyError,
                AttributeError, IndexError, ZeroDivisionError) as exc:  # fmt: skip
            line = _template_line(exc, relative)
            at = f"line {line}: " if line else ""
            raise KitError([f"{where}: {at}{_message(exc)}"]) from None

    def names(self, draw: Draw) -> Names:
        return self._base(draw)[0]

    def _base(self, draw: Draw) -> tuple[Names, dict[str, Any]]:
        if draw not in self._names:
            params = draw_params(draw, self.kit.params)
            names = Names(draw, anchor_date(draw, self.kit.today), params, self.kit.pools)
            self._names[draw] = (names, {})
        return self._names[draw]

    def render_business(self, draw: Draw) -> RenderedDraw:
        """Render ``business.yaml.j2`` for ``draw``; its id must be ``{{ business.id }}``."""
        names, shared = self._base(draw)
        bid = business_id(self.kit, draw)
        context = names.namespace(draw.rng("business"))
        context["business"] = {"id": bid, "type": self.kit.type}
        text = _header(self.kit, draw) + self._render("business.yaml.j2", context, label(draw))
        where = f"{self._where('business.yaml.j2')} (rendered, {label(draw)})"
        raw = _mapping(text, where, "a mapping (a business.yaml)")
        if raw.get("id") != bid:
            raise KitError(
                [
                    f"{where}: id: renders {raw.get('id')!r}; write id: {{{{ business.id }}}} "
                    f"(here {bid!r}) so each draw has its own business id"
                ]
            )
        shared["business"] = {"id": bid, "name": raw.get("name"), "type": raw.get("type")}
        shared["seed"] = raw.get("seed") or {}
        return RenderedDraw(self.kit, draw, bid, text)

    def render_scenario(self, rendered: RenderedDraw, slug: str, attempt: int = 1) -> None:
        """Render one scenario into ``rendered.blocks`` (the scenario RNG is (draw, slug, attempt))."""
        draw = rendered.draw
        names, shared = self._base(draw)
        slots = rng(*draw.parts(), "scenario", slug, attempt)
        context = names.namespace(slots) | {"business": shared["business"], "seed": shared["seed"]}
        relative = f"scenarios/{slug}.yaml.j2"
        text = self._render(relative, context, label(draw, attempt))
        where = f"{self._where(relative)} (rendered, {label(draw, attempt)})"
        raw = _mapping(text, where, "one task (a mapping of its fields)")
        if "id" in raw:
            raise KitError(
                [
                    f"{where}: id: the generator sets the id ({task_id(self.kit, draw, slug)}); remove it"
                ]
            )
        if text.lstrip().startswith("---"):
            raise KitError([f"{where}: one task per file, without a --- document marker"])
        rendered.blocks[slug] = _block(task_id(self.kit, draw, slug), text)
        rendered.attempts[slug] = attempt

    def render(self, draw: Draw) -> RenderedDraw:
        """The business and every scenario (first attempt) of ``draw``; all problems at once."""
        rendered = self.render_business(draw)
        problems: list[str] = []
        for slug in self.kit.scenarios:
            try:
                self.render_scenario(rendered, slug)
            except KitError as exc:
                problems.extend(exc.problems)
        if problems:
            raise KitError(problems)
        return rendered


def load_rendered(rendered: RenderedDraw, directory: Path, slugs: list[str] | None = None
                  ) -> tuple[Business, dict[str, Task]]:  # fmt: skip
    """Write ``rendered`` to ``directory`` and load it with the strict loader: slug -> task.

    Loader problems are prefixed with the kit file (and scenario) that produced them.
    """
    chosen = sorted(rendered.blocks) if slugs is None else slugs
    rendered.write(directory, chosen)
    try:
        business, tasks = load_business(directory)
    except LoadError as exc:
        raise KitError([_map_problem(rendered, chosen, line) for line in exc.problems]) from None
    return business, dict(zip(chosen, tasks, strict=True))


def _map_problem(rendered: RenderedDraw, slugs: list[str], line: str) -> str:
    kit, draw = rendered.kit, rendered.draw
    match = _TASK_LINE.match(line)
    if match and int(match.group(1)) < len(slugs):
        slug = slugs[int(match.group(1))]
        tag = label(draw, rendered.attempts.get(slug))
        return f"{kit.id}/scenarios/{slug}.yaml.j2 (rendered, {tag}): {match.group(2)}"
    if line.startswith("business.yaml: "):
        return (
            f"{kit.id}/business.yaml.j2 (rendered, {label(draw)}): {line[len('business.yaml: ') :]}"
        )
    return f"{kit.id} ({label(draw)}): {line}"


def _mapping(text: str, where: str, what: str) -> dict[str, Any]:
    """The rendered text parsed strictly; a kit problem unless it is a mapping."""
    try:
        raw = parse_yaml(text, where)
    except LoadError as exc:
        raise KitError(exc.problems) from None
    if not isinstance(raw, dict):
        raise KitError([f"{where}: must render to {what}"])
    return raw


def _block(identifier: str, text: str) -> str:
    """A scenario's rendered text as one item of ``tasks:``, its own layout kept."""
    lines = text.rstrip("\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    body = "\n".join(f"    {line}" if line.strip() else "" for line in lines)
    return f"  - id: {identifier}\n{body}\n"


def _header(kit: Kit, draw: Draw) -> str:
    return (
        f"# Generated from businesses/kits/{kit.id} ({label(draw)}) by "
        "`opsbench businesses generate`: edit the kit, not this file.\n"
    )


def _template_line(exc: BaseException, relative: str) -> int | None:
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.replace("\\", "/").endswith(relative):
            line = frame.lineno
    return line


def _message(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, jinja2.UndefinedError):
        return f"{text} (a name KITS.md lists, a p.<param> of kit.yaml, or a field of the record)"
    return text.splitlines()[0] if text else type(exc).__name__
