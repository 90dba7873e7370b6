"""``pokerroom admin create NAME`` (issue 17): the first administrator, the password from stdin."""

from __future__ import annotations

import asyncio
from pathlib import Path

from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.store import Role, Store

runner = CliRunner()
PASSWORD = "the-first-admin-pass-phrase"


def test_admin_create_makes_an_administrator_and_audits_it(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    result = runner.invoke(app, ["admin", "create", "boss", "--url", url], input=PASSWORD + "\n")
    assert result.exit_code == 0, result.output
    assert "administrator boss created" in result.output

    async def check() -> None:
        store = Store.open(url)
        try:
            session = await store.accounts.login("boss", PASSWORD)
            assert session.player.role is Role.ADMIN
            [entry] = await store.audit.entries()
            assert (entry.actor_name, entry.action, entry.target) == ("command line", "admin.create", "boss")
        finally:
            await store.close()

    asyncio.run(check())
    again = runner.invoke(app, ["admin", "create", "BOSS", "--url", url], input=PASSWORD + "\n")
    assert again.exit_code == 1 and "taken" in again.output


def test_a_weak_password_creates_nothing(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    result = runner.invoke(app, ["admin", "create", "boss", "--url", url], input="short\n")
    assert result.exit_code == 1

    async def count() -> int:
        store = Store.open(url)
        try:
            return await store.accounts.count()
        finally:
            await store.close()

    assert asyncio.run(count()) == 0
