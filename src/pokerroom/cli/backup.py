"""``pokerroom backup FILE`` and ``pokerroom restore FILE`` (docs/operations.md, "Backup and restore").

- SQLite: SQLite's online backup API (``sqlite3.Connection.backup``), page by page under a read
  transaction: safe while the room runs (WAL: the room's writers are not stopped), and the copy is one
  consistent moment of the database. The copy is checked (``PRAGMA integrity_check``) before it takes its
  name. A restore copies the file back the same way into a database that does not exist yet.
- PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore`` (in one transaction), refused with a clear
  message when the tools' major version is older than the server's (they would fail, or worse, half
  work). The password is handed to them in ``PGPASSWORD``, never on their command line.

A restore goes into a fresh database only (an existing pokerroom database is refused: move it aside
first), and holds the target's owner lock meanwhile, so no room starts on it half restored.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

import typer
from sqlalchemy.engine import make_url

from pokerroom.cli.app import app

__all__ = ["BackupError", "backup", "pg_major", "restore", "tool_major"]

_URL = typer.Option(
    None,
    "--database",
    "--url",
    envvar="POKERROOM_DATABASE_URL",
    help="Database URL (default: $POKERROOM_DATABASE_URL, else SQLite in the data dir).",
)
_SCHEMA = typer.Option(
    None,
    "--schema",
    envvar="POKERROOM_DATABASE_SCHEMA",
    help="PostgreSQL schema (default: the whole database).",
)
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclass(frozen=True)
class _Pg:
    """How the PostgreSQL tools reach the database: their options and environment (the password)."""

    args: list[str]
    env: dict[str, str]
    dsn: str


def _pg(url: str) -> _Pg:
    u = make_url(url)
    args = []
    if u.host:
        args += ["--host", u.host]
    if u.port:
        args += ["--port", str(u.port)]
    if u.username:
        args += ["--username", u.username]
    args += ["--dbname", u.database or "postgres"]
    env = dict(os.environ)
    if u.password is not None:
        env["PGPASSWORD"] = str(u.password)
    ssl = u.query.get("sslmode") or u.query.get("ssl")  # (asyncpg's ?ssl=require is libpq's sslmode)
    if isinstance(ssl, str):
        env["PGSSLMODE"] = ssl
    dsn = u.set(drivername="postgresql").render_as_string(hide_password=False)
    return _Pg(args, env, dsn)


def tool_major(tool: str) -> int:
    """The major version of ``pg_dump`` or ``pg_restore`` on the PATH."""
    path = shutil.which(tool)
    if path is None:
        raise BackupError(
            f"{tool} is not installed: install the PostgreSQL client tools of the server's version"
        )
    out = subprocess.run([path, "--version"], capture_output=True, text=True, check=False).stdout
    m = re.search(r"\)\s*(\d+)", out) or re.search(r"(\d+)", out)
    if m is None:
        raise BackupError(f"cannot tell the version of {tool} from {out.strip()!r}")
    return int(m.group(1))


def pg_major(server_version_num: int) -> int:
    """PostgreSQL's major version from ``server_version_num`` (150004 -> 15; 90624 -> 9)."""
    return server_version_num // 10000


async def _server_major(dsn: str) -> int:
    import asyncpg

    try:
        conn = await asyncpg.connect(dsn, timeout=10)
    except (OSError, asyncpg.PostgresError) as exc:
        raise BackupError(f"cannot reach the database: {type(exc).__name__}: {exc}") from None
    try:
        return pg_major(int(await conn.fetchval("SHOW server_version_num")))
    finally:
        await conn.close()


def check_tools(tool: str, server: int) -> None:
    """Refuse a tool older than the server (pg_dump refuses a newer server; a dump is read by a
    pg_restore at least as new as the pg_dump that wrote it)."""
    mine = tool_major(tool)
    if mine < server:
        raise BackupError(
            f"{tool} is version {mine}, older than the PostgreSQL server ({server}): install the "
            f"PostgreSQL {server} client tools (postgresql-client-{server}) and run this again"
        )


