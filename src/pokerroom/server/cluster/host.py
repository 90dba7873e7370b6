"""A table host of a cluster (docs/cluster.md): it runs the actors of the tables, pools and tournaments it
holds the leases of, in an ordinary :class:`~pokerroom.server.room.Room`, and speaks to the gateways only
through the bus.

- Each held resource has its request subject (``<c>.res.<kind>.<id>``): a gateway's client message comes
  with the gateway's and the connection's ids and the player; the host answers it exactly as the
  one-process room would (``routes.handle``), to a :class:`~.remote.RemoteConnection` whose frames go back
  to that gateway in the next batch.
- Presence: the gateways say when a connection opens, logs in and closes (and, on request, list them
  all), so the host's room knows who is connected (a disconnected player's grace, a Rush entry's
  window, a tournament player's seat) and where to send a player's frames.
- Every second it publishes its directory: what it holds (with the fences), the table ids of each, and its
  lobby rows.
- The console's commands (server/commands.py) come addressed: one for a table, pool or tournament on that
  resource's request subject, to the host that holds it; one for the room (open a table, schedule a
  tournament, promotions) to one host. The host carries it out as one process does
  (``operator.execute``) and answers its outcome; the gateway then has every host read what the console
  changed (a ``Refresh``), so that their placements agree on what the room runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

import orjson

from pokerroom.engine import EngineError
from pokerroom.server import console_views, last_hand
from pokerroom.server import protocol as p
from pokerroom.server.cluster.balance import MAX_MOVES, drain_plan, plan_moves
from pokerroom.server.cluster.bus import Bus, Msg
from pokerroom.server.cluster.messages import (
    PRESENCE,
    RESOURCE_REQUESTS,
    Answer,
    ClientAnswer,
    ClientRequest,
    ConsoleAnswer,
    ConsoleQuestion,
    DirectoryNews,
    GatewayBeat,
    LastHandsAnswer,
    LastHandsQuestion,
    Message,
    NewTournament,
    PoolQuestion,
    PresenceDown,
    PresenceList,
    PresenceSync,
    PresenceUp,
    Refresh,
    Refusal,
    TableQuestion,
    TournamentAction,
    TournamentQuestion,
    receive,
)
from pokerroom.server.cluster.placement import RENEW, SCAN, TTL, Held, Placement
from pokerroom.server.cluster.remote import Outbox, RemoteConnection
from pokerroom.server.cluster.subjects import ANY, Subjects
from pokerroom.server.commands import COMMANDS, Command, CommandDone, CommandFailed, CommandRefused
from pokerroom.server.errors import Refused, error_details
from pokerroom.server.front import LocalFront
from pokerroom.server.ids import PlayerKey
from pokerroom.server.mailbox import ActorStopped
from pokerroom.server.operator import execute
from pokerroom.server.room import Room, RoomSettings
from pokerroom.server.routes import handle
from pokerroom.server.schedule import ScheduleError, tournament_from_dict
from pokerroom.server.tournament import TournamentActor
from pokerroom.store import Fence, StoreError

__all__ = ["GATEWAY_SILENCE", "Host", "silent_gateways", "unlisted"]

log = logging.getLogger("pokerroom.cluster")

GATEWAY_SILENCE = 10.0  # seconds without a gateway's heartbeat before its connections are dropped
HOST_SILENCE = 4.0  # seconds without a host's directory before it no longer counts as alive
START_WAIT = 2.0  # seconds a new host listens before it takes work (to hear the other hosts first)
BALANCE = 5.0  # seconds between a host's looks at the hosts' loads (server/cluster/balance.py)
SETTLED = 20.0  # seconds a table stays on a host that took it before it may move again
EXPIRY_TICK = 2.0  # seconds between a host's looks for silent gateways
STALL = 5.0  # seconds between two such looks that mean this host itself was stopped (not the gateways)
DRAIN = 60.0  # seconds a host stopping (SIGTERM) waits for its tables and pools to move between hands
SLOW_REQUEST = 15.0  # seconds a client's request may take on a host before that is logged


def unlisted(
    known: Iterable[tuple[str, str]], gateway: str, listed: set[str], last: int
) -> list[tuple[str, str]]:
    """The connections of ``gateway`` that its full list (``listed``, made when its last connection id
    was ``last``) shows closed: unlisted ones it had opened by then. One opened later is not in the list
    yet; a watcher that never logged in is listed like a player."""
    return [k for k in known if k[0] == gateway and k[1] not in listed and int(k[1]) <= last]


def silent_gateways(heard: dict[str, float], now: float, up_since: float) -> list[str]:
    """The gateways of ``heard`` (gateway -> when last heard) silent for more than ``GATEWAY_SILENCE``
    seconds of the time this host has been on the bus (since ``up_since``): while the host itself was off
    the bus it could hear nobody, so that time proves nothing about a gateway (a restarted bus must not
    cost the players their connections)."""
    return [g for g, seen in heard.items() if now - max(seen, up_since) > GATEWAY_SILENCE]


@dataclass(frozen=True)
class _Present:
    id: int
    name: str


class Host:
    def __init__(
        self,
        room: Room,
        bus: Bus,
        subjects: Subjects,
        host_id: str,
        *,
        reread: Callable[[], RoomSettings | None] | None = None,
    ) -> None:
        """``reread``: the configuration file read again (None: it has problems, keep the old one), for a
        reload of any node (docs/cluster.md, "The console and reloads")."""
        self.room = room
        self.reread = reread
        self.bus = bus
        self.subjects = subjects
        self.id = host_id
        self.local = LocalFront(room)
        self.remotes: dict[tuple[str, str], RemoteConnection] = {}
        self.outboxes: dict[str, Outbox] = {}
        self.gateways: dict[str, float] = {}
        self.hosts: dict[str, float] = {}
        self.loads: dict[str, dict[str, int]] = {}  # host -> its resources' weights (its directory)
        self.draining = False
        self.leaving: set[str] = set()  # other hosts that drain: no work goes to them
        self.placement = Placement(
            room,
            host_id,
            bus_down_for=bus.down_for,
            hosts_alive=self.hosts_alive,
            bus_up_for=lambda: time.monotonic() - bus.up_since if bus.up else 0.0,
            hosts_heard=self.hosts_heard,
            on_held=self._held,
            on_dropped=self._dropped,
        )
        self._tasks: list[asyncio.Task[None]] = []
        self.changed = asyncio.Event()
        room.on_opened = self._opened

    # ---------------------------------------------------------------------------- life cycle

    async def start(self) -> None:
        await self.room.start_hosted()
        s = self.subjects
        await self.bus.subscribe(s.presence(ANY), self._presence)
        await self.bus.subscribe(s.beat(ANY), self._gateway_beat)
        await self.bus.subscribe(s.directory, self._directory)
        await self.bus.subscribe(s.ask(ANY), self._ask)
        await self.bus.subscribe(s.admin(ANY), self._admin, queue="hosts")
        await self.bus.subscribe(s.console(ANY), self._console)
        await self.bus.subscribe(s.refresh(ANY), self._refresh)
        await self.bus.subscribe(s.host_refresh, self._refresh)
        self.bus.on_reconnect = self._resync
        await self._resync()
        for loop in (self._placing, self._renewing, self._publishing, self._expiring, self._balancing):
            self._tasks.append(asyncio.create_task(loop()))

    async def stop(self) -> None:
        with contextlib.suppress(Exception):  # (the bus or the store away: the others fail it over)
            await self.drain()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.room.stop()  # the actors first: none may write after its lease is let go
        for resource in list(self.placement.held):
            held = self.placement.held[resource]
            with contextlib.suppress(Exception):
                await self.room.store.leases.release(held.fence)

    def hosts_alive(self) -> int:
        return 1 + len(self.hosts_heard())

    def hosts_heard(self) -> set[str]:
        """The other hosts heard on the bus within ``HOST_SILENCE``."""
        now = time.monotonic()
        return {h for h, seen in self.hosts.items() if h != self.id and now - seen < HOST_SILENCE}

    async def _resync(self, lost: str | None = None) -> None:
        """Ask the gateways for their connections; ``lost``: a gateway this host does not know (new, or
        dropped for silence), which then also subscribes its watchers again on this host."""
        await self.bus.publish(self.subjects.presence_sync, PresenceSync(self.id, lost).encode())

    # ------------------------------------------------------------------------------- loops

    async def _placing(self) -> None:
        await asyncio.sleep(START_WAIT)
        while True:
            try:
                if not self.draining:  # (a host that stops takes nothing more)
                    await self.placement.scan()
            except Exception as exc:
                log.warning("placement: %s: %s", type(exc).__name__, exc)
            self.changed.set()
            await self.placement.pause(SCAN)

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(RENEW)
            await self.placement.renew()
            await self.placement.handovers()

    async def _publishing(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1.0)
            self.changed.clear()
            with contextlib.suppress(Exception):
                await self.bus.publish(self.subjects.directory, self.directory().encode())

    async def _expiring(self) -> None:
        awake_since = last = time.monotonic()
        while True:
            await asyncio.sleep(EXPIRY_TICK)
            now = time.monotonic()
            if now - last > STALL:
                # This host was stopped (SIGSTOP, a frozen VM, a stalled loop): it heard nobody meanwhile,
                # and the beats that came are still unread. That time proves nothing about a gateway,
                # as the time off the bus proves nothing: the gateways get a whole silence from now.
                awake_since = now
            last = now
            if not self.bus.up:
                continue
            for gw in silent_gateways(self.gateways, now, max(self.bus.up_since, awake_since)):
                log.warning("gateway %s is silent: dropping its connections", gw)
                del self.gateways[gw]
                # all taken out at once: a connection the gateway names again while the others are
                # being detached is a new one, never one about to be dropped
                gone = [self.remotes.pop(k) for k in [k for k in self.remotes if k[0] == gw]]
                for conn in gone:
                    await self._close(conn)

    # --------------------------------------------------------------------------- the directory

    def directory(self) -> DirectoryNews:
        room = self.room
        tables: dict[str, str] = {}
        pools: dict[str, str] = {}
        for resource, held in self.placement.held.items():
            actor = held.actor
            if actor is None:
                continue
            kind = resource.partition(":")[0]
            if kind == "table":
                tables[actor.tid] = resource
            elif kind == "pool":
                pools[actor.pid] = resource
            elif isinstance(actor, TournamentActor):
                for tid in actor.cores:
                    tables[tid] = resource
                for t in actor.director.tables.values():
                    tables[t.tid] = resource
                windows = actor.rush_windows()
                if windows is not None:
                    pools[windows.pid] = resource
        return DirectoryNews(
            host=self.id,
            fences={r: h.fence.fence for r, h in self.placement.held.items()},
            tables=tables,
            pools=pools,
            tournaments={
                tid: f"tournament:{tid}"
                for tid in room.tournaments
                if f"tournament:{tid}" in self.placement.held
            },
            lobby_tables=tuple(room.lobby()),
            lobby_pools=tuple(room.pool_lobby()),
            lobby_tournaments={g: tuple(rows) for g, rows in room.tournament_lobby().items()},
            paused=tuple(room.paused()),
            stopped=tuple(room.stopped()),
            online=room.players.count(),
            loads=self.weights(),
            draining=self.draining,
        )

    async def _directory(self, msg: Msg) -> None:
        news = receive(msg.data, DirectoryNews, where=self.subjects.directory)
        if news is not None:
            self.hosts[news.host] = time.monotonic()
            self.loads[news.host] = dict(news.loads)
            (self.leaving.add if news.draining else self.leaving.discard)(news.host)

    # ------------------------------------------------------------------------------ the load

    def weights(self) -> dict[str, int]:
        """Each resource this host runs, by its weight (server/cluster/balance.py)."""
        out: dict[str, int] = {}
        for resource, held in self.placement.held.items():
            actor = held.actor
            if actor is None:
                continue
            if resource.startswith("table:"):
                out[resource] = 1 + len(actor.table.seats)
            elif resource.startswith("pool:"):
                out[resource] = 1 + len(actor.pool.entries)
            elif isinstance(actor, TournamentActor):
                out[resource] = 1 + len(actor.director.remaining)
        return out

    def _live_loads(self) -> dict[str, dict[str, int]]:
        now = time.monotonic()
        alive = {
            h
            for h, seen in self.hosts.items()
            if h != self.id and now - seen < HOST_SILENCE and h not in self.leaving
        }
        return {h: w for h, w in self.loads.items() if h in alive} | {self.id: self.weights()}

    async def _balancing(self) -> None:
        """Every few seconds: if this host is the most loaded one, hand cash tables to the least loaded
        between hands (server/cluster/balance.py): a new host gets its share without an operator."""
        await asyncio.sleep(START_WAIT + BALANCE)
        while not self.draining:
            try:
                await self.balance()
            except Exception as exc:
                log.warning("balancing: %s: %s", type(exc).__name__, exc)
            await asyncio.sleep(BALANCE)

    async def balance(self) -> None:
        if self.bus.down_for() > 0 or self.draining:
            return
        held = self.placement.held
        in_flight = sum(1 for h in held.values() if h.extra.get("handing"))
        now = time.monotonic()
        movable = {
            r: w
            for r, w in self.weights().items()
            if r.startswith("table:")
            and not held[r].actor.closing
            and not held[r].extra.get("handing")
            and now - held[r].extra.get("since", 0.0) >= SETTLED
        }
        for move in plan_moves(self.id, self._live_loads(), movable, in_flight=in_flight, limit=MAX_MOVES):
            log.warning("moving %s (weight %d) to %s, after its hand: spreading the load", move.resource,
                        move.weight, move.to)  # fmt: skip
            await self._hand_over(move.resource, move.to)

    async def _hand_over(self, resource: str, to: str) -> None:
        held = self.placement.held.get(resource)
        if held is None or held.actor is None or held.extra.get("handing"):
            return
        held.extra["handing"] = to
        with contextlib.suppress(ActorStopped):  # (dropped meanwhile: nothing left to hand over)
            await held.actor.call(held.actor.hand_over)

    async def drain(self) -> None:
        """Stopping (SIGTERM): hand every cash table and pool to the other hosts between hands, so that no
        hand is voided; wait for them (at most ``DRAIN`` seconds). Tournaments stay to the end and are
        taken over as after a failure. Nothing to do when no other host is alive."""
        self.draining = True
        self.changed.set()  # (its directory says so at once: nobody sends it work)
        loads = self._live_loads()
        leaving = {r: w for r, w in self.weights().items() if r.startswith(("table:", "pool:"))}
        moves = drain_plan(self.id, loads, leaving)
        if not moves:
            return
        log.warning("draining: handing %d table(s) and pool(s) to the other hosts", len(moves))
        for move in moves:
            await self._hand_over(move.resource, move.to)
        deadline = time.monotonic() + DRAIN
        while any(m.resource in self.placement.held for m in moves) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)

    # ------------------------------------------------------------------------------- leases

    def _opened(self, actor: Any) -> None:
        """A tournament this host opened by itself (the next copy of a sit-and-go series, an
        administrator's): it takes the new tournament's lease."""
        if isinstance(actor, TournamentActor):
            asyncio.get_running_loop().create_task(self._claim(actor))

    async def _claim(self, actor: TournamentActor) -> None:
        await asyncio.sleep(0)  # (an adoption sets the fence itself, right after opening)
        resource = f"tournament:{actor.tid}"
        if actor.fence is not None or resource in self.placement.held:
            return
        fence_no = await self.room.store.leases.acquire(resource, self.id, TTL)
        if fence_no is None:
            log.error("%s: its new tournament's lease is taken", resource)
            return
        fence = Fence(resource, self.id, fence_no)
        try:
            await actor.call(partial(actor.hold, fence))
        except ActorStopped:  # (it ended meanwhile: the room stopped it)
            await self.room.store.leases.release(fence)
            return
        await self.placement.hold(resource, fence, actor)

    async def _held(self, resource: str, held: Held) -> None:
        held.extra["since"] = time.monotonic()
        handler = partial(self._request, resource)
        held.subscription = await self.bus.subscribe(self.subjects.request(ANY, resource), handler)
        actor = held.actor
        if actor is not None and resource.startswith(("table:", "pool:")):
            before = actor.on_closed

            def closed(a: Any) -> None:  # (closed by the console or a reload, or handed over)
                if before is not None:
                    before(a)
                to = held.extra.get("handing")
                asyncio.get_running_loop().create_task(self.placement.release(resource, hand_to=to))

            actor.on_closed = closed
        if actor is not None and resource.startswith("table:") and actor.tid in self.room.console.held:
            await self.room.hold_table(actor.tid, True, quiet=True)  # (the console paused it)
        self.changed.set()

    async def _dropped(self, resource: str, held: Held) -> None:
        if held.subscription is not None:
            await self.bus.unsubscribe(self.subjects.request(ANY, resource), held.subscription)
        self.changed.set()

    # ------------------------------------------------------------------------------ requests

    def _outbox(self, gateway: str) -> Outbox:
        box = self.outboxes.get(gateway)
        if box is None:
            subject = self.subjects.frames(gateway)
            box = self.outboxes[gateway] = Outbox(partial(self.bus.publish, subject), self.id)
        return box

    def _remote(self, gateway: str, conn_id: str, player: str | None, name: str) -> RemoteConnection:
        key = (gateway, conn_id)
        conn = self.remotes.get(key)
        if conn is None:
            conn = self.remotes[key] = RemoteConnection(gateway, conn_id, self._outbox(gateway))
            self.room.connections.add(conn)
        if player is not None and conn.player is None:
            self.room.attach(conn, _Present(int(player), name))
        return conn

    async def _gone(self, gateway: str, conn_id: str) -> None:
        conn = self.remotes.pop((gateway, conn_id), None)
        if conn is not None:
            await self._close(conn)

    async def _close(self, conn: RemoteConnection) -> None:
        """A connection taken out of :attr:`remotes`: it is closed and leaves the room."""
        conn.closed = True
        await self.room.detach(conn)

    async def _request(self, resource: str, msg: Msg) -> None:
        request = receive(msg.data, *RESOURCE_REQUESTS, *COMMANDS.values(), where=resource)
        if request is None:
            return
        answer: ClientAnswer | Answer | CommandDone | CommandFailed
        if isinstance(request, Command):
            answer = await self._command(request)
        elif isinstance(request, ClientRequest):
            if self.subjects.forged(msg.subject, request.gateway):  # (only that gateway speaks for it)
                return
            conn = self._remote(request.gateway, request.conn, request.player, request.name)
            # Requests for one resource are answered one at a time: one that hangs holds up every later one
            # (the table then deals for nobody), so an operator must see it (issue 37).
            slow = asyncio.get_running_loop().call_later(
                SLOW_REQUEST,
                log.warning,
                "a request for %s has waited %.0f s (%s); later ones wait behind it",
                resource,
                SLOW_REQUEST,
                request.message[:80],
            )
            try:
                await handle(self.room, conn, p.parse_client(request.message))
            except p.ProtocolError as exc:  # (the gateway validated it already)
                conn.send(orjson.dumps({"type": "error", "code": exc.code, "message": exc.message}).decode())
            finally:
                slow.cancel()
            answer = ClientAnswer(tuple(sorted(conn.tables)))
        else:
            answer = await self._http(request)
        if msg.reply:
            await self.bus.publish(msg.reply, answer.encode())

    async def _http(self, question: Message) -> Answer:
        """A gateway's HTTP question about a resource of this host (the one-process answers)."""
        front = self.local
        try:
            if isinstance(question, TableQuestion):
                return Answer(await front.table_details(question.table))
            if isinstance(question, PoolQuestion):
                return Answer(await front.pool_details(question.pool, question.player))
            if isinstance(question, TournamentQuestion):
                return Answer(await front.tournament_details(question.tournament))
            if isinstance(question, TournamentAction):
                q = question
                summary = await front.tournament_request(
                    q.tournament, q.action, PlayerKey(q.player), q.name, q.flag
                )
                return Answer(summary)
        except (Refused, EngineError, StoreError) as exc:
            code = getattr(exc, "code", "refused")
            return Answer(error=Refusal(code, str(exc), error_details(exc)))
        return Answer(error=Refusal("unknown_request", "unknown request"))

    # ----------------------------------------------------------------------------- presence

    async def _presence(self, msg: Msg) -> None:
        news = receive(msg.data, *PRESENCE, where=self.subjects.presence(ANY))
        if not isinstance(news, PresenceUp | PresenceDown | PresenceList):
            return
        if self.subjects.forged(msg.subject, news.gateway):
            return
        gw = news.gateway
        self.gateways[gw] = time.monotonic()
        if isinstance(news, PresenceUp):
            self._remote(gw, news.conn, news.player, news.name)
        elif isinstance(news, PresenceDown):
            await self._gone(gw, news.conn)
        elif isinstance(news, PresenceList):
            listed = {c.conn for c in news.conns}
            for c in news.conns:
                self._remote(gw, c.conn, c.player, c.name)
            gone = unlisted(self.remotes, gw, listed, news.last)
            if gone:  # (an operator must see why a player's table stopped showing him anything)
                log.info("gateway %s no longer lists connection(s) %s: dropping them", gw,
                         ", ".join(c for _, c in sorted(gone)))  # fmt: skip
            for key in gone:
                await self._gone(*key)

    async def _gateway_beat(self, msg: Msg) -> None:
        beat = receive(msg.data, GatewayBeat, where=self.subjects.beat(ANY))
        if beat is None or self.subjects.forged(msg.subject, beat.gateway):
            return
        if beat.gateway not in self.gateways:  # a gateway we do not know (yet, or any more): its list
            await self._resync(lost=beat.gateway)
        self.gateways[beat.gateway] = time.monotonic()

    # ------------------------------------------------------------------------ questions to all

    async def _ask(self, msg: Msg) -> None:
        question = receive(msg.data, LastHandsQuestion, where=self.subjects.ask(ANY))
        if question is None:
            return
        player = PlayerKey(question.player)
        window = self.room.last_hands
        if question.hand_id is None:
            answer = LastHandsAnswer(self.id, rows=tuple(last_hand.hand_rows(window, player)))
        else:
            answer = LastHandsAnswer(self.id, hand=last_hand.last_hand(window, player, question.hand_id))
        if msg.reply:
            await self.bus.publish(msg.reply, answer.encode())

    async def _command(self, cmd: Command) -> CommandDone | CommandFailed:
        """An operator's command, carried out here as one process does; the gateway records it."""
        try:
            return CommandDone.of_outcome(await execute(self.room, cmd))
        except CommandRefused as exc:
            return CommandFailed.of_refusal(exc)

    async def _console(self, msg: Msg) -> None:
        """What the console reads of the games this host runs (server/console_views.py)."""
        question = receive(msg.data, ConsoleQuestion, where=self.subjects.console(ANY))
        if question is None or not msg.reply:
            return
        if question.what == "games":
            value: Any = console_views.games(self.room)
        elif question.what == "live":
            value = console_views.live(self.room)
        else:
            value = None
        await self.bus.publish(msg.reply, ConsoleAnswer(self.id, value).encode())

    async def _refresh(self, msg: Msg) -> None:
        """Another node carried out a console command, or was reloaded: read what changed."""
        news = receive(msg.data, Refresh, where=msg.subject)
        if news is None:
            return
        await self.refresh(reload=news.reload)

    async def refresh(self, *, reload: bool = False, fresh: RoomSettings | None = None) -> None:
        """Read the console's changes again (and, for a reload, the configuration file, or ``fresh``: as
        read already); the placement then opens what was added and closes what was removed, after its
        hand."""
        if fresh is None and reload and self.reread is not None:
            fresh = self.reread()
        try:
            await self.room.refresh_console(fresh)
        except Exception as exc:  # (the store away: the placement's next look reads it again)
            log.warning("could not read the console's changes: %s: %s", type(exc).__name__, exc)
            return
        self.placement.look_soon()

    async def reload(self, fresh: RoomSettings) -> None:
        """This node was reloaded (SIGHUP; ``fresh``: its file read again): every other host reads its
        own file again too."""
        await self.refresh(fresh=fresh)
        await self.bus.publish(self.subjects.host_refresh, Refresh(reload=True).encode())

    async def _admin(self, msg: Msg) -> None:
        command = receive(msg.data, NewTournament, *COMMANDS.values(), where=self.subjects.admin(ANY))
        if command is None:
            return
        if isinstance(command, Command):
            result = await self._command(command)
            if msg.reply:
                await self.bus.publish(msg.reply, result.encode())
            return
        assert isinstance(command, NewTournament)
        try:
            cfg = tournament_from_dict(dict(command.config))
            actor = self.room.add_tournament(cfg, rush=command.rush, spec=dict(command.spec))
            answer = Answer(actor.summary())
        except (ScheduleError, ValueError) as exc:
            answer = Answer(error=Refusal("bad_tournament", str(exc)))
        if msg.reply:
            await self.bus.publish(msg.reply, answer.encode())
