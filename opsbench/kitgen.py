"""``opsbench businesses generate``: render every kit for a draw, validate, redraw or drop.

Each rendered task is validated the way the public tasks are (:func:`opsbench.matrix.task_problems`:
every valid route, the reference-assistant matrix, the idle assistant). A task that fails is
re-rendered with the next attempt (a new scenario RNG, same rules and data) up to
:data:`~businesses.generate.MAX_ATTEMPTS` times, else dropped and counted; it is never shipped.
Validation runs in a process pool; the output depends only on (secret, period, kits), never on
the pool or the clock.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from businesses.generate import (
    KITS_DIR,
    MAX_ATTEMPTS,
    Draw,
    KitError,
    KitRenderer,
    RenderedDraw,
    kit_dirs,
    load_kit,
    load_rendered,
)
from businesses.generate.render import label

GENERATED_MARK = "# Generated from businesses/kits/"


@dataclass
class KitCount:
    """What happened to one kit's scenarios across its draws."""

    kit: str
    content_hash: str
    scenarios: int
    businesses: list[str] = field(default_factory=list)
    rendered: int = 0
    redrawn: int = 0
    dropped: list[dict[str, str]] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)

    @property
    def shipped(self) -> int:
        return self.rendered - len(self.dropped)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.kit,
            "content_hash": self.content_hash,
            "scenarios": self.scenarios,
            "businesses": self.businesses,
            "rendered": self.rendered,
            "redrawn": self.redrawn,
            "dropped": len(self.dropped),
            "shipped": self.shipped,
            "dropped_tasks": self.dropped,
            "coverage_gaps": self.gaps,
        }


@dataclass
class Generation:
    """The result of one ``generate``: per-kit counts (what manifest.json holds)."""

    period: str
    variants: int
    public: bool
    kits: list[KitCount]

    @property
    def rendered(self) -> int:
        return sum(k.rendered for k in self.kits)

    @property
    def dropped(self) -> int:
        return sum(len(k.dropped) for k in self.kits)

    @property
    def redrawn(self) -> int:
        return sum(k.redrawn for k in self.kits)

    def manifest(self) -> dict[str, Any]:
        # No secret, no clock: the same (secret, period) gives the same bytes.
        return {
            "generator": "opsbench businesses generate",
            "draw": "public" if self.public else "heldout",
            "period": None if self.public else self.period,
            "variants": self.variants,
            "max_attempts": MAX_ATTEMPTS,
            "rendered": self.rendered,
            "redrawn": self.redrawn,
            "dropped": self.dropped,
            "shipped": self.rendered - self.dropped,
            "kits": [k.as_json() for k in self.kits],
        }


def _check_directory(directory: str, slugs: list[str]) -> dict[str, list[str]]:
    """Pool worker: load one rendered business folder and check the tasks of ``slugs``."""
    from businesses.loader import load_business
    from opsbench.matrix import task_problems

    _, tasks = load_business(directory)
    by_slug = {t.id.split("/", 1)[1]: t for t in tasks}
    return {slug: task_problems(by_slug[slug]) for slug in slugs}


def generate(
    out: Path,
    *,
    period: str | None,
    secret: str | None,
    variants: int = 1,
    kits_root: Path = KITS_DIR,
    kits: list[str] | None = None,
    jobs: int = 1,
    validate: bool = True,
    say: Callable[[str], None] = lambda line: None,
) -> Generation:
    """Render, validate and write every kit's draws to ``out``; returns the counts.

    ``secret=None`` is the public draw (one variant, business id = kit id). Raises
    :class:`KitError` for a broken kit or template (every problem one line).
    """
    public = secret is None
    directories = kit_dirs(kits_root)
    if kits is not None:
        known = {d.name: d for d in directories}
        unknown = [k for k in kits if k not in known]
        if unknown:
            raise KitError([f"--kit {unknown[0]!r}: no such kit in {kits_root}; known: "
                            f"{', '.join(sorted(known)) or 'none'}"])  # fmt: skip
        directories = [known[k] for k in kits]
    if not directories:
        raise KitError([f"{kits_root}: holds no kit (a folder with kit.yaml)"])
    loaded, problems = [], []
    for directory in directories:
        try:
            loaded.append(load_kit(directory))
        except KitError as exc:
            problems.extend(exc.problems)
    if problems:
        raise KitError(problems)
    count = 1 if public else variants
    renders: list[tuple[KitRenderer, RenderedDraw, KitCount]] = []
    counts = []
    for kit in loaded:
        renderer = KitRenderer(kit)
        tally = KitCount(kit.id, kit.content_hash(), len(kit.scenarios))
        counts.append(tally)
        for variant in range(1, count + 1):
            draw = Draw(kit.id) if public else Draw(kit.id, secret, str(period), variant)
            rendered = renderer.render(draw)
            renders.append((renderer, rendered, tally))
            tally.businesses.append(rendered.business_id)
            tally.rendered += len(kit.scenarios)
    with tempfile.TemporaryDirectory(prefix="opsbench-kits-") as staging:
        _validate_all(Path(staging), renders, jobs if validate else 0, public, say)
    _write(out, renders)
    generation = Generation(str(period) if period else "public", count, public, counts)
    for tally in counts:
        tally.gaps = _coverage_gaps(out, tally)
    (out / "manifest.json").write_text(
        json.dumps(generation.manifest(), indent=2, sort_keys=False) + "\n", "utf-8"
    )
    return generation


