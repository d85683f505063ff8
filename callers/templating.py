"""The caller templates shipped in ``callers/templates``: loading, rendering and their version.

Prompts live as files so they can be read and argued with apart from the code. They are Jinja
templates rendered with :class:`jinja2.StrictUndefined`: a name the template uses and the code
does not supply is an error, never a silently empty hole in a prompt.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from contract.yamldata import load_data

if TYPE_CHECKING:
    import jinja2

_PACKAGE = "callers.templates"
# Every file whose text shapes what a simulated caller says: their hash is the prompt version.
PROMPT_FILES = ("persona.md.j2", "tactics.yaml", "temperaments.yaml", "turn_words.yaml")


@cache
def template_text(name: str) -> str:
    """The text of ``callers/templates/<name>``."""
    return resources.files(_PACKAGE).joinpath(name).read_text(encoding="utf-8")


@cache
def template_data(name: str) -> Any:
    """A YAML file of ``callers/templates`` parsed."""
    return load_data(template_text(name))


@cache
def _environment() -> jinja2.Environment:
    # Imported on first render: only a simulated caller renders, and jinja2 is a tenth of a
    # second of start-up that a scripted run never needs.
    import jinja2

    return jinja2.Environment(
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,  # plain text for a model, not HTML
    )


def render(source: str, **values: Any) -> str:
    """Render Jinja ``source`` text with ``values``; a missing name raises."""
    return _environment().from_string(source).render(**values).strip()


@cache
def prompt_version() -> str:
    """A short hash of every caller template: results from different prompts never mix silently."""
    digest = hashlib.sha256()
    for name in PROMPT_FILES:
        digest.update(name.encode())
        digest.update(template_text(name).encode())
    return digest.hexdigest()[:12]
