"""The console's reports, read from the ledger and the hand journal: rake by day, game, table (or Rush
pool) and stakes;
tournament fees and overlays; loyalty points issued; hands dealt. Amounts are ints in minor units."""

from __future__ import annotations

import re
from collections.abc import Collection
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
    table: str  # the cash table, or the Rush pool (``kind`` says which)
    currency: str
    hands: int
    rake: int
    stakes: str | None = None  # as the lobby worded them when the hands were dealt (None: before 0019)
    kind: str = "cash"  # cash, or rush: one row per pool, not per short-lived Rush table


class Reports:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def rake(
        self, since: datetime, until: datetime | None = None, *, pools: Collection[str] = ()
    ) -> list[RakeRow]:
        """Rake booked to the house by settled cash hands since ``since``, per UTC day, game, table (a
        Rush pool's hands together, whichever of its tables dealt them) and the stakes each hand was dealt
        at (a reload that changed a table's stakes starts new rows). Hands dealt before their pool was
        kept (revision 0019) are put with their pool when it is one of ``pools`` (its tables' ids are
        ``<pool>-t<n>``)."""
        legacy = re.compile("^(" + "|".join(re.escape(p) for p in pools) + r")-t\d+$") if pools else None
        q = (
            select(
                TransactionRow.created_at,
                HandRow.game,
                HandRow.table_id,
                HandRow.pool_id,
                HandRow.stakes,
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
        groups: dict[tuple[str, str, str, str, str, str], list[int]] = {}
        async with self.db.read() as conn:
            for at, game, table, pool, stakes, currency, amount in (await conn.execute(q)).all():
                if pool is None and legacy is not None and (m := legacy.match(table)):
                    pool = m.group(1)
                kind = "cash" if pool is None else "rush"
                key = (at.date().isoformat(), game, pool or table, stakes or "", currency, kind)
                g = groups.setdefault(key, [0, 0])
                g[0] += 1
                g[1] += int(amount)
        return [
            RakeRow(d, g, t, c, n, r, stakes=st or None, kind=k)
            for (d, g, t, st, c, k), (n, r) in sorted(groups.items())
        ]

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
