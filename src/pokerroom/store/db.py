"""The database handle: URL resolution, engines (SQLite tuned for money writes) and migrations."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import QueuePool

from pokerroom.store.fence import FENCE, check_fence
from pokerroom.store.prepared import plan_for

ENV_URL = "POKERROOM_DATABASE_URL"
ENV_SCHEMA = "POKERROOM_DATABASE_SCHEMA"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_SCHEMA_RE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
PG_TIMEOUT_S = 10.0  # PostgreSQL: connecting, a statement, a free connection from the pool
MIGRATION_LOCK = 7_301_964_211  # the advisory lock PostgreSQL migrations run under
INLINE_BUSY_S = 0.05  # inline SQLite: the longest SQLite's own busy handler may block the event loop
IDLE_INLINE = 4  # inline SQLite: connections of each kind (read, write) kept between transactions


def default_url() -> str:
    """SQLite in the user's data directory (platformdirs), e.g. ~/.local/share/pokerroom/pokerroom.db."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("pokerroom", appauthor=False)) / "pokerroom.db"
    return f"sqlite+aiosqlite:///{path}"


def resolve_url(url: str | None = None) -> str:
    """The explicit URL, else ``$POKERROOM_DATABASE_URL``, else :func:`default_url`."""
    return url or os.environ.get(ENV_URL) or default_url()


def redact(url: str) -> str:
    """The URL with any password hidden, for printing."""
    return make_url(url).render_as_string(hide_password=True)


