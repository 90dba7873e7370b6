"""Prebuilt statements run straight on the inline SQLite connection's ``sqlite3`` cursor.

SQLAlchemy's execution of a statement costs about 15 microseconds of Python per call (the execution
context, the compiled cache's lookup, the result proxy), several times SQLite's own work for the small
statements of every hand's start and end record: together about 8 % of the server's CPU under load
(docs/server-speed.md). A module-level statement marked with :func:`prebuilt` is compiled once (per set of
parameter names) by SQLAlchemy's own SQLite compiler, and :class:`~pokerroom.store.db.InlineConnection`
runs it on the cursor with the compiled statement's own bind and result processors, wrapping the driver's
errors as SQLAlchemy does (an ``IntegrityError`` is still ``sqlalchemy.exc.IntegrityError``). The result
has the calls the store makes of SQLAlchemy's (``one_or_none``, ``all``, ``scalar_one``, ``rowcount``, ...),
and its rows are named tuples.

What a plan cannot take runs through SQLAlchemy as before: a statement not marked, a Python-side column
default, a parameter list that is not uniform, RETURNING with a list of parameter sets, echo on. PostgreSQL
and non-inline SQLite never come here.
"""

from __future__ import annotations

import sqlite3
from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError, MultipleResultsFound, NoResultFound
from sqlalchemy.sql.elements import ClauseElement

__all__ = ["FastResult", "Plan", "plan_for", "prebuilt"]

_PREBUILT: dict[int, ClauseElement] = {}  # id -> the statement (kept alive, so its id stays its own)
_PLANS: dict[tuple[int, frozenset[str] | None], Plan | None] = {}
_POSTCOMPILE = "__[POSTCOMPILE_"
S = TypeVar("S", bound=ClauseElement)


def prebuilt(statement: S) -> S:
    """Mark a module-level statement for the inline SQLite fast path; returns it unchanged."""
    _PREBUILT[id(statement)] = statement
    return statement


class FastResult:
    """The result of a planned statement: its rows (named tuples) and the rows it changed."""

    __slots__ = ("_rows", "rowcount")

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    def __iter__(self) -> Iterator[Any]:
        return iter(self._rows)

    def all(self) -> list[Any]:
        return self._rows

    fetchall = all

    def first(self) -> Any:
        return self._rows[0] if self._rows else None

    def one_or_none(self) -> Any:
        if len(self._rows) > 1:
            raise MultipleResultsFound("Multiple rows were found when one or none was required")
        return self._rows[0] if self._rows else None

    def one(self) -> Any:
        if not self._rows:
            raise NoResultFound("No row was found when one was required")
        return self.one_or_none()

    def scalar(self) -> Any:
        return self._rows[0][0] if self._rows else None

    def scalar_one(self) -> Any:
        return self.one()[0]

    def scalar_one_or_none(self) -> Any:
        row = self.one_or_none()
        return None if row is None else row[0]


