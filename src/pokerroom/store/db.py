"""The database handle: URL resolution, engines (SQLite tuned for money writes) and migrations."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

ENV_URL = "POKERROOM_DATABASE_URL"
ENV_SCHEMA = "POKERROOM_DATABASE_SCHEMA"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_SCHEMA_RE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


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
        else:
            kwargs["pool_size"] = pool_size
            kwargs["max_overflow"] = max_overflow
            kwargs["pool_pre_ping"] = False
            if schema is not None:
                kwargs["connect_args"] = {"server_settings": {"search_path": schema}}
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        self._write_lock: asyncio.Lock | None = None
        if self.dialect == "sqlite":
            _tune_sqlite(self.engine, sqlite_synchronous.upper(), sqlite_busy_timeout_s)
            self._write_engine = self.engine.execution_options(pokerroom_begin="IMMEDIATE")
        else:
            self._write_engine = self.engine

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction (``BEGIN IMMEDIATE`` on SQLite); commits on success, rolls back on error.

        On SQLite the writers of this process queue on an asyncio lock: only one connection at a time asks
        for the database's write lock, so none of them falls into SQLite's busy handler, which sleeps in
        steps of up to 100 ms (under load that, not the writes, made the latency)."""
        if not self.is_sqlite:
            async with self._write_engine.begin() as conn:
                yield conn
            return
        if self._write_lock is None:
            self._write_lock = asyncio.Lock()
        async with self._write_lock, self._write_engine.begin() as conn:
            yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """A read-only transaction (a consistent snapshot on both databases)."""
        async with self.engine.connect() as conn, conn.begin():
            yield conn

    async def upgrade(self, revision: str = "head") -> None:
        """Apply the Alembic migrations shipped in the package up to ``revision``."""
        if self.schema is not None:
            async with self.engine.begin() as conn:
                await conn.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
        async with self._write_engine.begin() as conn:
            await conn.run_sync(_alembic, "upgrade", revision)

    async def downgrade(self, revision: str) -> None:
        async with self._write_engine.begin() as conn:
            await conn.run_sync(_alembic, "downgrade", revision)

    async def current_revision(self) -> str | None:
        from alembic.runtime.migration import MigrationContext

        def _current(sync_conn: Connection) -> str | None:
            return MigrationContext.configure(sync_conn).get_current_revision()

        async with self.engine.connect() as conn:
            return await conn.run_sync(_current)

    async def dispose(self) -> None:
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


def _tune_sqlite(engine: AsyncEngine, synchronous: str, busy_timeout_s: float) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control away from the driver: we emit BEGIN ourselves (below).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get("pokerroom_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")