def _run(cmd: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise BackupError(
            f"{Path(cmd[0]).name} failed (exit {done.returncode}): {done.stderr.strip()[:2000]}"
        )


# ------------------------------------------------------------------------------------------- backup


def backup(url: str, file: Path, *, schema: str | None = None) -> str:
    """Write the database of ``url`` to ``file`` (which must not exist); returns what was done."""
    if file.exists():
        raise BackupError(f"{file} exists already: give a new file name (a backup never overwrites one)")
    dialect = make_url(url).get_backend_name()
    tmp = file.with_name(file.name + ".partial")
    tmp.unlink(missing_ok=True)
    try:
        if dialect == "sqlite":
            _sqlite_copy(_sqlite_path(url), tmp, must_exist=True)
        else:
            pg = _pg(url)
            check_tools("pg_dump", asyncio.run(_server_major(pg.dsn)))
            where = [f"--schema={schema}"] if schema else []
            _run([str(shutil.which("pg_dump")), "--format=custom", f"--file={tmp}", *where, *pg.args], pg.env)
        os.replace(tmp, file)
    finally:
        tmp.unlink(missing_ok=True)
    return f"backed up {_redact(url)}{_of(schema)} to {file} ({file.stat().st_size:,} bytes)"


def _sqlite_path(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(database).expanduser()


def _sqlite_copy(source: Path, target: Path, *, must_exist: bool) -> None:
    """Copy one SQLite database into a new file with the online backup API, then check the copy."""
    if must_exist and not source.is_file():
        raise BackupError(f"{source}: no such database file")
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            ok = dst.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            dst.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{source}: {exc}") from None
    finally:
        src.close()
    if ok != "ok":
        raise BackupError(f"the copy of {source} failed its integrity check: {ok}")


# ------------------------------------------------------------------------------------------ restore


def restore(file: Path, url: str, *, schema: str | None = None) -> str:
    """Restore the backup ``file`` into the fresh database of ``url``; returns what was done."""
    try:
        with file.open("rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise BackupError(f"{file}: cannot be read: {exc.strerror}") from None
    dialect = make_url(url).get_backend_name()
    kind = "sqlite" if head.startswith(SQLITE_MAGIC) else "postgresql" if head.startswith(PG_MAGIC) else None
    if kind is None:
        raise BackupError(
            f"{file} is not a pokerroom backup (neither a SQLite file nor a pg_dump custom archive)"
        )
    if kind != dialect:
        raise BackupError(f"{file} is a {kind} backup: restore it into a {kind} database, not {dialect}")
    return asyncio.run(_restore(file, url, schema))


async def _restore(file: Path, url: str, schema: str | None) -> str:
    from pokerroom.store.owner import DatabaseInUse, OwnerLock

    lock = OwnerLock(url, schema=schema)
    try:
        await lock.acquire()
    except DatabaseInUse as exc:
        raise BackupError(f"{exc}: a restore needs a database no room serves") from None
    except Exception as exc:  # (PostgreSQL unreachable: asyncpg's and the OS's errors)
        raise BackupError(f"cannot reach the database: {type(exc).__name__}: {exc}") from None
    try:
        if lock.dialect == "sqlite":
            _sqlite_restore(file, _sqlite_path(url))
        else:
            await _pg_restore(file, url, schema)
    finally:
        await lock.release()
    revision = await _revision(url, schema)
    return f"restored {file} into {_redact(url)}{_of(schema)}: at revision {revision}"


def _sqlite_restore(file: Path, target: Path) -> None:
    if target.exists() and target.stat().st_size > 0:
        raise BackupError(
            f"{target} exists already: restore into a new file (move the old database aside first)"
        )
    probe = sqlite3.connect(file)
    try:
        tables = {r[0] for r in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{file}: {exc}") from None
    finally:
        probe.close()
    if "alembic_version" not in tables:
        raise BackupError(f"{file} is a SQLite file but not a pokerroom database (no alembic_version)")
    target.parent.mkdir(parents=True, exist_ok=True)
    for extra in ("-wal", "-shm"):
        Path(f"{target}{extra}").unlink(missing_ok=True)
    tmp = target.with_name(target.name + ".partial")
    tmp.unlink(missing_ok=True)
    try:
        _sqlite_copy(file, tmp, must_exist=True)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


async def _pg_restore(file: Path, url: str, schema: str | None) -> None:
    pg = _pg(url)
    check_tools("pg_restore", await _server_major(pg.dsn))
    if await _pg_has_room(pg.dsn, schema or "public"):
        raise BackupError(
            f"{_redact(url)}{_of(schema)} holds a pokerroom database already: restore into a fresh database "
            "(createdb NAME) and point the room at it"
        )
    cmd = [str(shutil.which("pg_restore")), "--exit-on-error", "--single-transaction", "--no-owner"]
    _run([*cmd, "--no-privileges", *pg.args, str(file)], pg.env)


async def _pg_has_room(dsn: str, schema: str) -> bool:
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        found = await conn.fetchval("SELECT to_regclass($1)", f'"{schema}".alembic_version')
        return found is not None
    finally:
        await conn.close()


async def _revision(url: str, schema: str | None) -> str | None:
    from pokerroom.store.db import Database

    async with Database(url, schema=schema) as db:
        return await db.current_revision()


def _redact(url: str) -> str:
    return str(make_url(url).render_as_string(hide_password=True))


def _of(schema: str | None) -> str:
    return f" (schema {schema})" if schema else ""


# ------------------------------------------------------------------------------------------ commands


@app.command("backup")
def backup_command(
    file: Path = typer.Argument(..., help="The backup file to write (it must not exist)."),  # noqa: B008
    url: str | None = _URL,
    schema: str | None = _SCHEMA,
) -> None:
    """Back the room's database up into FILE: SQLite by its online backup API (safe while the room runs),
    PostgreSQL by pg_dump's custom format (tools at least as new as the server)."""
    from pokerroom.store.db import resolve_url

    try:
        typer.echo(backup(resolve_url(url), file, schema=schema))
    except BackupError as exc:
        typer.echo(f"backup failed: {exc}", err=True)
        raise typer.Exit(1) from None


@app.command("restore")
def restore_command(
    file: Path = typer.Argument(..., help="A file `pokerroom backup` wrote."),  # noqa: B008
    url: str | None = _URL,
    schema: str | None = _SCHEMA,
) -> None:
    """Restore FILE into a fresh database (refused if it holds a pokerroom database, or a room serves it);
    `pokerroom ledger verify` then checks the money and `pokerroom serve` starts on it."""
    from pokerroom.store.db import resolve_url

    try:
        typer.echo(restore(file, resolve_url(url), schema=schema))
    except BackupError as exc:
        typer.echo(f"restore failed: {exc}", err=True)
        raise typer.Exit(1) from None
