"""A room without sockets: bots and observers talk to it through the server's own frame handling.

Each client is a real :class:`~pokerroom.server.connection.Connection` (the queue and writer task the
WebSocket endpoint uses); what it sends is parsed by :func:`pokerroom.server.protocol.parse_client` and
routed by the endpoint's handler, so the frames a client gets are exactly those the server would write to
its socket — only the socket itself is missing. Fast enough to play thousands of hands in a test.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from argon2 import PasswordHasher

from pokerroom.bots.client import BotClient, BotStats
from pokerroom.bots.strategies import STRATEGIES
from pokerroom.rooms import TableConfig
from pokerroom.server import protocol as p
from pokerroom.server import ws as ws_module
from pokerroom.server.connection import Connection
from pokerroom.server.room import Room, RoomSettings
from pokerroom.store import Player, Store
from tests.waiting import until

from .leakcheck import Recorder, Viewer
from .wire import PASSWORD


class LoopbackSocket:
    """What a bot's ``_ws`` needs: ``send(text)``, handled as the endpoint handles a received frame."""

    def __init__(self, room: Room, conn: Connection) -> None:
        self.room = room
        self.conn = conn

    async def send(self, text: str) -> None:
        try:
            msg = p.parse_client(text)
        except p.ProtocolError as exc:
            self.conn.send(ws_module._error(exc.code, exc.message, exc.ref))
            return
        await ws_module._handle(self.room, self.conn, msg)

    async def close(self) -> None:
        await self.room.detach(self.conn)


async def _noop_close(code: int) -> None:
    return None


@dataclass
class Client:
    viewer: Viewer
    conn: Connection
    bot: BotClient | None = None
    player: Player | None = None


@dataclass
class LoopbackRoom:
    room: Room
    store: Store
    recorder: Recorder
    clients: list[Client] = field(default_factory=list)
    stats: BotStats = field(default_factory=BotStats)

    def connect(self, name: str, table: str, player: Player | None, bot: BotClient | None) -> Client:
        viewer = Viewer(name, table, None)

        async def deliver(text: str) -> None:
            viewer.frames.append(text)
            if bot is not None:
                await bot._on_message(orjson.loads(text))

        conn = Connection(deliver, _noop_close, max_queue=100_000)
        conn.start()
        self.room.attach(conn, player)
        client = Client(viewer, conn, bot, player)
        if bot is not None:
            bot._ws = LoopbackSocket(self.room, conn)
        self.clients.append(client)
        return client

    def hands_played(self) -> int:
        return sum(a.hands_played for a in self.room.tables.values())

    async def close(self) -> None:
        for c in self.clients:
            if c.bot is not None:
                c.bot.stopped = True
            await self.room.detach(c.conn)
            await c.conn.stop()
        await self.room.stop()
        await self.store.close()


async def open_room(
    tmp: Path,
    tables: Sequence[TableConfig],
    *,
    players_per_table: int,
    strategies: Sequence[str] = ("random", "random", "caller"),
    seed: int = 1,
    observers: bool = True,
) -> LoopbackRoom:
    """A started room with ``players_per_table`` bots seated at every table (and one observer each)."""
    store = Store.open(f"sqlite+aiosqlite:///{tmp / 'loopback.db'}")
    store.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)  # fast test accounts
    await store.db.upgrade()
    players: list[Player] = []
    for cfg in tables:
        for _ in range(min(players_per_table, cfg.seats)):
            player = await store.accounts.register(f"lb{len(players) + 1}", PASSWORD)
            await store.ledger.play_money_top_up(player.id, idempotency_key=f"welcome:{player.id}")
            players.append(player)
    room = Room(store, RoomSettings(tables=tuple(tables)))
    await room.start()
    recorder = Recorder()
    for actor in room.tables.values():
        recorder.wrap(actor)
        actor.table.halted = True  # no hand starts until every bot is seated (a faster set-up)
    lb = LoopbackRoom(room, store, recorder)
    rng = random.Random(seed)
    n = 0
    for cfg in tables:
        if observers:
            watcher = lb.connect(f"observer@{cfg.table_id}", cfg.table_id, None, None)
            await LoopbackSocket(room, watcher.conn).send(
                orjson.dumps({"type": "subscribe", "table": cfg.table_id}).decode()
            )
        for _ in range(min(players_per_table, cfg.seats)):
            player = players[n]
            n += 1
            strategy = STRATEGIES[strategies[n % len(strategies)]]()
            bot = BotClient(
                "http://loopback",
                f"lb{n}",
                strategy,
                cfg.table_id,
                think=(0.0, 0.0),
                rng=random.Random(rng.randrange(2**31)),
                stats=lb.stats,
            )
            bot.player_id = str(player.id)
            client = lb.connect(bot.name, cfg.table_id, player, bot)
            await bot._send({"type": "subscribe", "table": cfg.table_id})
            actor = room.tables[cfg.table_id]
            client.viewer.seat = await until(  # the bot sits when its snapshot arrives
                functools.partial(actor.table.seat_of, str(player.id)),
                timeout=90,
                every=0.01,
                what=f"{bot.name} sits at {cfg.table_id}",
            )
    for actor in room.tables.values():
        actor.table.halted = False
    return lb


async def play_until(lb: LoopbackRoom, hands: int, *, timeout: float) -> None:
    """Wait until every table has played ``hands`` hands (or fail after ``timeout`` seconds)."""

    await until(
        lambda: min(a.hands_played for a in lb.room.tables.values()) >= hands,
        timeout=timeout,
        what=f"every table plays {hands} hands",
        show=lambda: summary(lb),
    )


def summary(lb: LoopbackRoom) -> dict[str, Any]:
    return {t: a.hands_played for t, a in lb.room.tables.items()}
