"""A gateway of a cluster (docs/cluster.md): it holds the players' HTTP and WebSocket connections and
keeps no game state. Each client message that names a table, pool or tournament goes to the host holding
its lease (found in the hosts' directories) as a request on the bus; the frames come back in the batches
the hosts send this gateway, each already projected for its viewer. Logins, the cashier and histories are
the store's, as in one process.

When a table's host goes silent, its watchers are told the table is paused ("moving"); when another host
names the table in its directory (a higher fence), the gateway subscribes the watchers again on their
behalf, and each gets the new host's snapshot: the client never reloads.

The console works through any gateway: an operator's command goes where its address says (the host that
holds the table, pool or tournament; one host for the room's own), the gateway records the outcome in the
audit log once (server/console/access.py) and has every host read what changed; what the console reads of
the games comes from every host's answer (server/console_views.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from datetime import UTC, datetime
from typing import Any

import orjson
from pydantic import BaseModel

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server import console_views
from pokerroom.server import protocol as p
from pokerroom.server.address import address_of
from pokerroom.server.cluster.bus import Bus, BusUnavailable, Msg
from pokerroom.server.cluster.directory import Directory
from pokerroom.server.cluster.messages import (
    Answer,
    BadMessage,
    ClientAnswer,
    ClientRequest,
    ConsoleAnswer,
    ConsoleQuestion,
    DirectoryNews,
    FrameBatch,
    GatewayBeat,
    LastHandsAnswer,
    LastHandsQuestion,
    Listed,
    Message,
    NewTournament,
    PlayerFrame,
    PoolQuestion,
    PresenceDown,
    PresenceList,
    PresenceSync,
    PresenceUp,
    Refresh,
    TableQuestion,
    TournamentAction,
    TournamentQuestion,
    receive,
)
from pokerroom.server.cluster.subjects import ANY, Subjects
from pokerroom.server.commands import Command, CommandDone, CommandFailed, CommandRefused, Outcome
from pokerroom.server.connection import Connection
from pokerroom.server.console_state import ConsoleState
from pokerroom.server.errors import SERVER_CODES, Refused, error_frame
from pokerroom.server.ids import player_key
from pokerroom.server.last_hand import merged_list_frame, unknown_hand
from pokerroom.server.metrics import Metrics
from pokerroom.server.room import RoomSettings
from pokerroom.server.routes import verify_own_hand, welcome
from pokerroom.store import PLAY, Player, Store

__all__ = ["Gateway"]

log = logging.getLogger("pokerroom.cluster")

MOVING = "the table is moving to another host"
_TOURNAMENT_PLACE = re.compile(r"(.+)-(?:t\d+|rush)\Z")  # a tournament's dealing place: its tournament
BEAT = 2.0  # seconds between a gateway's heartbeats


class Gateway:
    """The gateway node: its :attr:`front` serves the endpoints (the :class:`~pokerroom.server.front.Front`
    of a room whose tables are elsewhere)."""

    room = None  # (no actors here)

    def __init__(self, store: Store, settings: RoomSettings, bus: Bus, subjects: Subjects, gw: str) -> None:
        self.store = store
        self.settings = settings
        self.bus = bus
        self.subjects = subjects
        self.id = gw
        self.directory = Directory()
        self.conns: dict[str, Connection] = {}
        self.ids: dict[Connection, str] = {}
        self.watching: dict[str, dict[str, set[str]]] = {}  # conn id -> resource -> its tables
        # conn id -> table -> its resource: the tables the client itself subscribed to or sat at (as its
        # host confirmed), kept until it unsubscribes or the table closes, whatever a host answers later
        self.asked: dict[str, dict[str, str]] = {}
        self.seq: dict[str, int] = {}  # table -> the last sequence number relayed
        self.stale_frames = 0  # frames dropped: from a host that no longer holds their table
        self.known: set[str] = set()  # every table, pool and tournament id ever seen
        self.metrics = Metrics(self._gauges)
        self.metrics.add_commits(lambda: store.db.commits)
        self.started_at = datetime.now(UTC)
        self._next = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[None]] = set()
        self._resubscribing: dict[str, asyncio.Task[None]] = {}  # resource -> its watchers' subscribing
        self.front = self

    # ---------------------------------------------------------------------------- life cycle

    async def start(self) -> None:
        s = self.subjects
        await self.bus.subscribe(s.frames(self.id), self._frames)
        await self.bus.subscribe(s.directory, self._directory)
        await self.bus.subscribe(s.presence_sync, self._sync)
        await self.bus.subscribe(s.player(ANY), self._player_frame)
        self._tasks.append(asyncio.create_task(self._beating()))

    async def stop(self) -> None:
        for task in [*self._tasks, *self._background]:
            task.cancel()
        for conn in list(self.ids):
            await self.detach(conn)

    async def _beating(self) -> None:
        while True:
            await self.bus.publish(self.subjects.beat(self.id), GatewayBeat(self.id).encode())
            for resource in self.directory.expire():
                self._moving(resource)
            await asyncio.sleep(BEAT)

    # ------------------------------------------------------------------------------ presence

    def _cid(self, conn: Connection) -> str:
        cid = self.ids.get(conn)
        if cid is None:
            self._next += 1
            cid = str(self._next)
            self.ids[conn] = cid
            self.conns[cid] = conn
        return cid

    def attach(self, conn: Connection, player: Player | None) -> None:
        if player is None:
            return
        conn.player = player_key(player.id)
        conn.name = player.name
        cid = self._cid(conn)
        up = PresenceUp(self.id, cid, conn.player, conn.name).encode()
        asyncio.get_running_loop().create_task(self.bus.publish(self.subjects.presence(self.id), up))

    async def detach(self, conn: Connection) -> None:
        cid = self.ids.pop(conn, None)
        if cid is None:
            return
        self.conns.pop(cid, None)
        self.watching.pop(cid, None)
        self.asked.pop(cid, None)
        await self.bus.publish(self.subjects.presence(self.id), PresenceDown(self.id, cid).encode())

    async def _sync(self, msg: Msg) -> None:
        # Every connection a host may know (watchers too), and the last id given: a host drops only the
        # unlisted connections it learnt of before this list was made (a newer one is not in it yet).
        sync = receive(msg.data, PresenceSync, where=self.subjects.presence_sync)
        if sync is None:
            return
        conns = tuple(Listed(cid, c.player, c.name) for cid, c in self.conns.items())
        listing = PresenceList(self.id, conns, self._next)
        await self.bus.publish(self.subjects.presence(self.id), listing.encode())
        if sync.for_gateway == self.id:  # that host did not know this gateway: maybe it dropped us
            task = asyncio.get_running_loop().create_task(self._resubscribe_host(sync.host))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _resubscribe_host(self, host: str) -> None:
        """Subscribe the watchers of every resource of ``host`` there again (each gets a snapshot)."""
        for resource, owner in list(self.directory.owners.items()):
            if owner.host == host:
                await self._resubscribe(resource)

    # ------------------------------------------------------------------------------ frames in

    async def _frames(self, msg: Msg) -> None:
        """A host's frames for this gateway's connections: each item's headers say its table, number and
        type; its text goes to the browsers as it is, never read here."""
        try:
            batch = FrameBatch.decode(msg.data)
        except BadMessage as exc:
            log.warning("dropped a bad frame batch on %s: %s", self.subjects.frames(self.id), exc)
            return
        for item in batch.items:
            if item.table is not None and not self._from_owner(item.table, batch.host):
                self.stale_frames += 1
                continue
            if item.table is not None and item.seq is not None:
                self.seq[item.table] = item.seq
            closed = item.table if item.type == "table_closed" else None
            for cid in item.conns:
                conn = self.conns.get(cid)
                if conn is not None:
                    conn.send(item.text)
                    if closed is not None:
                        self._unwatch(cid, closed)

    def _from_owner(self, table: str, host: str | None) -> bool:
        """Whether a frame of ``table`` from ``host`` may go on: not when the directory names another host
        for it (a host that lost the table and has not noticed yet, e.g. one resumed after a stop). A
        table the directory does not know yet (just taken, not yet announced) is heard from anyone."""
        if host is None:
            return True
        resource = self.directory.resource_of_table(table)
        owner = self.directory.owners.get(resource) if resource is not None else None
        return owner is None or owner.host == host

    def _unwatch(self, cid: str, table: str) -> None:
        for tables in self.watching.get(cid, {}).values():
            tables.discard(table)
        self.asked.get(cid, {}).pop(table, None)

    async def _player_frame(self, msg: Msg) -> None:
        frame = receive(msg.data, PlayerFrame, where=self.subjects.player(ANY))
        if frame is None:
            return
        for conn in list(self.ids):
            if conn.player == frame.player:
                conn.send(frame.text)

    # --------------------------------------------------------------------------- the directory

    async def _directory(self, msg: Msg) -> None:
        news = receive(msg.data, DirectoryNews, where=self.subjects.directory)
        if news is None:
            return
        changed, gone = self.directory.heard(news)
        self.known |= set(news.tables) | set(news.pools) | set(news.tournaments)
        for resource in gone:
            self._moving(resource)
        for resource in changed:
            self._resubscribe_soon(resource)

    def _resubscribe_soon(self, resource: str) -> None:
        """Subscribe the resource's watchers on its new host, beside the directory's handler: a request
        that takes long (a host answering late, or never: one stopped, or one whose copy is being dropped)
        must not hold up the directory. Waiting there, the gateway heard no host for its limit, counted
        every host silent, found every resource changed at the next news, subscribed all again, and never
        caught up: no table dealt for its clients again (issue 37). A move of the same resource meanwhile
        replaces the subscribing still under way (the newest host is the one that counts)."""
        running = self._resubscribing.pop(resource, None)
        if running is not None and not running.done():
            running.cancel()
        task = asyncio.get_running_loop().create_task(self._resubscribe(resource))
        self._resubscribing[resource] = task
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _watchers(self, resource: str) -> list[tuple[str, set[str]]]:
        """Each connection watching tables of ``resource``, with those tables: the ones its host's last
        answer named, and always the ones the client asked for itself. (A host's answer names what that
        host knows of the connection: a host that has just taken the table over, answering a request
        before the gateway could subscribe the watchers there, names none; without the client's own
        requests such a watcher, or a seated player, would never be subscribed again: issue 37.)"""
        out: list[tuple[str, set[str]]] = []
        for cid in {*self.watching, *self.asked}:
            tables = set(self.watching.get(cid, {}).get(resource, ()))
            tables |= {t for t, r in self.asked.get(cid, {}).items() if r == resource}
            if tables:
                out.append((cid, tables))
        return sorted(out, key=lambda w: w[0])

    def _moving(self, resource: str) -> None:
        """The resource's host is gone or let it go: its watchers see it paused until it is back."""
        for cid, tables in self._watchers(resource):
            conn = self.conns.get(cid)
            for table in sorted(tables):
                seq = self.seq.get(table, 0) + 1
                self.seq[table] = seq
                frame = {"type": "table_status", "table": table, "seq": seq, "status": "paused"}
                if conn is not None:
                    conn.send(orjson.dumps({**frame, "reason": MOVING}).decode())

    async def _resubscribe(self, resource: str) -> None:
        """A new host holds the resource: subscribe its watchers there (each gets a snapshot)."""
        for cid, tables in self._watchers(resource):
            conn = self.conns.get(cid)
            if conn is None:
                continue
            for table in sorted(tables):
                try:
                    await self._forward(conn, resource, {"type": "subscribe", "table": table})
                except BusUnavailable as exc:  # (an operator must see why a client's table stays still)
                    log.info("could not subscribe connection %s to %s again on its new host: %s", cid,
                             table, exc)  # fmt: skip

    # ------------------------------------------------------------------------------ requests

    async def _forward(self, conn: Connection, resource: str, msg: dict[str, Any] | str) -> set[str]:
        """Send a client's message to the resource's host; the tables the host says the connection
        watches there (empty when no answer could be read)."""
        cid = self._cid(conn)
        text = msg if isinstance(msg, str) else orjson.dumps(msg).decode()
        request = ClientRequest(self.id, cid, conn.player, conn.name, text)
        subject = self.subjects.request(self.id, resource)
        answer = receive(await self.bus.request(subject, request.encode()), ClientAnswer, where=subject)
        if answer is None:
            return set()
        # The host names every table the connection watches on it, of all its resources: only this
        # resource's count here (a table the directory does not place yet too). Else a move of this resource
        # subscribed the watcher to another resource's table through this one's subject, on a host that
        # may be dropping that table (issue 37: such a request never got its answer, and held up every
        # later request for this resource).
        tables = {t for t in answer.tables if self.directory.resource_of_table(t) in (resource, None)}
        self.watching.setdefault(cid, {})[resource] = tables
        forgotten = sorted(t for t, r in self.asked.get(cid, {}).items() if r == resource and t not in tables)
        if forgotten:  # (issue 37: kept, and subscribed again when the resource moves)
            log.info("the host of %s did not name %s for connection %s", resource, forgotten, cid)
        return tables

    def _resource(self, msg: BaseModel) -> str:
        """The resource (and so the host) that the message's address names (server/address.py)."""
        address = address_of(msg)
        if address.kind == "room":  # (the room's own messages are answered before a host is looked for)
            raise Refused("unknown_request", "unknown request")
        return self._holder(address.kind, address.ident)

    async def handle(self, conn: Connection, msg: BaseModel) -> None:
        ref: str | None = getattr(msg, "ref", None)
        if isinstance(msg, p.Ping):
            conn.send(orjson.dumps({"type": "pong", "ref": ref}).decode())
            return
        if isinstance(msg, p.Hello):
            if msg.version != p.PROTOCOL_VERSION:
                text = f"this server speaks protocol version {p.PROTOCOL_VERSION}"
                refused = Refused("bad_version", text, version=p.PROTOCOL_VERSION)
                conn.send(orjson.dumps(error_frame(refused, ref)).decode())
                return
            conn.batch = msg.batch
            conn.send(orjson.dumps(welcome(conn)).decode())
            return
        try:
            if isinstance(msg, p.Chat) and not conn.chats.take():
                raise Refused("chat_rate_limited", "you are chatting too fast")
            if isinstance(msg, p.LastHands):
                await self._last_hands(conn, msg)
                return
            if isinstance(msg, p.VerifyHand):  # (the store's histories: no host needed)
                await verify_own_hand(self.store, conn, msg, ref)
                return
            resource = self._dealer(msg.table) if isinstance(msg, p.Contribute) else self._resource(msg)
            if isinstance(msg, p.Unsubscribe):  # (no longer asked for, whatever the host answers)
                self.asked.get(self._cid(conn), {}).pop(msg.table, None)
            watched = await self._forward(conn, resource, msg.model_dump_json(exclude_none=True))
            if isinstance(msg, p.Subscribe | p.Sit) and msg.table in watched:  # (the host confirmed it)
                self.asked.setdefault(self._cid(conn), {})[msg.table] = resource
        except (Refused, BusUnavailable) as exc:
            if isinstance(exc, BusUnavailable):
                exc = Refused("room_unavailable", f"{MOVING}; try again in a few seconds")
            conn.send(orjson.dumps(error_frame(exc, ref)).decode())

    async def _last_hands(self, conn: Connection, msg: p.LastHands) -> None:
        if conn.player is None:
            raise Refused("login_required", "log in first")
        question = LastHandsQuestion(conn.player, msg.hand_id)
        ask = self.subjects.ask(self.id)
        raw = await self.bus.gather(ask, question.encode(), expect=len(self.directory.alive()))
        answers = [a for a in (receive(data, LastHandsAnswer, where=ask) for data in raw) if a]
        if msg.hand_id is None:
            conn.send(orjson.dumps(merged_list_frame(a.rows for a in answers)).decode())
            return
        found = next((a.hand for a in answers if a.hand is not None), None)
        if found is None:
            raise unknown_hand(msg.hand_id)
        conn.send(orjson.dumps(found).decode())

    async def _ask_resource(self, resource: str | None, question: Message, missing: Refused) -> Any:
        if resource is None:
            raise missing
        subject = self.subjects.request(self.id, resource)
        try:
            answer = receive(await self.bus.request(subject, question.encode()), Answer, where=subject)
        except BusUnavailable:
            answer = None
        if answer is None:
            raise Refused("room_unavailable", f"{MOVING}; try again in a few seconds")
        if answer.error is not None:
            e = answer.error
            raise Refused(e.code, e.message, **e.details)
        return answer.value

    # -------------------------------------------------------------------------- the HTTP API

    def lobby(self, **filters: Any) -> list[dict[str, Any]]:
        rows = []
        for row in self.directory.lobby_rows("tables"):
            if filters.get("game") and row["variant"] != filters["game"]:
                continue
            if filters.get("betting") and row["betting"] != str(filters["betting"]).upper():
                continue
            if filters.get("seats") and row["seats"] != filters["seats"]:
                continue
            if filters.get("min_players") is not None and row["players"] < filters["min_players"]:
                continue
            big = row["stakes"]["big_blind"] or row["stakes"]["small_bet"]
            if filters.get("max_stake") is not None and big > filters["max_stake"]:
                continue
            rows.append(row)
        rows.sort(
            key=lambda r: (r["variant"], r["betting"], r["stakes"]["big_blind"] or r["stakes"]["small_bet"])
        )
        return rows

    def pool_lobby(self) -> list[dict[str, Any]]:
        rows = self.directory.lobby_rows("pools")
        rows.sort(key=lambda r: (r["variant"], r["betting"], r["stakes"]["big_blind"]))
        return rows

    def tournament_lobby(self, status: str | None = None) -> dict[str, list[dict[str, Any]]]:
        groups = self.directory.tournament_groups()
        return groups if status is None else {status: groups.get(status, [])}

    async def table_details(self, table_id: str) -> dict[str, Any]:
        missing = Refused("unknown_table", "no such table", table=table_id)
        resource = self.directory.tables.get(table_id)
        return await self._ask_resource(resource, TableQuestion(table_id), missing)  # type: ignore[no-any-return]

    async def pool_details(self, pool: str, player: str) -> dict[str, Any]:
        missing = Refused("unknown_pool", "no such pool", pool=pool)
        question = PoolQuestion(pool, player)
        return await self._ask_resource(self.directory.pools.get(pool), question, missing)  # type: ignore[no-any-return]

    async def tournament_details(self, tid: str) -> dict[str, Any]:
        missing = Refused("unknown_tournament", "no such tournament")
        resource = self.directory.tournaments.get(tid)
        if resource is None:  # a finished one: any host's archive row
            for row in self.directory.tournament_groups().get("finished", []):
                if row["tournament"] == tid:
                    return {**row, "archived": True}
        return await self._ask_resource(resource, TournamentQuestion(tid), missing)  # type: ignore[no-any-return]

    async def tournament_request(
        self, tid: str, what: str, player: str, name: str, flag: bool
    ) -> dict[str, Any]:
        missing = Refused("unknown_tournament", "no such tournament")
        question = TournamentAction(tid, what, player, name, flag)
        return await self._ask_resource(self.directory.tournaments.get(tid), question, missing)  # type: ignore[no-any-return]

    async def command(self, cmd: Command) -> Outcome:
        """An operator's command, carried out by the host its address names (one host, for the room's
        own); then every host reads what it changed."""
        address = cmd.address
        if address.kind == "room":
            subject = self.subjects.admin(self.id)  # (one host of the queue group)
        else:
            try:
                subject = self.subjects.request(self.id, self._holder(address.kind, address.ident))
            except Refused as exc:
                status = 503 if exc.code == "room_unavailable" else 404
                raise CommandRefused(status, exc.code, exc.message, **exc.details) from None
        try:
            raw = await self.bus.request(subject, cmd.encode())
            result = receive(raw, CommandDone, CommandFailed, where=subject)
        except BusUnavailable:
            result = None
        if result is None:
            raise CommandRefused(503, "room_unavailable", "no table host answers; try again shortly")
        if isinstance(result, CommandFailed):
            raise result.refused()
        assert isinstance(result, CommandDone)
        with contextlib.suppress(BusUnavailable):
            await self.bus.publish(self.subjects.refresh(self.id), Refresh().encode())
        return result.outcome()

    def _dealer(self, place: str) -> str:
        """The resource whose host deals at ``place`` (a ``contribute``'s: a cash table, a Rush pool, or a
        tournament's table ``<tournament>-t<n>`` or Rush phase ``<tournament>-rush``; docs/fairness.md).
        A place nobody holds now has no pending seed anywhere: ``stale_seed``, as a host would answer."""
        d = self.directory
        found = d.tables.get(place) or d.pools.get(place)
        if found is None and (m := _TOURNAMENT_PLACE.match(place)) is not None:
            found = d.tournaments.get(m.group(1))
        if found is None:
            raise Refused("stale_seed", SERVER_CODES["stale_seed"])
        return found

    def _holder(self, kind: str, ident: str) -> str:
        """The resource (and so the host) of a table, pool or tournament: a ``Refused`` when nobody holds
        it (``room_unavailable`` while it moves)."""
        d = self.directory
        if kind == "table":
            found, code, what = d.resource_of_table(ident), "unknown_table", {"table": ident}
        elif kind == "pool":
            found, code, what = d.pools.get(ident), "unknown_pool", {"pool": ident}
        else:
            found, code, what = d.tournaments.get(ident), "unknown_tournament", {"tournament": ident}
        if found is None:
            if ident in self.known:
                raise Refused("room_unavailable", f"{MOVING}; try again in a few seconds", **what)
            raise Refused(code, f"no such {code.removeprefix('unknown_')}", **what)
        return found

    async def reload(self, settings: RoomSettings) -> None:
        """This node read the configuration file again (SIGHUP): every host reads its own again too."""
        self.settings = settings
        with contextlib.suppress(BusUnavailable):
            await self.bus.publish(self.subjects.refresh(self.id), Refresh(reload=True).encode())

    # ------------------------------------------------------------------------------ the console

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def _ask_hosts(self, what: str) -> list[ConsoleAnswer]:
        subject = self.subjects.console(self.id)
        try:
            question = ConsoleQuestion(what).encode()
            raw = await self.bus.gather(subject, question, expect=len(self.directory.alive()))
        except BusUnavailable:
            raise CommandRefused(503, "room_unavailable", "the bus is down; try again shortly") from None
        return [a for a in (receive(data, ConsoleAnswer, where=subject) for data in raw) if a is not None]

    async def console_games(self) -> list[dict[str, Any]]:
        """Every host's rows, each game once: from the host whose lease the directory names."""
        rows: dict[str, dict[str, Any]] = {}
        for answer in await self._ask_hosts("games"):
            for row in answer.value or ():
                resource = f"{row['kind']}:{row['id']}"
                owner = self.directory.owners.get(resource)
                if owner is None or owner.host == answer.host or row["id"] not in rows:
                    rows[row["id"]] = row
        return sorted(rows.values(), key=lambda r: (r["kind"] != "table", r["id"]))

    async def console_live(self) -> dict[str, Any]:
        answers = [a.value for a in await self._ask_hosts("live") if a.value]
        figures = console_views.merge_live(answers)
        # (every host knows every gateway's connections: the players online are counted once)
        figures["players_online"] = max((a["players_online"] for a in answers), default=0)
        return figures

    async def promotions_view(self) -> dict[str, Any]:
        console = ConsoleState()
        await console.load(self.store)
        policy = console.apply(self.settings).points
        return console_views.promotions_view(policy, console.promotions is not None, self.now())

    async def schedule(self, cfg: TournamentConfig, rush: bool, spec: dict[str, Any]) -> dict[str, Any]:
        config = {k: v for k, v in spec.items() if k != "rush"}
        command = NewTournament(config, rush, spec)
        try:
            raw = await self.bus.request(self.subjects.admin(self.id), command.encode())
            answer = receive(raw, Answer, where=self.subjects.admin(self.id))
        except BusUnavailable:
            answer = None
        if answer is None:
            raise Refused("room_unavailable", "no table host answers; try again shortly")
        if answer.error is not None:
            raise ValueError(answer.error.message)
        return answer.value  # type: ignore[no-any-return]

    async def send_balance(self, player: str, currency: str = PLAY) -> None:
        amount = await self.store.ledger.balance(int(player), currency)
        text = orjson.dumps({"type": "balance", "currency": currency, "amount": amount}).decode()
        await self.bus.publish(self.subjects.player(self.id), PlayerFrame(player, text).encode())

    # ---------------------------------------------------------------------------- operations

    def health(self) -> dict[str, Any]:
        return {
            "ok": True,
            "role": "gateway",
            "gateway": self.id,
            "hosts": self.directory.alive(),
            "connections": len(self.ids),
        }

    def paused(self) -> list[str]:
        return self.directory.paused()

    def unready(self) -> list[str]:
        out = []
        if not self.bus.up:
            out.append("the bus (NATS) is down")
        elif not self.directory.alive():
            out.append("no table host is heard on the bus")
        return out + self.directory.stopped()

    def _gauges(self) -> dict[str, Any]:
        tables: dict[tuple[str, str], int] = {}
        paused = set(self.directory.paused())
        for resource in self.directory.owners:
            kind = resource.partition(":")[0]
            state = "paused" if any(resource.endswith(p.split(" ", 1)[-1]) for p in paused) else "playing"
            tables[(kind, state)] = tables.get((kind, state), 0) + 1
        online = {c.player for c in self.ids if c.player is not None}
        return {"connections": len(self.ids), "online": len(online), "seated": {}, "tables": tables}
