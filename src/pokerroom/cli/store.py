"""Store commands: ``pokerroom db upgrade``, ``pokerroom db url``, ``pokerroom ledger verify``,
``pokerroom audit verify``."""

from __future__ import annotations

import asyncio

import typer

from pokerroom.cli.app import app
from pokerroom.store.audit import AuditLog
from pokerroom.store.db import Database, redact, resolve_url
from pokerroom.store.verify import verify_ledger

db_app = typer.Typer(help="The database: migrations and where it lives.", no_args_is_help=True)
ledger_app = typer.Typer(help="The money ledger.", no_args_is_help=True)
app.add_typer(db_app, name="db")
app.add_typer(ledger_app, name="ledger")
audit_app = typer.Typer(help="The console's audit log.", no_args_is_help=True)
app.add_typer(audit_app, name="audit")

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


@audit_app.command("verify")
def audit_verify(
    url: str | None = _URL,
    schema: str | None = _SCHEMA,
    head: str | None = typer.Option(
        None,
        "--head",
        help="ID:HASH, a head this command printed before (kept somewhere else): it must still be in the "
        "chain, which shows rows cut off the end.",
    ),
) -> None:
    """Walk the audit log's hash chain: exit 1 naming each row removed, changed or moved. Prints the head
    (the last row's id and hash), to keep somewhere else."""
    expected: tuple[int, str] | None = None
    if head is not None:
        row, _, digest = head.partition(":")
        if not row.isdigit() or len(digest) != 64:
            raise typer.BadParameter("--head is ID:HASH (as this command prints it)")
        expected = (int(row), digest.lower())

    async def run() -> tuple[bool | None, str]:
        async with Database(url, schema=schema) as db:
            current = await db.current_revision()
            if current is None or current < "0010":  # (revisions are numbered: 0010 made the chain)
                return None, f"the database is at revision {current}: run pokerroom db upgrade first"
            check = await AuditLog(db).verify(head=expected)
            return check.ok, check.render()

    ok, text = asyncio.run(run())
    typer.echo(text, err=ok is None)
    if ok is None:
        raise typer.Exit(2)
    if not ok:
        raise typer.Exit(1)
