"""What the console changed, kept apart from the room: its tables and pools, the tables it paused, its
tournaments, the ones it cancelled, and its promotions (all stored in ``store.games``).

They win over the configuration file: :meth:`ConsoleState.apply` lays them over the file's settings at a
start and at every reload (docs/console.md, "What wins"). The room holds one :class:`ConsoleState`; the
operator's commands (server/operator.py) change it and store it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from pokerroom.rooms import PointsPolicy, TableConfig
from pokerroom.rooms.rush_rules import PoolConfig
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.recurring import Recurrence
from pokerroom.server.config.parse import (
    ConfigInvalid,
    game_from_fields,
    promotions_from_fields,
    recurring_from_fields,
)
from pokerroom.server.schedule import tournament_from_dict
from pokerroom.store import Store


class _Settings(Protocol):
    """What :meth:`ConsoleState.apply` reads of the room's settings (server/room.py, RoomSettings)."""

    @property
    def tables(self) -> Sequence[TableConfig]: ...
    @property
    def pools(self) -> Sequence[PoolConfig]: ...
    @property
    def tournaments(self) -> Sequence[TournamentConfig]: ...
    @property
    def rush_tournaments(self) -> Sequence[TournamentConfig]: ...
    @property
    def points(self) -> PointsPolicy | None: ...
    @property
    def recurring(self) -> Sequence[tuple[Recurrence, bool]]: ...


S = TypeVar("S", bound=_Settings)

__all__ = ["ConsoleState"]

log = logging.getLogger("pokerroom.room")


@dataclass
class ConsoleState:
    # id -> the table or pool the console opened (None: it closed it); over the file's entry with that id
    overrides: dict[str, TableConfig | PoolConfig | None] = field(default_factory=dict)
    held: set[str] = field(default_factory=set)  # cash tables the console paused
    scheduled: dict[str, tuple[TournamentConfig, bool]] = field(default_factory=dict)  # id -> (cfg, rush)
    cancelled: set[str] = field(default_factory=set)  # tournaments (or sit-and-go series) it cancelled
    promotions: PointsPolicy | None = None  # its [promotions], over the file's
    series: dict[str, tuple[Recurrence, bool]] = field(default_factory=dict)  # its [[recurring]] series

    async def load(self, store: Store) -> None:
        """What the store kept. An entry whose stored fields no longer pass the configuration checks is
        left out, with a warning."""
        for game in await store.games.all():
            if game.kind == "tournament":
                self._load_tournament(game.id, game.state, game.spec)
                continue
            if game.kind == "recurring":
                if game.state == "closed":  # (removed from the console: its fields kept for the record)
                    continue
                try:
                    self.series[game.id] = recurring_from_fields(game.spec)
                except ConfigInvalid as exc:
                    log.warning("console recurring series %s left out: %s", game.id, exc)
                continue
            if game.kind == "promotions":
                try:
                    self.promotions = promotions_from_fields(game.spec)
                except ConfigInvalid as exc:
                    log.warning("console promotions left out: %s", exc)
                continue
            if game.state == "closed":
                self.overrides[game.id] = None
                continue
            if game.spec:  # opened from the console (else the file's own table, paused or resumed)
                try:
                    self.overrides[game.id] = game_from_fields(game.kind, game.spec)
                except ConfigInvalid as exc:
                    log.warning("console %s %s left out: %s", game.kind, game.id, exc)
                    continue
            if game.state == "paused":
                self.held.add(game.id)

    def _load_tournament(self, tid: str, state: str, spec: dict[str, Any]) -> None:
        if state == "closed":
            self.cancelled.add(tid)
            return
        fields = {k: v for k, v in spec.items() if k != "rush"}
        try:
            self.scheduled[tid] = (tournament_from_dict(fields), bool(spec.get("rush")))
        except ValueError as exc:
            log.warning("console tournament %s left out: %s", tid, exc)

    def apply(self, settings: S) -> S:
        """``settings`` (from the configuration file) with what the console changed: a closed table or
        pool removed, an opened one added or put in place of the file's entry with its id, its
        tournaments added and the cancelled ones removed, its promotions over the file's, its recurring
        series added (over the file's series of the same id)."""
        tables: dict[str, TableConfig] = {c.table_id: c for c in settings.tables}
        pools: dict[str, PoolConfig] = {c.pool_id: c for c in settings.pools}
        for gid, cfg in self.overrides.items():
            tables.pop(gid, None)
            pools.pop(gid, None)
            if isinstance(cfg, TableConfig):
                tables[gid] = cfg
            elif isinstance(cfg, PoolConfig):
                pools[gid] = cfg
        standard = {c.tournament_id: c for c in settings.tournaments}
        rush = {c.tournament_id: c for c in settings.rush_tournaments}
        for tid, (t_cfg, is_rush) in self.scheduled.items():
            (rush if is_rush else standard)[tid] = t_cfg
        series = {rec.series: (rec, rush) for rec, rush in settings.recurring}
        series.update(self.series)  # (the console's series, over a file's with its id)
        return replace(  # type: ignore[type-var]
            settings,
            recurring=tuple(series.values()),
            points=self.promotions if self.promotions is not None else settings.points,
            tables=tuple(tables.values()),
            pools=tuple(pools.values()),
            tournaments=tuple(c for tid, c in standard.items() if tid not in self.cancelled),
            rush_tournaments=tuple(c for tid, c in rush.items() if tid not in self.cancelled),
        )
