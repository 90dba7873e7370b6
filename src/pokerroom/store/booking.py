"""The hot path of the ledger: constant SQL statements (prepared once by the driver) that claim an
idempotency key, update floored balances and insert postings.

On PostgreSQL a booking inside a larger transaction (the journal's end record) is ONE statement
(data-modifying CTEs): claim the key, lock the floored
accounts in id order (so concurrent bookings never deadlock), update their balances where they stay
non-negative, and only if every one of them was updated, insert the postings. With BEGIN and COMMIT
that is three round trips (pgbench's simple-update transaction has five). A booking on its own (a hand
settlement) is one call of the ``pokerroom_book`` function in autocommit: one round trip. On SQLite
(in-process, ``BEGIN IMMEDIATE``) the same steps are three statements whose lists travel as JSON
(``json_each``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn

from sqlalchemy import BigInteger, String, bindparam, select, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from pokerroom.store.errors import (
    ConcurrentChange,
    InsufficientFunds,
    InvalidCurrency,
    SessionClosed,
    StoreError,
    UnknownAccount,
    UnknownSession,
)
from pokerroom.store.kinds import AccountKind
from pokerroom.store.models import AccountRow, UTCDateTime
from pokerroom.store.prepared import prebuilt


@dataclass(frozen=True)
class Change:
    """One balance change on a floored account, with what the account must be."""

    account_id: int
    delta: int
    currency: str
    kind: AccountKind | None = None
    must_be_open: bool = False


_CLAIM = prebuilt(
    text(
        "INSERT INTO ledger_transactions (idem_key, kind, fingerprint, created_at, memo) "
        "VALUES (:key, :kind, :fp, :now, :memo) ON CONFLICT (idem_key) DO NOTHING RETURNING id"
    ).bindparams(bindparam("now", type_=UTCDateTime()))
)

_PG_BOOK = text(
    """
