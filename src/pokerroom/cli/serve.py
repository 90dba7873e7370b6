"""``pokerroom serve``: the whole room in one process, from its configuration, with its bots."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import signal
import socket
import webbrowser
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
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


async def _no_demo_account(store: object) -> None:
    """``[room] demo_account = false`` (the default): the database's accounts are left as they are."""


def demo_account(config: Any) -> Any:
    """What a start does of the demo account: make or reset it when the configuration says
    ``[room] demo_account = true`` (the shipped example does), nothing otherwise."""
    return _demo_account if config.demo_account else _no_demo_account


@dataclass(frozen=True)
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 8000
    database: str | None = None
    config: str | None = None  # None: the shipped room (src/pokerroom/server/config/room.toml)
    tournaments: str | None = None  # an extra schedule file ([[tournament]], [[big_game]])
    bots: bool = True
    bots_per_table: int | None = None  # overrides every table's ``bots``
    think: tuple[float, float] | None = None  # overrides the configuration's
    open_browser: bool = True
    origins: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()
    log_format: str = "text"
    cluster: str | None = None  # a NATS URL: run one node of a cluster (docs/cluster.md)
    role: str = "both"  # gateway, host or both
    cluster_name: str = "pokerroom"
    node_id: str | None = None
    metrics_token: str | None = field(default=None, repr=False)  # reads /metrics (docs/operations.md)
    session_idle: float | None = 30.0  # minutes a session may go unused (None: no idle timeout)

    def security(self) -> Any:
        """The app's SecuritySettings from these options."""
        from pokerroom.server.security import SecuritySettings

        return SecuritySettings(origins=self.origins, metrics_token=self.metrics_token)

    def apply(self, store: Any) -> None:
        """Set what these options say of the store's accounts (the sessions' idle timeout)."""
        idle = self.session_idle
        store.accounts.session_idle = None if idle is None else timedelta(minutes=idle)


def loopback(host: str) -> bool:
    """Whether ``host`` (``--host``) is this machine only: ``localhost`` or a loopback address."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_exposure(host: str, origins: tuple[str, ...], role: str = "both") -> None:
    """A room that listens beyond this machine must be told its public origins (``--origin``): without
    them it takes the origin each request names in its ``Host``, which a DNS-rebinding page controls (it
    could then log in and play as a visitor of that page). Every origin must be one (scheme, host, port).
    A cluster's table host (``--role host``) serves no players and needs none. Exits 2 otherwise."""
    from pokerroom.server.security import normalize_origin

    bad = [o for o in origins if normalize_origin(o) is None]
    if bad:
        typer.echo(f"--origin {bad[0]!r} is not an origin: give scheme://host[:port], e.g. "
                   "https://poker.example.com", err=True)  # fmt: skip
        raise typer.Exit(2)
    if not origins and role != "host" and not loopback(host):
        typer.echo(
            f"pokerroom serve --host {host} listens beyond this machine: name the room's public origin "
            "with --origin (e.g. --origin https://poker.example.com), so that a page of another site "
            'cannot reach it through DNS rebinding (docs/security.md, "Origin")',
            err=True,
        )
        raise typer.Exit(2)


def read_secret(path: str | None, what: str) -> str | None:
    """The first line of the file ``path`` (a token kept out of the command line), or exit 2."""
    if path is None:
        return None
    try:
        text = Path(path).read_text(encoding="utf-8").strip()
    except OSError as exc:
        typer.echo(f"{what}: cannot read {path}: {exc.strerror}", err=True)
        raise typer.Exit(2) from None
    if len(text) < 16 or "\n" in text:
        typer.echo(f"{what}: {path} must hold one token of at least 16 characters", err=True)
        raise typer.Exit(2)
    return text


def load_room(options: ServeOptions) -> Any:
    """The room's configuration (and the extra schedule), or exit 2 naming every problem."""
    from pokerroom.server.config import ConfigInvalid
    from pokerroom.server.schedule import ScheduleError

    try:
        return read_room(options)
    except ConfigInvalid as exc:
        typer.echo(f"the room's configuration has problems; nothing was started:\n{exc}", err=True)
        raise typer.Exit(2) from None
    except ScheduleError as exc:
        typer.echo(f"bad tournament schedule: {exc}", err=True)
        raise typer.Exit(2) from None


