"""The results store: one SQLite file holding runs, their tasks and their episodes.

Durability is the point. The database is in WAL mode and every finished episode is written in
its own transaction, so a crash, a Ctrl-C or a SIGKILL loses at most the episodes that were
still running; ``--resume`` finishes the rest. ``(run, model, task set, task, trial)`` is unique,
so a resumed run can never hold an episode twice.

Deterministic parts of an episode (result, score, diff, usage) are stored as canonical JSON;
wall-clock facts (timings, finish time, the failed provider requests and the waits between them,
``retries``) live in their own columns, so the same seed gives the same bytes.

Columns added after the first release are added to an existing store when it is opened
(:data:`_ADDED_COLUMNS`), so an older store keeps working and reads them as empty.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from contract.redact import redact
from opsbench.errors import RunNotFoundError, StoreError, StoreLockedError, StoreVersionError
from opsbench.records import (
    EncodedEpisode,
    EpisodeRecord,
    NewEpisode,
    RunRecord,
    RunTask,
    encode_episode,
    episode_id,
)
from sandbox.canonical import canonical_json

DEFAULT_STORE = Path("opsbench-results") / "opsbench.db"
SCHEMA_VERSION = 1
# How long a writer waits for another process's transaction before giving up.
BUSY_TIMEOUT_S = 10.0


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    opsbench_version TEXT NOT NULL,
    git_commit TEXT,
    seed INTEGER NOT NULL,
    caller TEXT NOT NULL,
    judge TEXT,
    task_set_hash TEXT NOT NULL,
    config TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS run_tasks (
    run_id TEXT NOT NULL REFERENCES runs(id),
    task_set TEXT NOT NULL,
    task_id TEXT NOT NULL,
    task_version TEXT NOT NULL,
    business TEXT NOT NULL,
    coverage TEXT NOT NULL,
    tactics TEXT NOT NULL,
    title TEXT NOT NULL,
    requires_action INTEGER NOT NULL,
    PRIMARY KEY (run_id, task_set, task_id)
);
CREATE TABLE IF NOT EXISTS episodes (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id),
    model TEXT NOT NULL,
    task_set TEXT NOT NULL,
    task_id TEXT NOT NULL,
    trial INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('scored', 'infrastructure_error', 'caller_error')),
    task_version TEXT NOT NULL,
    error TEXT,
    score TEXT,
    result TEXT NOT NULL,
    diff TEXT NOT NULL,
    usage TEXT NOT NULL,
    cost_usd REAL,
    attempts INTEGER NOT NULL DEFAULT 1,
    timings TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    UNIQUE (run_id, model, task_set, task_id, trial)
);
CREATE INDEX IF NOT EXISTS episodes_by_run ON episodes (run_id, model);
CREATE TABLE IF NOT EXISTS failed_attempts (
    episode_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    finished_at TEXT NOT NULL
);
"""


# Columns added after schema 1, as (table, column, type): added to an older store when it is
# opened, so existing databases keep working (their rows read these as NULL / unknown).
# ``episodes.attempts`` counts the runs of an episode (--resume re-runs infrastructure errors);
# the failed provider requests within one run of it are its ``retries``.
_ADDED_COLUMNS: tuple[tuple[str, str, str], ...] = (
    # What a run and each episode were produced with: scorer version, base URL, SDK versions.
    ("runs", "provenance", "TEXT"),
    ("episodes", "provenance", "TEXT"),
    # Every failed provider request of the episode: [{label, attempt, reason, status, wait_s}].
    ("episodes", "retries", "TEXT"),
)


def _add_columns(db: sqlite3.Connection) -> None:
    for table, column, kind in _ADDED_COLUMNS:
        present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


