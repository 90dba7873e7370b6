"""Player accounts: registration with a password policy (NIST SP 800-63B), login with argon2 hashes,
a lock after repeated failures that a known device passes, expiring session tokens, roles."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import secrets
import unicodedata
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import NoReturn

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from zxcvbn import zxcvbn

from pokerroom.store.db import Database
from pokerroom.store.errors import (
    AccountLocked,
    BadCredentials,
    InvalidName,
    NameTaken,
    PasswordResetRequired,
    ReservedName,
    ServiceNameTaken,
    TokenExpired,
    UnknownPlayer,
    UnknownToken,
    WeakPassword,
    WrongPassword,
)
from pokerroom.store.models import AccountRow, AuthSessionRow, PlayerRow
from pokerroom.store.util import Clock, hash_token, utc_now

NAME_RE = re.compile(r"^[A-Za-z0-9_-]{3,20}$")
SERVICE_PREFIX = "bot-"  # names kept for the room's own bots (``bot-t3-2``): no player registers one


class Role(StrEnum):
    PLAYER = "player"
    ADMIN = "admin"  # the console: everything
    SUPPORT = "support"  # the console: read-only, plus locking an account (kept in ``players.staff``)


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    role: Role
    created_at: datetime

    @property
    def is_admin(self) -> bool:
        return self.role is Role.ADMIN

    @property
    def is_staff(self) -> bool:
        """May open the console (an administrator or support)."""
        return self.role in (Role.ADMIN, Role.SUPPORT)


@dataclass(frozen=True)
class LoginSession:
    """The result of a login. ``token`` is shown once; the store keeps only its SHA-256. ``device`` is a
    known-device token for this account (a cookie of the browser that logged in; see ``Accounts.login``)."""

    token: str = field(repr=False)
    player: Player
    expires_at: datetime
    device: str = field(default="", repr=False)


@dataclass(frozen=True)
class SessionInfo:
    """A valid session: its player and when it expires."""

    player: Player
    expires_at: datetime


@dataclass(frozen=True)
class LockPolicy:
    """Lock a name after ``max_failures`` failed logins in a row, for ``lock_for``, against every device
    it was never logged in from (a known device still passes; an operator lifts the lock with ``unlock``).
    A known device stops being trusted after ``device_failures`` wrong passwords in a row."""

    max_failures: int = 5
    lock_for: timedelta = timedelta(minutes=15)
    device_failures: int = 5


def normalize_password(password: str) -> str:
    """NFKC, as NIST SP 800-63B asks of Unicode passwords: the same password typed on two keyboards (a
    composed or decomposed accent, a full-width letter) is the same password."""
    return unicodedata.normalize("NFKC", password)


@dataclass(frozen=True)
class PasswordPolicy:
    """NIST SP 800-63B (revision 4) for a password that is the only authentication factor: at least
    ``min_length`` characters (Unicode code points, after NFKC), up to at least 64 allowed (``max_length``),
    any characters, no composition rules (no "a digit and a symbol"), and no password that is common, was
    in a breach, or is guessable from words, names, keyboard patterns, sequences, repeats, dates or this
    context (the account name, ``context``). That check is zxcvbn's estimate (its dictionaries include the
    most frequent passwords of public breach corpora; it ships in the package, nothing is downloaded):
    a password it expects to fall in fewer than about 10^8 guesses (``min_score`` 3) is refused."""

    min_length: int = 15
    max_length: int = 128
    min_score: int = 3
    context: tuple[str, ...] = ("pokerroom", "poker", "holdem", "omaha")

    def check(self, name: str, password: str) -> None:
        if not isinstance(password, str):
            raise WeakPassword("not a string")
        text = normalize_password(password)
        if len(text) < self.min_length:
            raise WeakPassword(
                f"use at least {self.min_length} characters (a few words you will remember make a good one)"
            )
        if len(text) > self.max_length:
            raise WeakPassword(f"use at most {self.max_length} characters")
        result = zxcvbn(text, user_inputs=[name, *self.context])
        if int(result["score"]) < self.min_score:
            feedback = result.get("feedback") or {}
            why = str(feedback.get("warning") or "").strip() or "It is made of common words or patterns."
            tips = " ".join(str(t) for t in feedback.get("suggestions") or [] if t)
            raise WeakPassword(f"too easy to guess. {why} {tips}".strip())


def name_key(name: str) -> str:
    """The case-insensitive form of a valid name (names are ASCII, so ``lower`` is enough)."""
    return name.lower()


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise InvalidName("a name has 3-20 characters: letters, digits, '_' and '-'")
    return name


def reserved_name(name: str) -> bool:
    """A name kept for the room's own bots (service accounts)."""
    return name_key(name).startswith(SERVICE_PREFIX)


