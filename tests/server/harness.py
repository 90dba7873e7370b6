"""The server's table logic on a manual clock, with no sockets and no sleeps.

A :class:`Harness` is a started :class:`~pokerroom.server.room.Room` on a
:class:`~pokerroom.server.clock.ManualClock` and a seeded ``random.Random``, on a fresh SQLite store.
Clients are real :class:`~pokerroom.server.connection.Connection` objects whose frames are kept (and,
for bots, handed to the bot); what a client sends goes through the protocol's parser and the server's
routes, exactly as from a socket. Time moves only when :meth:`Harness.run` moves it: when every actor
waits for the clock, every connection has delivered its frames and every bot has answered, the clock
jumps to the next deadline (the next hand, a time bank running out). A hand that waits on a player who
does not answer times out the way it does live, without waiting for it. The bots wait on the same clock:
their pauses (thinking, looking at a table again, joining a pool again) pass as the room's time passes.

What the HTTP API answers is the room's :attr:`Harness.front` (the :class:`~pokerroom.server.front.LocalFront`
every HTTP handler calls); :meth:`Harness.restart` stops the room as a server process stops and starts a
new one on the same store file and clock.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
from argon2 import PasswordHasher

from pokerroom.bots import client as bot_client
from pokerroom.bots import pool as pool_client
from pokerroom.bots import tournament as tournament_client
from pokerroom.bots.client import BotClient, BotStats
from pokerroom.bots.pool import PoolBot
from pokerroom.bots.strategies import STRATEGIES
from pokerroom.bots.tournament import TournamentBot
from pokerroom.server import protocol as p
from pokerroom.server.clock import ManualClock
from pokerroom.server.connection import Connection
from pokerroom.server.errors import error_frame
from pokerroom.server.front import LocalFront
from pokerroom.server.mailbox import Mailbox
from pokerroom.server.room import Room, RoomSettings
from pokerroom.server.routes import handle, welcome
from pokerroom.store import PLAY, Database, Player, Store
from tests.waiting import describe

from .wire import PASSWORD

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
EPOCH = ManualClock().now()  # the time every harness's clock starts at (a tournament's start: EPOCH + ...)


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

    def events(self, kind: str, **match: Any) -> list[dict[str, Any]]:
        """The ``event`` frames whose event is of ``kind`` (with these fields)."""
        return [
            f
            for f in self.frames
            if f["type"] == "event"
            and f["event"]["type"] == kind
            and all(f["event"].get(k) == v for k, v in match.items())
        ]

    def reply(self, ref: str) -> dict[str, Any] | None:
        """The ``ack`` or ``error`` that answered the request sent with ``ref`` (None: not yet)."""
        return next((f for f in self.frames if f["type"] in ("ack", "error") and f.get("ref") == ref), None)


class _Socket:
    """What a bot's ``_ws`` needs: ``send(text)``, handled as the endpoint handles a received frame."""

    def __init__(self, harness: Harness, client: Client) -> None:
        self.harness = harness
        self.client = client

    async def send(self, text: str) -> None:
        await self.harness.send_text(self.client, text)

    async def close(self) -> None:
        await self.harness.room.detach(self.client.conn)


class _ClockedAsyncio:
    """``asyncio`` as the bots' modules see it while a harness is open: the same, except that ``sleep`` in
    a task of one of the harness's bots (its thinking, looking at a table again, joining a pool again)
    waits on the harness's manual clock, and the harness knows which tasks sleep so. Any other caller (a
    live test's bot, a harness that is closed) sleeps in real time, as ever."""

    def __init__(self, harness: Harness) -> None:
        self._harness = harness

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        h = self._harness
        task = asyncio.current_task()
        if delay <= 0 or h.closed or not h._bot_task(task):
            return await asyncio.sleep(delay, result)
        h._sleeping.add(task)
        try:
            await h.clock.sleep_until(h.clock.now() + timedelta(seconds=delay))
        finally:
            h._sleeping.discard(task)
        return result


BOT_MODULES: tuple[ModuleType, ...] = (bot_client, pool_client, tournament_client)


