"""A player's lifetime statistics (issue 31): one row of figures per hand he was dealt into
(``player_hand_figures``, migration 0021), and the sums the statistics page shows, computed by the
database over those rows.

The figures of a hand are made from his own history by the server (server/lifetime_figures.py, which
holds their definitions) the first time he asks for his statistics: :meth:`MyStats.unfigured` gives the
hands that have none yet, oldest first and a bounded number at a time, :meth:`MyStats.save` keeps them.
A request makes a fixed number of statements whatever the number of hands: counts, one row per
currency, one row per game and stakes, and one ordered pass over ``(ended_s, net)`` of the hands shown,
from which the sessions and the graph's points are made here.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    ColumnElement,
    case,
    exists,
    func,
    insert,
    literal,
    select,
    union_all,
)
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from pokerroom.store.db import Database
from pokerroom.store.errors import InvalidStatsFilter
from pokerroom.store.models import (
    HandHistoryRow,
    PlayerHandFigureRow,
    PlayerHandRow,
    TournamentHandRow,
    TournamentPlayerHandRow,
)

__all__ = [
    "FIGURES",
    "KINDS",
    "MyStats",
    "StatsFilter",
    "Unfigured",
    "epoch",
    "graph_of",
    "sessions_of",
]

KINDS = ("cash", "tournament")
FIGURES = ("vpip", "pfr", "three_bet_chance", "three_bet", "saw_second", "showdown", "won_showdown")
_CURRENCY = re.compile(r"^[A-Z]{3,8}$")
_STAKES = re.compile(r"^[0-9.,/]{3,40}$")
_GAME = re.compile(r"^[a-z0-9_]{1,32}$")
F = PlayerHandFigureRow
T = TypeVar("T")


def epoch(when: datetime) -> int:
    """Unix seconds of an aware datetime (the figures' ``ended_s``)."""
    return int(when.astimezone(UTC).timestamp())


@dataclass(frozen=True, slots=True)
class StatsFilter:
    """What the statistics cover: a game (variant code), stakes (the lobby's label, "1/2"), ``cash`` or
    ``tournament``, a currency (ISO code, PLAY, or CHIPS for tournament chips), and hands that ended in
    [``since``, ``until``) (Unix seconds). None: any. :meth:`checked` raises
    :class:`~pokerroom.store.errors.InvalidStatsFilter` for a value that cannot match anything."""

    game: str | None = None
    stakes: str | None = None
    kind: str | None = None
    currency: str | None = None
    since: int | None = None
    until: int | None = None

    def checked(self, games: Sequence[str] = ()) -> StatsFilter:
        if self.game is not None and (not _GAME.match(self.game) or (games and self.game not in games)):
            raise InvalidStatsFilter("game", "not a game of the room")
        if self.stakes is not None and not _STAKES.match(self.stakes):
            raise InvalidStatsFilter("stakes", "stakes are written as the lobby writes them, e.g. 1/2")
        if self.kind is not None and self.kind not in KINDS:
            raise InvalidStatsFilter("kind", "cash or tournament")
        if self.currency is not None and not _CURRENCY.match(self.currency):
            raise InvalidStatsFilter("currency", "an ISO 4217 code, PLAY or CHIPS")
        if self.since is not None and self.until is not None and self.since >= self.until:
            raise InvalidStatsFilter("to", "the end of the range is before its start")
        return self

    def where(self, player_id: int) -> list[ColumnElement[bool]]:
        """The conditions on ``player_hand_figures`` (readable hands only)."""
        conds: list[ColumnElement[bool]] = [F.player_id == player_id, F.readable == 1]
        if self.game is not None:
            conds.append(F.game == self.game)
        if self.stakes is not None:
            conds.append(F.stakes == self.stakes)
        if self.kind is not None:
            conds.append(F.kind == self.kind)
        if self.currency is not None:
            conds.append(F.currency == self.currency)
        if self.since is not None:
            conds.append(F.ended_s >= self.since)
        if self.until is not None:
            conds.append(F.ended_s < self.until)
        return conds


@dataclass(frozen=True, slots=True)
class Unfigured:
    """A hand of the player's without figures yet: ``text`` is his own history of it (``seat`` None), or,
    when his copy is not written yet, the audit history, with his ``seat`` (server side only: only his
    own public figures are read from it)."""

    hand_id: str
    kind: str
    ended_at: datetime
    text: str | None = field(repr=False)  # (the audit copy holds every hole card: never in a log line)
    seat: int | None


def _own_hands(player_id: int, *, figured: bool) -> Any:
    """The player's cash and tournament hands with (``figured``) or without figures, as one selectable:
    hand id, kind, ended_at, the text to read and the seat (None when the text is his own copy)."""
    rows = []
    sources: tuple[tuple[Any, Any, Any, str], ...] = (
        (PlayerHandRow, HandHistoryRow, HandHistoryRow.hand_id, "cash"),
        (TournamentPlayerHandRow, TournamentHandRow, TournamentHandRow.id, "tournament"),
    )
    for view, audit, audit_id, kind in sources:
        has = exists().where(F.player_id == player_id, F.hand_id == view.hand_id)
        own = view.phh.is_(None)
        rows.append(
            select(
                view.hand_id.label("hand_id"),
                literal(kind).label("kind"),
                view.ended_at.label("ended_at"),
                case((own, audit.full_phh), else_=view.phh).label("text"),
                case((own, view.seat), else_=None).label("seat"),
            )
            .select_from(view)
            .outerjoin(audit, audit_id == view.hand_id)
            .where(view.player_id == player_id, has if figured else ~has)
        )
    return union_all(*rows).subquery()


def sessions_of(series: Sequence[tuple[int, int]], gap_s: int) -> list[dict[str, int]]:
    """The sessions of a player's hands ``(ended_s, net)`` in order: runs of hands with no pause longer
    than ``gap_s`` seconds between one hand's end and the next's, each with its first and last hand's end
    (``start``, ``end``), its ``hands`` and its ``net``."""
    out: list[dict[str, int]] = []
    prev: int | None = None
    for t, net in series:
        if prev is None or t - prev > gap_s:
            out.append({"start": t, "end": t, "hands": 0, "net": 0})
        cur = out[-1]
        cur["end"] = t
        cur["hands"] += 1
        cur["net"] += net
        prev = t
    return out


def graph_of(series: Sequence[tuple[int, int]], points: int) -> list[tuple[int, int, int]]:
    """The profit over time: ``(n, ended_s, cumulative net)`` after every ``ceil(hands / points)``-th hand
    and after the first and the last, in order (at most ``points + 2`` of them)."""
    step = max(1, -(-len(series) // max(1, points)))
    out: list[tuple[int, int, int]] = []
    total = 0
    last = len(series)
    for n, (t, net) in enumerate(series, 1):
        total += net
        if n % step == 0 or n == 1 or n == last:
            out.append((n, t, total))
    return out


class MyStats:
    """Lifetime statistics of players, over the store's ``player_hand_figures``.

    The reads of many rows run off the event loop: on an inline SQLite database (whose statements
    otherwise run on the loop's thread) on a worker thread with a connection of their own; on PostgreSQL
    the database does the work while the loop waits."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _read(self, work: Callable[[Connection], T]) -> T:
        engine = self.db.sync_engine
        if engine is not None:

            def run() -> T:
                with engine.connect() as conn, conn.begin():
                    return work(conn)

            return await asyncio.to_thread(run)
        async with self.db.read() as conn:
            return await conn.run_sync(work)

    async def pending(self, player_id: int) -> int:
        """How many of the player's hands have no figures yet (their number less the figures')."""
        counts = [
            select(func.count()).select_from(PlayerHandRow).where(PlayerHandRow.player_id == player_id),
            select(func.count())
            .select_from(TournamentPlayerHandRow)
            .where(TournamentPlayerHandRow.player_id == player_id),
            select(func.count()).select_from(F).where(F.player_id == player_id),
        ]
        async with self.db.read() as conn:
            mine, cup, done = [int((await conn.execute(q)).scalar_one()) for q in counts]
        return max(0, mine + cup - done)

    async def unfigured(self, player_id: int, limit: int) -> tuple[list[Unfigured], int]:
        """Up to ``limit`` of the player's hands that have no figures yet (oldest first), and how many
        such hands there are in all."""
        count = await self.pending(player_id)
        if not count or limit <= 0:
            return [], count
        todo = _own_hands(player_id, figured=False)
        q = select(todo).order_by(todo.c.ended_at, todo.c.hand_id).limit(limit)
        rows = await self._read(lambda conn: conn.execute(q).all())
        return [Unfigured(r.hand_id, r.kind, r.ended_at, r.text, r.seat) for r in rows], count

    async def save(self, player_id: int, rows: Sequence[dict[str, Any]]) -> None:
        """Keep figures (``hand_id``, ``kind``, ``ended_s``, ``game``, ``betting``, ``currency``,
        ``stakes``, ``readable``, ``net`` and :data:`FIGURES`); a hand that has figures already (two
        requests at once) keeps its own."""
        if not rows:
            return
        values = [{**r, "player_id": player_id} for r in rows]
        try:
            async with self.db.write() as conn:
                await conn.execute(insert(F), values)
        except IntegrityError:
            async with self.db.write() as conn:
                have = set(
                    (
                        await conn.execute(
                            select(F.hand_id).where(
                                F.player_id == player_id, F.hand_id.in_([v["hand_id"] for v in values])
                            )
                        )
                    ).scalars()
                )
                rest = [v for v in values if v["hand_id"] not in have]
                if rest:
                    await conn.execute(insert(F), rest)

    async def currencies(self, player_id: int, f: StatsFilter) -> dict[str, int]:
        """The player's hands by currency under ``f`` (its currency aside), most hands first; the key ""
        counts the hands whose history could not be read."""
        loose = StatsFilter(f.game, f.stakes, f.kind, None, f.since, f.until)
        conds = [F.player_id == player_id, *loose.where(player_id)[2:]]
        q = (
            select(F.currency, func.count())
            .where(*conds)
            .group_by(F.currency)
            .order_by(func.count().desc(), F.currency)
        )
        rows = await self._read(lambda conn: conn.execute(q).all())
        return {("" if r[0] is None else str(r[0])): int(r[1]) for r in rows}

    async def breakdown(self, player_id: int, f: StatsFilter) -> list[dict[str, Any]]:
        """One row per kind, game, betting, currency and stakes: hands, net, the sums of the figures, and
        the first and last hand's ``ended_s``."""
        keys = (F.kind, F.game, F.betting, F.currency, F.stakes)
        q = (
            select(
                *keys,
                func.count().label("hands"),
                func.sum(F.net).label("net"),
                *[func.sum(getattr(F, name)).label(name) for name in FIGURES],
                func.min(F.ended_s).label("first"),
                func.max(F.ended_s).label("last"),
            )
            .where(*f.where(player_id))
            .group_by(*keys)
            .order_by(func.count().desc(), *keys)
        )
        rows = await self._read(lambda conn: conn.execute(q).mappings().all())
        text = ("kind", "game", "betting", "currency", "stakes")
        return [{k: (v if k in text else int(v)) for k, v in r.items()} for r in rows]

    async def series(self, player_id: int, f: StatsFilter) -> list[tuple[int, int]]:
        """``(ended_s, net)`` of every hand under ``f``, in the order they ended (the index
        ``(player_id, ended_s, hand_id)`` gives them in order, without a sort)."""
        if not self.db.is_sqlite:  # (two arrays in one row: PostgreSQL hands over 100,000 rows slowly)
            times = func.array_agg(aggregate_order_by(F.ended_s, F.ended_s, F.hand_id))
            nets = func.array_agg(aggregate_order_by(F.net, F.ended_s, F.hand_id))
            arrays = select(times, nets).where(*f.where(player_id))
            async with self.db.read() as conn:
                ts, ns = (await conn.execute(arrays)).one()
            return list(zip(ts or (), ns or (), strict=True))
        q = select(F.ended_s, F.net).where(*f.where(player_id)).order_by(F.ended_s, F.hand_id)
        rows = await self._read(lambda conn: conn.execute(q).all())
        return [(int(t), int(net)) for t, net in rows]
