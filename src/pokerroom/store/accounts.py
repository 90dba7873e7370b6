"""Player accounts: registration, login with argon2 hashes, lock-out, expiring session tokens, roles."""

from __future__ import annotations

import asyncio
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from pokerroom.store.db import Database
from pokerroom.store.errors import (
    AccountLocked,
    BadCredentials,
    InvalidName,
    NameTaken,
    TokenExpired,
    UnknownPlayer,
    UnknownToken,
    WeakPassword,
)
from pokerroom.store.models import AccountRow, AuthSessionRow, PlayerRow
from pokerroom.store.util import Clock, hash_token, utc_now

NAME_RE = re.compile(r"^[A-Za-z0-9_-]{3,20}$")


class Role(StrEnum):
    PLAYER = "player"
    ADMIN = "admin"


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    role: Role
    created_at: datetime

    @property
    def is_admin(self) -> bool:
        return self.role is Role.ADMIN


@dataclass(frozen=True)
class LoginSession:
    """The result of a login. ``token`` is shown once; the store keeps only its SHA-256."""

    token: str = field(repr=False)
    player: Player
    expires_at: datetime


@dataclass(frozen=True)
class LockPolicy:
    """Lock an account after ``max_failures`` failed logins in a row, for ``lock_for``."""

    max_failures: int = 3
    lock_for: timedelta = timedelta(minutes=15)


@dataclass(frozen=True)
class PasswordPolicy:
    """At least ``min_length`` characters (at most ``max_length``), at least one letter and one character
    that is not a letter, and not the account name."""

    min_length: int = 8
    max_length: int = 128

    def check(self, name: str, password: str) -> None:
        if not isinstance(password, str):
            raise WeakPassword("not a string")
        if len(password) < self.min_length:
            raise WeakPassword(f"shorter than {self.min_length} characters")
        if len(password) > self.max_length:
            raise WeakPassword(f"longer than {self.max_length} characters")
        if not any(c.isalpha() for c in password) or all(c.isalpha() for c in password):
            raise WeakPassword("needs at least one letter and one digit or symbol")
        if name.casefold() in password.casefold():
            raise WeakPassword("contains the account name")


def name_key(name: str) -> str:
    """The case-insensitive form of a valid name (names are ASCII, so ``lower`` is enough)."""
    return name.lower()


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise InvalidName("a name has 3-20 characters: letters, digits, '_' and '-'")
    return name


def _player(row: PlayerRow | object) -> Player:
    r: PlayerRow = row  # type: ignore[assignment]
    return Player(id=r.id, name=r.name, role=Role(r.role), created_at=r.created_at)


_COLS = (PlayerRow.id, PlayerRow.name, PlayerRow.role, PlayerRow.created_at)


