"""Errors from loading business and task files.

LoadError        one or more problems, each naming the file and the path inside it
"""

from __future__ import annotations

# A problem is one line; a bad value it quotes (a 5 MB string) is cut to keep it one.
MAX_PROBLEM_CHARS = 300


def one_line(text: str, limit: int = MAX_PROBLEM_CHARS) -> str:
    """``text`` on one line, cut to ``limit`` characters with the length of what was cut."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    return f"{flat[: limit - 20]}… (+{len(flat) - limit + 20} chars)"


class LoadError(Exception):
    """A business or task file is broken. ``problems`` are ``file: path: message`` lines."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = [one_line(p) for p in problems]
        super().__init__("\n".join(self.problems))