class Database:
    """One database (SQLite or PostgreSQL) and its async engines.

    On SQLite the connection runs in WAL mode with foreign keys on, ``synchronous=FULL`` (a committed money
    write survives a power cut) and a busy timeout; every write transaction starts with ``BEGIN IMMEDIATE``
    so two writers never deadlock on a lock upgrade. On PostgreSQL ``schema`` (or
    ``$POKERROOM_DATABASE_SCHEMA``) selects the schema through ``search_path`` (tests use one per module).
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        schema: str | None = None,
        echo: bool = False,
        pool_size: int = 5,
        max_overflow: int = 10,
        sqlite_synchronous: str = "FULL",
        sqlite_busy_timeout_s: float = 30.0,
        sqlite_inline: bool = True,
    ) -> None:
        self.url = resolve_url(url)
        parsed = make_url(self.url)
        self.dialect = parsed.get_backend_name()
        if self.dialect not in ("sqlite", "postgresql"):
            raise ValueError(f"unsupported database {self.dialect!r}: use sqlite or postgresql")
        schema = schema if schema is not None else os.environ.get(ENV_SCHEMA) or None
        if schema is not None and not _SCHEMA_RE.match(schema):
            raise ValueError(f"bad schema name {schema!r}")
        self.schema = schema
        self.sqlite_inline = False
        self._busy_wait_s = 0.0
        self._raw: sqlite3.Connection | None = None
        self._raw_path: str | None = None
        self.sync_engine: Engine | None = None  # inline SQLite: the engine write() and read() run on
        self._sync_write: Engine | None = None
        # Inline SQLite: connections between transactions, kept checked out (see _inline)
        self._idle_write: list[Connection] = []
        self._idle_read: list[Connection] = []
        self._synchronous = sqlite_synchronous.upper()
        kwargs: dict[str, Any] = {"echo": echo}
        if self.dialect == "sqlite":
            if schema is not None:
                raise ValueError("a schema is only supported on PostgreSQL")
            if sqlite_synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
                raise ValueError(f"bad sqlite synchronous mode {sqlite_synchronous!r}")
            database = parsed.database
            if database and database != ":memory:":
                Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"timeout": sqlite_busy_timeout_s}
            self.sqlite_inline = bool(
                sqlite_inline and database and database != ":memory:" and not parsed.query
            )
            if self.sqlite_inline:
                assert database is not None
                self._raw_path = str(Path(database).expanduser())
                kwargs["async_creator"] = _inline_connector(self._raw_path, INLINE_BUSY_S)
                sqlite_busy_timeout_s, self._busy_wait_s = INLINE_BUSY_S, sqlite_busy_timeout_s
        else:
            kwargs["pool_size"] = pool_size
            kwargs["max_overflow"] = max_overflow
            kwargs["pool_pre_ping"] = False
            kwargs["pool_timeout"] = PG_TIMEOUT_S  # every connection busy that long: the store is stuck
            # A stopped server refuses at once; a frozen one never answers: give up after a while, so that
            # a fault pauses the tables instead of hanging them (docs/operations.md).
            connect_args: dict[str, Any] = {"timeout": PG_TIMEOUT_S, "command_timeout": PG_TIMEOUT_S}
            if schema is not None:
                connect_args["server_settings"] = {"search_path": schema}
            kwargs["connect_args"] = connect_args
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        # Write transactions committed (the capacity figures' commits per hand; a read-only transaction's
        # COMMIT writes nothing and is not counted).
        self.commits = 0
        self._write_lock: asyncio.Lock | None = None
        if self.sqlite_inline:
            assert self._raw_path is not None
            self.sync_engine = _inline_engine(self._raw_path, self._synchronous)
            self._sync_write = self.sync_engine.execution_options(pokerroom_begin="IMMEDIATE")
        if self.dialect == "sqlite":
            _tune_sqlite(self.engine.sync_engine, sqlite_synchronous.upper(), sqlite_busy_timeout_s)
            self._write_engine = self.engine.execution_options(pokerroom_begin="IMMEDIATE")
        else:
            self._write_engine = self.engine

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction (``BEGIN IMMEDIATE`` on SQLite); commits on success, rolls back on error.

        In the task of a leased resource's actor (a cluster's host), the transaction first checks that the
        lease is still this host's (store/fence.py): a host that lost a table can never write for it.

        On SQLite the writers of this process queue on an asyncio lock: only one connection at a time asks
        for the database's write lock, so none of them falls into SQLite's busy handler, which sleeps in
        steps of up to 100 ms (under load that, not the writes, made the latency)."""
        fence = FENCE.get()
        if not self.is_sqlite:
            async with self._write_engine.begin() as conn:
                if fence is not None:
                    await check_fence(conn, fence)
                yield conn
            self.commits += 1
            return
        if self._write_lock is None:
            self._write_lock = asyncio.Lock()
        if self.sync_engine is not None:
            async with self._write_lock, self._inline(write=True) as conn:
                if fence is not None:
                    await check_fence(conn, fence)
                yield conn
            self.commits += 1
            return
        async with self._write_lock, contextlib.AsyncExitStack() as stack:
            conn = await self._begin_write(stack)
            if fence is not None:
                await check_fence(conn, fence)
            yield conn
        self.commits += 1

    @asynccontextmanager
    async def _inline(self, *, write: bool) -> AsyncIterator[AsyncConnection]:
        """A transaction on the inline SQLite engine: its statements run at once on the loop's thread
        (see :class:`InlineConnection`); a write's COMMIT, when the transaction changed rows, on a worker
        thread (its fsync takes milliseconds). A write that finds the database locked by another process
        waits here without blocking, up to the configured busy timeout."""
        assert self.sync_engine is not None
        engine = self._sync_write if write and self._sync_write is not None else self.sync_engine
        idle = self._idle_write if write else self._idle_read
        give_up = time.monotonic() + self._busy_wait_s
        while True:
            conn = idle.pop() if idle else engine.connect()
            try:
                trans = conn.begin()
                break
            except OperationalError as exc:
                conn.close()
                if not write or "locked" not in str(exc) or time.monotonic() > give_up:
                    raise
            await asyncio.sleep(0.01)
        clean = False  # the transaction ended by a COMMIT or ROLLBACK that succeeded: keep the connection
        try:
            dbapi: Any = conn.connection.dbapi_connection
            changes = dbapi.total_changes
            try:
                yield cast(AsyncConnection, InlineConnection(conn))
            except BaseException:
                trans.rollback()
                clean = True
                raise
            if not write or dbapi.total_changes == changes:
                trans.commit()  # nothing to sync: ends the snapshot in microseconds
                clean = True
                return
            commit = asyncio.get_running_loop().run_in_executor(None, trans.commit)
            try:
                await asyncio.shield(commit)
            except asyncio.CancelledError:
                await asyncio.wait([commit])  # the connection is not touched until the commit is over
                raise
            clean = True
        finally:
            # A connection whose transaction ended cleanly waits for the next transaction of its kind
            # (a checkout from the pool and its return, with the return's ROLLBACK, were about a third of
            # an inline transaction's cost); any other is closed, as before, and the pool resets it.
            if clean and len(idle) < IDLE_INLINE and not conn.invalidated:
                idle.append(conn)
            else:
                conn.close()

    @asynccontextmanager
    async def raw_write(self) -> AsyncIterator[sqlite3.Connection]:
        """Inline SQLite only: a write transaction on a plain ``sqlite3`` connection of this database's
        own, under the same lock as :meth:`write` (``BEGIN IMMEDIATE``, waited for as there; the COMMIT
        and its fsync on a worker thread; ROLLBACK on error). For a hot path that SQLAlchemy's
        per-statement overhead would dominate (the journal's group commit)."""
        if not self.sqlite_inline:
            raise RuntimeError("raw_write is for inline SQLite only")
        if self._write_lock is None:
            self._write_lock = asyncio.Lock()
        async with self._write_lock:
            raw = self._raw_connection()
            if raw.in_transaction:  # left open by a commit that failed after its caller was cancelled
                raw.execute("ROLLBACK")
            give_up = time.monotonic() + self._busy_wait_s
            while True:
                try:
                    raw.execute("BEGIN IMMEDIATE")
                    break
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() > give_up:
                        raise
                await asyncio.sleep(0.01)
            try:
                yield raw
            except BaseException:
                raw.execute("ROLLBACK")
                raise
            commit = asyncio.get_running_loop().run_in_executor(None, raw.commit)
            try:
                await asyncio.shield(commit)
            except asyncio.CancelledError:
                await asyncio.wait([commit])  # the connection is not touched until the commit is over
                raise
            except BaseException:
                if raw.in_transaction:
                    raw.execute("ROLLBACK")
                raise
            self.commits += 1

    def _raw_connection(self) -> sqlite3.Connection:
        if self._raw is None:
            assert self._raw_path is not None
            raw = sqlite3.connect(self._raw_path, isolation_level=None, check_same_thread=False)
            for pragma in _sqlite_pragmas(self._synchronous, INLINE_BUSY_S):
                raw.execute(pragma)
            self._raw = raw
        return self._raw

    async def _begin_write(self, stack: contextlib.AsyncExitStack) -> AsyncConnection:
        """BEGIN IMMEDIATE. Inline, SQLite's busy handler may only block the event loop for a moment
        (``INLINE_BUSY_S``): while another process holds the write lock, wait here without blocking, up
        to the configured busy timeout."""
        give_up = time.monotonic() + self._busy_wait_s
        while True:
            try:
                return await stack.enter_async_context(self._write_engine.begin())
            except OperationalError as exc:
                if not self.sqlite_inline or "locked" not in str(exc) or time.monotonic() > give_up:
                    raise
            await asyncio.sleep(0.01)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """A read-only transaction (a consistent snapshot on both databases)."""
        if self.sync_engine is not None:
            async with self._inline(write=False) as conn:
                yield conn
            return
        async with self.engine.connect() as conn, conn.begin():
            yield conn

    async def ping(self) -> None:
        """One round trip to the database (``SELECT 1``); raises when it cannot be reached."""
        async with self.engine.connect() as conn:
            await conn.exec_driver_sql("SELECT 1")

    async def upgrade(self, revision: str = "head") -> None:
        """Apply the Alembic migrations shipped in the package up to ``revision``."""
        if self.schema is not None:
            async with self.engine.begin() as conn:
                # (under the migration lock too: two nodes creating one schema at once collide in
                # PostgreSQL's catalogue even with IF NOT EXISTS, and one of them fails to start)
                await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                await conn.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
        async with self._write_engine.begin() as conn:
            if not self.is_sqlite:  # several processes of a cluster start at once: one migrates at a time
                await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            await conn.run_sync(_alembic, "upgrade", revision)

    async def downgrade(self, revision: str) -> None:
        async with self._write_engine.begin() as conn:
            await conn.run_sync(_alembic, "downgrade", revision)

    @staticmethod
    def head_revision() -> str | None:
        """The newest migration shipped in the package (what ``upgrade()`` brings a database to)."""
        from alembic.script import ScriptDirectory

        return ScriptDirectory.from_config(alembic_config()).get_current_head()

    async def current_revision(self) -> str | None:
        from alembic.runtime.migration import MigrationContext

        def _current(sync_conn: Connection) -> str | None:
            return MigrationContext.configure(sync_conn).get_current_revision()

        async with self.engine.connect() as conn:
            return await conn.run_sync(_current)

    async def dispose(self) -> None:
        for conn in [*self._idle_write, *self._idle_read]:
            conn.close()
        self._idle_write.clear()
        self._idle_read.clear()
        if self._raw is not None:
            self._raw.close()
            self._raw = None
        if self.sync_engine is not None:
            self.sync_engine.dispose()
        await self.engine.dispose()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.dispose()


