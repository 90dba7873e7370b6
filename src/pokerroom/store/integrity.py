"""Game integrity (issue 30): where players come from, and the operators' notes on accounts.

Every login is kept (``login_history``): when, the client address (as the server saw it through the
proxy it trusts: docs/security.md), the browser's device id (a long-lived first-party cookie) and its user
agent. Rows older than the room's retention period are pruned (:meth:`Logins.prune`, run at each login).
Two accounts are *linked* when their kept logins share an address or a device: the console shows the
links, and a room option keeps linked players from one table (server/integrity/seating.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson
from sqlalchemy import BigInteger, ForeignKey, Index, String, Text, delete, func, insert, or_, select
from sqlalchemy.orm import Mapped, aliased, mapped_column

from pokerroom.store.db import Database
from pokerroom.store.errors import InvalidRecord
from pokerroom.store.models import (
    Base,
    BigId,
    HandCommandRow,
    HandHistoryRow,
    HandRow,
    HandSeatRow,
    PlayerRow,
    TournamentHandRow,
    TournamentRow,
    UTCDateTime,
)
from pokerroom.store.util import Clock, utc_now

__all__ = [
    "AuditHands",
    "HandState",
    "HandTimes",
    "Link",
    "LoginRecord",
    "LoginRow",
    "Logins",
    "Note",
    "Notes",
    "Shared",
]

ADDRESS_MAX = 64  # an IPv6 address with a zone, or "unknown"
DEVICE_MAX = 64
AGENT_MAX = 256  # a longer user agent is cut


class LoginRow(Base):
    """One login of an account: when, from which address and device, with which browser."""

    __tablename__ = "login_history"
    __table_args__ = (
        Index("ix_login_history_player_at", "player_id", "at"),
        Index("ix_login_history_address", "address"),
        Index("ix_login_history_device", "device"),
        Index("ix_login_history_at", "at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    address: Mapped[str] = mapped_column(String(ADDRESS_MAX))
    device: Mapped[str | None] = mapped_column(String(DEVICE_MAX))
    user_agent: Mapped[str | None] = mapped_column(String(AGENT_MAX))


@dataclass(frozen=True)
class LoginRecord:
    id: int
    player_id: int
    at: datetime
    address: str
    device: str | None
    user_agent: str | None


@dataclass(frozen=True)
class Link:
    """Another account that shares an address or a device with the one asked about (in the kept logins)."""

    player_id: int
    name: str
    addresses: tuple[str, ...]  # the shared addresses
    devices: tuple[str, ...]  # the shared device ids
    last_seen: datetime  # the other account's last login from a shared address or device


@dataclass(frozen=True)
class Shared:
    """An address or a device that several accounts logged in from (in the kept logins)."""

    kind: str  # "address" | "device"
    value: str
    players: tuple[tuple[int, str], ...]  # (id, name) of each account, by name
    last_seen: datetime


def _record(r: Any) -> LoginRecord:
    return LoginRecord(r.id, r.player_id, r.at, r.address, r.device, r.user_agent)


class Logins:
    """The login history (``store.logins``)."""

    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.clock = clock

    async def record(
        self,
        player_id: int,
        address: str,
        device: str | None,
        user_agent: str | None,
        *,
        keep: timedelta | None = None,
    ) -> LoginRecord:
        """Keep one login (now); with ``keep``, prune every login older than that first."""
        if not address or len(address) > ADDRESS_MAX:
            raise InvalidRecord(f"a login's address has 1 to {ADDRESS_MAX} characters")
        if device is not None and not 0 < len(device) <= DEVICE_MAX:
            raise InvalidRecord(f"a device id has 1 to {DEVICE_MAX} characters")
        agent = user_agent[:AGENT_MAX] if user_agent else None
        now = self.clock()
        async with self.db.write() as conn:
            if keep is not None:
                await conn.execute(delete(LoginRow).where(LoginRow.at < now - keep))
            got = await conn.execute(
                insert(LoginRow)
                .values(player_id=player_id, at=now, address=address, device=device, user_agent=agent)
                .returning(LoginRow.id)
            )
            row_id = int(got.scalar_one())
        return LoginRecord(row_id, player_id, now, address, device, agent)

    async def prune(self, keep: timedelta) -> int:
        """Delete the logins older than ``keep``; how many went."""
        async with self.db.write() as conn:
            got = await conn.execute(delete(LoginRow).where(LoginRow.at < self.clock() - keep))
        return int(got.rowcount or 0)

    async def history(self, player_id: int, *, limit: int = 200) -> list[LoginRecord]:
        """The account's kept logins, newest first."""
        async with self.db.read() as conn:
            rows = (
                await conn.execute(
                    select(LoginRow)
                    .where(LoginRow.player_id == player_id)
                    .order_by(LoginRow.at.desc(), LoginRow.id.desc())
                    .limit(limit)
                )
            ).all()
            return [_record(r) for r in rows]

    async def links(self, player_id: int) -> list[Link]:
        """The other accounts whose kept logins share an address or a device with this account's, the most
        recently seen first."""
        return (await self.links_of([player_id])).get(player_id, [])

    async def links_of(self, player_ids: Iterable[int]) -> dict[int, list[Link]]:
        """:meth:`links` of several accounts at once."""
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        mine = aliased(LoginRow)
        other = aliased(LoginRow)
        same_address = mine.address == other.address
        same_device = (mine.device == other.device) & mine.device.is_not(None)
        query = (
            select(
                mine.player_id,
                other.player_id,
                PlayerRow.name,
                other.address,
                other.device,
                same_address,
                same_device,
                func.max(other.at),
            )
            .join(other, or_(same_address, same_device) & (other.player_id != mine.player_id))
            .join(PlayerRow, PlayerRow.id == other.player_id)
            .where(mine.player_id.in_(ids))
            .group_by(
                mine.player_id,
                other.player_id,
                PlayerRow.name,
                other.address,
                other.device,
                same_address,
                same_device,
            )
        )
        async with self.db.read() as conn:
            rows = (await conn.execute(query)).all()
        found: dict[tuple[int, int], tuple[str, set[str], set[str], datetime]] = {}
        for me, pid, name, address, device, by_address, by_device, last in rows:
            _, addresses, devices, seen = found.get((me, pid), (name, set(), set(), last))
            if by_address:
                addresses.add(address)
            if by_device and device is not None:
                devices.add(device)
            found[(me, pid)] = (name, addresses, devices, max(seen, last))
        out: dict[int, list[Link]] = {}
        for (me, pid), (name, addresses, devices, seen) in found.items():
            link = Link(pid, name, tuple(sorted(addresses)), tuple(sorted(devices)), seen)
            out.setdefault(me, []).append(link)
        for links in out.values():
            links.sort(key=lambda k: (k.last_seen, k.player_id), reverse=True)
        return out

    async def linked_among(self, player_id: int, others: Iterable[int]) -> list[int]:
        """Which of ``others`` share an address or a device with ``player_id`` (in the kept logins)."""
        wanted = set(others) - {player_id}
        if not wanted:
            return []
        return sorted(k.player_id for k in await self.links(player_id) if k.player_id in wanted)

    async def shared(self, *, limit: int = 100) -> list[Shared]:
        """The addresses and devices several accounts logged in from, the most recently used first."""
        out: list[Shared] = []
        async with self.db.read() as conn:
            columns: tuple[tuple[str, Any], ...] = (
                ("address", LoginRow.address),
                ("device", LoginRow.device),
            )
            for kind, column in columns:
                groups = (
                    await conn.execute(
                        select(column, func.max(LoginRow.at))
                        .where(column.is_not(None))
                        .group_by(column)
                        .having(func.count(func.distinct(LoginRow.player_id)) > 1)
                        .order_by(func.max(LoginRow.at).desc(), column)
                        .limit(limit)
                    )
                ).all()
                values: list[str] = [g[0] for g in groups]
                members: dict[str, set[tuple[int, str]]] = {v: set() for v in values}
                if values:
                    rows = await conn.execute(
                        select(column, PlayerRow.id, PlayerRow.name)
                        .join(PlayerRow, PlayerRow.id == LoginRow.player_id)
                        .where(column.in_(values))
                        .distinct()
                    )
                    for value, pid, name in rows:
                        members[value].add((pid, name))
                for group in groups:
                    value, last = str(group[0]), group[1]
                    players = tuple(sorted(members[value], key=lambda m: (m[1], m[0])))
                    out.append(Shared(kind, value, players, last))
        out.sort(key=lambda x: (x.last_seen, x.kind, x.value), reverse=True)
        return out[:limit]


