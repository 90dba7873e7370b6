"""The server's table logic on a manual clock, with no sockets and no sleeps.

A :class:`Harness` is a started :class:`~pokerroom.server.room.Room` on a
:class:`~pokerroom.server.clock.ManualClock` and a seeded ``random.Random``, on a fresh SQLite store.
Clients are real :class:`~pokerroom.server.connection.Connection` objects whose frames are kept (and,
for bots, handed to the bot); what a client sends goes through the protocol's parser and the server's
routes, exactly as from a socket. Time moves only when :meth:`Harness.run` moves it: when every actor
waits for the clock, every connection has delivered its frames and every bot has answered, the clock
jumps to the next deadline (the next hand, a time bank running out). A hand that waits on a player who
does not answer times out the way it does live, without waiting for it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from argon2 import PasswordHasher

from pokerroom.bots.client import BotClient, BotStats
from pokerroom.bots.pool import PoolBot
from pokerroom.bots.strategies import STRATEGIES
from pokerroom.bots.tournament import TournamentBot
from pokerroom.server import protocol as p
from pokerroom.server.clock import ManualClock
from pokerroom.server.connection import Connection
from pokerroom.server.errors import error_frame
from pokerroom.server.mailbox import Mailbox
from pokerroom.server.room import Room, RoomSettings
from pokerroom.server.routes import handle, welcome
from pokerroom.store import Database, Player, Store
from tests.waiting import describe

from .wire import PASSWORD

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


@dataclass
class Client:
    """One connection: the frames it got, decoded, and the bot playing it (if any)."""

    name: str
    player: Player | None
    conn: Connection
    frames: list[dict[str, Any]] = field(default_factory=list)
    bot: Any = None

    def of(self, kind: str, **match: Any) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == kind and all(f.get(k) == v for k, v in match.items())]


class _Socket:
    """What a bot's ``_ws`` needs: ``send(text)``, handled as the endpoint handles a received frame."""

    def __init__(self, harness: Harness, client: Client) -> None:
        self.harness = harness
        self.client = client

    async def send(self, text: str) -> None:
        await self.harness.send_text(self.client, text)

    async def close(self) -> None:
        await self.harness.room.detach(self.client.conn)


