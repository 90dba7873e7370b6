"""One server process per database: the owner's lock.

A room's process takes this lock before it touches its database (before migrations and before the
recovery of a crash, which cashes out every open seat: run by a second process, it would wreck the first
one's room). A second process finds the lock taken and stops at once, naming the holder.

- SQLite: an exclusive ``flock`` on ``<database>.lock`` beside the database file, which holds the
  holder's host, pid and start time. The kernel releases it when the process ends, however it ends.
- PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) on a connection of its own, opened for
  nothing else; the connection's ``application_name`` names the holder. PostgreSQL releases the lock
  when that session ends. When the connection is lost (the server restarted), :meth:`OwnerLock.keep`
  takes the lock again as soon as the server answers; if another process took it meanwhile, the lock is
  lost for good and the caller must stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from pokerroom.store.errors import StoreError

__all__ = ["DatabaseInUse", "Owner", "OwnerLock"]


@dataclass(frozen=True)
class Owner:
    host: str
    pid: int
    started_at: str

    def describe(self) -> str:
        return f"host {self.host}, pid {self.pid}, started {self.started_at}"

    def to_text(self) -> str:
        return json.dumps({"host": self.host, "pid": self.pid, "started_at": self.started_at})

    @classmethod
    def parse(cls, text: str) -> Owner | None:
        try:
            data = json.loads(text)
            return cls(str(data["host"]), int(data["pid"]), str(data["started_at"]))
        except (ValueError, KeyError, TypeError):
            return None

    @classmethod
    def me(cls) -> Owner:
        return cls(socket.gethostname(), os.getpid(), datetime.now(UTC).isoformat(timespec="seconds"))


class DatabaseInUse(StoreError):
    """Another process owns the database; ``owner`` says which (None if it could not be read)."""

    code = "database_in_use"

    def __init__(self, where: str, owner: Owner | None) -> None:
        who = owner.describe() if owner is not None else "a process that did not say who it is"
        super().__init__(f"{where} is served by another pokerroom process ({who}); stop it first")
        self.owner = owner


class OwnerLock:
    """The lock of one database URL (and PostgreSQL schema). Use ``await acquire()`` ... ``release()``."""

    def __init__(self, url: str, *, schema: str | None = None) -> None:
        parsed = make_url(url)
        self.url = url
        self.dialect = parsed.get_backend_name()
        self.schema = schema
        self.me = Owner.me()
        self._file: Any = None
        self._pg: Any = None
        self.lost = asyncio.Event()  # set when the lock was lost for good (PostgreSQL)
        if self.dialect == "sqlite":
            database = parsed.database
            self.path: Path | None = (
                Path(database).expanduser().with_name(Path(database).name + ".lock")
                if database and database != ":memory:"
                else None
            )
        else:
            self.path = None
            self._dsn = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
            name = f"pokerroom:{parsed.database}:{schema or 'public'}"
            self.key = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)

    @property
    def where(self) -> str:
        return str(make_url(self.url).render_as_string(hide_password=True))

    # --------------------------------------------------------------------------------- acquiring

    async def acquire(self) -> None:
        """Take the lock or raise :class:`DatabaseInUse` naming the holder; nothing else is touched."""
        if self.dialect == "sqlite":
            self._acquire_file()
        else:
            await self._acquire_pg()

    def _acquire_file(self) -> None:
        if self.path is None:
            return
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        f = open(self.path, "a+")  # noqa: SIM115  (held open for the life of the process)
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.seek(0)
            holder = Owner.parse(f.read())
            f.close()
            raise DatabaseInUse(self.where, holder) from None
        f.seek(0)
        f.truncate()
        f.write(self.me.to_text())
        f.flush()
        self._file = f

    async def _connect_pg(self) -> Any:
        import asyncpg

        name = f"pokerroom owner {self.me.host} {self.me.pid} {self.me.started_at}"[:63]
        return await asyncpg.connect(self._dsn, timeout=10, server_settings={"application_name": name})

    async def _acquire_pg(self) -> None:
        conn = await self._connect_pg()
        try:
            got = await conn.fetchval("SELECT pg_try_advisory_lock($1)", self.key)
            if not got:
                holder = await self._holder(conn)
                raise DatabaseInUse(self.where, holder)
        except BaseException:
            await conn.close()
            raise
        self._pg = conn

    async def _holder(self, conn: Any) -> Owner | None:
        hi, lo = (self.key >> 32) & 0xFFFFFFFF, self.key & 0xFFFFFFFF
        name = await conn.fetchval(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = $1 AND l.objid::bigint = $2",
            hi,
            lo,
        )
        parts = str(name or "").split(" ")
        if len(parts) >= 5 and parts[0] == "pokerroom" and parts[1] == "owner":
            with contextlib.suppress(ValueError):
                return Owner(parts[2], int(parts[3]), parts[4])
        return None

    async def holder(self) -> Owner | None:
        """Who holds the lock now (None: nobody, or a holder that did not say), without taking it."""
        if self.dialect == "sqlite":
            if self.path is None or not self.path.exists():
                return None
            import fcntl

            with open(self.path) as f:
                try:
                    fcntl.flock(f.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
                except OSError:
                    return Owner.parse(f.read())
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)
                return None  # the file is there, but nobody holds it
        conn = await self._connect_pg()
        try:
            return await self._holder(conn)
        finally:
            await conn.close()

    # ---------------------------------------------------------------------------------- holding

    async def keep(self, *, every: float = 2.0) -> None:
        """PostgreSQL: watch the lock's connection; when it is lost, take the lock again as soon as the
        server answers. If another process holds it by then, set :attr:`lost` and return."""
        if self.dialect == "sqlite" or self._pg is None:
            return
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.wait_for(self._pg.fetchval("SELECT 1"), 5)
                continue
            except Exception:
                with contextlib.suppress(Exception):
                    self._pg.terminate()
                self._pg = None
            while self._pg is None:
                try:
                    await self._acquire_pg()
                except DatabaseInUse:
                    self.lost.set()
                    return
                except Exception:
                    await asyncio.sleep(every)

    async def release(self) -> None:
        if self._file is not None:
            import fcntl

            with contextlib.suppress(OSError):
                fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None
        if self._pg is not None:
            with contextlib.suppress(Exception):
                await self._pg.close()
            self._pg = None
