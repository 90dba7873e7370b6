"""``pokerroom serve --cluster``: one node of a room on several processes (docs/cluster.md). A gateway
holds the players' connections, a host runs tables, ``both`` does the two; they share PostgreSQL (the
ledger of record and the leases) and talk over NATS.

The bus is closed when the configuration's ``[cluster]`` section names the node's certificate (TLS, and
NATS's permissions for its role); without one a node starts only on a loopback bus (with a loud warning)
or with ``insecure = true`` (docs/cluster.md, "A closed bus")."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import Any

import typer

from pokerroom.cli.app import app

__all__ = ["cluster_app", "serve_cluster"]

log = logging.getLogger("pokerroom.cluster")


async def serve_cluster(
    options: Any,
    settings: Any,
    listener: Any,
    demo_account: Callable[[Any], Awaitable[None]],
    *,
    bus: Any = None,
    reread: Callable[[], Any] | None = None,
    mail: Any = None,
) -> None:
    """Serve one node (``options``: the ServeOptions of ``pokerroom serve``, ``settings``: the room's,
    ``bus``: the configuration's ``[cluster]`` section, a BusConfig; ``reread``: the room's settings
    from the file read again, None when it has problems). SIGHUP reloads the cluster (docs/cluster.md)."""
    import uvicorn

    from pokerroom.server.app import create_app
    from pokerroom.server.cluster.access import BusRefused
    from pokerroom.server.cluster.bus import BusUnavailable
    from pokerroom.server.cluster.node import ClusterNode
    from pokerroom.server.mail import mail_service
    from pokerroom.server.uvicorn_read import ws_protocol
    from pokerroom.store import Store

    store = Store.open(options.database)
    options.apply(store)
    if not store.db.url.startswith("postgresql"):
        listener.close()
        typer.echo("a cluster's nodes share PostgreSQL: give --database postgresql+asyncpg://...", err=True)
        raise typer.Exit(2)
    try:
        node = ClusterNode(
            store,
            settings,
            bus_url=options.cluster,
            role=options.role,
            cluster=options.cluster_name,
            node_id=options.node_id,
            bus=bus,
            reread=reread,
        )
    except (BusRefused, ValueError) as exc:
        listener.close()
        typer.echo(f"pokerroom cannot start this node: {exc}", err=True)
        raise typer.Exit(2) from None
    for warning in node.warnings:
        log.warning("%s", warning)
    await store.db.upgrade()  # (under an advisory lock: nodes starting together migrate once)
    with contextlib.suppress(Exception):
        await demo_account(store)
    web_app = create_app(
        store,
        settings,
        freeze_heap=True,
        security=options.security(),
        node=node,
    )
    web_app.state.mail = mail_service(mail)  # [mail]: e-mail resets (issue 29; None: off)
    server = uvicorn.Server(
        uvicorn.Config(
            web_app,
            host=options.host,
            port=options.port,
            proxy_headers=bool(options.trusted_proxies),
            forwarded_allow_ips=list(options.trusted_proxies) or None,
            ws_max_size=65536,
            ws_per_message_deflate=False,
            ws=ws_protocol(),  # (server/uvicorn_read.py)
            log_level="warning",
            lifespan="on",
        )
    )
    task = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        if task.done():
            with contextlib.suppress(BaseException):
                await task
            typer.echo("pokerroom could not start its node (see the log above)", err=True)
            raise typer.Exit(1)
        await asyncio.sleep(0.05)
    typer.echo(
        f"pokerroom {options.role} node {node.id} of cluster {options.cluster_name!r} is running on "
        f"http://{options.host}:{options.port}/ (bus {options.cluster})"
    )

    def reload() -> None:
        async def again() -> None:
            try:
                if await node.reload():
                    typer.echo("  reloaded the configuration across the cluster")
            except Exception as exc:  # (the bus or the store away: the room goes on as it was)
                typer.echo(f"  the reload failed: {type(exc).__name__}: {exc}", err=True)

        asyncio.get_running_loop().create_task(again())

    with contextlib.suppress(NotImplementedError, RuntimeError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, reload)
    try:
        await task
    except BusUnavailable as exc:
        typer.echo(f"pokerroom: {exc}", err=True)
        raise typer.Exit(1) from None


# ------------------------------------------------------------------------------------ pokerroom cluster

cluster_app = typer.Typer(
    help="A room on several processes: its leases, and moving tables.", no_args_is_help=True
)
app.add_typer(cluster_app, name="cluster")

_URL = typer.Option(None, "--url", envvar="POKERROOM_DATABASE_URL", help="The cluster's PostgreSQL URL.")
_SCHEMA = typer.Option(None, "--schema", help="PostgreSQL schema (default: $POKERROOM_DATABASE_SCHEMA).")


@cluster_app.command("leases")
def leases_command(url: str | None = _URL, schema: str | None = _SCHEMA) -> None:
    """Which host runs each table, pool and tournament, under which fence, until when."""
    from pokerroom.store import Store

    async def run() -> list[Any]:
        store = Store.open(url, schema=schema)
        try:
            await store.db.upgrade()
            return await store.leases.all()
        finally:
            await store.close()

    for lease in asyncio.run(run()):
        holder = lease.holder or "(free)"
        moving = f", moving to {lease.hand_to}" if lease.hand_to else ""
        typer.echo(
            f"{lease.resource:40} {holder:24} fence {lease.fence:<6} "
            f"until {lease.expires_at:%H:%M:%S}{moving}"
        )


@cluster_app.command("move")
def move_command(
    table: str = typer.Argument(..., help="A cash table's id (or a resource, table:<id>)."),
    to: str = typer.Option(..., "--to", help="The host (its --node-id) to move it to."),
    url: str | None = _URL,
    schema: str | None = _SCHEMA,
) -> None:
    """Move a cash table to another host: its host hands it over after the current hand (no hand is
    voided), and the new host seats its players again; their clients follow without reloading."""
    from pokerroom.store import Store

    resource = table if ":" in table else f"table:{table}"
    if not resource.startswith("table:"):
        typer.echo(
            "only cash tables move between hands (pools and tournaments stay where they run)", err=True
        )
        raise typer.Exit(2)

    async def run() -> bool:
        store = Store.open(url, schema=schema)
        try:
            await store.db.upgrade()
            held = {lease.resource: lease for lease in await store.leases.all()}
            if resource not in held or held[resource].holder is None:
                return False
            await store.leases.hand_over(resource, to)
            return True
        finally:
            await store.close()

    if not asyncio.run(run()):
        typer.echo(f"no host holds {resource}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{resource} moves to {to} after its current hand")
