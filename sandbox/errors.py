"""Exceptions raised by the sandbox.

These are the harness's own errors: they mean a bug in a business file, in a tool, or in the
caller of the sandbox, never a mistake by the model under test (the model's mistakes come back
to it as structured tool errors, see :mod:`tools.errors`).

    SandboxError
    ├── StateError           a record or table does not fit its schema / an id is missing
    ├── RevertError          the ledger cannot be undone as asked
    │   └── IrreversibleEffectError   an entry left the building and cannot be undone
    └── FaultSpecError       a fault specification is malformed
"""

from __future__ import annotations


class SandboxError(Exception):
    """Base class of every error raised by :mod:`sandbox`."""


class StateError(SandboxError):
    """A state operation was given a table, id or record that does not fit."""


class RevertError(SandboxError):
    """The ledger entries could not be reverted against the given state."""


class IrreversibleEffectError(RevertError):
    """Reverting was asked of an entry whose effect cannot be undone."""


class FaultSpecError(SandboxError):
    """A fault specification is malformed (unknown ``when``, probability out of range...)."""
