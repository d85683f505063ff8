"""Rendering business kits (``businesses/kits/<kit>/``) into concrete task sets (KITS.md).

This package renders and loads; validating the rendered tasks by running them is
:mod:`opsbench.kitgen`, which sits above the sandbox and the reference assistants.
"""

from businesses.generate.draw import Draw, anchor_date, draw_params, period_days
from businesses.generate.errors import KitError
from businesses.generate.kit import KITS_DIR, Kit, kit_dirs, load_kit
from businesses.generate.render import (
    MAX_ATTEMPTS,
    KitRenderer,
    RenderedDraw,
    business_id,
    load_rendered,
    task_id,
)

__all__ = [
    "KITS_DIR",
    "MAX_ATTEMPTS",
    "Draw",
    "Kit",
    "KitError",
    "KitRenderer",
    "RenderedDraw",
    "anchor_date",
    "business_id",
    "draw_params",
    "kit_dirs",
    "load_kit",
    "load_rendered",
    "period_days",
    "task_id",
]
