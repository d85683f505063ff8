"""World state: named tables of JSON records keyed by deterministic ids.

Records are treated as immutable values: a write replaces a record with a new dict, it never
edits one in place. That makes :meth:`State.copy` a shallow copy of each table (cheap), lets
ledger entries keep before/after images without copying, and lets ``revert`` restore exact bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from sandbox.canonical import canonical_bytes, canonical_json
from sandbox.errors import StateError
from sandbox.schema_errors import describe
from sandbox.tables import STANDARD_TABLES, TableSpec
from tools.timefmt import parse_date, parse_time

if TYPE_CHECKING:
    import jsonschema

Record = dict[str, Any]

_ID_NUMBER = re.compile(r"-(\d+)$")
FIRST_ID_NUMBER = 1001


class State:
    """The tables of one simulated business, with their specs.

    Reads return the stored record objects: callers must not mutate them. Writes go through
    :class:`sandbox.ledger.Transaction`, which records before/after images for the ledger; the
    low-level ``_put``/``_remove`` here are for it and for ``revert`` only.
    """

    __slots__ = ("_next_number", "specs", "tables")

    def __init__(
        self,
        tables: Mapping[str, Mapping[str, Record]] | None = None,
        specs: Mapping[str, TableSpec] | None = None,
    ) -> None:
        self.specs: dict[str, TableSpec] = dict(specs or STANDARD_TABLES)
        self.tables: dict[str, dict[str, Record]] = {name: {} for name in self.specs}
        self._next_number: dict[str, int] = {}
        for name, records in (tables or {}).items():
            if name not in self.specs:
                raise StateError(
                    f"unknown table {name!r}: expected one of {sorted(self.specs)} "
                    "(declare extra tables with a schema in business.yaml)"
                )
            self.tables[name] = dict(records)
        # Next ids are found on first use (next_id): most episodes insert into one or two of
        # the tables, and scanning every table's keys up front cost more than the episode's
        # tool calls.

    # -- reading -------------------------------------------------------------------------

    def get(self, table: str, record_id: str) -> Record | None:
        """The record ``record_id`` of ``table``, or ``None``."""
        return self._table(table).get(record_id)

    def rows(self, table: str) -> Iterator[Record]:
        """Every record of ``table`` in id order."""
        records = self._table(table)
        for key in sorted(records):
            yield records[key]

    def find(self, table: str, **equal: Any) -> list[Record]:
        """Records of ``table`` whose fields equal the given values, in id order."""
        records = self._table(table)
        # Match first, then sort only the matches' ids (most finds match a few of many rows).
        if len(equal) == 1:
            ((field, wanted),) = equal.items()
            hits = [key for key, r in records.items() if r.get(field) == wanted]
        else:
            pairs = tuple(equal.items())
            hits = [key for key, r in records.items() if all(r.get(k) == v for k, v in pairs)]
        return [records[key] for key in sorted(hits)]

    def has_table(self, table: str) -> bool:
        return table in self.specs

    # -- ids -----------------------------------------------------------------------------

    def next_id(self, table: str) -> str:
        """The id the next insert into ``table`` will get (``APT-1044`` after ``APT-1043``)."""
        spec = self.specs.get(table)
        if spec is None:
            raise StateError(f"unknown table {table!r}")
        number = self._next_number.get(table)
        if number is None:
            number = self._next_number[table] = self._scan_next_number(table)
        return f"{spec.prefix}-{number}"

    def _scan_next_number(self, table: str) -> int:
        number = FIRST_ID_NUMBER
        for key in self.tables[table]:
            match = _ID_NUMBER.search(key)
            if match:
                number = max(number, int(match.group(1)) + 1)
        return number

    # -- low-level writes (Transaction and revert only) ------------------------------------

    def _put(self, table: str, record: Record) -> None:
        records = self._table(table)
        record_id = record["id"]
        is_new = record_id not in records
        records[record_id] = record
        if is_new:
            match = _ID_NUMBER.search(record_id)
            if match:
                following = int(match.group(1)) + 1
                cached = self._next_number.get(table)
                if cached is not None and following > cached:
                    self._next_number[table] = following

    def _remove(self, table: str, record_id: str) -> None:
        self._table(table).pop(record_id, None)
        # The highest id may have gone: recompute lazily so a reverted insert frees its id.
        self._next_number.pop(table, None)

    # -- whole-state operations ------------------------------------------------------------

    def copy(self) -> State:
        """An independent state sharing the (immutable) record objects."""
        clone = State.__new__(State)
        clone.specs = self.specs
        clone.tables = {name: dict(records) for name, records in self.tables.items()}
        clone._next_number = dict(self._next_number)
        return clone

    def to_dict(self) -> dict[str, dict[str, Record]]:
        """Plain ``{table: {id: record}}`` (shares record objects)."""
        return {name: dict(records) for name, records in self.tables.items()}

    def canonical_json(self) -> str:
        """The state as canonical JSON: equal states give equal strings."""
        return canonical_json(self.tables)

    def canonical_bytes(self) -> bytes:
        return canonical_bytes(self.tables)

    def validate(
        self,
        tables: Iterable[str] | None = None,
        records: Mapping[str, Iterable[str]] | None = None,
    ) -> list[str]:
        """Schema problems of every record, as ``table/id: message`` lines (empty if valid).

        ``tables`` limits the check to those tables; ``records`` (``{table: ids}``) to those
        records, for an overlay on a state already known valid (each check is per record).
        """
        problems: list[str] = []
        names = list(records) if records is not None else (tables or self.specs)
        for name in names:
            validator = _validator(self.specs[name])
            rows = self.tables[name]
            if records is not None:
                wanted = sorted(set(records[name]) & set(rows))
                chosen = [(rid, rows[rid]) for rid in wanted]
            else:
                chosen = sorted(rows.items())
            for record_id, record in chosen:
                if record.get("id") != record_id:
                    problems.append(
                        f"{name}/{record_id}: key and record id {record.get('id')!r} differ"
                    )
                errors = list(validator.iter_errors(record))
                for error in errors:
                    for path, message in describe(error):
                        where = "/".join(str(p) for p in path) or "(record)"
                        problems.append(f"{name}/{record_id}.{where}: {message}")
                if not errors:
                    problems.extend(_interval_problems(name, record_id, record))
        return problems

    def _table(self, table: str) -> dict[str, Record]:
        try:
            return self.tables[table]
        except KeyError:
            raise StateError(
                f"unknown table {table!r}: this business has {sorted(self.tables)}"
            ) from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.tables == other.tables

    def __repr__(self) -> str:
        sizes = ", ".join(f"{k}={len(v)}" for k, v in self.tables.items() if v)
        return f"State({sizes})"


_VALIDATORS: dict[int, jsonschema.protocols.Validator] = {}


def _is_time(value: object) -> bool:
    return not isinstance(value, str) or bool(parse_time(value))


def _is_date(value: object) -> bool:
    return not isinstance(value, str) or bool(parse_date(value))


@cache
def formats() -> jsonschema.FormatChecker:
    """The formats table schemas mark times and dates with, so a date that does not exist
    (2026-02-30, 25:00) is a schema error, not a crash when a tool first parses it.

    Built on first use: only validation needs jsonschema, and a run whose task set comes from
    the compiled cache validates nothing, so its import is no start-up time there.
    """
    import jsonschema

    checker = jsonschema.FormatChecker(formats=())
    checker.checks("local-time", raises=ValueError)(_is_time)
    checker.checks("date", raises=ValueError)(_is_date)
    return checker


def _interval_problems(table: str, record_id: str, record: Record) -> list[str]:
    """A record with a ``start`` and an ``end`` must end after it starts."""
    start, end = record.get("start"), record.get("end")
    if not (isinstance(start, str) and isinstance(end, str)):
        return []
    try:
        if parse_time(end) > parse_time(start):
            return []
    except ValueError:
        return []  # not times: the schema of an extra table decides
    return [f"{table}/{record_id}.end: {end} is not after start {start}"]


def _validator(spec: TableSpec) -> jsonschema.protocols.Validator:
    key = id(spec.schema)
    found = _VALIDATORS.get(key)
    if found is None:
        import jsonschema

        cls = jsonschema.validators.validator_for(
            spec.schema, default=jsonschema.Draft202012Validator
        )
        found = _VALIDATORS[key] = cls(spec.schema, format_checker=formats())
    return found