def alembic_config() -> Any:
    """An Alembic ``Config`` pointing at the migrations inside the installed package."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def _alembic(sync_conn: Connection, command_name: str, revision: str) -> None:
    from alembic import command

    cfg = alembic_config()
    cfg.attributes["connection"] = sync_conn
    getattr(command, command_name)(cfg, revision)


def _sqlite_pragmas(synchronous: str, busy_timeout_s: float) -> list[str]:
    return [
        "PRAGMA journal_mode=WAL",
        "PRAGMA foreign_keys=ON",
        f"PRAGMA synchronous={synchronous}",
        f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}",
    ]


def _tune_sqlite(engine: Engine, synchronous: str, busy_timeout_s: float, *, raw_begin: bool = False) -> None:
    """Pragmas on each new connection, and our own BEGIN for each transaction. ``raw_begin`` (the inline
    engine, whose connections are plain ``sqlite3`` ones): the BEGIN goes straight to the ``sqlite3``
    connection instead of through SQLAlchemy's statement execution (events, a cursor, a result), which
    was most of the cost of starting an inline transaction."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control away from the driver: we emit BEGIN ourselves (below).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in _sqlite_pragmas(synchronous, busy_timeout_s):
            cursor.execute(pragma)
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        statement = f"BEGIN {conn.get_execution_options().get('pokerroom_begin', 'DEFERRED')}"
        if not raw_begin:
            conn.exec_driver_sql(statement)
            return
        try:
            conn.connection.dbapi_connection.execute(statement)  # type: ignore[union-attr]
        except sqlite3.Error as exc:  # as SQLAlchemy raises it ("database is locked": OperationalError)
            raise DBAPIError.instance(statement, None, exc, sqlite3.Error) from None


