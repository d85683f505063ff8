"""Who calls: scripted callers (no model), LLM-driven personas, and a human in the terminal."""

from callers.scripted import ScriptedCaller, scripted_caller_factory

__all__ = ["ScriptedCaller", "scripted_caller_factory"]