class Kind(StrEnum):
    """``players.kind``: an account a person registered, or one of the room's own bots."""

    PLAYER = "player"
    SERVICE = "service"


_TYPED = 2
NO_PASSWORD = "!no-password"  # a password hash no password verifies against (the room's own bots)


@dataclass(slots=True)
class _Ghost:
    failures: int = 0
    locked_until: datetime | None = None


def device_token(name: str, password_hash: str, nonce: str) -> str:
    """A known-device token: ``d1.<nonce>.<mac>``, the MAC keyed by the account's password hash (secret to
    the store, so only the store can make one; a new password makes every old one invalid)."""
    mac = hmac.new(password_hash.encode(), f"device:{name_key(name)}:{nonce}".encode(), hashlib.sha256)
    return f"d1.{nonce}.{mac.hexdigest()[:32]}"


def _device_nonce(token: str) -> str | None:
    parts = token.split(".") if isinstance(token, str) and len(token) <= 80 else []
    if len(parts) != 3 or parts[0] != "d1" or not parts[1] or not parts[2]:
        return None
    return parts[1]


def _role(role: str, staff: str | None) -> Role:
    return Role.SUPPORT if role == Role.PLAYER.value and staff == Role.SUPPORT.value else Role(role)


def _player(row: PlayerRow | object) -> Player:
    r: PlayerRow = row  # type: ignore[assignment]
    return Player(id=r.id, name=r.name, role=_role(r.role, r.staff), created_at=r.created_at)


def _role_values(role: Role) -> dict[str, str | None]:
    """The columns of a role: ``players.role`` keeps its original CHECK (player, admin); support is
    ``staff`` (migration 0008)."""
    role = Role(role)
    if role is Role.SUPPORT:
        return {"role": Role.PLAYER.value, "staff": Role.SUPPORT.value}
    return {"role": role.value, "staff": None}


_COLS = (PlayerRow.id, PlayerRow.name, PlayerRow.role, PlayerRow.staff, PlayerRow.created_at)