def _inline_engine(path: str, synchronous: str) -> Engine:
    """The synchronous engine of an inline SQLite database: plain ``sqlite3`` connections used from the
    event loop's thread (and a worker thread for a COMMIT, never both at once). Its pool never makes a
    caller wait: one more connection is opened instead (a wait would block the loop)."""

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(path, timeout=INLINE_BUSY_S, isolation_level=None, check_same_thread=False)

    engine = create_engine("sqlite://", creator=connect, poolclass=QueuePool, pool_size=5, max_overflow=-1)
    _tune_sqlite(engine, synchronous, INLINE_BUSY_S, raw_begin=True)
    return engine


class InlineConnection:
    """An inline SQLite connection with the calls of SQLAlchemy's ``AsyncConnection`` that the store makes:
    each runs at once, on the event loop's own thread (a statement on a small database takes microseconds,
    less than SQLAlchemy's greenlet bridge and aiosqlite's queue add to it) and returns the same results."""

    __slots__ = ("_raw", "sync_connection")

    def __init__(self, sync_connection: Connection) -> None:
        self.sync_connection = sync_connection
        self._raw: sqlite3.Connection = sync_connection.connection.dbapi_connection  # type: ignore[assignment]

    async def execute(self, statement: Any, parameters: Any = None, **kw: Any) -> Any:
        """A :func:`~pokerroom.store.prepared.prebuilt` statement runs straight on the ``sqlite3`` cursor
        (store/prepared.py); any other through SQLAlchemy."""
        if not kw:
            plan = plan_for(statement, parameters, self.sync_connection.dialect)
            if plan is not None:
                result = plan.run(self._raw, parameters)
                if result is not None:
                    return result
        return self.sync_connection.execute(statement, parameters, **kw)

    async def exec_driver_sql(self, statement: str, parameters: Any = None, **kw: Any) -> Any:
        return self.sync_connection.exec_driver_sql(statement, parameters, **kw)

    async def scalar(self, statement: Any, parameters: Any = None, **kw: Any) -> Any:
        return self.sync_connection.scalar(statement, parameters, **kw)

    async def scalars(self, statement: Any, parameters: Any = None, **kw: Any) -> Any:
        return self.sync_connection.scalars(statement, parameters, **kw)

    async def run_sync(self, fn: Any, *args: Any, **kw: Any) -> Any:
        return fn(self.sync_connection, *args, **kw)

    def get_execution_options(self) -> Any:
        return self.sync_connection.get_execution_options()

    @property
    def dialect(self) -> Any:
        return self.sync_connection.dialect


