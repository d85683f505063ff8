"""Errors of the OpsBench application (runner, store, reports).

    OpsbenchError              a problem the user can fix; the CLI prints its message as one line
    ├── SelectionError         an unknown model string, business, task, caller or metric
    ├── StoreError             the results store cannot be used
    │   ├── StoreLockedError   another process holds the store's write lock
    │   └── StoreVersionError  the store was written by a newer OpsBench
    ├── RunNotFoundError       no run or episode with that id in the store
    ├── ResumeRefusedError     resuming would change what the run measures (tasks, caller, options)
    └── AgentCrashError        an agent (or the harness) raised during an episode: the run stopped

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
    """A run cannot be resumed without changing what it measures (its tasks, caller, options)."""


class AgentCrashError(OpsbenchError):
    """An episode raised something other than a provider failure: a bug, fatal to the run.

    The run stops cleanly: episodes already finished stay stored, and ``--resume`` continues
    once the bug is fixed. The traceback goes to the ``opsbench`` logger (the run log).
    """

    def __init__(
        self, run_id: str, model: str, task_id: str, trial: int, error: BaseException, ran: int
    ) -> None:
        from contract.redact import redact

        # An agent's own SDK error may quote the key it was given (the traceback goes to the
        # run log, whose formatter redacts it too).
        what = redact(" ".join(f"{type(error).__name__}: {error}".split()))
        # An adapter error raised inside an agent is a setup problem (a missing key, a bad
        # option of the model it wraps), not a bug: say so rather than blame the code.
        from adapters.errors import AdapterError

        cause = (
            "a setup problem of the model it uses"
            if isinstance(error, AdapterError)
            else "a bug in the agent or the harness, not a provider failure"
        )
        super().__init__(
            f"run {run_id} stopped: {model} raised {what} in {task_id} trial {trial} ({cause}); "
            f"{ran} episodes finished and are stored, `opsbench run --resume {run_id}` "
            "continues once it is fixed"
        )
        self.run_id = run_id
        self.model = model
        self.task_id = task_id
        self.trial = trial
        self.error = error