WITH claim AS (
    INSERT INTO ledger_transactions (idem_key, kind, fingerprint, created_at, memo)
    VALUES (:key, :kind, :fp, :now, :memo)
    ON CONFLICT (idem_key) DO NOTHING
    RETURNING id
), locked AS (
    SELECT a.id FROM ledger_accounts a
    WHERE a.id = ANY(:ids) AND EXISTS (SELECT 1 FROM claim)
    ORDER BY a.id
    FOR NO KEY UPDATE
), upd AS (
    UPDATE ledger_accounts a SET balance = a.balance + c.d
    FROM unnest(CAST(:ids AS BIGINT[]), CAST(:ds AS BIGINT[])) AS c(id, d), locked
    WHERE a.id = c.id AND locked.id = a.id AND a.balance + c.d >= 0
    RETURNING a.id, a.kind, a.currency, a.closed_at
), ins AS (
    INSERT INTO ledger_postings (tx_id, account_id, currency, amount)
    SELECT claim.id, p.a, p.c, p.d
    FROM claim, unnest(CAST(:pa AS BIGINT[]), CAST(:pc AS VARCHAR[]), CAST(:pd AS BIGINT[])) AS p(a, c, d)
    WHERE (SELECT COUNT(*) FROM upd) = cardinality(CAST(:ids AS BIGINT[]))
    RETURNING 1
)
SELECT (SELECT id FROM claim) AS tx_id, upd.id, upd.kind, upd.currency, upd.closed_at
FROM (SELECT 1 AS one) AS one LEFT JOIN upd ON true
"""
).bindparams(
    bindparam("now", type_=UTCDateTime()),
    bindparam("ids", type_=ARRAY(BigInteger())),
    bindparam("ds", type_=ARRAY(BigInteger())),
    bindparam("pa", type_=ARRAY(BigInteger())),
    bindparam("pc", type_=ARRAY(String())),
    bindparam("pd", type_=ARRAY(BigInteger())),
)

_PG_LOCK = text(
    "SELECT id FROM ledger_accounts WHERE id = ANY(:ids) ORDER BY id FOR NO KEY UPDATE"
).bindparams(bindparam("ids", type_=ARRAY(BigInteger())))

_PG_APPLY = text(
    "UPDATE ledger_accounts a SET balance = a.balance + c.d "
    "FROM unnest(CAST(:ids AS BIGINT[]), CAST(:ds AS BIGINT[])) AS c(id, d) "
    "WHERE a.id = c.id AND a.balance + c.d >= 0 "
    "RETURNING a.id, a.kind, a.currency, a.closed_at"
).bindparams(bindparam("ids", type_=ARRAY(BigInteger())), bindparam("ds", type_=ARRAY(BigInteger())))

_PG_POSTINGS = text(
    "INSERT INTO ledger_postings (tx_id, account_id, currency, amount) "
    "SELECT CAST(:tx AS BIGINT), p.a, p.c, p.d "
    "FROM unnest(CAST(:pa AS BIGINT[]), CAST(:pc AS VARCHAR[]), CAST(:pd AS BIGINT[])) AS p(a, c, d)"
).bindparams(
    bindparam("pa", type_=ARRAY(BigInteger())),
    bindparam("pc", type_=ARRAY(String())),
    bindparam("pd", type_=ARRAY(BigInteger())),
)

# SQLite: (a note on RETURNING) an expression such as "closed_at IS NULL" in the RETURNING list of an
# UPDATE ... FROM came back wrong on SQLite 3.40, so only plain columns are returned, on both databases.
_SQLITE_APPLY = prebuilt(
    text(
        "UPDATE ledger_accounts SET balance = ledger_accounts.balance + v.d "
        "FROM (SELECT CAST(json_extract(value, '$[0]') AS INTEGER) AS id, "
        "CAST(json_extract(value, '$[1]') AS INTEGER) AS d FROM json_each(:changes)) AS v "
        "WHERE ledger_accounts.id = v.id AND ledger_accounts.balance + v.d >= 0 "
        "RETURNING ledger_accounts.id, ledger_accounts.kind, ledger_accounts.currency, "
        "ledger_accounts.closed_at"
    )
)

_SQLITE_POSTINGS = prebuilt(
    text(
        "INSERT INTO ledger_postings (tx_id, account_id, currency, amount) "
        "SELECT :tx, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') "
        "FROM json_each(:postings)"
    )
)


async def claim(
    conn: AsyncConnection, key: str, kind: str, fp: str, memo: str | None, now: datetime
) -> int | None:
    """Insert the transaction row; None if the key is taken already."""
    params = {"key": key, "kind": kind, "fp": fp, "now": now, "memo": memo}
    tx_id = (await conn.execute(_CLAIM, params)).scalar_one_or_none()
    return None if tx_id is None else int(tx_id)


_PG_BOOK_RAW = (
    _PG_BOOK.text.replace(":key", "$1")
    .replace(":kind", "$2")
    .replace(":fp", "$3")
    .replace(":now", "$4")
    .replace(":memo", "$5")
    .replace(":ids", "$6::BIGINT[]")
    .replace(":ds", "$7")
    .replace(":pa", "$8")
    .replace(":pc", "$9")
    .replace(":pd", "$10")
)


async def book_pg(
    conn: AsyncConnection,
    key: str,
    kind: str,
    fp: str,
    memo: str | None,
    now: datetime,
    postings: Sequence[tuple[int, str, int]],
    changes: Sequence[Change],
) -> int | None:
    """The one-statement booking on PostgreSQL; None if the key is taken already (nothing changed).

    The statement goes straight to the asyncpg connection under SQLAlchemy's transaction: SQLAlchemy's
    per-statement overhead was a third of a settlement's cost (see docs/store.md)."""
    ids = [c.account_id for c in changes]
    deltas = [c.delta for c in changes]
    pa = [p[0] for p in postings]
    pc = [p[1] for p in postings]
    pd = [p[2] for p in postings]
    driver = await _driver_in_transaction(conn)
    if driver is not None:
        rows: Sequence[Any] = await driver.fetch(
            _PG_BOOK_RAW, key, kind, fp, now, memo, ids, deltas, pa, pc, pd
        )
        tx_id = rows[0]["tx_id"]
        updated = {
            r["id"]: _Row(r["id"], r["kind"], r["currency"], r["closed_at"])
            for r in rows
            if r["id"] is not None
        }
    else:
        params = {"key": key, "kind": kind, "fp": fp, "now": now, "memo": memo, "ids": ids, "ds": deltas}
        params |= {"pa": pa, "pc": pc, "pd": pd}
        rows = (await conn.execute(_PG_BOOK, params)).all()
        tx_id = rows[0].tx_id
        updated = {r.id: _Row(r.id, r.kind, r.currency, r.closed_at) for r in rows if r.id is not None}
    if tx_id is None:
        return None
    await _check_rows(conn, changes, updated)
    return int(tx_id)


_PG_BOOK_FN = "SELECT pokerroom_book($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"


async def book_pg_direct(
    engine: AsyncEngine,
    key: str,
    kind: str,
    fp: str,
    memo: str | None,
    now: datetime,
    postings: Sequence[tuple[int, str, int]],
    changes: Sequence[Change],
) -> int | None:
    """A booking on its own: ONE call of the ``pokerroom_book`` function (migration 0002) in autocommit,
    straight on the asyncpg connection (public APIs only). The statement is its own transaction: all of
    it or nothing. None if the key is taken already (nothing changed)."""
    args = (
        key,
        kind,
        fp,
        now,
        memo,
        [c.account_id for c in changes],
        [c.delta for c in changes],
        [c.kind.value if c.kind is not None else "" for c in changes],
        [c.currency for c in changes],
        [c.must_be_open for c in changes],
        [p[0] for p in postings],
        [p[1] for p in postings],
        [p[2] for p in postings],
    )
    for _ in range(3):
        async with engine.connect() as sa_conn:
            driver: Any = (await sa_conn.get_raw_connection()).driver_connection
            try:
                tx_id = await driver.fetchval(_PG_BOOK_FN, *args)
            except Exception as exc:
                if getattr(exc, "sqlstate", None) != "PR001":
                    raise
            else:
                return None if tx_id is None else int(tx_id)
        # Refused, and nothing was written: say why, from the current balances.
        async with engine.connect() as sa_conn:
            error = await diagnose(sa_conn, changes)
        if error is not None:
            raise error
        # The state changed in between so that it would pass now: try again.
    raise ConcurrentChange("the accounts kept changing under this booking; try again")


