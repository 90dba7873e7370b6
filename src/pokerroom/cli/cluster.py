"""``pokerroom serve --cluster``: one node of a room on several processes (docs/cluster.md). A gateway
holds the players' connections, a host runs tables, ``both`` does the two; they share PostgreSQL (the
ledger of record and the leases) and talk over NATS."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import typer

__all__ = ["serve_cluster"]


async def serve_cluster(options: Any, config: Any, listener: Any) -> None:
    import uvicorn

    from pokerroom.cli.serve import _demo_account, room_settings
    from pokerroom.server.app import create_app
    from pokerroom.server.cluster.bus import BusUnavailable
    from pokerroom.server.cluster.node import ClusterNode
    from pokerroom.server.security import SecuritySettings
    from pokerroom.store import Store

    store = Store.open(options.database)
    if not store.db.url.startswith("postgresql"):
        listener.close()
        typer.echo("a cluster's nodes share PostgreSQL: give --database postgresql+asyncpg://...", err=True)
        raise typer.Exit(2)
    node = ClusterNode(
        store,
        room_settings(config),
        bus_url=options.cluster,
        role=options.role,
        cluster=options.cluster_name,
        node_id=options.node_id,
    )
    await store.db.upgrade()  # (under an advisory lock: nodes starting together migrate once)
    with contextlib.suppress(Exception):
        await _demo_account(store)
    web_app = create_app(
        store,
        room_settings(config),
        freeze_heap=True,
        security=SecuritySettings(origins=options.origins),
        node=node,
    )
    server = uvicorn.Server(
        uvicorn.Config(
            web_app,
            host=options.host,
            port=options.port,
            proxy_headers=bool(options.trusted_proxies),
            forwarded_allow_ips=list(options.trusted_proxies) or None,
            ws_max_size=65536,
            ws_per_message_deflate=False,
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
    try:
        await task
    except BusUnavailable as exc:
        typer.echo(f"pokerroom: {exc}", err=True)
        raise typer.Exit(1) from None
