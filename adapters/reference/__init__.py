"""Reference assistants: a task's oracle plan with one seeded flaw each."""

from adapters.reference.assistants import FLAWS, ReferenceAssistant, reference_factory

__all__ = ["FLAWS", "ReferenceAssistant", "reference_factory"]
