"""What a result was produced with, beyond the task: the scorer, the server, the SDKs.

``task_version`` pins the data a score came from; this pins the code. The *scorer version* is
one hash over the source and data files of the simulation core (``sandbox/`` and ``tools/``:
the episode loop, the tools and their effect classes, the rules, the matchers, the claim
checker and its lexicons, the scorer). Any change to them changes it, a new rule module or
lexicon file included, so a run never mixes episodes scored by two scorers, and ``compare``
knows when two runs were not scored alike.

The *base URL* of each model is the one its adapter will really use: ``--base-url``, else the
provider's environment variable (``OPENAI_BASE_URL``, ``ANTHROPIC_BASE_URL``), else the
provider itself (``None``). SDK versions are those of the SDKs the run's models go through.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The packages whose code decides a score given a task.
SCORING_PACKAGES = ("sandbox", "tools")
_SKIP_DIRS = frozenset({"__pycache__"})
_SKIP_SUFFIXES = frozenset({".pyc", ".pyo"})
SDKS = ("openai", "anthropic", "litellm")


def scoring_files(root: Path) -> list[Path]:
    """Every source and data file under ``root``, in a stable order (caches left out)."""
    files = [
        path
        for path in root.rglob("*")
        if path.is_file()
        and path.suffix not in _SKIP_SUFFIXES
        and not _SKIP_DIRS & set(path.relative_to(root).parts)
    ]
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def hash_files(roots: Sequence[Path]) -> str:
    """One hash over the paths (relative to each root's parent) and bytes of their files."""
    digest = hashlib.sha256()
    for root in roots:
        for path in scoring_files(root):
            name = f"{root.name}/{path.relative_to(root).as_posix()}"
            digest.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


@cache
def scorer_version() -> str:
    """The scorer version of this installation (computed once per process)."""
    return hash_files([ROOT / name for name in SCORING_PACKAGES])


def _env_base_url(variable: str) -> str | None:
    return os.environ.get(variable) or None


def effective_base_url(model: str, base_url: str | None) -> str | None:
    """The server ``model`` will be sent to: ``--base-url``, else its provider's variable."""
    if base_url:
        return base_url
    if model.startswith("openai/") or model.startswith("litellm/openai/"):
        return _env_base_url("OPENAI_BASE_URL")
    if model.startswith("anthropic/"):
        return _env_base_url("ANTHROPIC_BASE_URL")
    return None


def sdks_of(model: str) -> tuple[str, ...]:
    """The provider SDKs a model string goes through (none for reference and custom agents)."""
    if model.startswith("openai/"):
        return ("openai",)
    if model.startswith("anthropic/"):
        return ("anthropic",)
    if model.startswith("litellm/"):
        return ("litellm", "openai") if model.startswith("litellm/openai/") else ("litellm",)
    return ()


def sdk_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def models_of(models: Sequence[str], caller: str, judge: str | None) -> list[str]:
    """Every model string a run talks to: its assistants, an LLM caller's model, the judge."""
    out = list(models)
    if caller.startswith("llm:"):
        out.append(caller.removeprefix("llm:"))
    if judge:
        out.append(judge)
    return list(dict.fromkeys(out))


def run_provenance(
    models: Sequence[str],
    caller: str,
    judge: str | None,
    base_url: str | None,
    redact: Any = lambda url: url,
) -> dict[str, Any]:
    """The provenance recorded with a run: scorer version, base URL per model, SDK versions."""
    talked_to = models_of(models, caller, judge)
    sdks = sorted({sdk for model in talked_to for sdk in sdks_of(model)})
    return {
        "scorer_version": scorer_version(),
        "base_urls": {m: redact(effective_base_url(m, base_url)) for m in talked_to},
        "sdks": {name: sdk_version(name) for name in sdks},
    }


def episode_provenance(run: Mapping[str, Any], model: str) -> dict[str, Any]:
    """What one episode of ``model`` was produced with, from its run's provenance."""
    sdks = run.get("sdks", {})
    return {
        "scorer_version": run.get("scorer_version"),
        "base_url": run.get("base_urls", {}).get(model),
        "sdks": {name: sdks.get(name) for name in sdks_of(model)},
    }
