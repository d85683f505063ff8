"""Resolving what the command line names: model strings to assistant factories, ``--caller``
to a caller factory, ``--base-url`` checked to answer, before any run is created."""

from __future__ import annotations

import importlib.util
import socket
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from adapters.errors import AdapterError
from adapters.reference import FLAWS, ROUTES, reference_factory
from adapters.registry import AnyFactory
from contract.assistant import AssistantFactory
from opsbench.arms import resolve_arms, run_models
from opsbench.errors import (
    SelectionError,
)
from opsbench.nodes import without_node_option
from opsbench.run_config import RunConfig
from opsbench.run_redaction import redact_url
from sandbox.briefing import BriefedFactory
from sandbox.episode import CallerFactory
from sandbox.task import Task


def resolve_assistant(
    model: str, options: Mapping[str, Any] | None = None, base_url: str | None = None
) -> AnyFactory:
    """The factory behind a model string.

    ``reference/<flaw>`` is resolved here (reference assistants take no options: any given are
    meant for the other models of the run). Every other string goes to the provider adapters'
    registry, ``adapters.registry.make_factory``.
    """
    if model.startswith("reference/"):
        flaw = model.removeprefix("reference/")
        if flaw not in (*FLAWS, *ROUTES):
            raise SelectionError(
                f"unknown reference assistant {model!r}: expected reference/<flaw> with flaw one "
                f"of {', '.join((*FLAWS, *ROUTES))}"
            )
        return reference_factory(flaw)
    if "/" not in model and not model.startswith("python:"):
        raise SelectionError(
            f"unknown model string {model!r}: expected provider/model (openai/gpt-4.1, "
            "anthropic/claude-sonnet-4-5, litellm/<model>), reference/<flaw>, or "
            "python:package.module:factory"
        )
    if importlib.util.find_spec("adapters.registry") is None:
        raise SelectionError(
            f"model {model!r} needs the provider adapters (adapters.registry), which this "
            "installation lacks; reference/<flaw> assistants work offline"
        )
    from adapters.registry import make_factory

    try:
        return make_factory(model, dict(options or {}), base_url)
    except AdapterError as exc:
        raise SelectionError(str(exc)) from None


def resolve_caller(
    caller: str, base_url: str | None = None
) -> tuple[CallerFactory, dict[str, Any]]:
    """The caller factory behind ``scripted`` or ``llm:<model>``, and its identity to record."""
    from callers.choice import choose_caller

    try:
        choice = choose_caller(caller, None, base_url)
    except (ValueError, AdapterError) as exc:
        raise SelectionError(f"--caller {caller}: {exc}") from None
    return choice.factory, dict(choice.identity)


def check_reachable(base_url: str | None, timeout_s: float = 3.0) -> None:
    """Fail early, in one line, when ``--base-url`` points at nothing."""
    if not base_url:
        return
    parts = urlsplit(base_url)
    if not parts.hostname:
        raise SelectionError(f"--base-url {base_url!r} is not a URL like http://127.0.0.1:8000/v1")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=timeout_s):
            pass
    except OSError as exc:
        raise SelectionError(
            f"cannot reach --base-url {redact_url(base_url)}: {exc.strerror or exc}; is the "
            "server running? (`opsbench serve` starts a local one)"
        ) from None


def resolve_models(
    config: RunConfig, tasks: Sequence[tuple[str, Task]]
) -> tuple[dict[str, AnyFactory], CallerFactory, dict[str, Any], AssistantFactory | None]:
    """The run's assistants (each model under each arm), caller, caller identity and judge."""
    check_reachable(config.base_url)
    # -M node_base_url is the Ray executor's (each node's own server); no adapter takes it.
    options = without_node_option(config.options)
    # Each model under each arm of --mitigation (opsbench.arms), stored as its own model.
    assistants = resolve_arms(
        run_models(config.models, config.mitigations),
        [task for _, task in tasks],
        lambda model: resolve_assistant(model, options, config.base_url),
    )
    caller, identity = resolve_caller(config.caller, config.base_url)
    judge = resolve_assistant(config.judge, {}, config.base_url) if config.judge else None
    if isinstance(judge, BriefedFactory):
        raise SelectionError(f"--judge {config.judge}: a reference assistant cannot judge claims")
    return assistants, caller, identity, judge