def read_room(options: ServeOptions) -> Any:
    """The room's configuration (and the extra schedule); raises ConfigInvalid or ScheduleError."""
    from pokerroom.bots.strategies import STRATEGIES
    from pokerroom.server.config import load_config
    from pokerroom.server.schedule import load_split_schedule

    config = load_config(options.config, strategies=tuple(STRATEGIES))
    if options.tournaments:
        more, rush = load_split_schedule(options.tournaments)
        config = replace(
            config,
            tournaments=config.tournaments + tuple(more),
            rush_tournaments=config.rush_tournaments + tuple(rush),
        )
    plan = config.bots
    if not options.bots:
        plan = replace(plan, tables={}, pools={}, tournaments={})
    elif options.bots_per_table is not None:
        plan = replace(plan, tables=dict.fromkeys(plan.tables, options.bots_per_table))
    if options.think is not None:
        plan = replace(plan, think=options.think)
    return replace(config, bots=plan)


def reread_room(options: ServeOptions) -> Any:
    """The configuration read again for a reload, or None when it has problems: then each problem is
    logged, with its line and key, as one ``config_reload_failed`` event (server/logs.py)."""
    from pokerroom.server.config import ConfigInvalid
    from pokerroom.server.logs import event
    from pokerroom.server.schedule import ScheduleError

    source = options.config or "(the shipped room)"
    try:
        return read_room(options)
    except ConfigInvalid as exc:
        problems = [
            {"file": p.source, "line": p.line, "key": p.path, "problem": p.message} for p in exc.problems
        ]
        text = "; ".join(str(p) for p in exc.problems)
    except ScheduleError as exc:
        problems = [{"file": options.tournaments, "line": None, "key": None, "problem": str(exc)}]
        text = f"{options.tournaments}: {exc}"
    event(
        "config_reload_failed",
        f"the configuration was not reloaded ({len(problems)} problem(s)): {text}",
        level=logging.ERROR,
        source=source,
        problems=problems,
    )
    return None


def room_settings(config: Any) -> Any:
    from pokerroom.server.room import RoomSettings

    return RoomSettings(
        tables=config.tables,
        pools=config.pools,
        tournaments=config.tournaments,
        rush_tournaments=config.rush_tournaments,
        points=config.points,
        play_money_on_register=config.play_money_on_register,
        integrity=config.integrity,
        operator_api=config.operator_api,
        currencies=config.currencies,
        payments=config.payments,
        gaming_cooling_hours=config.gaming_cooling_hours,
        fairness_open_stub=config.fairness_open_stub,
        recurring=config.recurring,
        demo_account=(DEMO_NAME, DEMO_PASSWORD) if config.demo_account else None,
    )