async def diagnose(conn: AsyncConnection, changes: Sequence[Change]) -> StoreError | None:
    """The typed error of the first change that cannot be applied to the accounts as they are now."""
    ids = [c.account_id for c in changes]
    rows = {r.id: r for r in (await conn.execute(select(AccountRow).where(AccountRow.id.in_(ids)))).all()}
    for c in changes:
        row = rows.get(c.account_id)
        if row is None or _bad(c, row) or row.balance is None or row.balance + c.delta < 0:
            return failure(c, row)
    return None


@dataclass(frozen=True)
class _Row:
    id: int
    kind: str
    currency: str
    closed_at: datetime | None

    @staticmethod
    def of(record: Any) -> _Row | None:
        if record is None:
            return None
        return _Row(record["id"], record["kind"], record["currency"], record["closed_at"])


async def _driver_in_transaction(conn: AsyncConnection) -> Any:
    """The asyncpg connection under ``conn`` with SQLAlchemy's transaction begun on it, or None if this
    SQLAlchemy version does not expose what that needs (then the caller goes through SQLAlchemy)."""
    fairy = await conn.get_raw_connection()
    adapter: Any = fairy.dbapi_connection
    start = getattr(adapter, "_start_transaction", None)
    if start is None or not hasattr(adapter, "_transaction"):
        return None
    if adapter._transaction is None:
        await start()
        if adapter._transaction is None:
            return None
    return fairy.driver_connection


async def apply(conn: AsyncConnection, changes: Sequence[Change], *, sqlite: bool) -> None:
    """Apply balance changes to floored accounts in one statement; refuse any that would go negative or
    hit the wrong kind of account (the caller's transaction then rolls back)."""
    if not changes:
        return
    if sqlite:
        payload = json.dumps([[c.account_id, c.delta] for c in changes])
        rows = (await conn.execute(_SQLITE_APPLY, {"changes": payload})).all()
    else:
        ids = [c.account_id for c in changes]
        if len(ids) > 1:  # lock in id order first, so concurrent transactions never deadlock
            await conn.execute(_PG_LOCK, {"ids": ids})
        rows = (await conn.execute(_PG_APPLY, {"ids": ids, "ds": [c.delta for c in changes]})).all()
    await _check_rows(conn, changes, {r.id: r for r in rows})


async def insert_postings(
    conn: AsyncConnection, tx_id: int, postings: Sequence[tuple[int, str, int]], *, sqlite: bool
) -> None:
    if not postings:
        return
    if sqlite:
        await conn.execute(
            _SQLITE_POSTINGS, {"tx": tx_id, "postings": json.dumps([list(p) for p in postings])}
        )
    else:
        params = {
            "tx": tx_id,
            "pa": [p[0] for p in postings],
            "pc": [p[1] for p in postings],
            "pd": [p[2] for p in postings],
        }
        await conn.execute(_PG_POSTINGS, params)


async def _check_rows(conn: AsyncConnection, changes: Sequence[Change], rows: dict[int, Any]) -> None:
    for c in changes:
        if _bad(c, rows.get(c.account_id)):
            await explain_failure(conn, c)


async def explain_failure(conn: AsyncConnection, c: Change) -> NoReturn:
    """Raise the typed error that says why a change could not be applied."""
    row = (await conn.execute(select(AccountRow).where(AccountRow.id == c.account_id))).one_or_none()
    raise failure(c, row)


def failure(c: Change, row: Any) -> StoreError:
    """The typed error for a change that could not be applied to ``row`` (None: no such account)."""
    seat = c.kind is AccountKind.SEAT
    if row is None or (c.kind is not None and row.kind != c.kind.value):
        return UnknownSession(c.account_id) if seat else UnknownAccount(c.account_id)
    if row.currency != c.currency:
        if seat:
            return UnknownSession(c.account_id)
        return InvalidCurrency(c.currency, f"account {c.account_id} holds {row.currency}, not")
    if c.must_be_open and row.closed_at is not None:
        return SessionClosed(c.account_id)
    if row.balance is None:
        return UnknownAccount(c.account_id)
    return InsufficientFunds(c.account_id, int(row.balance), -c.delta)


def _bad(c: Change, row: Any) -> bool:
    return bool(
        row is None
        or row.currency != c.currency
        or (c.kind is not None and row.kind != c.kind.value)
        or (c.must_be_open and row.closed_at is not None)
    )
