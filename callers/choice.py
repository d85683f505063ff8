"""``--caller scripted|llm:<model>``: from the command-line value to a caller factory and the
identity a run records, so results with different callers are never compared silently."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from callers.scripted import scripted_caller_factory
from sandbox.episode import CallerFactory

CALLER_FORMS = ("scripted", "llm:<model>")


@dataclass(frozen=True)
class CallerChoice:
    """The caller factory for a ``--caller`` value and its identity (JSON-able, for metadata)."""

    spec: str
    factory: CallerFactory
    identity: Mapping[str, Any]

    @property
    def label(self) -> str:
        return str(self.identity.get("label", self.spec))


def choose_caller(
    spec: str = "scripted",
    options: Mapping[str, Any] | None = None,
    base_url: str | None = None,
) -> CallerChoice:
    """``scripted`` or ``llm:<model>`` (with caller-model ``options`` and ``base_url``).

    Raises :class:`ValueError` for an unknown form, and :class:`adapters.errors.AdapterError`
    for a bad model string, option or missing key.
    """
    if spec == "scripted":
        if options:
            raise ValueError(
                f"caller options {sorted(options)} given, but the scripted caller takes none; "
                "use them with --caller llm:<model>"
            )
        return CallerChoice(spec, scripted_caller_factory, {"kind": "scripted", "label": spec})
    if spec.startswith("llm:") and len(spec) > len("llm:"):
        from callers.llm import llm_caller_factory  # an LLM caller only: its templates load

        factory = llm_caller_factory(spec.removeprefix("llm:"), options, base_url)
        identity = {**factory.identity.to_dict(), "label": factory.identity.label}
        return CallerChoice(spec, factory, identity)
    raise ValueError(f"unknown caller {spec!r}; expected one of {', '.join(CALLER_FORMS)}")
