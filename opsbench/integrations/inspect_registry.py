"""Inspect AI's entry point (``[project.entry-points.inspect_ai]``): importing this module
registers the ``opsbench/opsbench`` task. Only Inspect imports it."""

from opsbench.integrations.inspect_task import opsbench

__all__ = ["opsbench"]
