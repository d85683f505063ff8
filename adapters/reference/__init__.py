"""Reference assistants: a task's oracle plan with one seeded flaw each, and two more routes."""

from adapters.reference.assistants import FLAWS, ReferenceAssistant, reference_factory
from adapters.reference.confirm_first import ConfirmFirstAssistant
from adapters.reference.routes import ROUTES

__all__ = ["FLAWS", "ROUTES", "ConfirmFirstAssistant", "ReferenceAssistant", "reference_factory"]
