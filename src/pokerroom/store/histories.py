"""Hand histories: the full PHH for audit, each player's own view, paging and the export files."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import CompoundSelect, insert, literal, select, union_all
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.db import Database
from pokerroom.store.errors import HandNotOpen, InvalidRecord, UnknownHand
from pokerroom.store.later_views import write_later_views
from pokerroom.store.models import (
    HandHistoryRow,
    HandRow,
    HandSeatRow,
    PlayerHandRow,
    TournamentHandRow,
    TournamentPlayerHandRow,
)
from pokerroom.store.numbers import HandNumbers, hand_number_in
from pokerroom.store.prepared import prebuilt
from pokerroom.store.util import Clock, utc_now


@dataclass(frozen=True)
class PlayerView:
    """One player's own history of a hand, made upstream by the history layer: a PHH document (flat
    TOML) and a PokerStars-style text. It shows only what that player may see."""

    phh: str = field(repr=False)
    pokerstars: str = field(repr=False)


@dataclass(frozen=True)
class HandHistory:
    """The full PHH of a hand (every hole card: audit only, never for players) and the per-player views,
    keyed by player id, one for each player dealt in.

    ``numbered``, when given, makes the views once the store has numbered the hand: it is called with the
    :class:`~pokerroom.store.numbers.HandNumbers` assigned in the transaction that stores the history, and
    its views are stored instead of ``views`` (the PokerStars-format text carries the global number).

    ``seats`` (player id -> seat) names players whose views are written **later**, from ``full_phh``, the
    first time each asks for the hand (:mod:`pokerroom.history.views`; what the server does: writing every
    player's copies at every hand's end cost a tenth of its CPU, docs/server-speed.md). The hand is
    numbered when it is stored all the same, so the numbers follow the order in which hands end."""

    full_phh: str = field(repr=False)
    views: Mapping[int, PlayerView] = field(repr=False)
    numbered: Callable[[HandNumbers], Mapping[int, PlayerView]] | None = field(
        default=None, repr=False, compare=False
    )
    seats: Mapping[int, int] = field(default_factory=dict, repr=False)

    def numbered_views(self, numbers: HandNumbers) -> HandHistory:
        """This history with the views made for ``numbers`` (itself when it has no ``numbered``)."""
        if self.numbered is None:
            return self
        return HandHistory(self.full_phh, self.numbered(numbers), seats=self.seats)


@dataclass(frozen=True)
class PlayerHand:
    hand_id: str
    table_id: str
    game: str
    ended_at: datetime
    phh: str = field(repr=False)
    pokerstars: str = field(repr=False)


def format_phhs(documents: Sequence[str]) -> str:
    """Join single-hand PHH documents into one ``.phhs`` file: hand N's key/value lines under ``[N]``."""
    parts = []
    for n, doc in enumerate(documents, 1):
        body = doc.strip("\n")
        parts.append(f"[{n}]\n{body}\n" if body else f"[{n}]\n")
    return "\n".join(parts)


def format_pokerstars(texts: Sequence[str]) -> str:
    """Join PokerStars-style hand texts into one file, hands separated by two blank lines."""
    hands = [t.strip("\n") for t in texts if t.strip()]
    return "\n\n\n".join(hands) + "\n" if hands else ""


def check_history(history: HandHistory) -> None:
    if not isinstance(history.full_phh, str) or not history.full_phh.strip():
        raise InvalidRecord("the full PHH of a hand is a non-empty string")
    for pid, seat in history.seats.items():
        if any(isinstance(x, bool) or not isinstance(x, int) for x in (pid, seat)) or pid in history.views:
            raise InvalidRecord("history seats map player ids (int) without a view to seats (int)")
    for pid, view in history.views.items():
        if isinstance(pid, bool) or not isinstance(pid, int):
            raise InvalidRecord("history views are keyed by player id (int)")
        if (
            not isinstance(view, PlayerView)
            or not isinstance(view.phh, str)
            or not isinstance(view.pokerstars, str)
        ):
            raise InvalidRecord("a player view is a PlayerView of two strings")


