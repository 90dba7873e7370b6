"""Game integrity (issue 30): chat kept civil. The chat log of every table (``chat_log``: what was typed
and what was shown after the word filter), the word filter the operator edits (``chat_words``), mutes
(``chat_mutes``: a player's for himself, or the operator's for everyone, for a time, with a reason), and
players' reports of a chat line or a hand to the operator (``integrity_reports``). The log keeps a line
``[integrity] chat_log_days`` (:meth:`ChatStore.prune`), a reported line as long as its report."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    Text,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from pokerroom.store.db import Database
from pokerroom.store.errors import InvalidRecord
from pokerroom.store.models import Base, BigId, PlayerRow, UTCDateTime
from pokerroom.store.util import Clock, utc_now

__all__ = ["ChatLine", "ChatStore", "Mute", "Report"]

WORD_MAX = 64
WORDS_MAX = 500
REPORT_KINDS = ("chat", "hand")
PRUNE_BATCH = 5000  # chat lines deleted a statement (a transaction) by the prune


class ChatLineRow(Base):
    """One chat line a player said at a table."""

    __tablename__ = "chat_log"
    __table_args__ = (
        Index("ix_chat_log_table_at", "table_id", "at"),
        Index("ix_chat_log_player_at", "player_id", "at"),
        Index("ix_chat_log_at", "at"),  # the prune (revision 0025)
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    table_id: Mapped[str] = mapped_column(String(128))
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)  # as typed (printable, escaped)
    shown: Mapped[str] = mapped_column(Text)  # as the table saw it (the word filter applied)


class ChatWordRow(Base):
    """A word of the chat filter."""

    __tablename__ = "chat_words"

    word: Mapped[str] = mapped_column(String(WORD_MAX), primary_key=True)
    added_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ChatMuteRow(Base):
    """A mute: ``owner_id`` muted ``muted_id`` for himself, or (``owner_id`` NULL) the operator muted him
    for everyone until ``until`` (NULL: until lifted)."""

    __tablename__ = "chat_mutes"
    __table_args__ = (
        Index("ix_chat_mutes_muted_id", "muted_id"),
        Index("ix_chat_mutes_owner_id", "owner_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    owner_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("players.id"))
    muted_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    reason: Mapped[str | None] = mapped_column(Text)
    by_name: Mapped[str] = mapped_column(String(40))


class ReportRow(Base):
    """A player's report of a chat line or a hand to the operator."""

    __tablename__ = "integrity_reports"
    __table_args__ = (
        CheckConstraint("kind IN ('chat', 'hand')", name="kind"),
        CheckConstraint("status IN ('open', 'closed')", name="status"),
        Index("ix_integrity_reports_status", "status"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    reporter_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(8))
    table_id: Mapped[str | None] = mapped_column(String(128))
    line_id: Mapped[int | None] = mapped_column(BigInteger)
    hand_id: Mapped[str | None] = mapped_column(String(128))
    reason: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(8))
    closed_by: Mapped[str | None] = mapped_column(String(40))
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


@dataclass(frozen=True)
class ChatLine:
    id: int
    at: datetime
    table_id: str
    player_id: int
    name: str
    text: str
    shown: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at.isoformat(),
            "table": self.table_id,
            "player": {"id": self.player_id, "name": self.name},
            "text": self.text,
            "shown": self.shown,
        }


@dataclass(frozen=True)
class Mute:
    id: int
    owner_id: int | None  # None: the operator's, for everyone
    muted_id: int
    muted_name: str
    at: datetime
    until: datetime | None
    reason: str | None
    by_name: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "player": {"id": self.muted_id, "name": self.muted_name},
            "at": self.at.isoformat(),
            "until": None if self.until is None else self.until.isoformat(),
            "reason": self.reason,
            "by": self.by_name,
        }


@dataclass(frozen=True)
class Report:
    id: int
    at: datetime
    reporter_id: int
    reporter_name: str
    kind: str
    table_id: str | None
    line: ChatLine | None
    hand_id: str | None
    reason: str
    status: str
    closed_by: str | None
    closed_at: datetime | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at.isoformat(),
            "reporter": {"id": self.reporter_id, "name": self.reporter_name},
            "kind": self.kind,
            "table": self.table_id,
            "line": None if self.line is None else self.line.to_dict(),
            "hand": self.hand_id,
            "reason": self.reason,
            "status": self.status,
            "closed_by": self.closed_by,
            "closed_at": None if self.closed_at is None else self.closed_at.isoformat(),
        }


def _line(r: Any) -> ChatLine:
    return ChatLine(r.id, r.at, r.table_id, r.player_id, r.name, r.text, r.shown)