class Store:
    """A results store on disk. Use as a context manager, or call :meth:`close`."""

    def __init__(self, path: str | Path = DEFAULT_STORE, *, create: bool = True) -> None:
        self.path = Path(path)
        if not self.path.exists():
            if not create:
                raise StoreError(
                    f"no results store at {self.path}: run `opsbench run` first, or pass --store"
                )
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError):  # a file where a directory should be
                blocker = next(p for p in self.path.parents if p.exists())
                raise NotADirectoryError(
                    errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(blocker)
                ) from None
        existed = self.path.exists()
        try:
            self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            if existed:
                # Before anything is written: a file that is not ours is refused, not adopted
                # (a read command must never add our tables to somebody else's database).
                self._check_ours(create)
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL is durable against a killed process in WAL mode (only power loss can drop
            # the last commits), and avoids an fsync per episode.
            self._db.execute("PRAGMA synchronous=NORMAL")
            with self._write():
                # One statement at a time: executescript would commit our transaction early.
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                _add_columns(self._db)
                row = self._db.execute(
                    "SELECT value FROM meta WHERE key = 'schema_version'"
                ).fetchone()
                if row is None:
                    self._db.execute(
                        "INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                    )
                elif int(row[0]) > SCHEMA_VERSION:
                    raise StoreVersionError(
                        f"{self.path} was written by a newer OpsBench (store schema {row[0]}, "
                        f"this version reads up to {SCHEMA_VERSION}): upgrade opsbench, or use "
                        "another --store"
                    )
        except sqlite3.OperationalError as exc:
            raise self._translate(exc) from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not an OpsBench results store: {exc}") from None

    def _check_ours(self, create: bool) -> None:
        """Refuse an existing file that is not an OpsBench store (an empty one only if it
        may be created)."""
        tables = sorted(
            name
            for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        )
        if not tables and create:
            return
        ours = (
            "meta" in tables
            and self._db.execute("SELECT 1 FROM meta WHERE key = 'schema_version'").fetchone()
        )
        if not ours:
            self._db.close()
            holds = f"it holds tables {', '.join(tables)}" if tables else "it is empty"
            raise StoreError(
                f"{self.path} is not an OpsBench results store ({holds}); it was left "
                "untouched: pass another --store"
            )

    def _translate(self, exc: sqlite3.OperationalError) -> StoreError:
        if "locked" in str(exc) or "busy" in str(exc):
            return StoreLockedError(
                f"results store {self.path} is locked by another process (waited "
                f"{BUSY_TIMEOUT_S:.0f}s): wait for it to finish, or use another --store"
            )
        if "readonly" in str(exc) or "read-only" in str(exc):
            return StoreError(
                f"results store {self.path} is read-only: make it writable, or pass another --store"
            )
        return StoreError(f"results store {self.path}: {exc}")

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One transaction; the write lock is taken up front so it cannot deadlock midway."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise self._translate(exc) from None
        try:
            yield
        except sqlite3.OperationalError as exc:  # e.g. a read-only store: one line, not a trace
            self._db.execute("ROLLBACK")
            raise self._translate(exc) from None
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        else:
            try:
                self._db.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                raise self._translate(exc) from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs ---------------------------------------------------------------------------------

    def create_run(self, run: RunRecord) -> None:
        """Record a new run and its tasks in one transaction; an id already used is refused."""
        with self._write():
            if self._db.execute("SELECT 1 FROM runs WHERE id = ?", (run.id,)).fetchone():
                raise StoreError(
                    f"run {run.id} already exists in {self.path}: give another --run-id, or "
                    f"`opsbench run --resume {run.id}` to finish it"
                )
            self._db.execute(
                "INSERT INTO runs (id, created_at, opsbench_version, git_commit, seed, caller, "
                "judge, task_set_hash, config, provenance) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run.id,
                    run.created_at,
                    run.opsbench_version,
                    run.git_commit,
                    run.seed,
                    run.caller,
                    run.judge,
                    run.task_set_hash,
                    redact(canonical_json(run.config)),
                    canonical_json(run.provenance),
                ),
            )
            self._db.executemany(
                "INSERT INTO run_tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        run.id,
                        t.task_set,
                        t.task_id,
                        t.task_version,
                        t.business,
                        t.coverage,
                        json.dumps(list(t.tactics)),
                        t.title,
                        int(t.requires_action),
                    )
                    for t in run.tasks
                ],
            )

    def run_ids(self) -> list[str]:
        """Every run, oldest first."""
        return [r[0] for r in self._db.execute("SELECT id FROM runs ORDER BY created_at, rowid")]

    def latest_run(self) -> str:
        ids = self.run_ids()
        if not ids:
            raise RunNotFoundError(f"no runs in {self.path}: run `opsbench run` first")
        return ids[-1]

    def run(self, run_id: str | None = None) -> RunRecord:
        """The run ``run_id`` (a unique prefix is enough), or the latest one."""
        run_id = self.latest_run() if run_id is None else self._resolve_run(run_id)
        row = self._db.execute(
            "SELECT id, created_at, opsbench_version, git_commit, seed, caller, judge, "
            "task_set_hash, config, provenance FROM runs WHERE id = ?",
            (run_id,),
        ).fetchone()
        tasks = tuple(
            RunTask(r[1], r[2], r[3], r[4], r[5], tuple(json.loads(r[6])), r[7], bool(r[8]))
            for r in self._db.execute(
                "SELECT * FROM run_tasks WHERE run_id = ? ORDER BY task_set, task_id", (run_id,)
            )
        )
        return RunRecord(
            id=row[0],
            created_at=row[1],
            opsbench_version=row[2],
            git_commit=row[3],
            seed=row[4],
            caller=row[5],
            judge=row[6],
            task_set_hash=row[7],
            config=json.loads(row[8]),
            tasks=tasks,
            provenance=json.loads(row[9]) if row[9] else {},
        )

    def _resolve_run(self, run_id: str) -> str:
        if self._db.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone():
            return run_id
        found = [
            r[0]
            for r in self._db.execute(
                "SELECT id FROM runs WHERE id LIKE ? ESCAPE '\\'", (_like_prefix(run_id),)
            )
        ]
        if len(found) == 1:
            return found[0]
        known = ", ".join(self.run_ids()[-5:]) or "none"
        what = "matches several runs" if found else "is not a run"
        raise RunNotFoundError(f"{run_id!r} {what} in {self.path} (latest: {known})")

    # -- episodes -----------------------------------------------------------------------------

    def record_episode(self, run_id: str, episode: NewEpisode) -> str:
        """Write one finished episode in its own transaction; returns its id.

        An episode that already exists is replaced only when the stored one is an
        infrastructure error (that is what ``--resume`` re-runs); its error is kept in
        ``failed_attempts``. A scored episode is never overwritten. Every text is redacted
        (:func:`contract.redact.redact`) on the way in: a credential a provider or an agent
        echoed into an error, a transcript or a tool argument never reaches the file.
        """
        return self.record_encoded(run_id, [encode_episode(episode)])[0]

    def record_encoded(self, run_id: str, episodes: Sequence[EncodedEpisode]) -> list[str]:
        """Write episodes already encoded (:func:`encode_episode`) in one transaction.

        Nothing is written unless everything is: when this returns, every one of them is on
        disk (WAL, committed), which is what lets a writer acknowledge them together. The
        rules of :meth:`record_episode` apply to each.
        """
        ids = []
        with self._write():
            for encoded in episodes:
                ids.append(self._insert(run_id, encoded))
        return ids

    def _insert(self, run_id: str, encoded: EncodedEpisode) -> str:
        model, task_set, task_id, trial, seed = encoded.key
        values = encoded.values
        ep_id = episode_id(run_id, model, task_set, task_id, trial)
        old = self._db.execute(
            "SELECT status, error, finished_at, attempts FROM episodes WHERE id = ?", (ep_id,)
        ).fetchone()
        if old is None:
            self._db.execute(
                "INSERT INTO episodes (id, run_id, model, task_set, task_id, trial, seed, "
                "status, task_version, error, score, result, diff, usage, cost_usd, "
                "timings, finished_at, provenance, retries) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (ep_id, run_id, model, task_set, task_id, trial, seed, *values),
            )
        elif old[0] == "infrastructure_error":
            self._db.execute(
                "INSERT INTO failed_attempts VALUES (?, ?, ?, ?, ?)",
                (ep_id, run_id, old[0], old[1], old[2]),
            )
            self._db.execute(
                "UPDATE episodes SET status = ?, task_version = ?, error = ?, score = ?, "
                "result = ?, diff = ?, usage = ?, cost_usd = ?, timings = ?, "
                "finished_at = ?, provenance = ?, retries = ?, attempts = ? WHERE id = ?",
                (*values, old[3] + 1, ep_id),
            )
        else:
            raise StoreError(
                f"episode {ep_id} ({model}, {task_id}, trial "
                f"{trial}) is already {old[0]} in run {run_id}; refusing to overwrite"
            )
        return ep_id

    def done_keys(self, run_id: str) -> set[tuple[str, str, str, int]]:
        """Keys of episodes that need no re-run: everything but infrastructure errors."""
        return {
            (r[0], r[1], r[2], r[3])
            for r in self._db.execute(
                "SELECT model, task_set, task_id, trial FROM episodes "
                "WHERE run_id = ? AND status != 'infrastructure_error'",
                (run_id,),
            )
        }

    def episodes(
        self, run_id: str, *, full: bool = False, model: str | None = None
    ) -> list[EpisodeRecord]:
        """A run's episodes in a stable order; ``full`` also loads result and diff."""
        tasks = {(t.task_set, t.task_id): t for t in self.run(run_id).tasks}
        columns = _COLUMNS + (", result, diff" if full else "")
        query = f"SELECT {columns} FROM episodes WHERE run_id = ?"
        params: list[Any] = [run_id]
        if model is not None:
            query += " AND model = ?"
            params.append(model)
        query += " ORDER BY model, task_set, task_id, trial"
        return [_episode(row, tasks, full) for row in self._db.execute(query, params)]

    def episode(self, ref: str) -> EpisodeRecord:
        """One episode, fully loaded, by id (a unique prefix is enough)."""
        rows = self._db.execute(
            f"SELECT {_COLUMNS}, result, diff FROM episodes WHERE id LIKE ? ESCAPE '\\' LIMIT 2",
            (_like_prefix(ref),),
        ).fetchall()
        if len(rows) != 1:
            what = "matches several episodes" if rows else "is not an episode"
            raise RunNotFoundError(
                f"{ref!r} {what} in {self.path}; episode ids look like ep-1a2b3c4d5e6f "
                "(see `opsbench report --json` or the HTML report)"
            )
        run = self.run(rows[0][1])
        tasks = {(t.task_set, t.task_id): t for t in run.tasks}
        return _episode(rows[0], tasks, True)

    def full_episodes(self, run_id: str, ids: Iterable[str]) -> Iterator[EpisodeRecord]:
        """Episodes of ``run_id`` fully loaded, by exact id, one at a time, in ``ids`` order."""
        tasks = {(t.task_set, t.task_id): t for t in self.run(run_id).tasks}
        query = f"SELECT {_COLUMNS}, result, diff FROM episodes WHERE id = ? AND run_id = ?"
        for ep_id in ids:
            row = self._db.execute(query, (ep_id, run_id)).fetchone()
            if row is not None:
                yield _episode(row, tasks, True)

    def failed_attempts(self, run_id: str) -> list[dict[str, Any]]:
        """Infrastructure errors that a later ``--resume`` replaced."""
        return [
            {"episode_id": r[0], "status": r[1], "error": r[2], "finished_at": r[3]}
            for r in self._db.execute(
                "SELECT episode_id, status, error, finished_at FROM failed_attempts "
                "WHERE run_id = ? ORDER BY rowid",
                (run_id,),
            )
        ]


_COLUMNS = (
    "id, run_id, model, task_set, task_id, trial, seed, status, task_version, error, score, "
    "usage, cost_usd, attempts, timings, finished_at, provenance, retries"
)


def _like_prefix(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _episode(
    row: Sequence[Any], tasks: dict[tuple[str, str], RunTask], full: bool
) -> EpisodeRecord:
    return EpisodeRecord(
        id=row[0],
        run_id=row[1],
        model=row[2],
        task_set=row[3],
        task_id=row[4],
        trial=row[5],
        seed=row[6],
        status=row[7],
        task_version=row[8],
        error=row[9],
        score=None if row[10] is None else json.loads(row[10]),
        usage=json.loads(row[11]),
        cost_usd=row[12],
        attempts=row[13],
        timings=json.loads(row[14]),
        finished_at=row[15],
        task=tasks.get((row[3], row[4])),
        provenance=json.loads(row[16]) if row[16] else None,
        retries=json.loads(row[17]) if row[17] else [],
        result=json.loads(row[18]) if full else None,
        diff=json.loads(row[19]) if full else None,
    )