class Harness:
    def __init__(self, room: Room, store: Store, clock: ManualClock) -> None:
        self.room = room
        self.store = store
        self.clock = clock
        self.clients: list[Client] = []
        self.stats = BotStats()
        self._busy = 0  # frames being handed to a client right now

    @classmethod
    async def open(cls, tmp: Path, settings: RoomSettings, *, seed: int = 1) -> Harness:
        store = Store(
            Database(f"sqlite+aiosqlite:///{tmp / 'harness.db'}", sqlite_synchronous="OFF"), hasher=CHEAP
        )
        clock = ManualClock()
        room = Room(store, settings, clock=clock, rng=random.Random(seed))
        await room.start()
        return cls(room, store, clock)

    async def close(self) -> None:
        for c in self.clients:
            if c.bot is not None:
                c.bot.stopped = True
            await self.room.detach(c.conn)
            await c.conn.stop()
        await self.room.stop()
        await self.store.close()

    # --------------------------------------------------------------------------------- clients

    async def player(self, name: str) -> Player:
        player = await self.store.accounts.register(name, PASSWORD)
        await self.store.ledger.play_money_top_up(player.id, idempotency_key=f"welcome:{player.id}")
        return player

    def connect(self, name: str, player: Player | None, bot: Any = None) -> Client:
        """A new connection (logged in as ``player``), greeted with ``welcome`` as the endpoint does."""
        holder: list[Client] = []

        async def deliver(text: str) -> None:
            self._busy += 1
            try:
                msg = orjson.loads(text)
                holder[0].frames.append(msg)
                if holder[0].bot is not None and not holder[0].bot.stopped:
                    await holder[0].bot._on_message_any(msg)
            finally:
                self._busy -= 1

        async def closed(code: int) -> None:
            return None

        conn = Connection(deliver, closed, max_queue=1_000_000)
        client = Client(name, player, conn, bot=bot)
        holder.append(client)
        conn.start()
        self.room.attach(conn, player)
        conn.send(orjson.dumps(welcome(conn)).decode())
        if bot is not None:
            bot._ws = _Socket(self, client)
        self.clients.append(client)
        return client

    async def send(self, client: Client, msg: dict[str, Any]) -> None:
        await self.send_text(client, orjson.dumps(msg).decode())

    async def send_text(self, client: Client, text: str) -> None:
        try:
            msg = p.parse_client(text)
        except p.ProtocolError as exc:
            client.conn.send(orjson.dumps(error_frame(_refusal(exc), exc.ref)).decode())
            return
        await handle(self.room, client.conn, msg)

    async def reconnect(self, client: Client) -> Client:
        """The client's connection drops; a new one for the same player (and bot) comes back."""
        await self.room.detach(client.conn)
        await client.conn.stop()
        self.clients.remove(client)
        again = self.connect(client.name, client.player, client.bot)
        again.frames = client.frames  # one history per player, for the tests
        return again

    # ------------------------------------------------------------------------------------ bots

    def _bot_common(self, bot: Any, player: Player) -> None:
        bot.player_id = str(player.id)
        bot.stats = self.stats

    async def cash_bot(self, name: str, table: str, strategy: str = "random", *, seed: int = 0) -> Client:
        player = await self.player(name)
        bot = _wrap(
            BotClient(
                "http://harness", name, STRATEGIES[strategy](), table, think=(0, 0), rng=random.Random(seed)
            )
        )
        self._bot_common(bot, player)
        client = self.connect(name, player, bot)
        await bot._send({"type": "subscribe", "table": table})
        return client

    async def pool_bot(
        self, name: str, pool: str, strategy: str = "random", *, seed: int = 0, entries: int = 1
    ) -> Client:
        player = await self.player(name)
        row = next(r for r in self.room.pool_lobby() if r["pool"] == pool)
        bot = _wrap(
            PoolBot(
                "http://harness",
                name,
                STRATEGIES[strategy](),
                pool,
                row["buy_in"]["max"] or 2 * row["buy_in"]["min"],
                entries=entries,
                think=(0, 0),
                rng=random.Random(seed),
                quick_fold=0.3,
                variant=row["variant"],
                betting=row["betting"],
            )
        )
        self._bot_common(bot, player)
        return self.connect(name, player, bot)  # it joins on "welcome"

    async def tournament_bot(
        self, name: str, tournament: str, strategy: str = "random", *, seed: int = 0
    ) -> Client:
        player = await self.player(name)
        bot = _wrap(
            TournamentBot(
                "http://harness",
                name,
                STRATEGIES[strategy](),
                tournament,
                think=(0, 0),
                rng=random.Random(seed),
            )
        )
        self._bot_common(bot, player)
        client = self.connect(name, player, bot)
        await bot._send({"type": "tournament_register", "tournament": tournament, "ref": "reg"})
        return client

    # ------------------------------------------------------------------------------------ time

    def actors(self) -> Iterable[Mailbox]:
        yield from self.room.tables.values()
        yield from self.room.pools.values()
        yield from self.room.tournaments.values()

    def _quiet_now(self) -> bool:
        if self._busy:
            return False
        if any(not a.waiting or a.inbox for a in self.actors()):
            return False
        if any(c.conn.pending for c in self.clients):
            return False
        if any(c.bot is not None and c.bot._tasks for c in self.clients):
            return False
        due = self.clock.next_deadline()
        return due is None or due > self.clock.now()

    async def quiet(self, limit: float = 60.0) -> None:
        """Wait (in real time, at most ``limit`` seconds) until nothing happens without the clock."""
        await self.run(lambda: False, seconds=0, limit=limit)

    async def run(self, until: Callable[[], bool], *, seconds: float, limit: float = 120.0) -> None:
        """Let the room run until ``until()`` holds, moving the clock from one deadline to the next
        whenever nothing else can happen; fail if that takes more than ``seconds`` of the room's time
        (or ``limit`` real seconds: something that never comes to rest). ``seconds=0``: only wait
        until the room is at rest."""
        loop = asyncio.get_running_loop()
        end = loop.time() + limit
        start = self.clock.now()
        calm = 0
        while True:
            await asyncio.sleep(0.001)
            if until():
                return
            calm = calm + 1 if self._quiet_now() else 0
            if calm < 3:
                assert loop.time() < end, f"the room never came to rest (waiting for {describe(until)})"
                continue
            if seconds == 0:
                return
            due = self.clock.next_deadline()
            assert due is not None, f"nothing is due and the condition does not hold: {describe(until)}"
            assert (due - start).total_seconds() <= seconds, (
                f"not within {seconds} s of the room's time: {describe(until)}"
            )
            self.clock.advance_to(due)
            calm = 0


def _refusal(exc: p.ProtocolError) -> Any:
    from pokerroom.server.errors import Refused

    return Refused(exc.code, exc.message)


def _wrap(bot: Any) -> Any:
    """Give every kind of bot one entry point for a frame (each kind reads frames its own way)."""
    reader: Callable[[dict[str, Any]], Awaitable[None]]
    if isinstance(bot, TournamentBot):
        reader = bot._on_tournament_message
    elif isinstance(bot, PoolBot):
        reader = bot._on_pool_message
    else:
        reader = bot._on_message
    wrapped: Any = bot
    wrapped._on_message_any = reader
    return wrapped