class Plan:
    """A statement compiled for SQLite, ready for the cursor: its SQL, where each positional parameter
    comes from (the caller's value or the statement's own constant) and how it is converted, and how the
    result's columns are converted and named."""

    def __init__(self, compiled: Any, dialect: Any) -> None:
        self.sql: str = compiled.string
        binds = compiled.binds
        processors = compiled._bind_processors
        self.params: list[tuple[str, bool, Any, Callable[[Any], Any] | None]] = []
        for name in compiled.positiontup or ():
            bind = binds[name]
            constant = None if bind.required or bind.callable is not None else bind.value
            self.params.append((name, bind.required, constant, processors.get(name)))
        self.expanding = {name for name in compiled.positiontup or () if binds[name].expanding}
        columns = compiled._result_columns
        self.names: list[str] | None = [c.keyname for c in columns] if columns else None
        self.results: list[Callable[[Any], Any] | None] = [
            c.type._cached_result_processor(dialect, None) for c in columns
        ]
        self.row: Any = _row_type(self.names) if self.names else None

    def values(self, given: Mapping[str, Any]) -> tuple[list[Any], str]:
        """The positional values for ``given`` (and the SQL, with any IN list expanded to its length).
        KeyError: a value is missing, or an IN list is empty (SQLAlchemy then runs the statement and says
        so, or renders the empty list its own way)."""
        out: list[Any] = []
        sql = self.sql
        for name, required, constant, process in self.params:
            if name in given:
                value = given[name]
            elif required:
                raise KeyError(name)
            else:
                value = constant
            if name in self.expanding:
                items = list(value)
                if not items:
                    raise KeyError(name)
                sql = sql.replace(f"{_POSTCOMPILE}{name}]", ", ".join("?" * len(items)), 1)
                out.extend(items if process is None else [process(v) for v in items])
            else:
                out.append(value if process is None else process(value))
        return out, sql

    def run(self, raw: sqlite3.Connection, parameters: Any) -> FastResult | None:
        """Run on ``raw`` (inside the transaction SQLAlchemy began on it); None: SQLAlchemy must run it."""
        try:
            if isinstance(parameters, list):
                if self.expanding:
                    return None
                batch = [self.values(p)[0] for p in parameters]
            else:
                values, sql = self.values(parameters or {})
        except KeyError:
            return None
        try:
            if isinstance(parameters, list):
                cursor = raw.executemany(self.sql, batch)
            else:
                cursor = raw.execute(sql, values)
            fetched = cursor.fetchall() if cursor.description is not None else []
        except sqlite3.Error as exc:
            raise DBAPIError.instance(self.sql, parameters, exc, sqlite3.Error) from exc
        return FastResult(self._rows(cursor, fetched), cursor.rowcount)

    def _rows(self, cursor: sqlite3.Cursor, fetched: list[Any]) -> list[Any]:
        if not fetched:
            return []
        row = self.row
        if row is None:  # a text statement's RETURNING: the driver names its columns
            row = self.row = _row_type([d[0] for d in cursor.description])
            self.results = [None] * len(cursor.description)
        results = self.results
        if not any(results):
            return [row._make(r) for r in fetched]
        return [
            row._make([v if p is None or v is None else p(v) for v, p in zip(r, results, strict=True)])
            for r in fetched
        ]


def _row_type(names: Sequence[str]) -> Any:
    return namedtuple("Row", names)


def plan_for(statement: Any, parameters: Any, dialect: Any) -> Plan | None:
    """The plan of a prebuilt statement for these parameters' names, or None (SQLAlchemy runs it)."""
    if id(statement) not in _PREBUILT:
        return None
    if isinstance(parameters, list):
        if not parameters or not all(isinstance(p, dict) for p in parameters):
            return None
        keys = frozenset(parameters[0])
        if any(frozenset(p) != keys for p in parameters[1:]):
            return None
    elif parameters is None or isinstance(parameters, dict):
        keys = frozenset(parameters or ())
    else:
        return None
    cache_key = (id(statement), keys)
    if cache_key not in _PLANS:
        _PLANS[cache_key] = _make_plan(statement, keys, dialect)
    plan = _PLANS[cache_key]
    if plan is not None and isinstance(parameters, list) and plan.names is not None:
        return None  # RETURNING over a list of parameter sets: SQLAlchemy's own way
    return plan


def _make_plan(statement: Any, keys: frozenset[str], dialect: Any) -> Plan | None:
    compiled = statement.compile(dialect=dialect, column_keys=sorted(keys))
    if getattr(compiled, "insert_prefetch", None) or getattr(compiled, "update_prefetch", None):
        return None  # a Python-side default: SQLAlchemy computes it
    if compiled.literal_execute_params or dialect.paramstyle != "qmark":
        return None
    names = [c.keyname for c in compiled._result_columns]
    if len(set(names)) != len(names) or not all(n.isidentifier() and not n.startswith("_") for n in names):
        return None
    plan = Plan(compiled, dialect)
    if compiled.post_compile_params and (
        set(plan.expanding) != {b.key for b in compiled.post_compile_params}
        or any(_POSTCOMPILE + n + "]" not in plan.sql for n in plan.expanding)
    ):
        return None
    return plan