def normalize_words(words: list[str]) -> list[str]:
    """The filter's words: trimmed, lower-case, no blanks or repeats, sorted; InvalidRecord when one is
    too long, has a space inside, or there are too many."""
    out = sorted({w.strip().lower() for w in words if w.strip()})
    if len(out) > WORDS_MAX:
        raise InvalidRecord(f"at most {WORDS_MAX} words")
    for w in out:
        if len(w) > WORD_MAX or any(ch.isspace() for ch in w) or not w.isprintable():
            raise InvalidRecord(f"a filtered word is one word of at most {WORD_MAX} printable characters")
    return out


class ChatStore:
    """``store.chat``."""

    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.clock = clock

    # ------------------------------------------------------------------------------- the log

    async def record(self, table_id: str, player_id: int, name: str, text: str, shown: str) -> ChatLine:
        now = self.clock()
        async with self.db.write() as conn:
            got = await conn.execute(
                insert(ChatLineRow)
                .values(at=now, table_id=table_id, player_id=player_id, name=name, text=text, shown=shown)
                .returning(ChatLineRow.id)
            )
            line_id = int(got.scalar_one())
        return ChatLine(line_id, now, table_id, player_id, name, text, shown)

    async def prune(self, keep: timedelta, *, batch: int = PRUNE_BATCH) -> int:
        """Delete the lines older than ``keep`` (``[integrity] chat_log_days``), except those a player
        reported (kept with their report), ``batch`` lines a transaction (the oldest first: the tables'
        writes wait for one batch at most); how many went."""
        if batch < 1:
            raise ValueError("a batch has at least one line")
        reported = select(ReportRow.line_id).where(ReportRow.line_id.is_not(None))
        before = self.clock() - keep
        gone = 0
        while True:
            chosen = (
                select(ChatLineRow.id)
                .where(ChatLineRow.at < before, ChatLineRow.id.not_in(reported))
                .order_by(ChatLineRow.at, ChatLineRow.id)
                .limit(batch)
            )
            async with self.db.write() as conn:
                ids = [int(r[0]) for r in await conn.execute(chosen)]
                if ids:
                    await conn.execute(delete(ChatLineRow).where(ChatLineRow.id.in_(ids)))
            gone += len(ids)
            if len(ids) < batch:
                return gone

    async def line(self, line_id: int) -> ChatLine | None:
        async with self.db.read() as conn:
            row = (await conn.execute(select(ChatLineRow).where(ChatLineRow.id == line_id))).first()
        return None if row is None else _line(row)

    async def search(
        self,
        *,
        table: str | None = None,
        player: str | None = None,
        text: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[ChatLine]:
        """Lines, newest first: at ``table``, of the player named ``player`` (exactly, any case), whose
        typed text contains ``text`` (any case)."""
        q = select(ChatLineRow)
        if table:
            q = q.where(ChatLineRow.table_id == table)
        if player:
            q = q.where(func.lower(ChatLineRow.name) == player.lower())
        if text:
            escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            q = q.where(func.lower(ChatLineRow.text).like(f"%{escaped}%", escape="\\"))
        q = q.order_by(ChatLineRow.id.desc()).limit(limit).offset(offset)
        async with self.db.read() as conn:
            return [_line(r) for r in (await conn.execute(q)).all()]

    # ------------------------------------------------------------------------------- the filter

    async def words(self) -> list[str]:
        async with self.db.read() as conn:
            return [r[0] for r in (await conn.execute(select(ChatWordRow.word).order_by(ChatWordRow.word)))]

    async def set_words(self, words: list[str]) -> tuple[list[str], list[str]]:
        """Replace the filter's words; (before, after)."""
        after = normalize_words(words)
        now = self.clock()
        async with self.db.write() as conn:
            before = [r[0] for r in await conn.execute(select(ChatWordRow.word).order_by(ChatWordRow.word))]
            gone = set(before) - set(after)
            if gone:
                await conn.execute(delete(ChatWordRow).where(ChatWordRow.word.in_(gone)))
            new = [w for w in after if w not in set(before)]
            if new:
                await conn.execute(insert(ChatWordRow), [{"word": w, "added_at": now} for w in new])
        return before, after

    # ------------------------------------------------------------------------------- mutes

    async def mute(
        self,
        owner_id: int | None,
        muted_id: int,
        *,
        until: datetime | None = None,
        reason: str | None = None,
        by_name: str,
    ) -> Mute:
        """Mute ``muted_id``: for ``owner_id`` only, or for everyone (``owner_id`` None: the operator's, until
        ``until``). A mute by the same owner replaces the one before."""
        if owner_id == muted_id:
            raise InvalidRecord("a player cannot mute himself")
        now = self.clock()
        if until is not None and until <= now:
            raise InvalidRecord("a mute ends in the future")
        async with self.db.write() as conn:
            await conn.execute(delete(ChatMuteRow).where(self._same(owner_id, muted_id)))
            got = await conn.execute(
                insert(ChatMuteRow)
                .values(
                    owner_id=owner_id, muted_id=muted_id, at=now, until=until, reason=reason, by_name=by_name
                )
                .returning(ChatMuteRow.id)
            )
            mute_id = int(got.scalar_one())
            name = (await conn.execute(select(PlayerRow.name).where(PlayerRow.id == muted_id))).scalar_one()
        return Mute(mute_id, owner_id, muted_id, name, now, until, reason, by_name)

    @staticmethod
    def _same(owner_id: int | None, muted_id: int) -> Any:
        owner = ChatMuteRow.owner_id.is_(None) if owner_id is None else ChatMuteRow.owner_id == owner_id
        return and_(owner, ChatMuteRow.muted_id == muted_id)

    async def unmute(self, owner_id: int | None, muted_id: int) -> Mute | None:
        """Lift a mute; the one lifted (None: there was none in force)."""
        found = [m for m in await self._mutes(self._same(owner_id, muted_id))]
        if not found:
            return None
        async with self.db.write() as conn:
            await conn.execute(delete(ChatMuteRow).where(self._same(owner_id, muted_id)))
        return found[0]

    def _in_force(self) -> Any:
        return or_(ChatMuteRow.until.is_(None), ChatMuteRow.until > self.clock())

    async def _mutes(self, where: Any) -> list[Mute]:
        q = (
            select(ChatMuteRow, PlayerRow.name)
            .join(PlayerRow, PlayerRow.id == ChatMuteRow.muted_id)
            .where(where, self._in_force())
            .order_by(ChatMuteRow.at.desc(), ChatMuteRow.id.desc())
        )
        async with self.db.read() as conn:
            rows = (await conn.execute(q)).all()
        return [Mute(r.id, r.owner_id, r.muted_id, r.name, r.at, r.until, r.reason, r.by_name) for r in rows]

    async def room_mute(self, player_id: int) -> Mute | None:
        """The operator's mute of this player in force, if any."""
        found = await self._mutes(and_(ChatMuteRow.owner_id.is_(None), ChatMuteRow.muted_id == player_id))
        return found[0] if found else None

    async def room_mutes(self) -> list[Mute]:
        return await self._mutes(ChatMuteRow.owner_id.is_(None))

    async def mutes_of(self, owner_id: int) -> list[Mute]:
        """The players this player muted for himself."""
        return await self._mutes(ChatMuteRow.owner_id == owner_id)

    async def muted_by(self, player_id: int) -> set[int]:
        """The players who muted this player for themselves."""
        q = select(ChatMuteRow.owner_id).where(
            ChatMuteRow.muted_id == player_id, ChatMuteRow.owner_id.is_not(None), self._in_force()
        )
        async with self.db.read() as conn:
            return {int(r[0]) for r in await conn.execute(q) if r[0] is not None}

    # ------------------------------------------------------------------------------- reports

    async def report(
        self,
        reporter_id: int,
        kind: str,
        reason: str,
        *,
        table_id: str | None = None,
        line_id: int | None = None,
        hand_id: str | None = None,
    ) -> int:
        if kind not in REPORT_KINDS:
            raise InvalidRecord(f"a report is of a {' or a '.join(REPORT_KINDS)}")
        async with self.db.write() as conn:
            got = await conn.execute(
                insert(ReportRow)
                .values(
                    at=self.clock(),
                    reporter_id=reporter_id,
                    kind=kind,
                    table_id=table_id,
                    line_id=line_id,
                    hand_id=hand_id,
                    reason=reason,
                    status="open",
                )
                .returning(ReportRow.id)
            )
            return int(got.scalar_one())

    async def reports(self, *, status: str | None = None, limit: int = 100, offset: int = 0) -> list[Report]:
        """Reports, newest first, each with its chat line."""
        q = select(ReportRow, PlayerRow.name).join(PlayerRow, PlayerRow.id == ReportRow.reporter_id)
        if status:
            q = q.where(ReportRow.status == status)
        q = q.order_by(ReportRow.id.desc()).limit(limit).offset(offset)
        async with self.db.read() as conn:
            rows = (await conn.execute(q)).all()
            ids = [r.line_id for r in rows if r.line_id is not None]
            lines = (
                {
                    r.id: _line(r)
                    for r in await conn.execute(select(ChatLineRow).where(ChatLineRow.id.in_(ids)))
                }
                if ids
                else {}
            )
        return [
            Report(
                r.id,
                r.at,
                r.reporter_id,
                r.name,
                r.kind,
                r.table_id,
                lines.get(r.line_id) if r.line_id is not None else None,
                r.hand_id,
                r.reason,
                r.status,
                r.closed_by,
                r.closed_at,
            )
            for r in rows
        ]

    async def close_report(self, report_id: int, by_name: str) -> bool:
        """Close an open report; False when there is no open report with that id."""
        async with self.db.write() as conn:
            got = await conn.execute(
                update(ReportRow)
                .where(ReportRow.id == report_id, ReportRow.status == "open")
                .values(status="closed", closed_by=by_name, closed_at=self.clock())
            )
        return bool(got.rowcount)
