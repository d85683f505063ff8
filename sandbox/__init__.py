"""One simulated call: world state, simulated clock, action ledger, faults, episode and scorer.

Pure Python: no network, no files, no provider SDK.
"""

# Rule types judged by effect register themselves beside the mechanism rules of sandbox.rules.
from sandbox import (
    rules_charges,  # noqa: F401
    rules_loaners,  # noqa: F401
    rules_memberships,  # noqa: F401
    rules_money,  # noqa: F401
    rules_privacy,  # noqa: F401
    rules_questions,  # noqa: F401
    rules_records,  # noqa: F401
    rules_rows,  # noqa: F401
)
from sandbox.canonical import canonical_bytes, canonical_json, content_hash
from sandbox.clock import SimClock
from sandbox.diff import DiffRow, FieldChange, diff
from sandbox.errors import (
    FaultSpecError,
    IrreversibleEffectError,
    RevertError,
    SandboxError,
    StateError,
)
from sandbox.faults import Fault, FaultInjector
from sandbox.ledger import Ledger, LedgerEntry, RecordChange, RevertReport, Transaction, revert
from sandbox.state import State
from sandbox.tables import STANDARD_TABLES, TableSpec
from sandbox.world import ToolCallRecord, World

__all__ = [
    "STANDARD_TABLES",
    "DiffRow",
    "Fault",
    "FaultInjector",
    "FaultSpecError",
    "FieldChange",
    "IrreversibleEffectError",
    "Ledger",
    "LedgerEntry",
    "RecordChange",
    "RevertError",
    "RevertReport",
    "SandboxError",
    "SimClock",
    "State",
    "StateError",
    "TableSpec",
    "ToolCallRecord",
    "Transaction",
    "World",
    "canonical_bytes",
    "canonical_json",
    "content_hash",
    "diff",
    "revert",
]
