"""Responsible gaming (issue 29): limits a player sets on himself, cool-off and self-exclusion.

- **Limits** (``gaming_limits``): deposits and losses per rolling day (24 h), week (7 days) and month
  (30 days), per currency, and a session length (minutes) after which the browser reminds him of the
  time played and the session's result. A limit is set or lowered at once; raised or removed only after
  the cooling period (``cooling``, 24 h by default: ``[responsible_gaming] cooling_hours``): until then
  the change waits as ``pending`` with the time it takes effect. Lowering cancels a pending raise.
- **Exclusions** (``gaming_exclusions``): a cool-off (1 to 42 days) or a self-exclusion (6 months to 10
  years, or permanent), set by the player with his password. Nothing shortens or lifts one: no method
  here changes or deletes a row, and :meth:`Gaming.lift` always refuses. A longer one may be added.
- **Checks**, read from the database at each use (so every process of a cluster honours them):
  :meth:`check_login`, :meth:`check_stake` (buy-in, top-up, registration, rebuy and add-on, Rush entry)
  and :meth:`check_deposit` (the cashier's ``deposit_guard``). A player with no limits costs one indexed
  read; a loss or deposit limit adds one aggregate over his wallet's postings of the last 30 days.

Losses and deposits come from the ledger: a *loss* is what left the wallet for a table seat, a prize pool
or a tournament fee (the house) minus what came back from them; a *deposit* is a credit to the wallet
from the cashier account. A stake is refused when the losses of a window plus the stake would pass that
window's limit: money on a table counts as lost until it is cashed out.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NoReturn

from sqlalchemy import and_, case, delete, exists, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.accounts import Accounts, normalize_password
from pokerroom.store.db import Database
from pokerroom.store.errors import (
    BadCredentials,
    InvalidAmount,
    InvalidCurrency,
    StoreError,
    UnknownPlayer,
    UnknownToken,
)
from pokerroom.store.kinds import PLAY, check_amount, check_currency
from pokerroom.store.models import (
    AccountRow,
    AuthSessionRow,
    GamingExclusionRow,
    GamingLimitRow,
    PlayerRow,
    PostingRow,
    TransactionRow,
)
from pokerroom.store.util import Clock, hash_token, utc_now

__all__ = [
    "COOLING",
    "LIMIT_KINDS",
    "WINDOWS",
    "Exclusion",
    "ExclusionLocked",
    "Gaming",
    "InvalidLimit",
    "LimitReached",
    "LimitState",
    "SelfExcluded",
    "SessionReport",
]

_LIMIT = tuple(GamingLimitRow.__table__.c)
_EXCLUSION = tuple(GamingExclusionRow.__table__.c)
COOLING = timedelta(hours=24)  # the default wait before a raise or a removal takes effect
WINDOWS = {"day": timedelta(days=1), "week": timedelta(days=7), "month": timedelta(days=30)}
LIMIT_KINDS = (*(f"deposit_{w}" for w in WINDOWS), *(f"loss_{w}" for w in WINDOWS), "session")
MAX_LIMIT = 10**12  # minor units: a bound on a money limit (a typo's extra zeros stop here)
SESSION_MINUTES = (5, 24 * 60)  # the shortest and longest session reminder
COOL_OFF_DAYS = (1, 42)  # 24 hours to 6 weeks
EXCLUSION_MONTHS = (6, 120)  # 6 months to 10 years (or permanent)
# Where money at stake goes: a loss is what the wallet sent to these minus what came back from them.
_STAKE_KINDS = ("seat", "prize_pool", "house", "escrow")


# -- errors ----------------------------------------------------------------------------------------------


def _when(at: datetime | None) -> str:
    return "permanently" if at is None else f"until {at.strftime('%Y-%m-%d %H:%M UTC')}"


def _ends_text(at: datetime | None) -> str:
    """The end of an exclusion for the wire: ``2027-06-06 12:00 UTC`` or ``permanent``."""
    return "permanent" if at is None else at.strftime("%Y-%m-%d %H:%M UTC")


class SelfExcluded(StoreError):
    """The player is in a cool-off or a self-exclusion he set: no login, no stake, no deposit."""

    code = "self_excluded"

    def __init__(self, kind: str, until: datetime | None) -> None:
        what = "you are taking a break (cool-off)" if kind == "cool_off" else "you have excluded yourself"
        super().__init__(f"{what} {_when(until)}: no play, no deposits and no logins until then")
        self.kind = kind
        self.until = until
        self.ends = _ends_text(until)


def fmt_money(amount: int, currency: str) -> str:
    """Minor units as text: ``12345, "EUR"`` -> ``123.45 EUR`` (play money has no decimals)."""
    if currency == PLAY:
        return f"{amount:,} {currency}"
    sign = "-" if amount < 0 else ""
    return f"{sign}{abs(amount) // 100:,}.{abs(amount) % 100:02d} {currency}"


class LimitReached(StoreError):
    """A deposit or a stake that would pass a limit the player set: nothing was booked."""

    code = "limit_reached"

    def __init__(self, kind: str, currency: str, limit: int, used: int, amount: int) -> None:
        what, window = kind.split("_")
        days = WINDOWS[window].days
        noun = "deposits" if what == "deposit" else "losses"
        super().__init__(
            f"your {what} limit is {fmt_money(limit, currency)} per {days} day(s): with "
            f"{fmt_money(amount, currency)} more your {noun} in that time would be "
            f"{fmt_money(used + amount, currency)}"
        )
        self.kind, self.currency, self.limit, self.used, self.amount = kind, currency, limit, used, amount
        self.days = days
        self.limit_text = fmt_money(limit, currency)


class InvalidLimit(StoreError):
    """A limit or an exclusion that cannot be set (unknown kind, a duration out of range)."""

    code = "invalid_limit"


class ExclusionLocked(StoreError):
    """A cool-off or a self-exclusion runs until its end: nobody lifts or shortens it (not the player,
    not an operator)."""

    code = "exclusion_locked"

    def __init__(self, until: datetime | None) -> None:
        super().__init__(
            f"a cool-off or self-exclusion cannot be lifted or shortened: it runs {_when(until)}"
        )
        self.until = until
        self.ends = _ends_text(until)


# -- records ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LimitState:
    """One limit as it stands at ``now``: the amount in force (None: none) and a waiting change."""

    kind: str
    currency: str  # "" for the session length
    amount: int | None
    pending: int | None  # the waiting raise (None with ``pending_from``: a removal)
    pending_from: datetime | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "currency": self.currency or None,
            "amount": self.amount,
            "pending": self.pending,
            "pending_from": None if self.pending_from is None else self.pending_from.isoformat(),
        }


@dataclass(frozen=True)
class Exclusion:
    id: int
    player_id: int
    kind: str  # "cool_off" | "self_exclusion"
    started_at: datetime
    ends_at: datetime | None  # None: permanent

    def active(self, now: datetime) -> bool:
        return self.started_at <= now and (self.ends_at is None or self.ends_at > now)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "started_at": self.started_at.isoformat(),
            "ends_at": None if self.ends_at is None else self.ends_at.isoformat(),
        }


@dataclass(frozen=True)
class SessionReport:
    """A login session so far: when it started, how long, and what the player won (+) or lost (-) per
    currency since (what came back from tables and tournaments minus what went to them, money still on
    a table counted as his)."""

    started_at: datetime
    minutes: int  # the player's session limit (None: no reminder)
    played: timedelta
    net: dict[str, int]

    def to_dict(self, now: datetime) -> dict[str, Any]:
        due = None
        if self.minutes:
            every = timedelta(minutes=self.minutes)
            due = self.started_at + every * (int(self.played / every) + 1)
        return {
            "started_at": self.started_at.isoformat(),
            "played_seconds": int(self.played.total_seconds()),
            "reminder_minutes": self.minutes or None,
            "next_reminder_at": None if due is None else due.isoformat(),
            "seconds_to_reminder": None if due is None else max(0, int((due - now).total_seconds())),
            "net": self.net,
        }


def _state(row: Any, now: datetime) -> LimitState:
    """A limit row read at ``now``: a waiting change whose time has come is in force."""
    if row.pending_from is not None and row.pending_from <= now:
        return LimitState(row.kind, row.currency, row.pending, None, None)
    return LimitState(row.kind, row.currency, row.amount, row.pending, row.pending_from)


def _exclusion(r: Any) -> Exclusion:
    return Exclusion(r.id, r.player_id, r.kind, r.started_at, r.ends_at)


def _check_limit(kind: object, currency: object, amount: object) -> tuple[str, str, int | None]:
    if kind not in LIMIT_KINDS:
        raise InvalidLimit(f"unknown limit {kind!r} (known: {', '.join(LIMIT_KINDS)})")
    assert isinstance(kind, str)
    if kind == "session":
        if currency not in (None, ""):
            raise InvalidLimit("a session limit has no currency")
        if amount is None:
            return kind, "", None
        minutes = check_amount(amount, what="a session length")
        lo, hi = SESSION_MINUTES
        if not lo <= minutes <= hi:
            raise InvalidLimit(f"a session length is {lo} to {hi} minutes")
        return kind, "", minutes
    code = check_currency(currency, cash=True)
    if code == PLAY:
        raise InvalidCurrency(code, "play money has no deposit or loss limits")
    if amount is None:
        return kind, code, None
    value = check_amount(amount, what="a limit")
    if value > MAX_LIMIT:
        raise InvalidAmount(f"a limit is at most {MAX_LIMIT} minor units")
    return kind, code, value


def add_months(at: datetime, months: int) -> datetime:
    """``at`` plus calendar months (the 31st of a shorter month becomes its last day)."""
    month0 = at.month - 1 + months
    year, month = at.year + month0 // 12, month0 % 12 + 1
    for day in range(at.day, 27, -1):
        try:
            return at.replace(year=year, month=month, day=day)
        except ValueError:
            continue
    return at.replace(year=year, month=month, day=min(at.day, 28))


# -- the component ---------------------------------------------------------------------------------------


class Gaming:
    """Responsible gaming over the store (``store.gaming``)."""

    def __init__(self, db: Database, accounts: Accounts, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.accounts = accounts
        self.clock = clock

    # -- limits ----------------------------------------------------------------------------------------

    async def limits(self, player_id: int) -> list[LimitState]:
        """The player's limits as they stand now (those with neither a limit nor a waiting change left
        out), by kind and currency."""
        now = self.clock()
        async with self.db.read() as conn:
            rows = (
                await conn.execute(
                    select(*_LIMIT)
                    .where(GamingLimitRow.player_id == player_id)
                    .order_by(GamingLimitRow.kind, GamingLimitRow.currency)
                )
            ).all()
            states = [_state(r, now) for r in rows]
        return [s for s in states if s.amount is not None or s.pending_from is not None]

    async def set_limit(
        self,
        player_id: int,
        kind: str,
        currency: str | None,
        amount: int | None,
        *,
        cooling: timedelta = COOLING,
    ) -> LimitState:
        """Set a limit (``amount`` None: remove it). A first limit or a lower one holds at once (and
        cancels a waiting raise); a higher one or a removal waits ``cooling``."""
        kind, code, value = _check_limit(kind, currency, amount)
        if cooling < timedelta(0):
            raise InvalidLimit("the cooling period cannot be negative")
        now = self.clock()
        key = (
            GamingLimitRow.player_id == player_id,
            GamingLimitRow.kind == kind,
            GamingLimitRow.currency == code,
        )
        async with self.db.write() as conn:
            await self._player(conn, player_id)
            row = (await conn.execute(select(*_LIMIT).where(*key))).one_or_none()
            current = None if row is None else _state(row, now).amount
            if current is None or (value is not None and value <= current):
                new = LimitState(kind, code, value, None, None)
            else:
                new = LimitState(kind, code, current, value, now + cooling)
            values = {
                "amount": new.amount,
                "pending": new.pending,
                "pending_from": new.pending_from,
                "set_at": now,
            }
            if row is None:
                await conn.execute(
                    insert(GamingLimitRow).values(player_id=player_id, kind=kind, currency=code, **values)
                )
            else:
                await conn.execute(update(GamingLimitRow).where(*key).values(**values))
        return new

    async def _player(self, conn: AsyncConnection, player_id: int) -> str:
        pw = (
            await conn.execute(select(PlayerRow.password_hash).where(PlayerRow.id == player_id))
        ).scalar_one_or_none()
        if pw is None:
            raise UnknownPlayer(player_id)
        return str(pw)

    # -- exclusions -----------------------------------------------------------------------------------

    async def exclusions(self, player_id: int) -> list[Exclusion]:
        """Every cool-off and self-exclusion the player ever set, newest first."""
        async with self.db.read() as conn:
            rows = (
                await conn.execute(
                    select(*_EXCLUSION)
                    .where(GamingExclusionRow.player_id == player_id)
                    .order_by(GamingExclusionRow.started_at.desc(), GamingExclusionRow.id.desc())
                )
            ).all()
            return [_exclusion(r) for r in rows]

    async def active_exclusion(self, player_id: int) -> Exclusion | None:
        """The exclusion in force now that ends last (None: none)."""
        async with self.db.read() as conn:
            return await self._active(conn, player_id, self.clock())

    async def exclude(
        self,
        player_id: int,
        kind: str,
        *,
        password: str,
        days: int | None = None,
        months: int | None = None,
        permanent: bool = False,
    ) -> Exclusion:
        """A cool-off (``days``: 1-42) or a self-exclusion (``months``: 6-120, or ``permanent``), from now,
        confirmed by the player's password. It ends every login session of the player. One that would end
        before an exclusion already in force is refused (:class:`ExclusionLocked`)."""
        now = self.clock()
        ends = _ends(kind, now, days=days, months=months, permanent=permanent)
        async with self.db.read() as conn:
            pw_hash = await self._player(conn, player_id)
        if not isinstance(password, str) or not await asyncio.to_thread(self._password_ok, pw_hash, password):
            raise BadCredentials()
        async with self.db.write() as conn:
            current = await self._active(conn, player_id, now)
            if current is not None and (
                current.ends_at is None or (ends is not None and ends <= current.ends_at)
            ):
                raise ExclusionLocked(current.ends_at)
            got = await conn.execute(
                insert(GamingExclusionRow)
                .values(player_id=player_id, kind=kind, started_at=now, ends_at=ends)
                .returning(GamingExclusionRow.id)
            )
            row_id = int(got.scalar_one())
            await conn.execute(delete(AuthSessionRow).where(AuthSessionRow.player_id == player_id))
        return Exclusion(row_id, player_id, kind, now, ends)

    def _password_ok(self, pw_hash: str, password: str) -> bool:
        """The password against the account's hash, as a login checks it (its NFKC form, or the form
        typed for a hash made before passwords were normalized)."""
        for form in dict.fromkeys((normalize_password(password), password)):
            try:
                if self.accounts.hasher.verify(pw_hash, form):
                    return True
            except Exception:  # argon2's mismatch, a bad hash (a bot's account has no password)
                continue
        return False

    async def lift(self, player_id: int) -> NoReturn:
        """Lifting a cool-off or a self-exclusion early is refused, whoever asks (the console and the
        player's API call this to answer such an attempt)."""
        current = await self.active_exclusion(player_id)
        if current is None:
            raise InvalidLimit("there is no cool-off or self-exclusion in force")
        raise ExclusionLocked(current.ends_at)

    async def _active(self, conn: AsyncConnection, player_id: int, now: datetime) -> Exclusion | None:
        rows = (
            await conn.execute(
                select(*_EXCLUSION).where(
                    GamingExclusionRow.player_id == player_id,
                    GamingExclusionRow.started_at <= now,
                    or_(GamingExclusionRow.ends_at.is_(None), GamingExclusionRow.ends_at > now),
                )
            )
        ).all()
        found = [_exclusion(r) for r in rows]
        if not found:
            return None
        return max(found, key=lambda e: (e.ends_at is None, e.ends_at or now))

    # -- checks ---------------------------------------------------------------------------------------

    async def check_login(self, player_id: int) -> None:
        """Refuse a login during a cool-off or a self-exclusion (:class:`SelfExcluded`, with its end)."""
        async with self.db.read() as conn:
            current = await self._active(conn, player_id, self.clock())
        if current is not None:
            raise SelfExcluded(current.kind, current.ends_at)

    async def check_stake(self, player_id: int, currency: str, amount: int, *, what: str) -> None:
        """Before a buy-in, top-up, registration, rebuy or add-on, or Rush entry (``what``) of ``amount``
        (0: nothing from the wallet, e.g. a ticket): refused during an exclusion, or when the losses of a
        window plus ``amount`` would pass the player's loss limit for it."""
        await self._check(player_id, currency, amount, "loss")

    async def check_deposit(self, player_id: int, currency: str, amount: int) -> None:
        """Before a deposit is requested and again before it is approved (the cashier's guard)."""
        await self._check(player_id, currency, amount, "deposit")

    async def _check(self, player_id: int, currency: str, amount: int, what: str) -> None:
        check_amount(amount, allow_zero=True)
        now = self.clock()
        async with self.db.read() as conn:
            excluded = await self._active(conn, player_id, now)
            if excluded is not None:
                raise SelfExcluded(excluded.kind, excluded.ends_at)
            rows = (
                await conn.execute(
                    select(*_LIMIT).where(
                        GamingLimitRow.player_id == player_id,
                        GamingLimitRow.currency == currency,
                        GamingLimitRow.kind.like(f"{what}_%"),
                    )
                )
            ).all()
            limits = {s.kind: s.amount for s in (_state(r, now) for r in rows) if s.amount is not None}
            if not limits or amount == 0:
                return
            used = await self._used(conn, player_id, currency, what, now)
        for kind, limit in sorted(limits.items(), key=lambda kv: WINDOWS[kv[0].split("_")[1]]):
            spent = used[kind.split("_")[1]]
            if spent + amount > limit:
                raise LimitReached(kind, currency, limit, spent, amount)

    async def used(self, player_id: int, currency: str, what: str) -> dict[str, int]:
        """Deposits (``what="deposit"``) or losses (``"loss"``) per window now, for the player's page."""
        async with self.db.read() as conn:
            return await self._used(conn, player_id, currency, what, self.clock())

    async def _used(
        self, conn: AsyncConnection, player_id: int, currency: str, what: str, now: datetime
    ) -> dict[str, int]:
        other = PostingRow.__table__.alias("other")
        other_account = AccountRow.__table__.alias("other_account")
        if what == "deposit":
            counterpart = and_(other_account.c.kind == "cashier", other.c.amount < 0)
            sign, mine = 1, PostingRow.amount > 0
        else:
            counterpart = other_account.c.kind.in_(_STAKE_KINDS)
            sign, mine = -1, PostingRow.amount != 0
        touches = exists(
            select(other.c.id)
            .join(other_account, other_account.c.id == other.c.account_id)
            .where(other.c.tx_id == PostingRow.tx_id, counterpart)
        )
        since = {w: now - d for w, d in WINDOWS.items()}
        sums = [
            func.coalesce(func.sum(case((TransactionRow.created_at > s, PostingRow.amount), else_=0)), 0)
            for s in since.values()
        ]
        q = (
            select(*sums)
            .join(AccountRow, AccountRow.id == PostingRow.account_id)
            .join(TransactionRow, TransactionRow.id == PostingRow.tx_id)
            .where(
                AccountRow.owner_id == player_id,
                AccountRow.kind == "wallet",
                AccountRow.currency == currency,
                TransactionRow.created_at > min(since.values()),
                mine,
                touches,
            )
        )
        row = (await conn.execute(q)).one()
        return {w: max(0, sign * int(v)) for w, v in zip(since, row, strict=True)}

    # -- the session reminder -------------------------------------------------------------------------

    async def session(self, token: str) -> SessionReport:
        """The login session of ``token``: its start, the player's session limit, time played and the net
        result since the start per currency (wallet flows to and from tables and tournaments, plus the
        chips on his seats opened since)."""
        now = self.clock()
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(AuthSessionRow.player_id, AuthSessionRow.created_at).where(
                        AuthSessionRow.token_hash == hash_token(token)
                    )
                )
            ).one_or_none()
            if row is None:
                raise UnknownToken()
            player_id, start = int(row.player_id), row.created_at
            minutes = (
                await conn.execute(
                    select(*_LIMIT).where(
                        GamingLimitRow.player_id == player_id, GamingLimitRow.kind == "session"
                    )
                )
            ).one_or_none()
            net = await self._net(conn, player_id, start)
        limit = None if minutes is None else _state(minutes, now).amount
        return SessionReport(start, limit or 0, max(timedelta(0), now - start), net)

    async def _net(self, conn: AsyncConnection, player_id: int, since: datetime) -> dict[str, int]:
        other = PostingRow.__table__.alias("other")
        other_account = AccountRow.__table__.alias("other_account")
        touches = exists(
            select(other.c.id)
            .join(other_account, other_account.c.id == other.c.account_id)
            .where(other.c.tx_id == PostingRow.tx_id, other_account.c.kind.in_(_STAKE_KINDS))
        )
        flows = (
            select(AccountRow.currency, func.sum(PostingRow.amount))
            .join(AccountRow, AccountRow.id == PostingRow.account_id)
            .join(TransactionRow, TransactionRow.id == PostingRow.tx_id)
            .where(
                AccountRow.owner_id == player_id,
                AccountRow.kind == "wallet",
                TransactionRow.created_at >= since,
                touches,
            )
            .group_by(AccountRow.currency)
        )
        seats = (
            select(AccountRow.currency, func.sum(AccountRow.balance))
            .where(
                AccountRow.owner_id == player_id,
                AccountRow.kind == "seat",
                AccountRow.closed_at.is_(None),
                AccountRow.opened_at >= since,
            )
            .group_by(AccountRow.currency)
        )
        net: dict[str, int] = {}
        for q in (flows, seats):
            for currency, total in (await conn.execute(q)).all():
                net[currency] = net.get(currency, 0) + int(total or 0)
        return {c: v for c, v in sorted(net.items())}

    # -- the console ----------------------------------------------------------------------------------

    async def register(self, *, limit: int = 1000) -> list[dict[str, Any]]:
        """Every player with a limit, a waiting change or an exclusion (in force or past), for the
        console and its CSV report: one row per limit or exclusion, by player name."""
        now = self.clock()
        async with self.db.read() as conn:
            limits = (
                await conn.execute(
                    select(*_LIMIT, PlayerRow.name)
                    .join(PlayerRow, PlayerRow.id == GamingLimitRow.player_id)
                    .order_by(PlayerRow.name_key, GamingLimitRow.kind, GamingLimitRow.currency)
                    .limit(limit)
                )
            ).all()
            exclusions = (
                await conn.execute(
                    select(*_EXCLUSION, PlayerRow.name)
                    .join(PlayerRow, PlayerRow.id == GamingExclusionRow.player_id)
                    .order_by(PlayerRow.name_key, GamingExclusionRow.started_at.desc())
                    .limit(limit)
                )
            ).all()
        rows: list[dict[str, Any]] = []
        for r in limits:
            s, name = _state(r, now), r.name
            if s.amount is None and s.pending_from is None:
                continue
            rows.append({"player_id": str(r.player_id), "player": name, "what": "limit", **s.to_dict()})
        for x in exclusions:
            e, name = _exclusion(x), x.name
            rows.append(
                {
                    "player_id": str(e.player_id),
                    "player": name,
                    "what": "exclusion",
                    "active": e.active(now),
                    **e.to_dict(),
                }
            )
        rows.sort(key=lambda x: (x["player"].lower(), x["what"]))
        return rows


def _ends(kind: object, now: datetime, *, days: object, months: object, permanent: object) -> datetime | None:
    if kind == "cool_off":
        if months is not None or permanent:
            raise InvalidLimit("a cool-off is given in days (1 to 42)")
        n = check_amount(days, what="days")
        if not COOL_OFF_DAYS[0] <= n <= COOL_OFF_DAYS[1]:
            raise InvalidLimit("a cool-off lasts 1 to 42 days (24 hours to 6 weeks)")
        return now + timedelta(days=n)
    if kind == "self_exclusion":
        if days is not None:
            raise InvalidLimit("a self-exclusion is given in months (6 to 120) or as permanent")
        if permanent is True:
            if months is not None:
                raise InvalidLimit("a permanent self-exclusion has no months")
            return None
        if permanent is not False:
            raise InvalidLimit("permanent is true or false")
        n = check_amount(months, what="months")
        if not EXCLUSION_MONTHS[0] <= n <= EXCLUSION_MONTHS[1]:
            raise InvalidLimit("a self-exclusion lasts 6 to 120 months, or is permanent")
        return add_months(now, n)
    raise InvalidLimit(f"unknown exclusion {kind!r} (cool_off or self_exclusion)")
