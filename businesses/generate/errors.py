"""The error a kit raises: every problem one line naming the kit file (and scenario)."""

from __future__ import annotations


class KitError(Exception):
    """A kit, a draw option or a rendered file is wrong; ``problems`` are one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)