class Harness:
    def __init__(self, room: Room, store: Store, clock: ManualClock, path: Path | None = None) -> None:
        self.room = room
        self.store = store
        self.clock = clock
        self.path = path  # the store's SQLite file (a restart opens it again)
        self.clients: list[Client] = []
        self.stats = BotStats()
        self._busy = 0  # frames being handed to a client right now
        self._refs = 0
        self._sleeping: set[asyncio.Task[Any] | None] = set()  # bots' tasks sleeping on the clock
        self.closed = False
        self._clocked = _ClockedAsyncio(self)
        for module in BOT_MODULES:
            module.asyncio = self._clocked  # type: ignore[attr-defined]

    @classmethod
    async def open(cls, tmp: Path, settings: RoomSettings, *, seed: int = 1) -> Harness:
        path = tmp / "harness.db"
        clock = ManualClock()
        store = _store(path)
        room = Room(store, settings, clock=clock, rng=random.Random(seed))
        await room.start()
        return cls(room, store, clock, path)

    async def _disconnect_all(self) -> None:
        for c in self.clients:
            if c.bot is not None:
                c.bot.stopped = True
                c.bot._cancel_tasks()
            await self.room.detach(c.conn)
            await c.conn.stop()
        self.clients = []

    async def _shut_down(self) -> None:
        await self._disconnect_all()
        await self.room.stop()
        await self.store.close()

    async def close(self) -> None:
        try:
            await self._shut_down()
        finally:
            self.closed = True
            for module in BOT_MODULES:
                if module.asyncio is self._clocked:  # (not another harness's, opened since)
                    module.asyncio = asyncio  # type: ignore[attr-defined]

    def _bot_task(self, task: asyncio.Task[Any] | None) -> bool:
        return task is not None and any(c.bot is not None and task in c.bot._tasks for c in self.clients)

    async def restart(self, settings: RoomSettings | None = None, *, seed: int = 2) -> None:
        """The room stops as a server process stops (every client drops; a hand in progress is left
        unfinished), and a new room starts on the same store file (``settings``, else the same ones) and
        the same clock, which goes on from where it was. The clients of before are gone: connect again."""
        assert self.path is not None, "a harness on a store of its own file restarts"
        settings = settings or self.room.settings
        await self._shut_down()
        self.store = _store(self.path)
        self.room = Room(self.store, settings, clock=self.clock, rng=random.Random(seed))
        await self.room.start()

    @property
    def front(self) -> LocalFront:
        """What the HTTP API asks the room (its handlers call this front and turn the answer into JSON)."""
        return LocalFront(self.room)

    # --------------------------------------------------------------------------------- clients

    async def player(self, name: str) -> Player:
        player = await self.store.accounts.register(name, PASSWORD)
        await self.store.ledger.play_money_top_up(player.id, idempotency_key=f"welcome:{player.id}")
        return player

    async def login(self, name: str) -> Client:
        """A new player ``name`` (registered, his welcome money booked) on a connection of his own."""
        return self.connect(name, await self.player(name))

    async def balance(self, player: Player, currency: str = PLAY) -> int:
        """The player's wallet (what ``/api/account`` tells him)."""
        return await self.store.ledger.balance(player.id, currency)

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

    async def ask(self, client: Client, msg: dict[str, Any], *, seconds: float = 60) -> dict[str, Any]:
        """Send ``msg`` (given a ``ref`` if it has none) and let the room run until its ``ack`` or
        ``error`` comes (within ``seconds`` of the room's time); that answer."""
        if "ref" not in msg:
            self._refs += 1
            msg = {**msg, "ref": f"ask-{self._refs}"}
        ref = str(msg["ref"])
        await self.send(client, msg)
        await self.run(lambda: client.reply(ref) is not None, seconds=seconds)
        answer = client.reply(ref)
        assert answer is not None
        return answer

    async def subscribe(self, client: Client, table: str) -> dict[str, Any]:
        """Watch a table; the snapshot it sends (an error if it refuses)."""
        seen = len(client.frames)

        def answer() -> dict[str, Any] | None:
            return next(
                (
                    f
                    for f in client.frames[seen:]
                    if (f["type"] == "snapshot" and f.get("table") == table) or f["type"] == "error"
                ),
                None,
            )

        await self.send(client, {"type": "subscribe", "table": table})
        await self.run(lambda: answer() is not None, seconds=60)
        found = answer()
        assert found is not None
        return found

    async def sit(self, client: Client, table: str, seat: int, buy_in: int = 2000) -> dict[str, Any]:
        """Subscribe to a cash table and sit at ``seat``; the answer to the ``sit`` (ack or error)."""
        await self.subscribe(client, table)
        return await self.ask(client, {"type": "sit", "table": table, "seat": seat, "buy_in": buy_in})

    async def drop(self, client: Client) -> None:
        """The client's connection goes away for good (its bot, if any, plays no more)."""
        if client.bot is not None:
            client.bot.stopped = True
            client.bot._cancel_tasks()
        await self.room.detach(client.conn)
        await client.conn.stop()
        if client in self.clients:
            self.clients.remove(client)

    async def stop_bot(self, client: Client) -> None:
        """Stop a bot as ``stop_bots`` does live: it says goodbye (leaves its table or pool) and closes its
        connection."""
        await client.bot.stop()
        await client.conn.stop()
        if client in self.clients:
            self.clients.remove(client)

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
        self,
        name: str,
        pool: str,
        strategy: str = "random",
        *,
        seed: int = 0,
        entries: int = 1,
        quick_fold: float = 0.3,
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
                quick_fold=quick_fold,
                variant=row["variant"],
                betting=row["betting"],
            )
        )
        self._bot_common(bot, player)
        return self.connect(name, player, bot)  # it joins on "welcome"

    async def tournament_bot(
        self,
        name: str,
        tournament: str,
        strategy: str = "random",
        *,
        seed: int = 0,
        player: Player | None = None,
    ) -> Client:
        """A bot that registers in ``tournament`` (answered by ``reply("reg")``) and plays it; a new player
        ``name``, or ``player`` (an account that exists already: after a restart)."""
        player = player or await self.player(name)
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
        if any(c.bot is not None and c.bot._tasks - self._sleeping for c in self.clients):
            return False  # (a bot thinks, or answers: not a bot's task that sleeps on the clock)
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


def _store(path: Path) -> Store:
    return Store(Database(f"sqlite+aiosqlite:///{path}", sqlite_synchronous="OFF"), hasher=CHEAP)


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
