"""``pokerroom db upgrade`` and ``pokerroom ledger verify`` through the CLI, migrations, database URLs."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import Connection
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.store import Database, Role, Store, default_url, resolve_url
from pokerroom.store.models import Base

from .storehelpers import PG_URL, drop_pg_schema, require_pg

runner = CliRunner()


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[str]]:
    """CLI options naming an empty database (nothing migrated yet)."""
    if request.param == "sqlite":
        yield ["--url", f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}"]
    else:
        require_pg()
        schema = f"t_cli_{os.getpid()}_{abs(hash(str(tmp_path))) % 10**8}"
        yield ["--url", PG_URL, "--schema", schema]
        drop_pg_schema(schema)


def _db(opts: list[str]) -> Database:
    url = opts[1]
    schema = opts[3] if len(opts) > 2 else None
    return Database(url, schema=schema)


async def _activity(opts: list[str]) -> None:
    from .storehelpers import CHEAP_HASHER

    store = Store(_db(opts), hasher=CHEAP_HASHER)
    admin = await store.accounts.register("admin", "s3cret-pass-phrase", role=Role.ADMIN)
    p = await store.accounts.register("alice", "s3cret-pass-phrase")
    await store.ledger.deposit(p.id, "USD", 5_000, admin_id=admin.id, idempotency_key="d")
    b = await store.ledger.buy_in(p.id, "t", "USD", 2_000, idempotency_key="b")
    await store.ledger.settle_hand("h", "USD", {b.session_id: -100}, 100, {p.id: 10})
    await store.close()


async def _sql(opts: list[str], sql: str) -> None:
    async with _db(opts) as db, db.write() as conn:
        await conn.execute(text(sql))


def test_db_upgrade_then_verify_passes_and_tampering_fails(target: list[str]) -> None:
    result = runner.invoke(app, ["db", "upgrade", *target])
    assert result.exit_code == 0, result.output
    assert f"at revision {Database.head_revision()}" in result.stdout
    assert runner.invoke(app, ["db", "upgrade", *target]).exit_code == 0  # idempotent
    asyncio.run(_activity(target))
    ok = runner.invoke(app, ["ledger", "verify", *target])
    assert ok.exit_code == 0, ok.output
    assert "USD: total 0" in ok.stdout and "PTS: total 0" in ok.stdout and "ledger OK" in ok.stdout
    # A posting changed behind the ledger's back.
    asyncio.run(
        _sql(
            target,
            "UPDATE ledger_postings SET amount = amount + 1 WHERE id = (SELECT MAX(id) FROM ledger_postings)",
        )
    )
    bad = runner.invoke(app, ["ledger", "verify", *target])
    assert bad.exit_code == 1
    assert "PROBLEM: transaction" in bad.stdout and "ledger FAILED" in bad.stdout


def test_verify_catches_a_stored_balance_changed_behind_the_ledgers_back(target: list[str]) -> None:
    assert runner.invoke(app, ["db", "upgrade", *target]).exit_code == 0
    asyncio.run(_activity(target))
    asyncio.run(_sql(target, "UPDATE ledger_accounts SET balance = balance + 500 WHERE kind = 'wallet'"))
    bad = runner.invoke(app, ["ledger", "verify", *target])
    assert bad.exit_code == 1
    assert "stored balance" in bad.stdout and "money created or lost" in bad.stdout


def test_verify_catches_a_deleted_posting(target: list[str]) -> None:
    assert runner.invoke(app, ["db", "upgrade", *target]).exit_code == 0
    asyncio.run(_activity(target))
    asyncio.run(_sql(target, "DELETE FROM ledger_postings WHERE amount = 100"))  # the rake
    bad = runner.invoke(app, ["ledger", "verify", *target])
    assert bad.exit_code == 1 and "sum to" in bad.stdout


def test_the_installed_command_runs_in_a_subprocess(tmp_path: Path) -> None:
    env = {**os.environ, "POKERROOM_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'sub.db'}"}
    up = subprocess.run(
        [sys.executable, "-m", "pokerroom", "db", "upgrade"], env=env, capture_output=True, text=True
    )
    assert up.returncode == 0, up.stderr
    ver = subprocess.run(
        [sys.executable, "-m", "pokerroom", "ledger", "verify"], env=env, capture_output=True, text=True
    )
    assert ver.returncode == 0 and "ledger OK" in ver.stdout


def test_database_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("POKERROOM_DATABASE_URL", raising=False)
    assert default_url().startswith("sqlite+aiosqlite:///") and default_url().endswith(
        "pokerroom/pokerroom.db"
    )
    assert resolve_url() == default_url()
    monkeypatch.setenv("POKERROOM_DATABASE_URL", "postgresql+asyncpg://u:secret@h/db")
    assert resolve_url() == "postgresql+asyncpg://u:secret@h/db"
    shown = runner.invoke(app, ["db", "url"]).stdout
    assert "secret" not in shown and "postgresql+asyncpg://u:***@h/db" in shown
    with pytest.raises(ValueError):
        Database("mysql+aiomysql://x/y")
    with pytest.raises(ValueError):
        Database("postgresql+asyncpg://x/y", schema="bad; drop")


def _diff(conn: Connection) -> list[object]:
    return list(
        compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
    )


@pytest.mark.asyncio
async def test_the_migrations_build_exactly_the_models_and_downgrade(target: list[str]) -> None:
    db = _db(target)
    try:
        await db.upgrade()
        async with db.engine.connect() as conn:
            assert await conn.run_sync(_diff) == []
        assert await db.current_revision() == Database.head_revision()
        await db.downgrade("base")
        assert await db.current_revision() is None
        await db.upgrade()
        assert await db.current_revision() == Database.head_revision()
    finally:
        await db.dispose()


@pytest.mark.asyncio
async def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    async with Database(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}") as db:
        await db.upgrade()
        async with db.read() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
            assert (await conn.execute(text("PRAGMA synchronous"))).scalar_one() == 2  # FULL
