"""``pokerroom config check FILE`` and ``pokerroom reload``: a room's configuration file before and after
it is served (docs/configuration.md)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket

import typer

from pokerroom.cli.app import app

config_app = typer.Typer(help="The room's configuration file (docs/configuration.md).", no_args_is_help=True)
app.add_typer(config_app, name="config")


@config_app.command("check")
def check(path: str = typer.Argument(None, help="The file (default: the shipped room).")) -> None:
    """Read a configuration file as `pokerroom serve --config` would: every problem with its line and
    key, or what the room would open."""
    from pokerroom.bots.strategies import STRATEGIES
    from pokerroom.server.config import ConfigInvalid, load_config

    try:
        config = load_config(path, strategies=tuple(STRATEGIES))
    except ConfigInvalid as exc:
        typer.echo(str(exc), err=True)
        typer.echo(f"{len(exc.problems)} problem(s): a room would not start with this file", err=True)
        raise typer.Exit(1) from None
    rush = f", {len(config.rush_tournaments)} Rush tournaments" if config.rush_tournaments else ""
    typer.echo(
        f"{config.source}: OK: {len(config.tables)} tables, {len(config.pools)} Rush pools, "
        f"{len(config.tournaments)} tournaments{rush}, {config.bots.total} bots"
    )


@app.command("reload")
def reload(
    database: str = typer.Option(
        None, "--database", envvar="POKERROOM_DATABASE_URL", help="The database of the room to reload."
    ),
) -> None:
    """Make the running room read its configuration again (SIGHUP to the process that owns the
    database): added tables open, removed ones close after their hand with their players cashed out."""
    from pokerroom.store.db import resolve_url
    from pokerroom.store.owner import OwnerLock

    lock = OwnerLock(resolve_url(database))
    holder = asyncio.run(lock.holder())
    if holder is None:
        typer.echo(f"no running room owns {lock.where}", err=True)
        raise typer.Exit(1)
    if holder.host != socket.gethostname():
        typer.echo(f"the room runs on {holder.host} (pid {holder.pid}): reload it there", err=True)
        raise typer.Exit(1)
    try:
        os.kill(holder.pid, signal.SIGHUP)
    except OSError as exc:
        typer.echo(f"cannot signal pid {holder.pid}: {exc.strerror}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"asked the room (pid {holder.pid}) to read its configuration again")
