"""What the HTTP API and the WebSocket endpoint need of a room, whether its tables run in this process
(:class:`LocalFront`, over the :class:`~pokerroom.server.room.Room`) or on a cluster's hosts (a gateway's
``ClusterFront``, server/cluster/gateway.py). The endpoints are written once, against :class:`Front`."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from pydantic import BaseModel

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.view import table_view
from pokerroom.server import console_views
from pokerroom.server.commands import Command, Outcome
from pokerroom.server.connection import Connection
from pokerroom.server.errors import Refused
from pokerroom.server.ids import player_key
from pokerroom.server.metrics import Metrics
from pokerroom.server.operator import execute
from pokerroom.server.room import Room, RoomSettings
from pokerroom.server.routes import handle
from pokerroom.store import Player, Store

__all__ = ["Front", "LocalFront", "Node"]


class Front(Protocol):
    store: Store
    metrics: Metrics
    started_at: datetime

    @property
    def settings(self) -> RoomSettings: ...

    # the lobby
    def lobby(self, **filters: Any) -> list[dict[str, Any]]: ...
    def pool_lobby(self) -> list[dict[str, Any]]: ...
    def tournament_lobby(self, status: str | None = None) -> dict[str, list[dict[str, Any]]]: ...
    async def table_details(self, table_id: str) -> dict[str, Any]: ...
    async def pool_details(self, pool: str, player: str) -> dict[str, Any]: ...
    async def tournament_details(self, tid: str) -> dict[str, Any]: ...

    # requests over HTTP
    async def tournament_request(
        self, tid: str, what: str, player: str, name: str, flag: bool
    ) -> dict[str, Any]: ...
    async def schedule(self, cfg: TournamentConfig, rush: bool, spec: dict[str, Any]) -> dict[str, Any]: ...

    async def command(self, cmd: Command) -> Outcome:
        """An operator's command (server/commands.py), carried out where its address is run."""
        ...

    async def send_balance(self, player: str, currency: str) -> None: ...

    # what the console reads (server/console_views.py)
    def now(self) -> datetime: ...
    async def console_games(self) -> list[dict[str, Any]]: ...
    async def console_live(self) -> dict[str, Any]: ...
    async def promotions_view(self) -> dict[str, Any]: ...

    # the WebSocket
    def attach(self, conn: Connection, player: Player | None) -> None: ...
    async def detach(self, conn: Connection) -> None: ...
    async def handle(self, conn: Connection, msg: BaseModel) -> None: ...

    # operations
    def health(self) -> dict[str, Any]: ...
    def paused(self) -> list[str]: ...
    def unready(self) -> list[str]: ...


class Node(Protocol):
    """A cluster's node as the app runs it (server/cluster/node.py)."""

    room: Room | None
    front: Front

    async def start(self) -> None: ...
    async def stop(self) -> None: ...


class LocalFront:
    """The one-process room: every table is an actor of ``room``."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.store = room.store
        self.metrics = room.metrics
        self.started_at = room.started_at

    @property
    def settings(self) -> RoomSettings:  # (a reload replaces the room's)
        return self.room.settings

    def lobby(self, **filters: Any) -> list[dict[str, Any]]:
        return self.room.lobby(**filters)

    def pool_lobby(self) -> list[dict[str, Any]]:
        return self.room.pool_lobby()

    def tournament_lobby(self, status: str | None = None) -> dict[str, list[dict[str, Any]]]:
        return self.room.tournament_lobby(status)

    async def table_details(self, table_id: str) -> dict[str, Any]:
        actor = self.room.tables.get(table_id)
        if actor is None:
            raise Refused("unknown_table", "no such table", table=table_id)
        return {"summary": actor.summary(), "state": table_view(actor.table, None, self.room.clock.now())}

    async def pool_details(self, pool: str, player: str) -> dict[str, Any]:
        actor = self.room.pools.get(pool)
        if actor is None:
            raise Refused("unknown_pool", "no such pool", pool=pool)
        return {"summary": actor.summary(), "entries": actor.windows.entries_view(player)}

    async def tournament_details(self, tid: str) -> dict[str, Any]:
        archived = self.room.archive.get(tid)
        if archived is not None:
            return archived.details()
        return self.room.tournament(tid).details()

    async def tournament_request(
        self, tid: str, what: str, player: str, name: str, flag: bool
    ) -> dict[str, Any]:
        actor = self.room.tournament(tid)
        key = player_key(int(player)) if player.isdigit() else player
        if what == "register":
            await actor.call(lambda: actor.register(key, name, ticket=flag))
        elif what == "unregister":
            await actor.call(lambda: actor.unregister(key))
        elif what == "rebuy":
            await actor.call(lambda: actor.rebuy(key, add_on=flag))
        elif what.startswith("deal_"):  # a deal at the final table (docs/tournaments.md)
            await actor.call(lambda: actor.deal_request(key, what, flag))
        else:
            raise Refused("unknown_request", "unknown request")
        return actor.summary()

    async def schedule(self, cfg: TournamentConfig, rush: bool, spec: dict[str, Any]) -> dict[str, Any]:
        return self.room.add_tournament(cfg, rush=rush, spec=spec).summary()

    async def command(self, cmd: Command) -> Outcome:
        return await execute(self.room, cmd)

    async def send_balance(self, player: str, currency: str) -> None:
        await self.room.players.send_balance(player, currency)

    def now(self) -> datetime:
        return self.room.clock.now()

    async def console_games(self) -> list[dict[str, Any]]:
        return console_views.games(self.room)

    async def console_live(self) -> dict[str, Any]:
        return console_views.live(self.room)

    async def promotions_view(self) -> dict[str, Any]:
        r = self.room
        return console_views.promotions_view(r.settings.points, r.console.promotions is not None, self.now())

    def attach(self, conn: Connection, player: Player | None) -> None:
        self.room.attach(conn, player)

    async def detach(self, conn: Connection) -> None:
        await self.room.detach(conn)

    async def handle(self, conn: Connection, msg: BaseModel) -> None:
        await handle(self.room, conn, msg)

    def health(self) -> dict[str, Any]:
        return {
            "ok": True,
            "tables": len(self.room.tables),
            "players_online": self.room.players.count(),
            "started_at": self.started_at.isoformat(),
        }

    def paused(self) -> list[str]:
        return self.room.paused()

    def unready(self) -> list[str]:
        """Reasons other than the store's that the room cannot serve: actors stopped by errors."""
        return self.room.stopped()