_INSERT_HISTORY = prebuilt(insert(HandHistoryRow))  # (built once: see store/journal.py)
_INSERT_VIEWS = prebuilt(insert(PlayerHandRow))


async def insert_history(
    conn: AsyncConnection,
    hand_id: str,
    history: HandHistory,
    dealt_in: set[int],
    ended_at: datetime,
    now: datetime,
) -> None:
    """Store a hand's histories on an open write transaction (used by the journal's end record); a
    history with ``numbered`` views, or with views written later (``seats``), gets the hand's global
    number first, in the same transaction."""
    if history.numbered is not None:
        history = history.numbered_views(HandNumbers(await hand_number_in(conn, hand_id)))
    elif history.seats:
        await hand_number_in(conn, hand_id)
    check_history(history)
    strangers = (set(history.views) | set(history.seats)) - dealt_in
    if strangers:
        raise InvalidRecord(f"history views for players not dealt in: {sorted(strangers)}")
    try:
        await conn.execute(
            _INSERT_HISTORY, {"hand_id": hand_id, "full_phh": history.full_phh, "stored_at": now}
        )
    except IntegrityError:
        raise InvalidRecord(f"hand {hand_id!r} already has a history") from None
    rows = view_rows(hand_id, history, ended_at)
    if rows:
        await conn.execute(_INSERT_VIEWS, rows)


def view_rows(hand_id: str, history: HandHistory, ended_at: datetime) -> list[dict[str, Any]]:
    """The rows of a hand's players' views: written ones, and those to be written later (no texts yet)."""
    rows: dict[int, dict[str, Any]] = {}
    for pid, v in history.views.items():
        rows[pid] = {"seat": None, "phh": v.phh, "pokerstars": v.pokerstars}
    for pid, seat in history.seats.items():
        rows[pid] = {"seat": seat, "phh": None, "pokerstars": None}
    return [{"player_id": pid, "hand_id": hand_id, "ended_at": ended_at, **rows[pid]} for pid in sorted(rows)]


