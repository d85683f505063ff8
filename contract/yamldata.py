"""Packaged YAML data (lexicons, plans, templates) parsed with libyaml where PyYAML has it.

``yaml.safe_load`` always uses the pure-Python parser, several times slower than libyaml's;
the data files load on every start, so this is start-up time. Both parsers construct with
the same safe constructor and give the same objects (``tests/test_yaml_loader.py``).
"""

from __future__ import annotations

from typing import Any

import yaml

#: libyaml's safe loader, or the pure-Python one where PyYAML was built without libyaml.
DATA_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_data(text: str) -> Any:
    """``text`` parsed as YAML with safe tags only, as ``yaml.safe_load`` does."""
    return yaml.load(text, Loader=DATA_LOADER)


__all__ = ["DATA_LOADER", "load_data"]
