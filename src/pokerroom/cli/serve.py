"""``pokerroom serve``: the whole room on one machine, with demo tables and bots."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import webbrowser
from typing import Any

import typer

from pokerroom.cli.app import app

DEFAULT_STRATEGIES = ["strength", "caller", "random"]
DEMO_NAME = "demo"
DEMO_PASSWORD = "play-poker-for-fun"  # at least 15 characters (docs/security.md, "Passwords")


async def _demo_account(store: object) -> None:
    from pokerroom.store import NameTaken, Store

    assert isinstance(store, Store)
    try:
        player = await store.accounts.register(DEMO_NAME, DEMO_PASSWORD)
    except NameTaken:
        # A database from before: the demo account gets the password this command prints.
        await store.accounts.set_password((await store.accounts.find(DEMO_NAME)).id, DEMO_PASSWORD)
        return
    await store.ledger.play_money_top_up(player.id, idempotency_key=f"welcome:{player.id}")


async def _serve(
    host: str,
    port: int,
    database: str | None,
    bots: int,
    open_browser: bool,
    think: tuple[float, float],
    tournaments: str | None = None,
    demo_bots: bool = True,
    origins: tuple[str, ...] = (),
    trusted_proxies: tuple[str, ...] = (),
) -> None:
    import uvicorn

    from pokerroom.bots.runner import start_bots, start_pool_bots, start_tournament_bots
    from pokerroom.server.app import create_app
    from pokerroom.server.demo import demo_pools, demo_tables, demo_tournaments
    from pokerroom.server.room import RoomSettings
    from pokerroom.server.schedule import ScheduleError, load_split_schedule
    from pokerroom.server.security import SecuritySettings
    from pokerroom.store import Store
    from pokerroom.store.owner import DatabaseInUse, OwnerLock

    schedule = demo_tournaments()
    rush = schedule[:0]  # Rush tournaments of the schedule file
    if tournaments:
        try:
            more, rush = load_split_schedule(tournaments)
            schedule += more
        except ScheduleError as exc:
            typer.echo(f"bad tournament schedule: {exc}", err=True)
            raise typer.Exit(2) from None
    listener = _bind(host, port)  # first: a port in use stops us before we touch the database
    store = Store.open(database)
    owner = OwnerLock(store.db.url, schema=store.db.schema)
    try:
        await owner.acquire()  # one process per database, before migrations and crash recovery
    except DatabaseInUse as exc:
        listener.close()
        typer.echo(f"pokerroom cannot start: {exc}", err=True)
        raise typer.Exit(1) from None
    await store.db.upgrade()
    await _demo_account(store)
    settings = RoomSettings(
        tables=tuple(demo_tables()),
        pools=tuple(demo_pools()),
        tournaments=tuple(schedule),
        rush_tournaments=tuple(rush),
    )
    pool_bots = 8 if demo_bots else 0
    bots *= len(settings.tables)
    web_app = create_app(store, settings, freeze_heap=True, security=SecuritySettings(origins=origins))
    server = uvicorn.Server(
        uvicorn.Config(
            web_app,
            host=host,
            port=port,
            # X-Forwarded-For / -Proto are believed from the declared proxies only (docs/security.md)
            proxy_headers=bool(trusted_proxies),
            forwarded_allow_ips=list(trusted_proxies) or None,
            ws_max_size=65536,
            ws_per_message_deflate=False,  # small JSON frames: compressing them costs more than it saves
            log_level="warning",
            lifespan="on",
        )
    )
    task = asyncio.create_task(server.serve(sockets=[listener]))
    keeper = asyncio.create_task(owner.keep())
    while not server.started:
        if task.done():
            with contextlib.suppress(BaseException):
                await task
            typer.echo("pokerroom could not start its room (see the log above)", err=True)
            raise typer.Exit(1)
        await asyncio.sleep(0.05)
    from pokerroom.engine import BUILD
    from pokerroom.engine.native import BUILD_WORDS

    url = f"http://{host}:{port}/"
    typer.echo(f"pokerroom is running: open {url}")
    typer.echo(f"  demo account: {DEMO_NAME} / {DEMO_PASSWORD} (or register your own)")
    typer.echo(f"  hand engine: {BUILD_WORDS[BUILD]}")
    if open_browser:
        with contextlib.suppress(Exception):
            webbrowser.open(url)
    started: list[Any] = []

    async def seat_bots() -> None:
        """Bots log in (a password hash each) and sit down while the room is already open."""
        base = f"http://{host}:{port}"
        if bots:
            started.extend(await start_bots(base, bots, leave_free=2, think=think, prefix="robot"))
        if pool_bots:  # two entries each: the 6-max pool can form two full tables, so Quick Fold is offered
            started.extend(
                await start_pool_bots(base, settings.pools[0].pool_id, pool_bots, entries=2, think=think)
            )
            # five bots in the demo sit-and-go: the sixth seat (and the start) is yours
            sng = next(t for t in web_app.state.room.tournaments.values() if t.series == "turbo6")
            started.extend(await start_tournament_bots(base, sng.tid, 5, think=think, prefix="sngbot"))
        typer.echo(
            f"  {len(settings.tables)} tables, {len(settings.pools)} Rush pools, {len(started)} bots seated;"
            " Ctrl+C stops the room"
        )

    seating = asyncio.create_task(seat_bots())

    async def watch_owner() -> None:
        await owner.lost.wait()
        typer.echo("pokerroom lost its database lock to another process: stopping", err=True)
        server.should_exit = True

    watcher = asyncio.create_task(watch_owner())
    try:
        await task
    finally:
        seating.cancel()
        watcher.cancel()
        keeper.cancel()
        for bot, t in started:
            bot.stopped = True
            t.cancel()
        await owner.release()
    if owner.lost.is_set():
        raise typer.Exit(1)


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before anything else happens (uvicorn serves on it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        why = f"{exc.strerror} (is the port in use?)"
        typer.echo(f"pokerroom cannot listen on {host}:{port}: {why}", err=True)
        raise typer.Exit(1) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
    database: str = typer.Option(
        None,
        "--database",
        envvar="POKERROOM_DATABASE_URL",
        help="Database URL (default: SQLite in the user data directory).",
    ),
    bots: int = typer.Option(2, "--bots-per-table", help="Bots to seat at each demo table (0: none)."),
    no_bots: bool = typer.Option(False, "--no-bots", help="Start without bots."),
    open_browser: bool = typer.Option(True, "--open/--no-open", help="Open the lobby in a browser."),
    think_min: float = typer.Option(0.5, help="Bots think at least this many seconds."),
    think_max: float = typer.Option(2.0, help="Bots think at most this many seconds."),
    tournaments: str = typer.Option(
        None, "--tournaments", help="A TOML schedule of tournaments to open (see docs/protocol.md)."
    ),
    origin: list[str] = typer.Option(  # noqa: B008
        [],
        "--origin",
        help="The room's public origin, e.g. https://poker.example.com (repeatable; default: the Host "
        "each request names). Browsers' WebSockets and POSTs from other origins are refused.",
    ),
    trusted_proxy: list[str] = typer.Option(  # noqa: B008
        [],
        "--trusted-proxy",
        help="Address (or network) of a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are "
        "believed (repeatable). Behind a TLS proxy, this makes the session cookie Secure.",
    ),
) -> None:
    """Start the room: migrate the database, open demo tables (one per game and structure), Rush pools
    and a sit-and-go, seat bots, and serve the browser client."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(
            _serve(
                host,
                port,
                database,
                0 if no_bots else bots,
                open_browser,
                (think_min, think_max),
                tournaments,
                not no_bots,
                tuple(origin),
                tuple(trusted_proxy),
            )
        )


