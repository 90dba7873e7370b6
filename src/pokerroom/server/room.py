"""The room: every actor (cash tables, Rush pools, tournaments), the connected players, and the lobby.

The room builds the :class:`~pokerroom.server.services.Services` its actors share (the store, the clock,
the randomness, the players' channels) and hands each actor only those; no actor sees the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Protocol

from pokerroom.cards import RandomSource
from pokerroom.rooms import CashTable, LastHands, PointsPolicy, TableConfig
from pokerroom.rooms.errors import TableError
from pokerroom.rooms.rush import RushPool
from pokerroom.rooms.rush_rules import PoolConfig
from pokerroom.rooms.tournament import RushTournamentDirector, TournamentConfig, TournamentDirector
from pokerroom.rooms.tournament.recurring import Recurrence
from pokerroom.server.cash import CashActor
from pokerroom.server.clock import Clock, SystemClock
from pokerroom.server.connection import Connection
from pokerroom.server.console_state import ConsoleState
from pokerroom.server.errors import Refused
from pokerroom.server.fairdeal import DealingRandom
from pokerroom.server.fairness import Seals
from pokerroom.server.ids import player_key
from pokerroom.server.integrity.chat import ChatDesk
from pokerroom.server.integrity.settings import IntegritySettings
from pokerroom.server.logs import note_closed, note_opened
from pokerroom.server.mailbox import ActorStopped
from pokerroom.server.metrics import Metrics, actor_state
from pokerroom.server.players import Players
from pokerroom.server.pool import PoolActor
from pokerroom.server.services import Services
from pokerroom.server.tournament import TournamentActor
from pokerroom.server.tournament.archive import ArchivedTournament, load_archive
from pokerroom.server.tournament.copies import copy_id, last_copies
from pokerroom.server.tournament.recovery import recover_tournaments, settings_by_id
from pokerroom.server.tournament.recurring import due_occurrences, is_occurrence, open_due, open_due_soon
from pokerroom.store import PLAY, POINTS, Store
from pokerroom.store.api_keys import ApiKeyPolicy

__all__ = ["Room", "RoomSettings"]

log = logging.getLogger("pokerroom.room")


class Named(Protocol):
    """A logged-in player as the room needs him (a store :class:`~pokerroom.store.Player`, or a cluster
    gateway's word for one)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...


@dataclass(frozen=True)
class RoomSettings:
    tables: tuple[TableConfig, ...] = ()
    play_money_on_register: bool = True
    points: PointsPolicy | None = None
    pools: tuple[PoolConfig, ...] = ()
    tournaments: tuple[TournamentConfig, ...] = ()  # a sit-and-go opens again each time one starts
    rush_tournaments: tuple[TournamentConfig, ...] = ()  # played in a Rush pool down to a final table
    message_rate: float = 20.0  # frames a client may send per second ...
    message_burst: float = 40.0  # ... in bursts of this many (docs/protocol.md, "Limits")
    integrity: IntegritySettings = field(default_factory=IntegritySettings)  # [integrity]: issue 30
    operator_api: ApiKeyPolicy = field(default_factory=ApiKeyPolicy)  # [operator_api]: issue 29
    # Every currency of the room, PLAY first: [room] currencies and those of its tables, pools and tournaments
    # (completed by __post_init__, so a reload or a console change of the tables keeps it whole; issue 29).
    currencies: tuple[str, ...] = (PLAY,)
    payments: str = "manual"  # [room] payments: the cashier's payment provider (server/payments.py)
    gaming_cooling_hours: int = 24  # [responsible_gaming] cooling_hours: before a raised limit holds
    fairness_open_stub: bool = False  # [fairness] open_stub: players' proofs open the undealt stub (issue 34)
    # [[recurring]] series (issue 35): each with whether it is Rush; server/tournament/recurring.py
    recurring: tuple[tuple[Recurrence, bool], ...] = ()
    # [room] demo_account: the demo account's name and password, which the login page offers (issue 31)
    demo_account: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        games = [t.currency for t in self.tables] + [p.currency for p in self.pools]
        games += [t.currency for t in (*self.tournaments, *self.rush_tournaments)]
        found = [PLAY, *self.currencies, *games]
        object.__setattr__(self, "currencies", tuple(dict.fromkeys(c for c in found if c != POINTS)))


class Room:
    def __init__(
        self,
        store: Store,
        settings: RoomSettings,
        *,
        clock: Clock | None = None,
        rng: RandomSource | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.file_settings = settings  # the configuration file's, under what the console changed
        self.hosted = False  # a cluster's host: actors open only with their lease (start_hosted)
        self.copies: dict[str, int] = {}  # the last copy number of each sit-and-go series
        self.clock: Clock = clock or SystemClock()
        dealing = DealingRandom(rng or secrets.SystemRandom())  # (decks from seeds: docs/fairness.md)
        self.rng: RandomSource = dealing
        self.players = Players(store.ledger)
        self.last_hands = LastHands()
        self.connections: set[Connection] = set()
        self.metrics = Metrics(self._gauges)
        self.metrics.add_commits(lambda: store.db.commits)
        self.services = Services(
            store,
            self.clock,
            self.rng,
            self.players,
            self.last_hands,
            settings.points,
            self.metrics,
            seat_rule=lambda: self.settings.integrity,
            chat=ChatDesk(store, self.clock, lambda: self.settings.integrity),
            seals=Seals(dealing.dealer, lambda: self.settings.fairness_open_stub),
        )
        self.endpoints = self.services.endpoints  # what client messages reach (server/endpoints.py)
        self.tables: dict[str, CashActor] = {}
        self.pools: dict[str, PoolActor] = {}
        self.tournaments: dict[str, TournamentActor] = {}
        # Ended before this start (tournament.archive); an id that is over never opens again, so these
        # never share an id with ``tournaments``.
        self.archive: dict[str, ArchivedTournament] = {}
        self.started_at: datetime = self.clock.now()
        self._replacements: dict[str, TableConfig | PoolConfig] = {}  # reopen with these once closed
        # What the console changed (store.games): it wins over the configuration file, at a start and at
        # a reload (server/console_state.py).
        self.console = ConsoleState()
        self.on_opened: Callable[[Any], None] | None = None  # (a cluster's host hears of each new actor)

    # --------------------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Migrate, recover unfinished hands, return chips left on tables by a crash, open the tables;
        take back the tournaments the store kept (``tournament.recovery``)."""
        await self.store.db.upgrade()
        await self.console.load(self.store)
        self.settings = self.console.apply(self.settings)
        self._apply_points(self.settings.points)
        cancelled = await self.store.journal.recover()
        if cancelled:
            log.warning("recovered %d unfinished hand(s): stacks restored", len(cancelled))
        for session in await self.store.ledger.sessions(open_only=True):
            await self.store.ledger.cash_out(session.id, idempotency_key=f"recovery-cashout:{session.id}")
        for cfg in self.settings.tables:
            self.add_table(cfg, hands_before=await self.store.journal.hand_count(cfg.table_id))
        for pool_cfg in self.settings.pools:
            self.add_pool(pool_cfg)
        for tid in self.console.held & set(self.tables):
            await self.hold_table(tid, True, quiet=True)
        due = due_occurrences(self.settings.recurring, self.clock.now())  # (kept ones are taken back)
        settings = settings_by_id(
            (*self.settings.tournaments, *(c for c, rush in due if not rush)),
            (*self.settings.rush_tournaments, *(c for c, rush in due if rush)),
        )

        def reopen(cfg: TournamentConfig, rush: bool, series: str | None, spec: Any) -> TournamentActor:
            return self.open_tournament(cfg, rush=rush, series=series, spec=spec)

        series = [c.tournament_id for c, _ in settings.values() if c.kind == "sng"]
        self.copies = await last_copies(self.store, series)  # (stable copy names: tournament/copies.py)
        kept = await recover_tournaments(self.store, settings, reopen)
        self.archive = await load_archive(self.store, settings, recurring=self.settings.recurring)
        for t_cfg in self.settings.tournaments:
            if t_cfg.tournament_id not in kept:
                self.add_tournament(t_cfg)
        for t_cfg in self.settings.rush_tournaments:
            if t_cfg.tournament_id not in kept:
                self.add_tournament(t_cfg, rush=True)
        await open_due(self, self.settings.recurring, self.clock.now())

    async def start_hosted(self) -> None:
        """A cluster's host (server/cluster/host.py): nothing opens here and nothing is recovered here;
        the host takes its tables, pools and tournaments over one by one, each with its lease."""
        self.hosted = True
        await self.refresh_console()
        settings = settings_by_id(self.settings.tournaments, self.settings.rush_tournaments)
        self.archive = await load_archive(self.store, settings, recurring=self.settings.recurring)

    async def refresh_console(self, file_settings: RoomSettings | None = None) -> None:
        """A cluster's host reads again what the console changed (another host carried out a command, or
        a node was reloaded: ``file_settings``, the configuration file read again), laid over the file's
        settings. Its tables follow the console's pauses; its placement opens what was added and closes
        what was removed (server/cluster/placement.py)."""
        if file_settings is not None:
            self.file_settings = file_settings
        console = ConsoleState()
        await console.load(self.store)
        self.console = console
        self.settings = console.apply(self.file_settings)
        self._apply_points(self.settings.points)
        for tid, actor in list(self.tables.items()):
            if actor.held != (tid in console.held) and not actor.closing:
                await self.hold_table(tid, tid in console.held, quiet=True)

    def add_table(self, cfg: TableConfig, *, hands_before: int = 0) -> CashActor:
        """Open a table; its hand ids go on after the ``hands_before`` it already has in the journal."""
        table = CashTable(cfg, self.rng, self.settings.points)
        table.hand_count = hands_before
        actor = CashActor(self.services, table)
        actor.on_closed = self._table_closed
        self.tables[cfg.table_id] = actor
        self.endpoints.add_table(cfg.table_id, actor)
        actor.start()
        self._opened(actor)
        return actor

    def add_pool(self, cfg: PoolConfig) -> PoolActor:
        actor = PoolActor(self.services, RushPool(cfg, self.rng, self.settings.points))
        actor.on_closed = self._pool_closed
        self.pools[cfg.pool_id] = actor
        self.endpoints.add_pool(cfg.pool_id, actor)
        actor.start()
        self._opened(actor)
        return actor

    # ------------------------------------------------------------------------- reconfiguring

    async def reconfigure(self, settings: RoomSettings) -> dict[str, list[str]]:
        """A new configuration (a reload): tables and pools it adds open now; those it removes close after
        their hand (players cashed out); one whose settings changed closes and opens again with the new
        ones; tournaments it adds open (one it removes is left to finish, or to a restart's recovery:
        docs/configuration.md); the points policy is replaced. Returns what was opened and closed."""
        report: dict[str, list[str]] = {"opened": [], "closing": [], "tournaments": []}
        self.file_settings = settings
        settings = self.console.apply(settings)
        new_tables = {c.table_id: c for c in settings.tables}
        new_pools = {c.pool_id: c for c in settings.pools}
        for tid, actor in list(self.tables.items()):
            if tid not in new_tables or actor.table.config != new_tables[tid]:
                if tid in new_tables:
                    self._replacements[tid] = new_tables[tid]
                if not actor.closing:
                    await actor.call(actor.close)
                    report["closing"].append(tid)
        for pid, pool in list(self.pools.items()):
            if pid not in new_pools or pool.pool.config != new_pools[pid]:
                if pid in new_pools:
                    self._replacements[pid] = new_pools[pid]
                if not pool.closing:
                    await pool.call(pool.close)
                    report["closing"].append(pid)
        for tid, cfg in new_tables.items():
            if tid not in self.tables:
                self.add_table(cfg, hands_before=await self.store.journal.hand_count(tid))
                report["opened"].append(tid)
        for pid, pool_cfg in new_pools.items():
            if pid not in self.pools:
                self.add_pool(pool_cfg)
                report["opened"].append(pid)
        known = {t.series or tid for tid, t in self.tournaments.items()} | set(self.archive)
        over = set(await self.store.tournaments.statuses([c.tournament_id for c in settings.tournaments]))
        for t_cfg, rush in [(c, False) for c in settings.tournaments] + [
            (c, True) for c in settings.rush_tournaments
        ]:
            if t_cfg.tournament_id not in known and t_cfg.tournament_id not in over:
                report["tournaments"].append(self.add_tournament(t_cfg, rush=rush).tid)
        self.settings = settings
        self._apply_points(settings.points)
        log.warning("reconfigured: %s", report)
        return report

    # ----------------------------------------------------------------------- the console's games

    def _apply_points(self, points: PointsPolicy | None) -> None:
        self.services = replace(self.services, points=points)
        for table in self.tables.values():
            table.table.points = points
        for p in self.pools.values():
            p.pool.points = points
        for t in self.tournaments.values():
            t.director.points = points

    def set_promotions(self, policy: PointsPolicy) -> None:
        """The console's promotions (Game of the Week, happy hours, points per unit): from the next hand,
        and over the configuration file's at a reload or a restart (the caller stores them)."""
        self.console.promotions = policy
        self.settings = self.console.apply(self.settings)
        self._apply_points(policy)

    def schedule_tournament(
        self, cfg: TournamentConfig, *, rush: bool, spec: dict[str, Any]
    ) -> TournamentActor:
        """Open a tournament the console scheduled (the caller stores it): it is part of the room's
        settings from now on, so that a restart takes it back like a configured one."""
        actor = self.add_tournament(cfg, rush=rush, spec=spec)
        self.console.scheduled[cfg.tournament_id] = (cfg, rush)
        self.console.cancelled.discard(cfg.tournament_id)
        self.settings = self.console.apply(self.settings)
        return actor

    async def edit_tournament(
        self, cfg: TournamentConfig, *, rush: bool, spec: dict[str, Any]
    ) -> TournamentActor:
        """Replace a tournament that has not started and that nobody registered for (not a sit-and-go's
        copy: cancel its series and schedule another) by ``cfg`` (the same id)."""
        tid = cfg.tournament_id
        actor = self.tournament(tid)

        async def job() -> None:
            d = actor.director
            if actor.series is not None or d.status not in ("announced", "registering") or d.entrants:
                raise Refused(
                    "registration_closed",
                    "only a tournament not started, with nobody registered, and not a sit-and-go's copy "
                    "can be edited (cancel it and schedule another)",
                    tournament=tid,
                )
            d.status = "cancelled"  # nobody registers any more: this one is replaced

        await actor.call(job)
        await actor.stop()
        del self.tournaments[tid]
        self.endpoints.remove_owner(actor)
        return self.schedule_tournament(cfg, rush=rush, spec=spec)

    async def cancel_tournament(self, tid: str) -> str:
        """Cancel a tournament that has not started: every buy-in and fee refunded (§9.2). A sit-and-go's
        copy ends its series (no new copy opens, now or after a restart). Returns the id the console
        keeps as cancelled (the series, for a copy)."""
        actor = self.tournament(tid)

        async def job() -> None:
            await actor.process(actor.director.cancel())

        try:
            await actor.call(job)
        except TableError as exc:
            raise Refused("registration_closed", str(exc), tournament=tid) from None
        kept = actor.series or tid
        self.console.cancelled.add(kept)
        self.console.scheduled.pop(kept, None)
        self.settings = self.console.apply(self.settings)
        return kept

    async def open_game(self, cfg: TableConfig | PoolConfig) -> CashActor | PoolActor | None:
        """Open a table or pool from the console (the caller stores it). On a cluster's host it becomes
        part of the settings only (None): a host takes its lease and opens it (cluster/placement.py)."""
        gid = cfg.table_id if isinstance(cfg, TableConfig) else cfg.pool_id
        if gid in self.tables or gid in self.pools or gid in self.tournaments:
            raise ValueError(f"a table, pool or tournament has the id {gid!r}")
        self.console.overrides[gid] = cfg
        self.console.held.discard(gid)
        self.settings = self.console.apply(self.settings)
        if self.hosted:
            return None
        if isinstance(cfg, TableConfig):
            return self.add_table(cfg, hands_before=await self.store.journal.hand_count(gid))
        return self.add_pool(cfg)

    async def close_game(self, gid: str) -> None:
        """Close a table or pool from the console: after the hand in progress, every player cashed out."""
        actor: CashActor | PoolActor | None = self.tables.get(gid) or self.pools.get(gid)
        if actor is None:
            raise Refused("unknown_table", "no such table or pool", table=gid)
        self.console.overrides[gid] = None
        self.console.held.discard(gid)
        self._replacements.pop(gid, None)
        self.settings = self.console.apply(self.settings)
        if not actor.closing:
            await actor.call(actor.close)

    async def hold_table(self, tid: str, held: bool, *, quiet: bool = False) -> None:
        """Pause a cash table after its hand in progress (nobody leaves, nothing is cashed out) or let it
        deal again; the players are told by the dealer."""
        actor = self.tables.get(tid)
        if actor is None:
            raise Refused("unknown_table", "no such table", table=tid)
        (self.console.held.add if held else self.console.held.discard)(tid)

        async def job() -> None:
            actor.held = held
            actor.table.halted = actor.stands_still()
            if not held:
                await actor.process(actor.table.restart_clocks(self.clock.now()))

        await actor.call(job)
        if not quiet:
            text = "paused by the operator: no new hand until it resumes" if held else "the table plays again"
            await self.message_table(tid, text)

    async def message_table(self, tid: str, text: str) -> None:
        """A message from the operator to everyone at (and watching) a cash table, in its chat."""
        actor = self.tables.get(tid)
        if actor is None:
            raise Refused("unknown_table", "no such table", table=tid)

        async def job() -> None:
            actor.core.broadcast({"type": "chat", "from": "dealer", "text": f"Operator: {text}"})

        await actor.call(job)

    def _table_closed(self, actor: CashActor) -> None:
        tid = actor.tid
        note_closed(actor, "reopening" if tid in self._replacements else "closed")
        if self.tables.get(tid) is actor:
            del self.tables[tid]
        self.endpoints.remove_owner(actor)
        asyncio.get_running_loop().create_task(actor.stop())
        cfg = self._replacements.pop(tid, None)
        if isinstance(cfg, TableConfig):
            asyncio.get_running_loop().create_task(self._reopen_table(cfg))

    async def _reopen_table(self, cfg: TableConfig) -> None:
        self.add_table(cfg, hands_before=await self.store.journal.hand_count(cfg.table_id))

    def _pool_closed(self, actor: PoolActor) -> None:
        note_closed(actor, "reopening" if actor.pid in self._replacements else "closed")
        if self.pools.get(actor.pid) is actor:
            del self.pools[actor.pid]
        self.endpoints.remove_owner(actor)
        asyncio.get_running_loop().create_task(actor.stop())
        cfg = self._replacements.pop(actor.pid, None)
        if isinstance(cfg, PoolConfig):
            self.add_pool(cfg)

    def add_tournament(
        self, cfg: TournamentConfig, *, rush: bool = False, spec: dict[str, Any] | None = None
    ) -> TournamentActor:
        """Open a tournament. A sit-and-go is a series: this opens its first copy, and each copy that
        starts opens the next (ids ``<id>-<n>``, tournament/copies.py). ``spec`` is an admin request (kept
        with the registrations, to open the tournament again after a restart)."""
        series = cfg.tournament_id if cfg.kind == "sng" else None
        if series is not None and self.hosted:  # (a cluster's hosts share no counter)
            cfg = replace(cfg, tournament_id=f"{series}-{secrets.token_hex(3)}")
        elif series is not None:
            n = self.copies.get(series, 0) + 1
            while copy_id(series, n) in self.tournaments or copy_id(series, n) in self.archive:
                n += 1
            self.copies[series] = n
            cfg = replace(cfg, tournament_id=copy_id(series, n))
        return self.open_tournament(cfg, rush=rush, series=series, spec=spec)

    def open_tournament(
        self, cfg: TournamentConfig, *, rush: bool, series: str | None, spec: dict[str, Any] | None
    ) -> TournamentActor:
        """Open a tournament under its own id (a copy of a series, or one taken back after a restart)."""
        if cfg.tournament_id in self.tournaments:
            raise ValueError(f"tournament {cfg.tournament_id!r} exists already")
        kind = RushTournamentDirector if rush else TournamentDirector
        director = kind(cfg, self.rng, self.settings.points)
        actor = TournamentActor(self.services, director, self, series=series, spec=spec)
        if is_occurrence(self.settings.recurring, cfg.tournament_id):  # its start opens the next (issue 35)
            actor.on_under_way = lambda _: open_due_soon(self, self.settings.recurring, self.clock.now())
        self.tournaments[cfg.tournament_id] = actor
        actor.start()
        self._opened(actor)
        return actor

    def _opened(self, actor: Any) -> None:
        note_opened(actor)
        if self.on_opened is not None:
            self.on_opened(actor)

    # The tournaments' host (server.tournament.TournamentHost).

    def next_in_series(self, actor: TournamentActor) -> None:
        assert actor.series is not None
        rush = isinstance(actor.director, RushTournamentDirector)
        self.add_tournament(
            replace(actor.director.config, tournament_id=actor.series), rush=rush, spec=actor.spec
        )

    async def register_with_ticket(self, target: str, player: str, name: str) -> None:
        actor = self.tournaments.get(target)
        if actor is not None:
            await actor.call(lambda: actor.register(player, name, ticket=True))

    async def stop(self) -> None:
        for actor in self.tables.values():
            await actor.stop()
        for pool in self.pools.values():
            await pool.stop()
        stopped: set[str] = set()  # (a recurring series' next occurrence may open while these stop)
        while pending := [tid for tid in self.tournaments if tid not in stopped]:
            for tid in pending:
                stopped.add(tid)
                if (tournament := self.tournaments.get(tid)) is not None:
                    await tournament.stop()
        if self.services.chat is not None:
            await self.services.chat.stop()  # (a chat log prune in progress)

    def _gauges(self) -> dict[str, Any]:
        """The metrics read when Prometheus scrapes (server/metrics.py)."""
        tables: dict[tuple[str, str], int] = {}
        actors: list[Any] = [*self.tables.values(), *self.pools.values(), *self.tournaments.values()]
        for a in actors:
            key = (a.kind, actor_state(a))
            tables[key] = tables.get(key, 0) + 1
        seated = {
            "cash": sum(len(t.table.seats) for t in self.tables.values()),
            "rush": sum(len(p.pool.entries) for p in self.pools.values()),
            "tournament": sum(
                len(t.director.remaining) for t in self.tournaments.values() if t.director.status == "running"
            ),
        }
        return {
            "connections": len(self.connections),
            "online": self.players.count(),
            "seated": seated,
            "tables": tables,
        }

    def paused(self) -> list[str]:
        """The actors that wait for the store (server/faults.py)."""
        actors: list[Any] = [*self.tables.values(), *self.pools.values(), *self.tournaments.values()]
        return [a.task_name() for a in actors if a.pause is not None]

    def stopped(self) -> list[str]:
        """The actors that cannot deal for another reason than the store: suspended by repeated errors
        (with the reason), or halted (server/faults.py)."""
        actors: list[Any] = [*self.tables.values(), *self.pools.values(), *self.tournaments.values()]
        out = [f"{a.task_name()} is suspended: {a.suspended}" for a in actors if a.suspended is not None]
        out += [f"{a.task_name()} is halted" for a in actors if a.broken]
        return out

    async def resume_actor(self, gid: str) -> bool:
        """An operator resumes a table, pool or tournament that repeated errors suspended; False if it was
        not suspended."""
        actor: Any = self.tables.get(gid) or self.pools.get(gid) or self.tournaments.get(gid)
        if actor is None:
            raise Refused("unknown_table", "no such table, pool or tournament", table=gid)
        resumed: bool = await actor.call(actor.unsuspend)
        return resumed

    # ----------------------------------------------------------------------------- finding

    def tournament(self, tid: str) -> TournamentActor:
        actor = self.tournaments.get(tid)
        if actor is None:
            raise Refused("unknown_tournament", "no such tournament", tournament=tid)
        return actor

    def forget(self, actor: object) -> None:
        """Drop an actor from the room (a cluster's host lost its lease): its registry entry and every
        endpoint it listed."""
        for registry in (self.tables, self.pools, self.tournaments):
            for key, value in list(registry.items()):
                if value is actor:
                    del registry[key]
        self.endpoints.remove_owner(actor)  # type: ignore[arg-type]

    # ---------------------------------------------------------------------------- clients

    def attach(self, conn: Connection, player: Named | None) -> None:
        self.connections.add(conn)
        if player is None:
            return
        conn.player = player_key(player.id)
        conn.name = player.name
        if self.players.add(conn):
            self.last_hands.start_session(conn.player)
        for pool in self.pools.values():
            pool.connect(conn)
        for tournament in self.tournaments.values():
            tournament.director.set_connected(conn.player, True)
            tournament.tell_seat(conn)

    async def detach(self, conn: Connection) -> None:
        self.connections.discard(conn)
        for tid in list(conn.tables):
            actor = self.tables.get(tid)
            if actor is not None:
                # (a table stopped meanwhile, by a move or the room's stop, has no subscriber left to drop)
                with contextlib.suppress(ActorStopped):
                    await actor.call(lambda actor=actor: actor.unsubscribe(conn))  # type: ignore[misc]
        for tournament in self.tournaments.values():
            tournament.forget(conn)
        if conn.player is not None and self.players.remove(conn):
            for pool in self.pools.values():
                pool.disconnect(conn.player)
            for tournament in self.tournaments.values():
                tournament.director.set_connected(conn.player, False)

    async def balances(self, player_id: int) -> dict[str, int]:
        out = {}
        for currency in (PLAY, POINTS):
            out[currency] = await self.store.ledger.balance(player_id, currency)
        return out

    # ------------------------------------------------------------------------------- lobby

    def tournament_lobby(self, status: str | None = None) -> dict[str, list[dict[str, Any]]]:
        """Tournaments by state: upcoming (registering), running, finished (and cancelled)."""
        groups: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
        for actor in self.tournaments.values():
            row = actor.summary()
            st = row["status"]
            group = (
                "upcoming"
                if st in ("announced", "registering")
                else "running"
                if st == "running"
                else "finished"
            )
            groups[group].append(row)
        groups["finished"] += [a.summary() for a in self.archive.values()]
        for rows in groups.values():
            rows.sort(key=lambda r: (r["start_time"] or "", r["name"]))
        groups["finished"] = groups["finished"][-50:]
        return groups if status is None else {status: groups.get(status, [])}

    def pool_lobby(self) -> list[dict[str, Any]]:
        """Rush pools: game, stakes, players and entries in the pool."""
        rows = [pool.summary() for pool in self.pools.values()]
        rows.sort(key=lambda r: (r["variant"], r["betting"], r["stakes"]["big_blind"]))
        return rows

    def lobby(
        self,
        *,
        game: str | None = None,
        betting: str | None = None,
        seats: int | None = None,
        min_players: int | None = None,
        max_stake: int | None = None,
    ) -> list[dict[str, Any]]:
        rows = []
        for actor in self.tables.values():
            row = actor.summary()
            if game and row["variant"] != game:
                continue
            if betting and row["betting"] != betting.upper():
                continue
            if seats and row["seats"] != seats:
                continue
            if min_players is not None and row["players"] < min_players:
                continue
            big = row["stakes"]["big_blind"] or row["stakes"]["small_bet"]
            if max_stake is not None and big > max_stake:
                continue
            rows.append(row)
        rows.sort(
            key=lambda r: (r["variant"], r["betting"], r["stakes"]["big_blind"] or r["stakes"]["small_bet"])
        )
        return rows
