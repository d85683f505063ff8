"""What the reference routes share: their phrases (``readback.yaml``) and how a plan's steps
group into writes."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from typing import Any

from adapters.reference.assistants import _VARIABLE, _is_write
from contract.yamldata import load_data


@cache
def phrases() -> dict[str, Any]:
    """``adapters/reference/readback.yaml`` parsed."""
    text = resources.files("adapters.reference").joinpath("readback.yaml").read_text("utf-8")
    return load_data(text)


def refs(value: Any) -> set[str]:
    """The ``${name}`` results ``value`` uses."""
    return {m.group(1) for m in _VARIABLE.finditer(json.dumps(value))}


def is_lookup(step: Mapping[str, Any]) -> bool:
    """Whether ``step`` is a look-up that may be repeated (a read, not a verification)."""
    name = str(step.get("call", ""))
    return "call" in step and not _is_write(step) and not name.startswith("verify")


def segments(steps: list[dict[str, Any]]) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each group: consecutive writes (no say, no transfer between)."""
    index = 0
    while index < len(steps):
        if _is_write(steps[index]) and steps[index]["call"] != "transfer_to_human":
            end = index
            while (
                end < len(steps)
                and _is_write(steps[end])
                and steps[end]["call"] != "transfer_to_human"
            ):
                end += 1
            yield index, end
            index = end
        else:
            index += 1