class Accounts:
    """Registration, login and session tokens. Times come from ``now=`` or the injected ``clock``.

    Hashing (argon2) runs in a worker thread so it does not stall the event loop."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock = utc_now,
        lock_policy: LockPolicy | None = None,
        password_policy: PasswordPolicy | None = None,
        session_ttl: timedelta = timedelta(hours=12),
        hasher: PasswordHasher | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.lock_policy = lock_policy or LockPolicy()
        self.password_policy = password_policy or PasswordPolicy()
        self.session_ttl = session_ttl
        self.hasher = hasher or PasswordHasher()
        self._dummy_hash: str | None = None

    async def register(
        self, name: str, password: str, *, role: Role = Role.PLAYER, now: datetime | None = None
    ) -> Player:
        """Create an account (and its loyalty-points ledger account). Raises InvalidName, WeakPassword,
        NameTaken."""
        check_name(name)
        self.password_policy.check(name, password)
        now = now or self.clock()
        pw_hash = await asyncio.to_thread(self.hasher.hash, password)
        try:
            async with self.db.write() as conn:
                pid = (
                    await conn.execute(
                        insert(PlayerRow)
                        .values(
                            name=name,
                            name_key=name_key(name),
                            password_hash=pw_hash,
                            role=Role(role).value,
                            failed_logins=0,
                            created_at=now,
                        )
                        .returning(PlayerRow.id)
                    )
                ).scalar_one()
                # Every player has a loyalty-points account from the start (hand settlements credit it).
                await conn.execute(
                    insert(AccountRow).values(
                        kind="points",
                        currency="PTS",
                        owner_id=pid,
                        key=f"points/{pid}",
                        balance=0,
                        opened_at=now,
                    )
                )
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken") from None
        return Player(id=pid, name=name, role=Role(role), created_at=now)

    async def login(self, name: str, password: str, *, now: datetime | None = None) -> LoginSession:
        """Check the password and open a session. Raises BadCredentials or AccountLocked."""
        now = now or self.clock()
        if not isinstance(name, str) or not NAME_RE.match(name) or not isinstance(password, str):
            raise BadCredentials()
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(
                        *_COLS, PlayerRow.password_hash, PlayerRow.locked_until, PlayerRow.failed_logins
                    ).where(PlayerRow.name_key == name_key(name))
                )
            ).one_or_none()
        if row is None:
            await asyncio.to_thread(self._verify, self._dummy(), password)  # same cost as a real check
            raise BadCredentials()
        if row.locked_until is not None and row.locked_until > now:
            raise AccountLocked(row.locked_until)
        ok = await asyncio.to_thread(self._verify, row.password_hash, password)
        if not ok:
            await self._failed(row.id, now)
        token = secrets.token_urlsafe(32)
        expires = now + self.session_ttl
        async with self.db.write() as conn:
            await conn.execute(
                update(PlayerRow).where(PlayerRow.id == row.id).values(failed_logins=0, locked_until=None)
            )
            await conn.execute(
                insert(AuthSessionRow).values(
                    token_hash=hash_token(token), player_id=row.id, created_at=now, expires_at=expires
                )
            )
            if self.hasher.check_needs_rehash(row.password_hash):
                new_hash = self.hasher.hash(password)
                await conn.execute(
                    update(PlayerRow).where(PlayerRow.id == row.id).values(password_hash=new_hash)
                )
        return LoginSession(token=token, player=_player(row), expires_at=expires)

    async def _failed(self, player_id: int, now: datetime) -> None:
        policy = self.lock_policy
        async with self.db.write() as conn:
            # A lock that has run out starts a fresh count.
            await conn.execute(
                update(PlayerRow)
                .where(PlayerRow.id == player_id, PlayerRow.locked_until <= now)
                .values(failed_logins=0, locked_until=None)
            )
            failures = (
                await conn.execute(
                    update(PlayerRow)
                    .where(PlayerRow.id == player_id)
                    .values(failed_logins=PlayerRow.failed_logins + 1)
                    .returning(PlayerRow.failed_logins)
                )
            ).scalar_one()
            if failures >= policy.max_failures:
                until = now + policy.lock_for
                await conn.execute(
                    update(PlayerRow)
                    .where(PlayerRow.id == player_id)
                    .values(locked_until=until, failed_logins=0)
                )
        raise BadCredentials()

    def _verify(self, pw_hash: str, password: str) -> bool:
        try:
            return self.hasher.verify(pw_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def _dummy(self) -> str:
        if self._dummy_hash is None:
            self._dummy_hash = self.hasher.hash(secrets.token_hex(16))
        return self._dummy_hash

    async def authenticate(self, token: str, *, now: datetime | None = None) -> Player:
        """The player a session token belongs to. Raises UnknownToken or TokenExpired."""
        now = now or self.clock()
        if not isinstance(token, str) or not token:
            raise UnknownToken()
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(*_COLS, AuthSessionRow.expires_at)
                    .join(AuthSessionRow, AuthSessionRow.player_id == PlayerRow.id)
                    .where(AuthSessionRow.token_hash == hash_token(token))
                )
            ).one_or_none()
        if row is None:
            raise UnknownToken()
        if row.expires_at <= now:
            async with self.db.write() as conn:
                await conn.execute(
                    delete(AuthSessionRow).where(AuthSessionRow.token_hash == hash_token(token))
                )
            raise TokenExpired()
        return _player(row)

    async def logout(self, token: str) -> None:
        """End a session. Raises UnknownToken if there is none."""
        async with self.db.write() as conn:
            n = (
                await conn.execute(
                    delete(AuthSessionRow).where(AuthSessionRow.token_hash == hash_token(token))
                )
            ).rowcount
        if not n:
            raise UnknownToken()

    async def purge_expired_sessions(self, *, now: datetime | None = None) -> int:
        """Delete expired session rows; returns how many."""
        now = now or self.clock()
        async with self.db.write() as conn:
            return int(
                (await conn.execute(delete(AuthSessionRow).where(AuthSessionRow.expires_at <= now))).rowcount
            )

    async def get(self, player_id: int) -> Player:
        async with self.db.read() as conn:
            row = (await conn.execute(select(*_COLS).where(PlayerRow.id == player_id))).one_or_none()
        if row is None:
            raise UnknownPlayer(player_id)
        return _player(row)

    async def find(self, name: str) -> Player:
        """The player with this name (case-insensitive). Raises UnknownPlayer."""
        if not isinstance(name, str) or not NAME_RE.match(name):
            raise UnknownPlayer(name)
        async with self.db.read() as conn:
            row = (
                await conn.execute(select(*_COLS).where(PlayerRow.name_key == name_key(name)))
            ).one_or_none()
        if row is None:
            raise UnknownPlayer(name)
        return _player(row)

    async def set_role(self, player_id: int, role: Role) -> Player:
        async with self.db.write() as conn:
            n = (
                await conn.execute(
                    update(PlayerRow).where(PlayerRow.id == player_id).values(role=Role(role).value)
                )
            ).rowcount
        if not n:
            raise UnknownPlayer(player_id)
        return await self.get(player_id)

    async def unlock(self, player_id: int) -> None:
        """Lift a lock-out now (an admin action)."""
        async with self.db.write() as conn:
            n = (
                await conn.execute(
                    update(PlayerRow)
                    .where(PlayerRow.id == player_id)
                    .values(failed_logins=0, locked_until=None)
                )
            ).rowcount
        if not n:
            raise UnknownPlayer(player_id)

    async def count(self) -> int:
        async with self.db.read() as conn:
            return int((await conn.execute(select(func.count()).select_from(PlayerRow))).scalar_one())
