"""Issue 34, defect 8: the audit log was append-only by a trigger that the database's owner can drop, and
nothing else: a row deleted or changed behind the trigger's back left no trace. Now each row holds the hash
of the row before it and its own (a hash chain); ``AuditLog.verify`` and ``pokerroom audit verify`` name a
row dropped, changed or moved, and a head noted before shows rows cut off the end. Migration 0010 chains
the rows already there, and marks the accounts the room made for its bots as service accounts."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.store import Database, Store
from pokerroom.store.audit import GENESIS

from .storehelpers import CHEAP_HASHER, PASSWORD, PG_URL, FakeClock, drop_pg_schema, require_pg

runner = CliRunner()


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """(url, schema) of an empty database, nothing migrated yet."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'audit.db'}", None
    else:
        require_pg()
        schema = f"t_audit_{os.getpid()}_{abs(hash(str(tmp_path))) % 10**8}"
        yield PG_URL, schema
        drop_pg_schema(schema)


async def _cli(target: tuple[str, str | None], *more: str) -> tuple[int, str]:
    """``pokerroom audit verify`` (in a thread: it runs an event loop of its own)."""
    url, schema = target
    args = ["audit", "verify", "--url", url, *(["--schema", schema] if schema else []), *more]
    result = await asyncio.to_thread(runner.invoke, app, args)
    return result.exit_code, result.output


async def _unguarded(db: Database, sql: str) -> None:
    """``sql`` run as the database's owner could: with the append-only trigger out of the way."""
    async with db.write() as conn:
        if db.is_sqlite:
            await conn.execute(text("DROP TRIGGER IF EXISTS audit_log_no_update"))
            await conn.execute(text("DROP TRIGGER IF EXISTS audit_log_no_delete"))
        else:
            await conn.execute(text("ALTER TABLE audit_log DISABLE TRIGGER audit_log_frozen"))
        await conn.execute(text(sql))


async def _log(store: Store, n: int) -> None:
    for i in range(n):
        await store.audit.record(1, "boss", "player.adjust", f"p{i}", before={"b": i}, after={"b": i + 1})


@pytest.mark.asyncio
async def test_a_dropped_or_changed_row_shows(target: tuple[str, str | None]) -> None:
    url, schema = target
    store = Store(Database(url, schema=schema), clock=FakeClock(), hasher=CHEAP_HASHER)
    try:
        await store.db.upgrade()
        assert (await store.audit.verify()).ok  # an empty log
        await _log(store, 6)
        check = await store.audit.verify()
        assert check.ok and check.rows == 6 and check.head_id is not None, check.render()
        head = f"{check.head_id}:{check.head_hash}"
        assert await _cli(target) == (0, check.render() + "\n")
        assert (await _cli(target, "--head", head))[0] == 0
        # a row changed behind the trigger's back
        await _unguarded(store.db, "UPDATE audit_log SET after = '[99]' WHERE target = 'p2'")
        changed = await store.audit.verify()
        assert not changed.ok
        assert len(changed.problems) == 1 and "changed" in changed.problems[0], changed.problems
        code, out = await _cli(target)
        assert code == 1 and "BROKEN" in out and "changed" in out
        # a row dropped
        await _unguarded(store.db, "DELETE FROM audit_log WHERE target = 'p4'")
        dropped = await store.audit.verify()
        assert any("does not follow" in p for p in dropped.problems), dropped.problems
        # rows cut off the end: the chain left is whole, but the head noted before is gone
        await _unguarded(store.db, "DELETE FROM audit_log WHERE target = 'p5'")
        code, out = await _cli(target, "--head", head)
        assert code == 1 and "cut off the end" in out
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_rows_moved_or_forged_show(target: tuple[str, str | None]) -> None:
    url, schema = target
    store = Store(Database(url, schema=schema), clock=FakeClock(), hasher=CHEAP_HASHER)
    try:
        await store.db.upgrade()
        await _log(store, 3)
        # a row rewritten with a hash recomputed for its new content: the next row no longer follows it
        from pokerroom.store.audit import row_hash

        async with store.db.read() as conn:
            first = (await conn.execute(text("SELECT * FROM audit_log ORDER BY id LIMIT 1"))).mappings().one()
        forged = dict(first)
        forged["reason"] = "nothing to see"
        forged["at"] = (await store.audit.entries(limit=10))[-1].at
        digest = row_hash(GENESIS, forged)
        await _unguarded(
            store.db,
            f"UPDATE audit_log SET reason = 'nothing to see', row_hash = '{digest}' WHERE id = {first['id']}",
        )
        check = await store.audit.verify()
        assert [p.split(":")[0] for p in check.problems] == [f"row {first['id'] + 1}"], check.problems
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_the_migration_chains_the_rows_there_and_marks_the_bots(target: tuple[str, str | None]) -> None:
    url, schema = target
    db = Database(url, schema=schema)
    try:
        code, out = await _cli(target)
        assert code == 2 and "db upgrade" in out  # (no schema yet)
        await db.upgrade("0009")
        async with db.write() as conn:
            for name, pw in [("bot-t0-1", "!no-password"), ("bot-t0-2", "$argon2id$x")]:
                await conn.execute(
                    text(
                        "INSERT INTO players (name, name_key, password_hash, role, failed_logins, "
                        f"created_at) VALUES ('{name}', '{name}', '{pw}', 'player', 0, :at)"
                    ),
                    {"at": FakeClock().now},
                )
            for i in range(3):
                await conn.execute(
                    text(
                        "INSERT INTO audit_log (at, actor_id, actor_name, action, target, after) "
                        f"VALUES (:at, 1, 'boss', 'player.role', 'p{i}', '{{\"role\":\"admin\"}}')"
                    ),
                    {"at": FakeClock().now + timedelta(seconds=i)},
                )
        await db.upgrade()
        store = Store(db, clock=FakeClock(), hasher=CHEAP_HASHER)
        check = await store.audit.verify()
        assert check.ok and check.rows == 3, check.render()
        await store.audit.record(1, "boss", "player.lock", "p9", reason="spam")  # the chain goes on
        assert (await store.audit.verify()).ok
        # the account made for a bot is a service account; the one a player registered is his
        assert await store.accounts.is_service((await store.accounts.find("bot-t0-1")).id)
        assert not await store.accounts.is_service((await store.accounts.find("bot-t0-2")).id)
        # and a new player registers as one
        alice = await store.accounts.register("alice", PASSWORD)
        assert not await store.accounts.is_service(alice.id)
        # the trigger is back
        with pytest.raises(Exception, match="append-only"):
            async with db.write() as conn:
                await conn.execute(text("UPDATE audit_log SET reason = 'x'"))
    finally:
        await db.dispose()
