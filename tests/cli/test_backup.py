"""Issue 29, item 6: ``pokerroom backup`` and ``pokerroom restore`` as a round trip. A room plays hands, its
database is backed up while it runs, restored into a fresh database, ``pokerroom ledger verify`` passes
on the copy, and a room started on the copy deals on from where the backup was (SQLite always;
PostgreSQL when it answers, restored into a fresh database created and dropped here)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pokerroom.bots.runner import start_bots
from pokerroom.cli import app
from pokerroom.cli.backup import BackupError, check_tools, pg_major, restore
from pokerroom.rooms import Timing
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import Database, Store
from tests.server.conftest import serve_room
from tests.store.storehelpers import PG_URL, drop_pg_schema, new_pg_schema, require_pg
from tests.waiting import until

runner = CliRunner()
CLOCK = Timing(action=3.0, time_bank=0.0, between_hands=0.05, disconnect_grace=600, sit_out_limit=3600)
SETTINGS = RoomSettings(tables=tuple(demo_tables(CLOCK, games=("holdem",))[:1]))
TABLE = SETTINGS.tables[0].table_id


def _pg_exec(sql: str) -> None:
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg", "postgresql"))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


@pytest.fixture(params=["sqlite", "postgresql"])
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[list[str], list[str]]]:
    """CLI options of the room's database and of the fresh one the backup is restored into."""
    if request.param == "sqlite":
        yield (
            ["--database", f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"],
            ["--database", f"sqlite+aiosqlite:///{tmp_path / 'restored' / 'room.db'}"],
        )
        return
    require_pg()
    schema = new_pg_schema("t_backup")
    fresh = f"t_restore_{uuid.uuid4().hex[:10]}"
    _pg_exec(f'CREATE DATABASE "{fresh}"')
    other = PG_URL.rsplit("/", 1)[0] + f"/{fresh}"
    try:
        yield ["--database", PG_URL, "--schema", schema], ["--database", other, "--schema", schema]
    finally:
        drop_pg_schema(schema)
        _pg_exec(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')


def _store(opts: list[str]) -> Store:
    return Store(Database(opts[1], schema=opts[3] if len(opts) > 2 else None))


async def _play(opts: list[str], tmp: Path, hands: int) -> int:
    """Serve a room on ``opts``'s database until its table has dealt ``hands`` more hands; returns the
    table's hand count."""
    store = _store(opts)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(store.close)
        s = await stack.enter_async_context(serve_room(tmp, SETTINGS, store=store))
        bots = await start_bots(s.url, 3, ["caller"], think=(0, 0.02), seed=7, prefix="rt")
        try:
            start = s.room.tables[TABLE].hands_played

            async def dealt() -> bool:
                return s.room.tables[TABLE].hands_played >= start + hands

            await until(dealt, timeout=90, what=f"{hands} hands")
        finally:
            for bot, task in bots:
                bot.stopped = True
                task.cancel()
    count = _store(opts)
    try:
        return int(await count.journal.hand_count(TABLE))
    finally:
        await count.close()


def _cli(*args: str) -> Any:
    return runner.invoke(app, list(args))


@pytest.mark.asyncio
async def test_backup_while_the_room_plays_restore_verify_and_deal_on(
    databases: tuple[list[str], list[str]], tmp_path: Path
) -> None:
    source, target = databases
    file = tmp_path / "room.backup"
    store = _store(source)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(store.close)
        s = await stack.enter_async_context(serve_room(tmp_path, SETTINGS, store=store))
        bots = await start_bots(s.url, 3, ["caller"], think=(0, 0.02), seed=7, prefix="rt")
        try:

            async def dealt() -> bool:
                return s.room.tables[TABLE].hands_played >= 3

            await until(dealt, timeout=90, what="three hands")
            # the backup is taken while the room deals (SQLite: the online backup API)
            done = await asyncio.to_thread(_cli, "backup", str(file), *source)
            assert done.exit_code == 0, done.output
            assert file.exists() and "backed up" in done.output
        finally:
            for bot, task in bots:
                bot.stopped = True
                task.cancel()
    again = await asyncio.to_thread(_cli, "backup", str(file), *source)
    assert again.exit_code == 1 and "exists already" in again.output  # a backup never overwrites

    done = await asyncio.to_thread(_cli, "restore", str(file), *target)
    assert done.exit_code == 0, done.output
    assert "restored" in done.output and "at revision" in done.output
    verify = await asyncio.to_thread(
        _cli, "ledger", "verify", *[o if o != "--database" else "--url" for o in target]
    )
    assert verify.exit_code == 0, verify.output

    restored = _store(target)
    hands_then = await restored.journal.hand_count(TABLE)
    await restored.close()
    assert hands_then >= 1
    # a room started on the restored database deals on, its hand numbers going on after the backup's
    played = await _play(target, tmp_path / "second", 2)
    assert played >= hands_then + 2
    verify = await asyncio.to_thread(
        _cli, "ledger", "verify", *[o if o != "--database" else "--url" for o in target]
    )
    assert verify.exit_code == 0, verify.output

    # a second restore into the same (no longer fresh) database is refused, and changes nothing
    refused = await asyncio.to_thread(_cli, "restore", str(file), *target)
    assert refused.exit_code == 1 and "restore failed" in refused.output
    check = _store(target)
    assert await check.journal.hand_count(TABLE) >= hands_then + 2
    await check.close()


def test_restore_refuses_a_file_that_is_no_backup_and_the_wrong_kind(tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"hello, not a database")
    with pytest.raises(BackupError, match="not a pokerroom backup"):
        restore(junk, f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    pg_dump = tmp_path / "dump.pg"
    pg_dump.write_bytes(b"PGDMP\x01\x0e\x00rest")
    with pytest.raises(BackupError, match="postgresql backup"):
        restore(pg_dump, f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    plain = tmp_path / "plain.db"
    import sqlite3

    sqlite3.connect(plain).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(BackupError, match="not a pokerroom database"):
        restore(plain, f"sqlite+aiosqlite:///{tmp_path / 'y.db'}")
    assert not (tmp_path / "y.db").exists()  # nothing was made


def test_backup_of_a_missing_sqlite_database_is_a_clear_error(tmp_path: Path) -> None:
    done = _cli(
        "backup", str(tmp_path / "b.bak"), "--database", f"sqlite+aiosqlite:///{tmp_path / 'none.db'}"
    )
    assert done.exit_code == 1 and "no such database file" in done.output
    assert not (tmp_path / "b.bak").exists() and not (tmp_path / "none.db").exists()


def test_postgresql_tools_older_than_the_server_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from pokerroom.cli import backup as module

    assert pg_major(150004) == 15 and pg_major(90624) == 9 and pg_major(170000) == 17
    monkeypatch.setattr(module, "tool_major", lambda tool: 14)
    with pytest.raises(BackupError, match="pg_dump is version 14, older than the PostgreSQL server \\(15\\)"):
        check_tools("pg_dump", 15)
    check_tools("pg_dump", 14)  # the same major: fine
    check_tools("pg_dump", 13)  # newer tools read older servers


def test_the_installed_tools_version_is_read() -> None:
    from pokerroom.cli.backup import tool_major

    if os.system("which pg_dump > /dev/null 2>&1") != 0:
        pytest.skip("pg_dump is not installed")
    assert tool_major("pg_dump") >= 10