@app.command("bots")
def bots_command(
    url: str = typer.Option("http://127.0.0.1:8000", help="The room's address."),
    count: int = typer.Option(6, help="How many bots."),
    strategy: list[str] = typer.Option(DEFAULT_STRATEGIES, help="Strategies, in turn."),  # noqa: B008
    duration: float = typer.Option(None, help="Stop after this many seconds (default: run until stopped)."),
    think_min: float = typer.Option(0.5),
    think_max: float = typer.Option(2.0),
    prefix: str = typer.Option("bot", help="Bot names are PREFIX1, PREFIX2, ..."),
) -> None:
    """Connect bots to a running room over its WebSocket protocol."""
    from pokerroom.bots.runner import run_bots
    from pokerroom.bots.strategies import STRATEGIES

    bad = [s for s in strategy if s not in STRATEGIES]
    if bad:
        raise typer.BadParameter(f"unknown strategy {bad[0]!r}; choose from {', '.join(STRATEGIES)}")
    stats = asyncio.run(
        run_bots(url, count, strategy, duration=duration, think=(think_min, think_max), prefix=prefix)
    )
    typer.echo(f"{stats.actions} actions, {stats.hands} hands seen, {stats.errors} errors")


@app.command("protocol-schema")
def protocol_schema_command() -> None:
    """Print the JSON Schema of every WebSocket message (docs/protocol.schema.json)."""
    import json

    from pokerroom.server.schema import protocol_schema

    typer.echo(json.dumps(protocol_schema(), indent=1, sort_keys=True))
