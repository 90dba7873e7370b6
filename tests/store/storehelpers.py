"""Helpers shared by the store tests (fixtures are in conftest.py)."""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from pokerroom.store import Database

PG_URL = os.environ.get("POKERROOM_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
TABLES = (
    "hand_numbers, tournament_numbers, "
    "tournament_player_hands, tournament_hands, tournament_entries, tournament_tickets, tournaments, "
    "player_hands, hand_histories, hand_commands, hand_seats, hands, ledger_postings, ledger_transactions, "
    "account_notes, chat_log, chat_words, chat_mutes, integrity_reports, login_history, "
    "gaming_limits, gaming_exclusions, "
    "sso_tokens, api_keys, "
    "password_codes, account_emails, "
    "player_hand_figures, player_notes, player_prefs, "
    "cashier_requests, ledger_accounts, auth_sessions, players, leases, audit_log, console_games"
)
CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
PASSWORD = "s3cret-pass-phrase"


class FakeClock:
    """An injectable clock that only moves when told."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


_pg_reason: str | None = None
_pg_checked = False


def pg_unavailable_reason() -> str | None:
    """None if PostgreSQL answers at PG_URL, else why not (checked once per session)."""
    global _pg_checked, _pg_reason
    if not _pg_checked:
        _pg_checked = True

        async def probe() -> None:
            import asyncpg

            conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg", "postgresql"), timeout=3)
            await conn.close()

        try:
            asyncio.run(probe())
        except Exception as exc:
            _pg_reason = f"PostgreSQL unreachable at {PG_URL}: {type(exc).__name__}: {exc}"
    return _pg_reason


def require_pg() -> None:
    reason = pg_unavailable_reason()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {reason}")
        pytest.skip(reason)


async def _exec_pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg", "postgresql"))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def new_pg_schema(prefix: str = "t_store") -> str:
    """Create and migrate a fresh schema; the caller drops it with drop_pg_schema."""
    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"

    async def make() -> None:
        async with Database(PG_URL, schema=schema) as db:
            await db.upgrade()

    asyncio.run(make())
    return schema


def drop_pg_schema(schema: str) -> None:
    asyncio.run(_exec_pg(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


def fresh_sqlite(template: Path, directory: Path) -> str:
    target = directory / f"store-{uuid.uuid4().hex[:8]}.db"
    shutil.copyfile(template, target)
    return f"sqlite+aiosqlite:///{target}"


async def pg_truncate_async(schema: str) -> None:
    tables = ", ".join(f"{schema}.{t.strip()}" for t in TABLES.split(","))
    await _exec_pg(f"TRUNCATE {tables} RESTART IDENTITY")


def pg_truncate(schema: str) -> None:
    asyncio.run(pg_truncate_async(schema))