class Accounts:
    """Registration, login and session tokens. Times come from ``now=`` or the injected ``clock``.

    Hashing (argon2) runs in a worker thread so it does not stall the event loop.

    A session ends ``session_ttl`` after the login, or sooner when it is not used for ``session_idle``
    (``None``: never for that): a request that carries its token, or a WebSocket open with it (the server
    looks those up every 30 seconds: ``ended_sessions``), is a use."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock = utc_now,
        lock_policy: LockPolicy | None = None,
        password_policy: PasswordPolicy | None = None,
        session_ttl: timedelta = timedelta(hours=12),
        session_idle: timedelta | None = timedelta(minutes=30),
        hasher: PasswordHasher | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.lock_policy = lock_policy or LockPolicy()
        self.password_policy = password_policy or PasswordPolicy()
        self.session_ttl = session_ttl
        self.session_idle = session_idle
        self.hasher = hasher or PasswordHasher()
        self._dummy_hash: str | None = None
        # Names with no account fail and lock exactly like names with one (nothing tells them apart); their
        # counts live here. Bounded: the least recently failed are forgotten first.
        self._ghosts: OrderedDict[str, _Ghost] = OrderedDict()
        self._device_misses: OrderedDict[str, int] = OrderedDict()  # device nonce -> wrong passwords in a row

    async def register(
        self, name: str, password: str, *, role: Role = Role.PLAYER, now: datetime | None = None
    ) -> Player:
        """Create an account (and its loyalty-points ledger account). Raises InvalidName, ReservedName (a
        name kept for the room's bots: ``bot-...``), WeakPassword, NameTaken."""
        check_name(name)
        if reserved_name(name):
            raise ReservedName(f"names beginning with {SERVICE_PREFIX!r} are kept for the room's own bots")
        self.password_policy.check(name, password)
        now = now or self.clock()
        pw_hash = await asyncio.to_thread(self.hasher.hash, normalize_password(password))
        try:
            async with self.db.write() as conn:
                pid = (
                    await conn.execute(
                        insert(PlayerRow)
                        .values(
                            name=name,
                            name_key=name_key(name),
                            password_hash=pw_hash,
                            **_role_values(role),
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

    async def service_account(self, name: str, *, now: datetime | None = None) -> Player:
        """The account of one of the room's own bots: created on first use with no password at all (its
        hash is not an argon2 hash, so no password ever matches it: nobody can log in as it) and marked as
        a service account (``players.kind``), found after that. The room opens its sessions with
        :meth:`open_session`, with no password round trip.

        Never a player's account: its name must be one kept for the bots (``bot-...``; else ReservedName),
        which registration refuses; an account of that name that is not a service account (a player's,
        registered before the names were kept) raises ServiceNameTaken."""
        check_name(name)
        if not reserved_name(name):
            raise ReservedName(f"a service account's name begins with {SERVICE_PREFIX!r}")
        found = await self._service(name)
        if found is not None:
            return found
        now = now or self.clock()
        try:
            async with self.db.write() as conn:
                pid = (
                    await conn.execute(
                        insert(PlayerRow)
                        .values(
                            name=name,
                            name_key=name_key(name),
                            password_hash=NO_PASSWORD,
                            role=Role.PLAYER.value,
                            kind=Kind.SERVICE.value,
                            failed_logins=0,
                            created_at=now,
                        )
                        .returning(PlayerRow.id)
                    )
                ).scalar_one()
                points = {"kind": "points", "currency": "PTS", "owner_id": pid, "key": f"points/{pid}"}
                await conn.execute(insert(AccountRow).values(**points, balance=0, opened_at=now))
        except IntegrityError:  # made meanwhile (by another process)
            found = await self._service(name)
            if found is None:
                raise
            return found
        return Player(id=pid, name=name, role=Role.PLAYER, created_at=now)

    async def _service(self, name: str) -> Player | None:
        """The service account called ``name``, None if there is no account of that name; ServiceNameTaken
        if the account of that name is not a service account."""
        async with self.db.read() as conn:
            row = (
                await conn.execute(select(*_COLS, PlayerRow.kind).where(PlayerRow.name_key == name_key(name)))
            ).one_or_none()
        if row is None:
            return None
        if row.kind != Kind.SERVICE.value:
            raise ServiceNameTaken(
                f"the name {row.name!r} belongs to a player's account: the room does not use it for its bot"
            )
        return _player(row)

    async def is_service(self, player_id: int) -> bool:
        """Whether the account is a service account (one of the room's own bots). Raises UnknownPlayer."""
        async with self.db.read() as conn:
            kind = (
                await conn.execute(select(PlayerRow.kind).where(PlayerRow.id == player_id))
            ).scalar_one_or_none()
        if kind is None:
            raise UnknownPlayer(player_id)
        return bool(kind == Kind.SERVICE.value)

    async def open_session(self, player_id: int, *, now: datetime | None = None) -> LoginSession:
        """A session for a player without his password: for the room's own bots (``service_account``),
        which the server starts itself. Never reachable from a client."""
        now = now or self.clock()
        player = await self.get(player_id)
        token = secrets.token_urlsafe(32)
        expires = now + self.session_ttl
        async with self.db.write() as conn:
            await conn.execute(
                insert(AuthSessionRow).values(
                    token_hash=hash_token(token),
                    player_id=player_id,
                    created_at=now,
                    expires_at=expires,
                    last_seen=now,
                )
            )
        return LoginSession(token=token, player=player, expires_at=expires, device="")

    async def login(
        self,
        name: str,
        password: str,
        *,
        devices: Sequence[str] = (),
        gate: Callable[[bool], None] | None = None,
        admit: Callable[[int], Awaitable[None]] | None = None,
        now: datetime | None = None,
    ) -> LoginSession:
        """Check the password and open a session. Raises BadCredentials or AccountLocked.

        ``devices``: known-device tokens the client holds (from earlier logins). One that belongs to this
        account lets the login through a lock (it still needs the right password). A name with no account
        answers exactly as a wrong password does, and locks the same way: the same statements, one argon2
        check, the same errors. ``gate(known_device)`` runs before the lock and the password are checked
        (the server's throttle: it raises to refuse the attempt). ``admit(player_id)`` runs once the password
        is right, before a session is opened (responsible gaming: it raises for a player in a cool-off or
        a self-exclusion, store/gaming.py)."""
        now = now or self.clock()
        if not isinstance(name, str) or not NAME_RE.match(name) or not isinstance(password, str):
            raise BadCredentials()
        key = name_key(name)
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(
                        *_COLS,
                        PlayerRow.password_hash,
                        PlayerRow.locked_until,
                        PlayerRow.failed_logins,
                        PlayerRow.locked_by,
                        PlayerRow.reset_hash,
                    ).where(PlayerRow.name_key == key)
                )
            ).one_or_none()
        pw_hash = row.password_hash if row is not None else self._dummy()
        device = self._known_device(key, pw_hash, devices)  # never one for the dummy hash
        if gate is not None:
            gate(device is not None)
        if row is not None and row.locked_by is not None:
            raise AccountLocked(None, by_operator=True)
        if device is None:
            until = row.locked_until if row is not None else self._ghost_lock(key, now)
            if until is not None and until > now:
                raise AccountLocked(until)
        if row is not None and row.reset_hash is not None and row.password_hash == NO_PASSWORD:
            raise PasswordResetRequired()  # (no password can match: the client shows the reset page)
        verdict = await asyncio.to_thread(self._check, pw_hash, password)
        if row is None or not verdict:
            if device is not None:
                self._device_miss(device)
            await self._failed(key, now)
        if device is not None:
            self._device_misses.pop(device, None)
        if admit is not None:
            await admit(row.id)
        token = secrets.token_urlsafe(32)
        expires = now + self.session_ttl
        async with self.db.write() as conn:
            await conn.execute(
                update(PlayerRow).where(PlayerRow.id == row.id).values(failed_logins=0, locked_until=None)
            )
            await conn.execute(
                insert(AuthSessionRow).values(
                    token_hash=hash_token(token),
                    player_id=row.id,
                    created_at=now,
                    expires_at=expires,
                    last_seen=now,
                )
            )
            if verdict == _TYPED or self.hasher.check_needs_rehash(pw_hash):
                pw_hash = self.hasher.hash(normalize_password(password))
                await conn.execute(
                    update(PlayerRow).where(PlayerRow.id == row.id).values(password_hash=pw_hash)
                )
        new_device = device_token(name, pw_hash, device or secrets.token_urlsafe(12))
        return LoginSession(token=token, player=_player(row), expires_at=expires, device=new_device)

    def _known_device(self, key: str, pw_hash: str, devices: Sequence[str]) -> str | None:
        """The nonce of the first of ``devices`` made for this account and still trusted."""
        for token in list(devices)[:8]:
            nonce = _device_nonce(token)
            if nonce is None or self._device_misses.get(nonce, 0) >= self.lock_policy.device_failures:
                continue
            if hmac.compare_digest(device_token(key, pw_hash, nonce), token):
                return nonce
        return None

    def _device_miss(self, nonce: str) -> None:
        self._device_misses[nonce] = self._device_misses.get(nonce, 0) + 1
        self._device_misses.move_to_end(nonce)
        while len(self._device_misses) > 100_000:
            self._device_misses.popitem(last=False)

    def _ghost_lock(self, key: str, now: datetime) -> datetime | None:
        ghost = self._ghosts.get(key)
        return None if ghost is None else ghost.locked_until

    def _ghost_fail(self, key: str, now: datetime) -> int:
        ghost = self._ghosts.get(key)
        if ghost is None:
            ghost = self._ghosts[key] = _Ghost()
        if ghost.locked_until is not None and ghost.locked_until <= now:  # a lock that has run out
            ghost.failures, ghost.locked_until = 0, None  # starts a fresh count
        ghost.failures += 1
        self._ghosts.move_to_end(key)
        while len(self._ghosts) > 100_000:
            self._ghosts.popitem(last=False)
        return ghost.failures

    async def _failed(self, key: str, now: datetime) -> NoReturn:
        """Count a failure against the name ``key`` (lock it at ``max_failures``); raises BadCredentials.
        The statements are the same whether the name has an account or not (they just match no row)."""
        policy = self.lock_policy
        async with self.db.write() as conn:
            # A lock that has run out starts a fresh count.
            await conn.execute(
                update(PlayerRow)
                .where(PlayerRow.name_key == key, PlayerRow.locked_until <= now)
                .values(failed_logins=0, locked_until=None)
            )
            failures = (
                await conn.execute(
                    update(PlayerRow)
                    .where(PlayerRow.name_key == key)
                    .values(failed_logins=PlayerRow.failed_logins + 1)
                    .returning(PlayerRow.failed_logins)
                )
            ).scalar_one_or_none()
            if failures is None:
                failures = self._ghost_fail(key, now)
            if failures >= policy.max_failures:
                until = now + policy.lock_for
                await conn.execute(
                    update(PlayerRow)
                    .where(PlayerRow.name_key == key)
                    .values(locked_until=until, failed_logins=0)
                )
                ghost = self._ghosts.get(key)
                if ghost is not None:
                    ghost.failures, ghost.locked_until = 0, until
        raise BadCredentials()

    def _check(self, pw_hash: str, password: str) -> int:
        """The password against the hash: 0 (wrong), 1 (its NFKC form matches) or ``_TYPED`` (the form
        typed matches: a hash made before passwords were normalized; it is made again)."""
        text = normalize_password(password)
        if self._verify(pw_hash, text):
            return 1
        return _TYPED if text != password and self._verify(pw_hash, password) else 0

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
        return (await self.session(token, now=now)).player

    async def session(self, token: str, *, now: datetime | None = None) -> SessionInfo:
        """The session of a token: its player and expiry. Raises UnknownToken or TokenExpired."""
        now = now or self.clock()
        if not isinstance(token, str) or not token:
            raise UnknownToken()
        key = hash_token(token)
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(
                        *_COLS,
                        AuthSessionRow.expires_at,
                        AuthSessionRow.created_at.label("session_created"),
                        AuthSessionRow.last_seen,
                    )
                    .join(AuthSessionRow, AuthSessionRow.player_id == PlayerRow.id)
                    .where(AuthSessionRow.token_hash == key)
                )
            ).one_or_none()
        if row is None:
            raise UnknownToken()
        seen = row.last_seen or row.session_created
        ended = self._ended(row.expires_at, seen, now)
        if ended is not None:
            async with self.db.write() as conn:
                await conn.execute(delete(AuthSessionRow).where(AuthSessionRow.token_hash == key))
            raise TokenExpired(ended)
        if self._stale(seen, now):
            await self._touch([key], now)
        return SessionInfo(_player(row), row.expires_at)

    def _ended(self, expires_at: datetime, last_seen: datetime, now: datetime) -> str | None:
        """Why a session is over (its expiry passed, or it went unused for ``session_idle``), or None."""
        if expires_at <= now:
            return "session token expired"
        idle = self.session_idle
        if idle is not None and last_seen + idle <= now:
            minutes = f"{idle.total_seconds() / 60:g}"
            return f"session token expired: unused for {minutes} minutes"
        return None

    def _stale(self, last_seen: datetime, now: datetime) -> bool:
        """Whether a use at ``now`` is worth writing down: a session's ``last_seen`` is kept to within a
        thirtieth of the idle timeout (at most a minute), not written at every request."""
        idle = self.session_idle
        return idle is not None and now - last_seen >= min(idle / 30, timedelta(minutes=1))

    async def _touch(self, keys: Sequence[str], now: datetime) -> None:
        async with self.db.write() as conn:
            await conn.execute(
                update(AuthSessionRow).where(AuthSessionRow.token_hash.in_(keys)).values(last_seen=now)
            )

    async def ended_sessions(self, tokens: Iterable[str], *, now: datetime | None = None) -> dict[str, str]:
        """Which of ``tokens`` no longer open a session: token -> ``"revoked"`` (no such session: logged
        out, removed) or ``"expired"`` (past its expiry, or unused for the idle timeout); the live ones are
        left out. One query per 500 tokens, where :meth:`session` would take one each (the server re-checks
        every open socket's session). The tokens are those of open sockets: the live ones are in use, and
        their ``last_seen`` moves on (a player at a table is not idle)."""
        now = now or self.clock()
        tokens = list(tokens)
        by_hash = {hash_token(t): t for t in tokens if isinstance(t, str) and t}
        ended: dict[str, str] = {t: "revoked" for t in tokens if not (isinstance(t, str) and t)}
        keys = list(by_hash)
        found: dict[str, tuple[datetime, datetime]] = {}
        for k in range(0, len(keys), 500):
            if k:
                await asyncio.sleep(0)  # (the loop goes on between the chunks: each takes milliseconds)
            async with self.db.read() as conn:
                rows = await conn.execute(
                    select(
                        AuthSessionRow.token_hash,
                        AuthSessionRow.expires_at,
                        AuthSessionRow.created_at,
                        AuthSessionRow.last_seen,
                    ).where(AuthSessionRow.token_hash.in_(keys[k : k + 500]))
                )
                found.update(
                    {row.token_hash: (row.expires_at, row.last_seen or row.created_at) for row in rows}
                )
        stale: list[str] = []
        for key, token in by_hash.items():
            if key not in found:
                ended[token] = "revoked"
                continue
            expires, seen = found[key]
            if self._ended(expires, seen, now) is not None:
                ended[token] = "expired"
            elif self._stale(seen, now):
                stale.append(key)
        for k in range(0, len(stale), 500):
            await self._touch(stale[k : k + 500], now)
        return ended

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
        """Delete expired session rows (past their expiry, or unused for the idle timeout); returns how
        many."""
        now = now or self.clock()
        over = AuthSessionRow.expires_at <= now
        if self.session_idle is not None:
            seen = func.coalesce(AuthSessionRow.last_seen, AuthSessionRow.created_at)
            over = or_(over, seen <= now - self.session_idle)
        async with self.db.write() as conn:
            return int((await conn.execute(delete(AuthSessionRow).where(over))).rowcount)

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
                    update(PlayerRow).where(PlayerRow.id == player_id).values(**_role_values(role))
                )
            ).rowcount
        if not n:
            raise UnknownPlayer(player_id)
        return await self.get(player_id)

    async def set_password(self, player_id: int, password: str) -> None:
        """Give an account a new password (it must meet the policy). Every known-device token of the
        account stops working. Raises WeakPassword, UnknownPlayer."""
        player = await self.get(player_id)
        self.password_policy.check(player.name, password)
        pw_hash = await asyncio.to_thread(self.hasher.hash, normalize_password(password))
        async with self.db.write() as conn:
            await conn.execute(
                update(PlayerRow).where(PlayerRow.id == player_id).values(password_hash=pw_hash)
            )

    async def check_password(self, player_id: int, password: str, *, now: datetime | None = None) -> None:
        """A logged-in player's current password, asked again before a change to his account. A wrong one
        raises WrongPassword and counts as a failed login (the lock of :class:`LockPolicy` applies); a
        locked account raises AccountLocked. Raises UnknownPlayer."""
        now = now or self.clock()
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(PlayerRow.name_key, PlayerRow.password_hash, PlayerRow.locked_until).where(
                        PlayerRow.id == player_id
                    )
                )
            ).one_or_none()
        if row is None:
            raise UnknownPlayer(player_id)
        if row.locked_until is not None and row.locked_until > now:
            raise AccountLocked(row.locked_until)
        if not isinstance(password, str) or not await asyncio.to_thread(
            self._check, row.password_hash, password
        ):
            try:
                await self._failed(row.name_key, now)
            except BadCredentials:
                raise WrongPassword() from None

    async def change_password(
        self,
        player_id: int,
        old: str,
        new: str,
        *,
        keep_token: str | None = None,
        now: datetime | None = None,
    ) -> int:
        """A player's own password change: ``old`` must be his current password (else WrongPassword),
        ``new`` must meet the policy (else WeakPassword; checked first, so a weak one costs no attempt).
        Every session of the account ends but the one of ``keep_token`` (the one asking), and every
        known-device token; returns how many sessions ended."""
        player = await self.get(player_id)
        self.password_policy.check(player.name, new)
        await self.check_password(player_id, old, now=now)
        await self.set_password(player_id, new)
        keep = hash_token(keep_token) if isinstance(keep_token, str) and keep_token else ""
        async with self.db.write() as conn:
            ended = await conn.execute(
                delete(AuthSessionRow).where(
                    AuthSessionRow.player_id == player_id, AuthSessionRow.token_hash != keep
                )
            )
            await conn.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(failed_logins=0))
        return int(ended.rowcount)

    async def end_sessions(self, player_id: int) -> int:
        """End every session of an account (after a password reset); returns how many."""
        async with self.db.write() as conn:
            ended = await conn.execute(delete(AuthSessionRow).where(AuthSessionRow.player_id == player_id))
        return int(ended.rowcount)

    async def unlock(self, player_id: int) -> None:
        """Lift a lock-out now (an operator's action)."""
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