async def _serve(options: ServeOptions) -> None:
    import uvicorn

    from pokerroom.server.app import create_app
    from pokerroom.server.logs import event
    from pokerroom.server.mail import mail_service
    from pokerroom.server.uvicorn_read import ws_protocol
    from pokerroom.store import Store
    from pokerroom.store.owner import DatabaseInUse, OwnerLock

    config = load_room(options)  # a bad file starts nothing
    host, port = options.host, options.port
    listener = _bind(host, port)  # then the port: one in use stops us before we touch the database
    if options.cluster is not None:
        from pokerroom.cli.cluster import serve_cluster

        def reread() -> Any:
            fresh = reread_room(options)
            return None if fresh is None else room_settings(fresh)  # (None: it goes on as it was)

        await serve_cluster(
            options,
            room_settings(config),
            listener,
            demo_account(config),
            bus=config.cluster,
            reread=reread,
            mail=config.mail,
        )
        return
    store = Store.open(options.database)
    options.apply(store)
    owner = OwnerLock(store.db.url, schema=store.db.schema)
    try:
        await owner.acquire()  # one process per database, before migrations and crash recovery
    except DatabaseInUse as exc:
        listener.close()
        typer.echo(f"pokerroom cannot start: {exc}", err=True)
        raise typer.Exit(1) from None
    await store.db.upgrade()
    await demo_account(config)(store)
    web_app = create_app(store, room_settings(config), freeze_heap=True, security=options.security())
    web_app.state.mail = mail_service(config.mail)  # [mail]: e-mail resets (issue 29; None: off)
    server = uvicorn.Server(
        uvicorn.Config(
            web_app,
            host=host,
            port=port,
            # X-Forwarded-For / -Proto are believed from the declared proxies only (docs/security.md)
            proxy_headers=bool(options.trusted_proxies),
            forwarded_allow_ips=list(options.trusted_proxies) or None,
            ws_max_size=65536,
            ws_per_message_deflate=False,  # small JSON frames: compressing them costs more than it saves
            ws=ws_protocol(),  # clients' text frames read off the socket here (server/uvicorn_read.py)
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
    if config.demo_account:
        typer.echo(f"  demo account: {DEMO_NAME} / {DEMO_PASSWORD} (or register your own)")
    typer.echo(f"  hand engine: {BUILD_WORDS[BUILD]}")
    typer.echo(f"  room: {config.source} ({len(config.tables)} tables, {len(config.pools)} Rush pools)")
    if options.open_browser:
        with contextlib.suppress(Exception):
            webbrowser.open(url)
    room = web_app.state.room
    bots = RoomBots(f"http://{host}:{port}", store, room)
    seating = asyncio.create_task(bots.seat(config.bots, announce=True))

    def reload() -> None:
        async def again() -> None:
            fresh = reread_room(options)
            if fresh is None:
                return  # the problems were logged (config_reload_failed); the room goes on as it was
            report = await room.reconfigure(room_settings(fresh))
            event("config_reloaded", source=fresh.source, **report)
            typer.echo(f"  reloaded {fresh.source}: {report}")
            plan = fresh.bots
            await bots.seat(
                replace(
                    plan,
                    tables={t: n for t, n in plan.tables.items() if t in report["opened"]},
                    pools={p: n for p, n in plan.pools.items() if p in report["opened"]},
                    tournaments={
                        t: n
                        for t, n in plan.tournaments.items()
                        if any(x.startswith(t) for x in report["tournaments"])
                    },
                )
            )

        asyncio.get_running_loop().create_task(again())

    with contextlib.suppress(NotImplementedError, RuntimeError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, reload)

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
        bots.stop()
        await owner.release()
    if owner.lost.is_set():
        raise typer.Exit(1)


class RoomBots:
    """The room's own bots: ordinary protocol clients whose accounts the room makes itself (no
    password: nobody can log in as them) and whose sessions it opens with no password round trip, so
    that a room's worth of bots is seated within seconds of the start."""

    def __init__(self, base: str, store: Any, room: Any) -> None:
        self.base = base
        self.store = store
        self.room = room
        self.started: list[Any] = []

    async def issue(self, name: str) -> str | None:
        """A session for the bot ``name`` on its service account; None (the bot is not started) when the
        name belongs to a player's account, registered before bot names were kept for the bots."""
        from pokerroom.store import ServiceNameTaken

        accounts, ledger = self.store.accounts, self.store.ledger
        try:
            player = await accounts.service_account(name)
        except ServiceNameTaken:
            logging.getLogger("pokerroom.bots").warning(
                "the bot %s is not started: a player's account (registered before bot names were kept for "
                "the bots) has its name",
                name,
            )
            return None
        with contextlib.suppress(Exception):  # (refused while its wallet is full enough)
            await ledger.play_money_top_up(player.id, idempotency_key=f"welcome:{player.id}")
        return str((await accounts.open_session(player.id)).token)

    async def seat(self, plan: Any, *, announce: bool = False) -> None:
        """Start the bots of ``plan``: at its tables, in its pools, registered for its tournaments. Bot
        names are short and stable (``bot-t3-2``: the second at the configuration's fourth table), so a
        restart finds the same accounts."""
        from pokerroom.bots.runner import start_bots, start_pool_bots, start_tournament_bots

        try:
            think, strategies, before = plan.think, plan.strategies, len(self.started)
            jobs: list[Any] = []
            for i, (table, n) in enumerate(plan.tables.items()):
                if n:
                    jobs.append(
                        start_bots(
                            self.base,
                            n,
                            strategies,
                            tables=[table],
                            think=think,
                            prefix=f"bot-t{i}-",
                            issue=self.issue,
                        )
                    )
            for i, (pool, (n, entries)) in enumerate(plan.pools.items()):
                if n:
                    jobs.append(
                        start_pool_bots(
                            self.base, pool, n, strategies, entries=entries, think=think, prefix=f"bot-p{i}-",
                            issue=self.issue,
                        )
                    )  # fmt: skip
            for i, (key, n) in enumerate(plan.tournaments.items()):
                actor = next(
                    (
                        a
                        for a in self.room.tournaments.values()
                        if (a.series or a.tid) == key and a.director.status in ("announced", "registering")
                    ),
                    None,
                )
                if actor is not None and n:
                    jobs.append(
                        start_tournament_bots(
                            self.base,
                            actor.tid,
                            n,
                            strategies,
                            think=think,
                            prefix=f"bot-s{i}-",
                            issue=self.issue,
                        )
                    )
            for started in await asyncio.gather(*jobs):
                self.started += started
            if announce:
                typer.echo(f"  {len(self.started) - before} bots seated; Ctrl+C stops the room")
        except Exception:
            logging.getLogger("pokerroom.bots").exception("the room's bots could not all be started")

    def stop(self) -> None:
        for bot, task in self.started:
            bot.stopped = True
            task.cancel()


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
    config: str | None = typer.Option(
        None,
        "--config",
        envvar="POKERROOM_CONFIG",
        help="The room's configuration file (docs/configuration.md; default: the shipped room, every game, "
        "Rush pools and a tournament programme). SIGHUP or `pokerroom reload` reads it again.",
    ),
    bots: int = typer.Option(
        None, "--bots-per-table", help="Bots at each table (default: the configuration's)."
    ),
    no_bots: bool = typer.Option(False, "--no-bots", help="Start without bots."),
    open_browser: bool = typer.Option(True, "--open/--no-open", help="Open the lobby in a browser."),
    think_min: float | None = typer.Option(None, help="Bots think at least this many seconds."),
    think_max: float | None = typer.Option(None, help="Bots think at most this many seconds."),
    tournaments: str = typer.Option(
        None, "--tournaments", help="An extra TOML schedule of tournaments ([[tournament]], [[big_game]])."
    ),
    origin: list[str] = typer.Option(  # noqa: B008
        [],
        "--origin",
        help="The room's public origin, e.g. https://poker.example.com (repeatable; default: the Host "
        "each request names, allowed only when listening on loopback). Browsers' WebSockets and POSTs "
        "from other origins are refused.",
    ),
    metrics_token_file: str | None = typer.Option(
        None,
        "--metrics-token-file",
        envvar="POKERROOM_METRICS_TOKEN_FILE",
        help="A file holding a token (16 characters or more) that reads /metrics from anywhere "
        "(Authorization: Bearer TOKEN); without it only this machine and the console's staff read them.",
    ),
    session_idle: float = typer.Option(
        30.0,
        "--session-idle",
        min=0.0,
        help="Minutes a login session may go unused before it ends (0: no idle timeout; a session ends "
        "12 hours after its login anyway).",
    ),
    trusted_proxy: list[str] = typer.Option(  # noqa: B008
        [],
        "--trusted-proxy",
        help="Address (or network) of a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are "
        "believed (repeatable). Behind a TLS proxy, this makes the session cookie Secure.",
    ),
    log_format: str = typer.Option(
        "text", "--log-format", help="text, or json: one JSON object per line, with the table and hand ids."
    ),
    cluster: str | None = typer.Option(
        None,
        "--cluster",
        envvar="POKERROOM_CLUSTER",
        help="Run one node of a room on several processes: the NATS URL, e.g. nats://127.0.0.1:4222 "
        "(needs PostgreSQL; docs/cluster.md). The node's certificate for the bus is named in the "
        "configuration's [cluster] section, never here. The room's bots are not started: run "
        "`pokerroom bots`.",
    ),
    role: str = typer.Option("both", "--role", help="With --cluster: gateway, host or both."),
    cluster_name: str = typer.Option(
        "pokerroom", "--cluster-name", help="With --cluster: the room name on the bus (the subjects' prefix)."
    ),
    node_id: str | None = typer.Option(
        None, "--node-id", help="With --cluster: this node's id (default: the host name and a random suffix)."
    ),
) -> None:
    """Start the room: its tables, Rush pools and tournaments from its configuration (the shipped room by
    default), its bots, and the browser client."""
    if log_format not in ("text", "json"):
        raise typer.BadParameter("--log-format is text or json")
    from pokerroom.server.logs import configure_logging

    configure_logging(log_format)
    if role not in ("gateway", "host", "both"):
        raise typer.BadParameter("--role is gateway, host or both")
    check_exposure(host, tuple(origin), role)
    metrics_token = read_secret(metrics_token_file, "--metrics-token-file")
    think = None
    if think_min is not None or think_max is not None:
        lo = think_min if think_min is not None else 0.0
        think = (lo, think_max if think_max is not None else max(lo, 2.0))
    options = ServeOptions(
        host=host,
        port=port,
        database=database,
        config=config,
        tournaments=tournaments,
        bots=not no_bots,
        bots_per_table=bots,
        think=think,
        origins=tuple(origin),
        trusted_proxies=tuple(trusted_proxy),
        log_format=log_format,
        cluster=cluster,
        role=role,
        cluster_name=cluster_name,
        node_id=node_id,
        open_browser=open_browser and cluster is None,
        metrics_token=metrics_token,
        session_idle=session_idle or None,
    )
    from pokerroom.server.loop import run

    with contextlib.suppress(KeyboardInterrupt):
        run(_serve(options))


@app.command("bots")
def bots_command(
    url: str = typer.Option("http://127.0.0.1:8000", help="The room's address."),
    count: int = typer.Option(6, help="How many bots."),
    strategy: list[str] = typer.Option(DEFAULT_STRATEGIES, help="Strategies, in turn."),  # noqa: B008
    duration: float = typer.Option(None, help="Stop after this many seconds (default: run until stopped)."),
    think_min: float = typer.Option(0.5),
    think_max: float = typer.Option(2.0),
    prefix: str = typer.Option("bot", help="Bot names are PREFIX1, PREFIX2, ..."),
    tournament: str | None = typer.Option(
        None,
        "--tournament",
        help="Register the bots for this tournament (a sit-and-go or a scheduled one) instead of seating "
        "them at cash tables: they play it to their end (rehearse a tournament without code).",
    ),
) -> None:
    """Connect bots to a running room over its WebSocket protocol."""
    from pokerroom.bots.runner import run_bots
    from pokerroom.bots.strategies import STRATEGIES

    bad = [s for s in strategy if s not in STRATEGIES]
    if bad:
        raise typer.BadParameter(f"unknown strategy {bad[0]!r}; choose from {', '.join(STRATEGIES)}")
    import httpx

    from pokerroom.cli.tournament_target import TargetUnknown, find_tournament

    async def run() -> Any:
        target = None if tournament is None else await find_tournament(url, tournament)
        if target is not None and target != tournament:
            typer.echo(f"the bots register for {target} (the copy of {tournament} registering now)")
        return await run_bots(
            url,
            count,
            strategy,
            duration=duration,
            think=(think_min, think_max),
            prefix=prefix,
            tournament=target,
        )

    try:
        stats = asyncio.run(run())
    except TargetUnknown as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    except httpx.HTTPStatusError as exc:
        typer.echo(f"the room refused: {exc.request.method} {exc.request.url.path}: "
                   f"{exc.response.status_code} {exc.response.text[:300]}", err=True)  # fmt: skip
        raise typer.Exit(1) from None
    except httpx.HTTPError as exc:
        typer.echo(f"cannot reach the room at {url}: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"{stats.actions} actions, {stats.hands} hands seen, {stats.errors} errors")


@app.command("protocol-schema")
def protocol_schema_command() -> None:
    """Print the JSON Schema of every WebSocket message (docs/protocol.schema.json)."""
    import json

    from pokerroom.server.schema import protocol_schema

    typer.echo(json.dumps(protocol_schema(), indent=1, sort_keys=True))
