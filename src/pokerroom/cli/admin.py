"""``pokerroom admin create NAME``: the first administrator of a room, from the command line."""

from __future__ import annotations

import asyncio
import sys

import typer

from pokerroom.cli.app import app
from pokerroom.store import NameTaken, Role, Store, StoreError

admin_app = typer.Typer(help="The console's administrators.", no_args_is_help=True)
app.add_typer(admin_app, name="admin")

_URL = typer.Option(
    None, "--url", help="Database URL (default: $POKERROOM_DATABASE_URL, else SQLite in the data dir)."
)
_SCHEMA = typer.Option(None, "--schema", help="PostgreSQL schema (default: $POKERROOM_DATABASE_SCHEMA).")


def _password() -> str:
    """Asked twice on a terminal (not echoed); otherwise the first line of stdin."""
    if sys.stdin.isatty():
        value: str = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
        return value
    return sys.stdin.readline().rstrip("\r\n")


@admin_app.command("create")
def create(name: str, url: str | None = _URL, schema: str | None = _SCHEMA) -> None:
    """Create an administrator account NAME (the password is asked, or read from stdin). The creation is
    written to the audit log (by "command line")."""
    password = _password()

    async def run() -> str:
        store = Store.open(url, schema=schema)
        try:
            await store.db.upgrade()
            player = await store.accounts.register(name, password, role=Role.ADMIN)
            await store.audit.record(
                None, "command line", "admin.create", player.name, before=None, after={"role": "admin"}
            )
            return f"administrator {player.name} created (id {player.id})"
        finally:
            await store.close()

    try:
        typer.echo(asyncio.run(run()))
    except NameTaken:
        typer.echo(f"the name {name!r} is taken", err=True)
        raise typer.Exit(1) from None
    except StoreError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
