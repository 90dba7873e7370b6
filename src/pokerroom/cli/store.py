"""Store commands: ``pokerroom db upgrade``, ``pokerroom db url``, ``pokerroom ledger verify``."""

from __future__ import annotations

import asyncio

import typer

from pokerroom.cli.app import app
from pokerroom.store.db import Database, redact, resolve_url
from pokerroom.store.verify import verify_ledger

db_app = typer.Typer(help="The database: migrations and where it lives.", no_args_is_help=True)
ledger_app = typer.Typer(help="The money ledger.", no_args_is_help=True)
app.add_typer(db_app, name="db")
app.add_typer(ledger_app, name="ledger")

_URL = typer.Option(
    None, "--url", help="Database URL (default: $POKERROOM_DATABASE_URL, else SQLite in the data dir)."
)
_SCHEMA = typer.Option(None, "--schema", help="PostgreSQL schema (default: $POKERROOM_DATABASE_SCHEMA).")


@db_app.command("upgrade")
def db_upgrade(
    url: str | None = _URL,
    schema: str | None = _SCHEMA,
    revision: str = typer.Option("head", help="Target revision."),
) -> None:
    """Create or migrate the database schema (Alembic migrations shipped with pokerroom)."""

    async def run() -> str | None:
        async with Database(url, schema=schema) as db:
            await db.upgrade(revision)
            return await db.current_revision()

    current = asyncio.run(run())
    typer.echo(f"{redact(resolve_url(url))}: at revision {current}")


@db_app.command("url")
def db_url(url: str | None = _URL) -> None:
    """Print the database URL in use (password hidden)."""
    typer.echo(redact(resolve_url(url)))


@ledger_app.command("verify")
def ledger_verify(url: str | None = _URL, schema: str | None = _SCHEMA) -> None:
    """Recompute every balance from the postings; exit 1 on any discrepancy."""

    async def run() -> tuple[bool, str]:
        async with Database(url, schema=schema) as db:
            report = await verify_ledger(db)
            return report.ok, report.render()

    ok, text = asyncio.run(run())
    typer.echo(text)
    if not ok:
        raise typer.Exit(1)
