"""Fault injection: make a tool fail on purpose, the way real back ends do.

A task lists faults such as ``{tool: set_reminder, when: always, error: "Reminder service
unavailable"}``. A faulted call is validated first (a malformed call is rejected whatever the
fault), then fails without touching state and is recorded as ``failed``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sandbox.errors import FaultSpecError

DEFAULT_FAULT_ERROR = "The service is temporarily unavailable."


@dataclass(frozen=True)
class Fault:
    """One injected failure.

    ``when`` is ``always``, ``nth`` (the ``n``-th valid call to the tool, counting from 1, in the
    episode) or ``probability`` (each valid call fails with probability ``p``, drawn from the
    episode seed so a rerun fails the same calls). ``match`` narrows it to calls whose arguments
    have the given values.
    """

    tool: str
    when: str = "always"
    n: int | None = None
    p: float | None = None
    error: str = DEFAULT_FAULT_ERROR
    code: str = "unavailable"
    match: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.when not in {"always", "nth", "probability"}:
            raise FaultSpecError(
                f"fault on {self.tool!r}: 'when' must be always, nth or probability; got {self.when!r}"
            )
        if self.when == "nth" and (not isinstance(self.n, int) or self.n < 1):
            raise FaultSpecError(f"fault on {self.tool!r}: 'nth' needs n >= 1; got {self.n!r}")
        if self.when == "probability" and not (
            isinstance(self.p, int | float) and 0.0 <= self.p <= 1.0
        ):
            raise FaultSpecError(
                f"fault on {self.tool!r}: 'probability' needs 0 <= p <= 1; got {self.p!r}"
            )

    @classmethod
    def from_dict(cls, spec: Mapping[str, Any]) -> Fault:
        """Build from the task-file form: ``when`` may be ``always``, ``{nth: k}`` or ``{probability: p}``."""
        when: Any = spec.get("when", "always")
        n: Any = None
        p: Any = None
        if isinstance(when, Mapping):
            if "nth" in when:
                when, n = "nth", when["nth"]
            elif "probability" in when:
                when, p = "probability", when["probability"]
            else:
                raise FaultSpecError(
                    f"fault on {spec.get('tool')!r}: unknown 'when' {dict(when)!r}"
                )
        return cls(
            tool=spec["tool"],
            when=when,
            n=n if n is not None else spec.get("n"),
            p=p if p is not None else spec.get("p"),
            error=spec.get("error", DEFAULT_FAULT_ERROR),
            code=spec.get("code", "unavailable"),
            match=dict(spec.get("match", {})),
        )


class FaultInjector:
    """Decides, call by call, whether a fault fires. Deterministic under ``seed``."""

    def __init__(self, faults: Iterable[Fault] = (), seed: int | str = 0) -> None:
        self.faults = list(faults)
        self.seed = seed
        self._calls: Counter[str] = Counter()

    def check(self, tool: str, arguments: Mapping[str, Any]) -> Fault | None:
        """Count this valid call and return the fault that fires for it, if any."""
        self._calls[tool] += 1
        number = self._calls[tool]
        for fault in self.faults:
            if fault.tool != tool:
                continue
            if any(arguments.get(k) != v for k, v in fault.match.items()):
                continue
            if fault.when == "always":
                return fault
            if fault.when == "nth" and number == fault.n:
                return fault
            if fault.when == "probability":
                # A string seed gives Random the same sequence on every Python and platform.
                draw = random.Random(f"{self.seed}/{tool}/{number}").random()
                if draw < (fault.p or 0.0):
                    return fault
        return None