def _validate_all(
    staging: Path,
    renders: list[tuple[KitRenderer, RenderedDraw, KitCount]],
    jobs: int,
    public: bool,
    say: Callable[[str], None],
) -> None:
    """Check every rendered task; redraw the failing ones round by round; drop what never holds."""
    if jobs == 0:
        for _, rendered, _ in renders:
            load_rendered(rendered, staging / rendered.business_id)
        return
    pending = {index: sorted(rendered.blocks) for index, (_, rendered, _) in enumerate(renders)}
    pool: Executor | None = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        attempt = 1
        while pending:
            results = _run_round(staging, renders, pending, attempt, pool)
            retry: dict[int, list[str]] = {}
            for index, failing in results.items():
                renderer, rendered, tally = renders[index]
                for slug, problems in failing.items():
                    if attempt < MAX_ATTEMPTS and not public:
                        renderer.render_scenario(rendered, slug, attempt + 1)
                        tally.redrawn += 1
                        retry.setdefault(index, []).append(slug)
                        continue
                    task = f"{rendered.business_id}/{slug}"
                    tally.dropped.append({"task": task, "attempts": str(attempt),
                                          "reason": problems[0]})  # fmt: skip
                    del rendered.blocks[slug]
                    say(f"dropped {task} ({label(rendered.draw, attempt)}): {problems[0]}")
            pending, attempt = retry, attempt + 1
    finally:
        if pool is not None:
            pool.shutdown()


def _run_round(
    staging: Path,
    renders: list[tuple[KitRenderer, RenderedDraw, KitCount]],
    pending: dict[int, list[str]],
    attempt: int,
    pool: Executor | None,
) -> dict[int, dict[str, list[str]]]:
    """One round: write each draw's pending scenarios, check them; index -> failing slug -> why."""
    futures: dict[int, Any] = {}
    for index, slugs in pending.items():
        rendered = renders[index][1]
        directory = staging / f"{rendered.business_id}-{renders[index][2].kit}-a{attempt}"
        load_rendered(rendered, directory, slugs)  # loader problems are kit errors: raised
        if pool is None:
            futures[index] = _check_directory(str(directory), slugs)
        else:
            futures[index] = pool.submit(_check_directory, str(directory), slugs)
    results = {}
    for index, future in futures.items():
        found = future if isinstance(future, dict) else future.result()
        results[index] = {slug: why for slug, why in found.items() if why}
    return results


def _write(out: Path, renders: list[tuple[KitRenderer, RenderedDraw, KitCount]]) -> None:
    """Write the shipped tasks; remove earlier generated folders this draw does not write."""
    out.mkdir(parents=True, exist_ok=True)
    mine = {rendered.business_id for _, rendered, _ in renders}
    for child in sorted(out.iterdir()):
        if child.is_dir() and child.name not in mine and _generated(child):
            shutil.rmtree(child)
    for _, rendered, _ in renders:
        target = out / rendered.business_id
        if target.exists():
            shutil.rmtree(target)
        rendered.write(target)


def _generated(directory: Path) -> bool:
    business = directory / "business.yaml"
    try:
        with business.open("r", encoding="utf-8") as handle:
            return handle.readline().startswith(GENERATED_MARK)
    except (OSError, UnicodeDecodeError):
        return False


def _coverage_gaps(out: Path, tally: KitCount) -> list[str]:
    """Coverage cells a generated business leaves empty (after drops), one line each."""
    from businesses.loader import load_business
    from opsbench.matrix import missing_cells

    gaps = []
    for bid in tally.businesses:
        business, tasks = load_business(out / bid)
        gaps.extend(missing_cells([business], tasks))
    return gaps
