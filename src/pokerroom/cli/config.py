"""``pokerroom config check FILE`` and ``pokerroom reload``: a room's configuration file before and after
it is served (docs/configuration.md)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from dataclasses import dataclass
from pathlib import Path

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
    config: str | None = typer.Option(
        None,
        "--config",
        help="The file the room reads (default: the one its command line or environment names, found "
        "through /proc; else the shipped room).",
    ),
) -> None:
    """Make the running room read its configuration again (SIGHUP to the process that owns the
    database): added tables open, removed ones close after their hand with their players cashed out.
    The file is checked first: with problems, each is printed with its line and key, the room is left
    as it was, and the exit status is 1."""
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
    found = room_files(holder.pid)
    if config is not None:
        found = RoomFiles(config, found.tournaments if found else None)
    if found is None:
        typer.echo(
            f"cannot read the command line of pid {holder.pid} to check its configuration first: give "
            "--config FILE (the file is only checked by the room itself now)",
            err=True,
        )
    else:
        problems = check_room_files(found)
        if problems:
            for line in problems:
                typer.echo(line, err=True)
            typer.echo(
                f"{len(problems)} problem(s): the room (pid {holder.pid}) was not reloaded and goes on "
                "as it was",
                err=True,
            )
            raise typer.Exit(1)
    try:
        os.kill(holder.pid, signal.SIGHUP)
    except OSError as exc:
        typer.echo(f"cannot signal pid {holder.pid}: {exc.strerror}", err=True)
        raise typer.Exit(1) from None
    what = "its configuration" if found is None else (found.config or "the shipped room")
    typer.echo(f"asked the room (pid {holder.pid}) to read {what} again")


@dataclass(frozen=True)
class RoomFiles:
    """What a running room reads at a reload: its ``--config`` (None: the shipped room) and its
    ``--tournaments`` schedule."""

    config: str | None
    tournaments: str | None


def room_files(pid: int, proc: Path = Path("/proc")) -> RoomFiles | None:
    """The files the room of process ``pid`` reads, from its command line, its environment
    (``POKERROOM_CONFIG``) and its working directory; None when they cannot be read."""
    try:
        args = (proc / str(pid) / "cmdline").read_bytes().split(b"\0")
        cwd = Path(os.readlink(proc / str(pid) / "cwd"))
    except OSError:
        return None
    words = [a.decode("utf-8", "surrogateescape") for a in args if a]
    config, tournaments = _option(words, "--config"), _option(words, "--tournaments")
    if config is None:
        try:
            env = (proc / str(pid) / "environ").read_bytes().split(b"\0")
        except OSError:
            env = []
        for item in env:
            if item.startswith(b"POKERROOM_CONFIG="):
                config = item.partition(b"=")[2].decode("utf-8", "surrogateescape") or None
    return RoomFiles(
        None if config is None else str(cwd / config),
        None if tournaments is None else str(cwd / tournaments),
    )


def _option(words: list[str], name: str) -> str | None:
    for i, word in enumerate(words):
        if word == name and i + 1 < len(words):
            return words[i + 1]
        if word.startswith(name + "="):
            return word.partition("=")[2]
    return None


def check_room_files(files: RoomFiles) -> list[str]:
    """Every problem of the room's files, each as ``file:line: key: what is wrong`` (none: fine)."""
    from pokerroom.bots.strategies import STRATEGIES
    from pokerroom.server.config import ConfigInvalid, load_config
    from pokerroom.server.schedule import ScheduleError, load_split_schedule

    out: list[str] = []
    try:
        load_config(files.config, strategies=tuple(STRATEGIES))
    except ConfigInvalid as exc:
        out += [str(p) for p in exc.problems]
    except OSError as exc:
        out.append(f"{files.config}: cannot be read: {exc.strerror}")
    if files.tournaments:
        try:
            load_split_schedule(files.tournaments)
        except ScheduleError as exc:
            out.append(f"{files.tournaments}: {exc}")
        except OSError as exc:
            out.append(f"{files.tournaments}: cannot be read: {exc.strerror}")
    return out
