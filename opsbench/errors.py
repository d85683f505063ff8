"""Errors of the OpsBench application (runner, store, reports).

    OpsbenchError              a problem the user can fix; the CLI prints its message as one line
    ├── SelectionError         an unknown model string, business, task, caller or metric
    ├── StoreError             the results store cannot be used
    │   ├── StoreLockedError   another process holds the store's write lock
    │   └── StoreVersionError  the store was written by a newer OpsBench
    ├── RunNotFoundError       no run or episode with that id in the store
    └── ResumeRefusedError     the tasks changed since the run started; results would mix versions

Episode-level failures (a provider that cannot be reached) are not exceptions at this level:
they are recorded as ``infrastructure_error`` episodes and re-run by ``--resume``.
"""

from __future__ import annotations


class OpsbenchError(Exception):
    """A problem the user can fix; the message says what was expected, what was found, the fix."""


class SelectionError(OpsbenchError):
    """Something named on the command line does not exist."""


class StoreError(OpsbenchError):
    """The results store cannot be used."""


class StoreLockedError(StoreError):
    """Another process holds the store's write lock for longer than we wait."""


class StoreVersionError(StoreError):
    """The store's schema is newer than this OpsBench understands."""


class RunNotFoundError(OpsbenchError):
    """No run or episode with the given id."""


class ResumeRefusedError(OpsbenchError):
    """A run cannot be resumed because its tasks changed since it started."""
