"""Who calls: scripted callers (no model), LLM-driven personas, and a human in the terminal.

Public API (everything else in the package is free to change):

    choose_caller(spec, options, base_url) -> CallerChoice   ``--caller scripted|llm:<model>``
    llm_caller_factory(model, options, base_url)            LLM callers, with ``.identity``
    scripted_caller_factory(task, session)                  the deterministic caller
    persona_prompt(task, session), END_MARKER               what an LLM caller is told
    tactics.definitions(), tactics.bind(tactic)             the shared tactic definitions
    check_fidelity(task, result) -> list[str]               ``caller_error`` reasons
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from callers.choice import CallerChoice, choose_caller
    from callers.fidelity import check_fidelity
    from callers.llm import CallerIdentity, LLMCaller, LLMCallerFactory, llm_caller_factory
    from callers.persona import END_MARKER, persona_prompt
    from callers.scripted import ScriptedCaller, scripted_caller_factory

# Each name is imported from its module on first use: an offline run (scripted caller, no
# model) never loads the LLM caller's persona templates.
_HOMES = {
    "CallerChoice": "callers.choice",
    "choose_caller": "callers.choice",
    "check_fidelity": "callers.fidelity",
    "CallerIdentity": "callers.llm",
    "LLMCaller": "callers.llm",
    "LLMCallerFactory": "callers.llm",
    "llm_caller_factory": "callers.llm",
    "END_MARKER": "callers.persona",
    "persona_prompt": "callers.persona",
    "ScriptedCaller": "callers.scripted",
    "scripted_caller_factory": "callers.scripted",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'callers' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "END_MARKER",
    "CallerChoice",
    "CallerIdentity",
    "LLMCaller",
    "LLMCallerFactory",
    "ScriptedCaller",
    "check_fidelity",
    "choose_caller",
    "llm_caller_factory",
    "persona_prompt",
    "scripted_caller_factory",
]