class _Inline:
    """Stands in for aiosqlite's queue to its worker thread. Each call runs at once on the event loop's own
    thread (a statement on a small database takes microseconds, less than handing it to a thread and
    back), except the ``commit`` of a transaction that wrote rows, whose fsync can take milliseconds: it
    runs on a worker thread while the loop goes on (a read-only transaction's commit runs here). Calls on
    one connection never overlap (its user awaits each), so the thread switch is safe with
    ``check_same_thread=False``."""

    def __init__(self) -> None:
        self._changes = 0  # the connection's total_changes at its last commit

    def put_nowait(self, item: tuple[asyncio.Future[Any] | None, Any]) -> None:
        future, function = item
        method = getattr(function, "func", None)
        if future is not None and getattr(method, "__name__", "") == "commit" and self._writes(method):
            done = future.get_loop().run_in_executor(None, function)
            done.add_done_callback(lambda d: _copy_result(d, future))
            return
        try:
            result = function()
        except BaseException as exc:
            if future is not None and not future.done():
                future.set_exception(exc)
        else:
            if future is not None and not future.done():
                future.set_result(result)

    def _writes(self, commit: Any) -> bool:
        """Does the transaction this commit ends hold changes (rows written since the last commit)? A
        read-only one has nothing to sync: its COMMIT only ends the snapshot, in microseconds, so it runs
        here rather than paying the hand-off to a worker thread and back."""
        conn = getattr(commit, "__self__", None)
        changes = getattr(conn, "total_changes", None)
        if not isinstance(changes, int):
            return True
        if changes == self._changes:
            return False
        self._changes = changes
        return True


def _copy_result(source: asyncio.Future[Any], target: asyncio.Future[Any]) -> None:
    if target.done():
        return
    if source.cancelled():
        target.cancel()
    elif (exc := source.exception()) is not None:
        target.set_exception(exc)
    else:
        target.set_result(source.result())


class _NoThread:
    daemon = True

    def start(self) -> None:
        pass

    def join(self, timeout: float | None = None) -> None:
        pass

    def is_alive(self) -> bool:
        return False


def inline_supported() -> bool:
    """Whether the installed aiosqlite has the shape the inline mode relies on (0.22: a connection holding
    a ``_tx`` queue and a ``_thread``); otherwise SQLite runs through aiosqlite's threads as usual."""
    import aiosqlite

    probe = aiosqlite.connect(":memory:")
    return hasattr(probe, "_tx") and isinstance(getattr(probe, "_thread", None), threading.Thread)


def _inline_connector(path: str, busy_timeout_s: float) -> Any:
    import aiosqlite

    supported = inline_supported()

    async def connect() -> Any:
        conn = aiosqlite.connect(path, timeout=busy_timeout_s, check_same_thread=False)
        if supported:
            conn._tx = _Inline()  # type: ignore[assignment]
            conn._thread = _NoThread()  # type: ignore[assignment]
        else:
            conn._thread.daemon = True
        return await conn

    return connect
