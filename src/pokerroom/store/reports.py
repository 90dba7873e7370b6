"""The console's reports, read from the ledger and the hand journal: rake by day, game and table;
tournament fees and overlays; loyalty points issued; hands dealt. Amounts are ints in minor units."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, select

from pokerroom.store.db import Database
from pokerroom.store.models import (
    AccountRow,
    HandRow,
    PostingRow,
    TournamentHandRow,
    TransactionRow,
)

__all__ = ["RakeRow", "Reports"]


@dataclass(frozen=True)
class RakeRow:
    day: str  # YYYY-MM-DD (UTC)
    game: str
    table: str
    currency: str
    hands: int
    rake: int


class Reports:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def rake(self, since: datetime, until: datetime | None = None) -> list[RakeRow]:
        """Rake booked to the house by settled cash hands since ``since``, per UTC day, game and table."""
        q = (
            select(
                TransactionRow.created_at,
                HandRow.game,
                HandRow.table_id,
                PostingRow.currency,
                PostingRow.amount,
            )
            .join(PostingRow, PostingRow.tx_id == TransactionRow.id)
            .join(AccountRow, and_(AccountRow.id == PostingRow.account_id, AccountRow.kind == "house"))
            .join(HandRow, HandRow.tx_id == TransactionRow.id)
            .where(TransactionRow.kind == "settle", TransactionRow.created_at >= since)
        )
        if until is not None:
            q = q.where(TransactionRow.created_at < until)
        groups: dict[tuple[str, str, str, str], list[int]] = {}
        async with self.db.read() as conn:
            for at, game, table, currency, amount in (await conn.execute(q)).all():
                g = groups.setdefault((at.date().isoformat(), game, table, currency), [0, 0])
                g[0] += 1
                g[1] += int(amount)
        return [RakeRow(d, g, t, c, n, r) for (d, g, t, c), (n, r) in sorted(groups.items())]

    async def tournament_money(self, since: datetime) -> list[dict[str, Any]]:
        """Per tournament (the prize pool each transaction moves): fees kept by the house (buy-ins less
        refunds) and overlays paid by the house's promotions account."""
        cols = (TransactionRow.id, TransactionRow.kind, AccountRow.kind, AccountRow.ref)
        q = (
            select(*cols, PostingRow.currency, PostingRow.amount)
            .join(PostingRow, PostingRow.tx_id == TransactionRow.id)
            .join(AccountRow, AccountRow.id == PostingRow.account_id)
            .where(
                TransactionRow.kind.in_(["tourney_buyin", "tourney_refund", "tourney_overlay"]),
                TransactionRow.created_at >= since,
            )
        )
        pools: dict[int, str] = {}
        moves: list[tuple[int, str, str, str, int]] = []
        async with self.db.read() as conn:
            for tx_id, tx_kind, account_kind, ref, currency, amount in (await conn.execute(q)).all():
                if account_kind == "prize_pool":
                    pools[tx_id] = str(ref)
                elif account_kind in ("house", "promotions"):
                    moves.append((tx_id, tx_kind, account_kind, currency, int(amount)))
        out: dict[tuple[str, str], dict[str, Any]] = {}
        for tx_id, tx_kind, account_kind, currency, amount in moves:
            tid = pools.get(tx_id, "?")
            row = out.setdefault(
                (tid, currency), {"tournament": tid, "currency": currency, "fees": 0, "overlay": 0}
            )
            if tx_kind == "tourney_overlay" and account_kind == "promotions":
                row["overlay"] -= amount
            elif account_kind == "house" and tx_kind != "tourney_overlay":
                row["fees"] += amount
        return [out[k] for k in sorted(out)]

    async def points(self, since: datetime) -> list[dict[str, Any]]:
        """Loyalty points (centipoints) credited to players since ``since``, per UTC day and source (the
        kind of transaction: a cash hand's settlement, a tournament fee, an adjustment ...)."""
        q = (
            select(TransactionRow.created_at, TransactionRow.kind, PostingRow.amount)
            .join(PostingRow, PostingRow.tx_id == TransactionRow.id)
            .join(AccountRow, and_(AccountRow.id == PostingRow.account_id, AccountRow.kind == "points"))
            .where(TransactionRow.created_at >= since)
        )
        groups: dict[tuple[str, str], int] = {}
        async with self.db.read() as conn:
            for at, kind, amount in (await conn.execute(q)).all():
                key = (at.date().isoformat(), kind)
                groups[key] = groups.get(key, 0) + int(amount)
        return [{"day": d, "source": k, "points": v} for (d, k), v in sorted(groups.items())]

    async def hands_since(self, since: datetime) -> int:
        """Cash and tournament hands that ended since ``since``."""
        async with self.db.read() as conn:
            cash = (
                await conn.execute(
                    select(func.count())
                    .select_from(HandRow)
                    .where(HandRow.status == "ended", HandRow.ended_at >= since)
                )
            ).scalar_one()
            tourney = (
                await conn.execute(
                    select(func.count())
                    .select_from(TournamentHandRow)
                    .where(TournamentHandRow.ended_at >= since)
                )
            ).scalar_one()
        return int(cash) + int(tourney)