class NoteRow(Base):
    """An operator's note on an account (issue 30): who wrote what, when. Notes are never changed."""

    __tablename__ = "account_notes"
    __table_args__ = (Index("ix_account_notes_player_at", "player_id", "at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    author_id: Mapped[int | None] = mapped_column(BigInteger)
    author_name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)


NOTE_MAX = 2000


@dataclass(frozen=True)
class Note:
    id: int
    player_id: int
    at: datetime
    author_id: int | None
    author_name: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at.isoformat(),
            "author": {"id": self.author_id, "name": self.author_name},
            "text": self.text,
        }


class Notes:
    """Operators' notes on accounts (``store.notes``): added, never changed or removed."""

    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.clock = clock

    async def add(self, player_id: int, author_id: int | None, author_name: str, text: str) -> Note:
        clean = text.strip()
        if not clean or len(clean) > NOTE_MAX:
            raise InvalidRecord(f"a note has 1 to {NOTE_MAX} characters")
        now = self.clock()
        async with self.db.write() as conn:
            got = await conn.execute(
                insert(NoteRow)
                .values(player_id=player_id, at=now, author_id=author_id, author_name=author_name, text=clean)
                .returning(NoteRow.id)
            )
            note_id = int(got.scalar_one())
        return Note(note_id, player_id, now, author_id, author_name, clean)

    async def of(self, player_id: int) -> list[Note]:
        """The account's notes, newest first."""
        q = (
            select(NoteRow)
            .where(NoteRow.player_id == player_id)
            .order_by(NoteRow.at.desc(), NoteRow.id.desc())
        )
        async with self.db.read() as conn:
            rows = (await conn.execute(q)).all()
        return [Note(r.id, r.player_id, r.at, r.author_id, r.author_name, r.text) for r in rows]


