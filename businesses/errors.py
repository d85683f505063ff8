"""Errors from loading business and task files.

LoadError        one or more problems, each naming the file and the path inside it
"""

from __future__ import annotations


class LoadError(Exception):
    """A business or task file is broken. ``problems`` are ``file: path: message`` lines."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))
