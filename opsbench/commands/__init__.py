"""CLI commands that live in their own modules, so the main CLI module stays small.

Each module exposes ``register(app: typer.Typer) -> None`` and imports its heavy dependencies
inside the command functions, so ``opsbench --help`` stays fast.
"""

from __future__ import annotations

import importlib

import typer

# Modules are listed by name so adding a command is one line here and one new file.
COMMAND_MODULES: list[str] = [
    "businesses",
    "run",
    "results",
    "view",
    "play",
    "serve",
    "claims",
    "mcp",
]


def register_all(app: typer.Typer) -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(f"opsbench.commands.{name}").register(app)