class HandTimes:
    """Decision times read from the hand journal (``store.hand_times``), for the bot detector
    (server/integrity/timing.py)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def decisions(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> dict[int, list[tuple[str, float]]]:
        """Per player, ``(hand id, seconds)`` of each decision in the cash and Rush hands that ended
        (started in [since, until)): the time from the previous command of the hand (or the hand's start)
        to his. A timeout is no decision (the server issued it); neither is the command after it."""
        hands = select(HandRow.id, HandRow.started_at).where(HandRow.status == "ended")
        if since is not None:
            hands = hands.where(HandRow.started_at >= since)
        if until is not None:
            hands = hands.where(HandRow.started_at < until)
        chosen = hands.subquery()
        commands = (
            select(chosen.c.id, chosen.c.started_at, HandCommandRow.command, HandCommandRow.recorded_at)
            .join(HandCommandRow, HandCommandRow.hand_id == chosen.c.id)
            .order_by(chosen.c.id, HandCommandRow.seq)
        )
        seats = select(HandSeatRow.hand_id, HandSeatRow.seat, HandSeatRow.player_id).join(
            chosen, chosen.c.id == HandSeatRow.hand_id
        )
        out: dict[int, list[tuple[str, float]]] = {}
        async with self.db.read() as conn:
            who = {(r.hand_id, r.seat): r.player_id for r in await conn.execute(seats)}
            hand = ""
            before: datetime | None = None
            for hand_id, started, body, at in await conn.execute(commands):
                if hand_id != hand:
                    hand, before = hand_id, started
                command = _command(body)  # (a day's journal: millions of commands)
                seat, kind = command.get("seat"), command.get("type")
                player = who.get((hand_id, seat))
                if kind != "timeout" and player is not None and before is not None:  # (one id string a hand)
                    out.setdefault(player, []).append((hand, max(0.0, (at - before).total_seconds())))
                before = None if kind == "timeout" else at
        return out

    async def names(self, player_ids: Iterable[int]) -> dict[int, str]:
        """The accounts' names, by id (the report names the players its id-keyed findings name)."""
        ids = sorted(set(player_ids))
        out: dict[int, str] = {}
        async with self.db.read() as conn:
            for chunk in range(0, len(ids), 500):
                q = select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(ids[chunk : chunk + 500]))
                out.update({int(i): str(n) for i, n in await conn.execute(q)})
        return out

    async def pool_hands(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> list[tuple[str, str, datetime, tuple[int, ...]]]:
        """``(hand id, pool, start, the accounts dealt in)`` of each Rush hand that ended (started in
        [since, until)), oldest first (the Rush detector: server/integrity/rush.py)."""
        hands = select(HandRow.id, HandRow.pool_id, HandRow.started_at).where(
            HandRow.status == "ended", HandRow.pool_id.is_not(None)
        )
        if since is not None:
            hands = hands.where(HandRow.started_at >= since)
        if until is not None:
            hands = hands.where(HandRow.started_at < until)
        chosen = hands.subquery()
        query = (
            select(chosen.c.id, chosen.c.pool_id, chosen.c.started_at, HandSeatRow.player_id)
            .join(HandSeatRow, HandSeatRow.hand_id == chosen.c.id)
            .order_by(chosen.c.started_at, chosen.c.id, HandSeatRow.seat)
        )
        out: list[tuple[str, str, datetime, tuple[int, ...]]] = []
        async with self.db.read() as conn:
            current: tuple[str, str, datetime] | None = None
            players: list[int] = []
            for hand_id, pool_id, started, player in await conn.execute(query):
                if current is None or current[0] != hand_id:
                    if current is not None:
                        out.append((*current, tuple(players)))
                    current, players = (str(hand_id), str(pool_id), started), []
                players.append(int(player))
            if current is not None:
                out.append((*current, tuple(players)))
        return out

    async def played(
        self, *, since: datetime | None = None, until: datetime | None = None
    ) -> dict[int, list[tuple[str, datetime, datetime]]]:
        """Per player, ``(hand id, start, end)`` of each cash and Rush hand he was dealt in that ended
        (started in [since, until)), in time order (the session detector: server/integrity/timing.py).
        Tournament hands are not read: a tournament's hours are its schedule's (an honest deep run in a
        long tournament plays on for ten hours and more), not the player's choice."""
        cash = (
            select(HandSeatRow.player_id, HandRow.id, HandRow.started_at, HandRow.ended_at)
            .join(HandRow, HandRow.id == HandSeatRow.hand_id)
            .where(HandRow.status == "ended")
        )
        if since is not None:
            cash = cash.where(HandRow.started_at >= since)
        if until is not None:
            cash = cash.where(HandRow.started_at < until)
        out: dict[int, list[tuple[str, datetime, datetime]]] = {}
        async with self.db.read() as conn:
            for pid, hand_id, started, ended in await conn.execute(cash):
                out.setdefault(int(pid), []).append((str(hand_id), started, ended or started))
        for hands in out.values():
            hands.sort(key=lambda h: (h[1], h[0]))
        return out


@dataclass(frozen=True)
class HandState:
    """Whether a stored hand is over, for the console's replayer: a cash or Rush hand (``tournament_id``
    None) that ended, or a hand of a tournament that finished or was cancelled."""

    tournament_id: str | None
    over: bool


class AuditHands:
    """The audit PHH of the hands of a period (``store.audit_hands``), for the collusion and chip-dumping
    detectors (server/integrity/dumping.py). Read only; every hole card is in them: for the operator."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def state(self, hand_id: str) -> HandState | None:
        """Whether the hand is over (:class:`HandState`); None for no hand of this id (cash or tournament)."""
        async with self.db.read() as conn:
            status = (
                await conn.execute(select(HandRow.status).where(HandRow.id == hand_id))
            ).scalar_one_or_none()
            if status is not None:
                return HandState(None, status == "ended")
            tid = (
                await conn.execute(
                    select(TournamentHandRow.tournament_id).where(TournamentHandRow.id == hand_id)
                )
            ).scalar_one_or_none()
            if tid is None:
                return None
            tstatus = (
                await conn.execute(select(TournamentRow.status).where(TournamentRow.id == tid))
            ).scalar_one_or_none()
        return HandState(str(tid), tstatus in ("finished", "cancelled"))

    async def since(
        self, since: datetime | None = None, *, until: datetime | None = None, tournaments: bool = True
    ) -> list[tuple[str, str]]:
        """``(hand id, full PHH)`` of the cash and Rush hands that ended (started in [since, until)) and,
        with ``tournaments``, of the tournament hands that ended in it; oldest first."""
        cash = (
            select(HandRow.id, HandHistoryRow.full_phh)
            .join(HandHistoryRow, HandHistoryRow.hand_id == HandRow.id)
            .where(HandRow.status == "ended")
            .order_by(HandRow.started_at, HandRow.id)
        )
        if since is not None:
            cash = cash.where(HandRow.started_at >= since)
        if until is not None:
            cash = cash.where(HandRow.started_at < until)
        cup = select(TournamentHandRow.id, TournamentHandRow.full_phh).order_by(
            TournamentHandRow.ended_at, TournamentHandRow.id
        )
        if since is not None:
            cup = cup.where(TournamentHandRow.ended_at >= since)
        if until is not None:
            cup = cup.where(TournamentHandRow.ended_at < until)
        async with self.db.read() as conn:
            out = [(str(h), str(t)) for h, t in await conn.execute(cash)]
            if tournaments:
                out += [(str(h), str(t)) for h, t in await conn.execute(cup)]
        return out

    async def pages(
        self,
        since: datetime | None = None,
        *,
        until: datetime | None = None,
        tournaments: bool = True,
        size: int = 1000,
    ) -> AsyncIterator[list[tuple[str, str]]]:
        """The hands of :meth:`since`, in its order, ``size`` at a time: each page one short read (keyed
        on the last hand's time and id, on the periods' indexes), so a day's report never holds the
        whole day's texts (issue 30: about 8 kB a hand, with its deck proof). Each page is a read of its
        own, not one snapshot: a hand that ends while the pages are read is read if its place (its start,
        or a tournament hand's end) is still ahead of the pages read; one whose place was passed is not
        (as :meth:`since` read only what had ended when it ran)."""
        if size < 1:
            raise ValueError("a page holds at least one hand")
        cash = (
            select(HandRow.id, HandRow.started_at, HandHistoryRow.full_phh)
            .join(HandHistoryRow, HandHistoryRow.hand_id == HandRow.id)
            .where(HandRow.status == "ended")
            .order_by(HandRow.started_at, HandRow.id)
            .limit(size)
        )
        cup = (
            select(TournamentHandRow.id, TournamentHandRow.ended_at, TournamentHandRow.full_phh)
            .order_by(TournamentHandRow.ended_at, TournamentHandRow.id)
            .limit(size)
        )
        if since is not None:
            cash = cash.where(HandRow.started_at >= since)
            cup = cup.where(TournamentHandRow.ended_at >= since)
        if until is not None:
            cash = cash.where(HandRow.started_at < until)
            cup = cup.where(TournamentHandRow.ended_at < until)
        kinds = [(cash, HandRow.started_at, HandRow.id)]
        if tournaments:
            kinds.append((cup, TournamentHandRow.ended_at, TournamentHandRow.id))
        for query, at, key in kinds:
            after: tuple[datetime, str] | None = None
            while True:
                q = query
                if after is not None:  # past the last hand read: a later time, or the same and a later id
                    q = q.where(at >= after[0], or_(at > after[0], key > after[1]))
                async with self.db.read() as conn:
                    rows = (await conn.execute(q)).all()
                if rows:
                    yield [(str(h), str(t)) for h, _, t in rows]
                    after = (rows[-1][1], str(rows[-1][0]))
                if len(rows) < size:
                    break


def _command(body: str) -> Any:
    """A journal command's JSON: orjson's reading (quick), or the standard library's for what only it
    takes (the journal checks its commands with ``json``: NaN, integers past 64 bits)."""
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return json.loads(body)