class HandHistories:
    """Read and store hand histories. Player-facing reads return only that player's own views; the full
    PHH comes only from :meth:`audit_phh`."""

    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.clock = clock

    async def store(self, hand_id: str, history: HandHistory, *, now: datetime | None = None) -> None:
        """Store the histories of an ended hand (when they were not given with its end record)."""
        now = now or self.clock()
        async with self.db.write() as conn:
            hand = (
                await conn.execute(select(HandRow.status, HandRow.ended_at).where(HandRow.id == hand_id))
            ).one_or_none()
            if hand is None:
                raise UnknownHand(hand_id)
            if hand.status != "ended" or hand.ended_at is None:
                raise (
                    HandNotOpen(hand_id, hand.status)
                    if hand.status == "cancelled"
                    else InvalidRecord(f"hand {hand_id!r} has not ended yet")
                )
            dealt = set(
                (
                    await conn.execute(select(HandSeatRow.player_id).where(HandSeatRow.hand_id == hand_id))
                ).scalars()
            )
            await insert_history(conn, hand_id, history, dealt, hand.ended_at, now)

    async def player_hands(self, player_id: int, *, limit: int = 50, offset: int = 0) -> list[PlayerHand]:
        """A player's own hand histories (cash and tournament hands), newest first, ``limit`` per page from
        ``offset``."""
        if limit < 1 or limit > 1000 or offset < 0:
            raise InvalidRecord("page: 1 <= limit <= 1000 and offset >= 0")
        both = _own_hands(player_id).subquery()
        q = select(both).order_by(both.c.ended_at.desc(), both.c.hand_id.desc()).limit(limit).offset(offset)
        async with self.db.read() as conn:
            rows = (await conn.execute(q)).all()
        return await self._written(player_id, rows)

    async def player_hand(self, player_id: int, hand_id: str) -> PlayerHand:
        """One hand as that player saw it (UnknownHand if he was not dealt in)."""
        both = _own_hands(player_id, hand_id).subquery()
        async with self.db.read() as conn:
            row = (await conn.execute(select(both))).first()
        if row is None:
            raise UnknownHand(hand_id)
        return (await self._written(player_id, [row]))[0]

    async def _player_texts(self, player_id: int, column: str) -> list[str]:
        both = _own_hands(player_id).subquery()
        q = select(both).order_by(both.c.ended_at, both.c.hand_id)
        async with self.db.read() as conn:
            rows = (await conn.execute(q)).all()
        hands = await self._written(player_id, rows)
        return [h.phh if column == "phh" else h.pokerstars for h in hands]

    async def export_phhs(self, player_id: int) -> str:
        """All of a player's hands, oldest first, as one ``.phhs`` file."""
        return format_phhs(await self._player_texts(player_id, "phh"))

    async def export_pokerstars(self, player_id: int) -> str:
        """All of a player's hands, oldest first, as one PokerStars-style text file."""
        return format_pokerstars(await self._player_texts(player_id, "pokerstars"))

    async def _written(self, player_id: int, rows: Sequence[Any]) -> list[PlayerHand]:
        """The player's hands, with the copies not written yet written now (and kept)."""
        texts = await write_later_views(self.db, player_id, [r for r in rows if r.phh is None])
        return [
            PlayerHand(
                r.hand_id, r.table_id, r.game, r.ended_at, *texts.get(r.hand_id, (r.phh, r.pokerstars))
            )
            for r in rows
        ]

    async def audit_phh(self, hand_id: str) -> str:
        """The full PHH of a hand (cash or tournament), with every hole card. For audit by the operator
        only."""
        async with self.db.read() as conn:
            text = (
                await conn.execute(select(HandHistoryRow.full_phh).where(HandHistoryRow.hand_id == hand_id))
            ).scalar_one_or_none()
            if text is None:
                text = (
                    await conn.execute(
                        select(TournamentHandRow.full_phh).where(TournamentHandRow.id == hand_id)
                    )
                ).scalar_one_or_none()
        if text is None:
            raise UnknownHand(hand_id)
        return str(text)


def _own_hands(player_id: int, hand_id: str | None = None) -> CompoundSelect[Any]:
    """A player's own views of cash hands and of tournament hands (kept apart: tournament hands are not
    journaled), as one selectable of :class:`PlayerHand` columns, his seat and the kind of hand."""
    cash = (
        select(
            PlayerHandRow.hand_id,
            HandRow.table_id,
            HandRow.game,
            PlayerHandRow.ended_at,
            PlayerHandRow.phh,
            PlayerHandRow.pokerstars,
            PlayerHandRow.seat,
            literal(False).label("tournament"),
        )
        .join(HandRow, HandRow.id == PlayerHandRow.hand_id)
        .where(PlayerHandRow.player_id == player_id)
    )
    tournament = (
        select(
            TournamentPlayerHandRow.hand_id,
            TournamentHandRow.table_id,
            TournamentHandRow.game,
            TournamentPlayerHandRow.ended_at,
            TournamentPlayerHandRow.phh,
            TournamentPlayerHandRow.pokerstars,
            TournamentPlayerHandRow.seat,
            literal(True).label("tournament"),
        )
        .join(TournamentHandRow, TournamentHandRow.id == TournamentPlayerHandRow.hand_id)
        .where(TournamentPlayerHandRow.player_id == player_id)
    )
    if hand_id is not None:
        cash = cash.where(PlayerHandRow.hand_id == hand_id)
        tournament = tournament.where(TournamentPlayerHandRow.hand_id == hand_id)
    return union_all(cash, tournament)
