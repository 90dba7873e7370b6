"""Operator API keys (issue 29; docs/operator-api.md): scoped keys a club's website uses instead of an
administrator's login, and the one-time sign-on links they make.

A key is ``prk_<prefix>_<secret>``: the prefix (8 hex digits) names the key in lists and logs, the secret is
32 random bytes (256 bits) from ``secrets``. The database keeps the SHA-256 of the whole key only. A plain,
fast hash is enough here (unlike passwords): nobody can guess 256 random bits, so a slow hash would only
cost CPU on every call; the hash is there so that a copy of the database gives nobody a working key.

A sign-on link's token is 32 random bytes too, kept as its SHA-256, valid for a short time and once.
"""

from __future__ import annotations

import base64
import re
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from pokerroom.store.db import Database
from pokerroom.store.errors import InvalidName, StoreError
from pokerroom.store.models import ApiKeyRow, SsoTokenRow
from pokerroom.store.util import Clock, hash_token, utc_now

__all__ = [
    "SCOPES",
    "ApiKey",
    "ApiKeyNameTaken",
    "ApiKeyPolicy",
    "ApiKeyRevoked",
    "ApiKeys",
    "BadApiKey",
    "InvalidScope",
    "NewApiKey",
    "SsoLinkInvalid",
    "UnknownApiKey",
]

# What a key may do (docs/operator-api.md, "Scopes").
SCOPES = ("accounts", "balances", "cashier", "tournaments", "sso")
KEY_MARK = "prk"  # the first part of every key: "pokerroom key"
KEY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._-]{1,31}$")
TOUCH_EVERY = timedelta(minutes=1)  # ``last_used_at`` is written at most this often per key
SSO_KEEP = timedelta(days=1)  # used or expired sign-on tokens are deleted after this
RandomBytes = Callable[[int], bytes]


class BadApiKey(StoreError):
    """No key with this prefix, or the secret does not match (not told apart)."""

    code = "bad_api_key"

    def __init__(self) -> None:
        super().__init__("unknown or malformed API key")


class ApiKeyRevoked(StoreError):
    """A key that was revoked in the console: it works no more."""

    code = "api_key_revoked"

    def __init__(self, key: ApiKey) -> None:
        super().__init__(f"the API key {key.name!r} was revoked")
        self.key = key


class InvalidScope(StoreError):
    """A key asked for with no scope, or with a scope that does not exist."""

    code = "invalid_scope"


class ApiKeyNameTaken(StoreError):
    """Another key (revoked ones included) has this name, compared case-insensitively."""

    code = "api_key_name_taken"


class UnknownApiKey(StoreError):
    code = "unknown_api_key"

    def __init__(self, key_id: object) -> None:
        super().__init__(f"no API key has the id {key_id!r}")
        self.key_id = key_id


class SsoLinkInvalid(StoreError):
    """A sign-on link that was used already, has expired, or was never made."""

    code = "sso_link_invalid"

    def __init__(self) -> None:
        super().__init__("this sign-on link was used already or has expired: ask for a new one")


@dataclass(frozen=True)
class ApiKeyPolicy:
    """The operator API's numbers (``[operator_api]`` of the configuration): calls a second per key
    (``rate``) in bursts of ``burst``; how long a sign-on link works (``sso_seconds``)."""

    rate: float = 5.0
    burst: float = 20.0
    sso_seconds: int = 60


@dataclass(frozen=True)
class ApiKey:
    id: int
    name: str
    prefix: str
    scopes: tuple[str, ...]
    created_at: datetime
    created_by: str
    created_by_id: int | None  # the administrator who made it: the cashier's decisions are made in his name
    last_used_at: datetime | None
    revoked_at: datetime | None
    revoked_by: str | None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    def to_dict(self) -> dict[str, Any]:
        def when(t: datetime | None) -> str | None:
            return None if t is None else t.isoformat()

        return {
            "id": str(self.id),
            "name": self.name,
            "prefix": self.prefix,
            "scopes": list(self.scopes),
            "created_at": self.created_at.isoformat(),
            "created_by": self.created_by,
            "last_used_at": when(self.last_used_at),
            "revoked_at": when(self.revoked_at),
            "revoked_by": self.revoked_by,
        }


@dataclass(frozen=True)
class NewApiKey:
    """A key just made: ``secret`` is the whole key, shown this once and never again."""

    key: ApiKey
    secret: str


def _key(r: Any) -> ApiKey:
    return ApiKey(
        id=int(r.id),
        name=r.name,
        prefix=r.prefix,
        scopes=tuple(r.scopes.split()),
        created_at=r.created_at,
        created_by=r.created_by,
        created_by_id=None if r.created_by_id is None else int(r.created_by_id),
        last_used_at=r.last_used_at,
        revoked_at=r.revoked_at,
        revoked_by=r.revoked_by,
    )


def check_scopes(scopes: Iterable[object]) -> tuple[str, ...]:
    """The scopes in :data:`SCOPES` order; InvalidScope for none, or for one that does not exist."""
    asked = list(scopes)
    unknown = [s for s in asked if s not in SCOPES]
    if unknown or not asked:
        raise InvalidScope(f"scopes are one or more of {', '.join(SCOPES)} (not {unknown or 'none'})")
    return tuple(s for s in SCOPES if s in asked)


def _prefix(token: str) -> str | None:
    """The prefix of a well-formed key, else None."""
    parts = token.split("_", 2) if isinstance(token, str) and len(token) <= 200 else []
    if len(parts) != 3 or parts[0] != KEY_MARK or not re.fullmatch(r"[0-9a-f]{8}", parts[1]) or not parts[2]:
        return None
    return parts[1]


def _urlsafe(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class ApiKeys:
    """Keys: make, list, revoke, authenticate; and the one-time sign-on links. ``random_bytes`` is
    ``secrets.token_bytes`` (tests may inject their own); times come from ``clock``."""

    def __init__(
        self, db: Database, *, clock: Clock = utc_now, random_bytes: RandomBytes | None = None
    ) -> None:
        self.db = db
        self.clock = clock
        self.random_bytes: RandomBytes = random_bytes or secrets.token_bytes

    async def create(
        self, name: str, scopes: Iterable[object], *, created_by: str, created_by_id: int | None = None
    ) -> NewApiKey:
        """A new key; its whole text is in the answer only. InvalidName (2-32 characters: letters,
        digits, space, ``.``, ``_``, ``-``), InvalidScope, ApiKeyNameTaken."""
        if not isinstance(name, str) or not KEY_NAME.match(name) or name != name.strip():
            raise InvalidName("an API key's name has 2-32 letters, digits, spaces, '.', '_' or '-'")
        chosen = check_scopes(scopes)
        now = self.clock()
        for _ in range(5):  # a prefix taken already (1 in 4 billion per key) draws another
            prefix = self.random_bytes(4).hex()
            secret = f"{KEY_MARK}_{prefix}_{_urlsafe(self.random_bytes(32))}"
            row = {
                "name": name,
                "name_key": name.lower(),
                "prefix": prefix,
                "secret_hash": hash_token(secret),
                "scopes": " ".join(chosen),
                "created_at": now,
                "created_by": created_by[:40],
                "created_by_id": created_by_id,
            }
            if await self._taken(name):
                raise ApiKeyNameTaken(f"an API key is called {name!r} already")
            try:
                async with self.db.write() as conn:
                    new_id = (
                        await conn.execute(insert(ApiKeyRow).values(**row).returning(ApiKeyRow.id))
                    ).scalar_one()
            except IntegrityError:
                continue
            key = ApiKey(new_id, name, prefix, chosen, now, created_by[:40], created_by_id, None, None, None)
            return NewApiKey(key, secret)
        raise ApiKeyNameTaken(f"an API key is called {name!r} already")

    async def _taken(self, name: str) -> bool:
        async with self.db.read() as conn:
            found = await conn.execute(select(ApiKeyRow.id).where(ApiKeyRow.name_key == name.lower()))
            return found.first() is not None

    async def keys(self) -> list[ApiKey]:
        """Every key, revoked ones too, newest first."""
        async with self.db.read() as conn:
            rows = (await conn.execute(select(ApiKeyRow).order_by(ApiKeyRow.id.desc()))).all()
        return [_key(r) for r in rows]

    async def get(self, key_id: int) -> ApiKey:
        async with self.db.read() as conn:
            row = (await conn.execute(select(ApiKeyRow).where(ApiKeyRow.id == key_id))).one_or_none()
        if row is None:
            raise UnknownApiKey(key_id)
        return _key(row)

    async def revoke(self, key_id: int, *, by: str) -> ApiKey:
        """Revoke a key: its next call is refused, in every process (each call reads the key). Revoking
        a revoked key changes nothing."""
        async with self.db.write() as conn:
            await conn.execute(
                update(ApiKeyRow)
                .where(ApiKeyRow.id == key_id, ApiKeyRow.revoked_at.is_(None))
                .values(revoked_at=self.clock(), revoked_by=by[:40])
            )
        return await self.get(key_id)

    async def authenticate(self, token: str) -> ApiKey:
        """The key whose whole text is ``token``. BadApiKey (malformed, unknown prefix, wrong secret: not
        told apart), ApiKeyRevoked (with the key, for the audit)."""
        prefix = _prefix(token)
        if prefix is None:
            raise BadApiKey()
        async with self.db.read() as conn:
            row = (await conn.execute(select(ApiKeyRow).where(ApiKeyRow.prefix == prefix))).one_or_none()
        if row is None or not secrets.compare_digest(row.secret_hash, hash_token(token)):
            raise BadApiKey()
        key = _key(row)
        if key.revoked:
            raise ApiKeyRevoked(key)
        now = self.clock()
        if key.last_used_at is None or now - key.last_used_at >= TOUCH_EVERY:
            async with self.db.write() as conn:
                await conn.execute(update(ApiKeyRow).where(ApiKeyRow.id == key.id).values(last_used_at=now))
            key = replace(key, last_used_at=now)
        return key

    async def issue_sso(self, player_id: int, key_id: int, *, seconds: int) -> tuple[str, datetime]:
        """A one-time sign-on token for the account (and when it stops working)."""
        now = self.clock()
        token = _urlsafe(self.random_bytes(32))
        expires = now + timedelta(seconds=seconds)
        async with self.db.write() as conn:
            await conn.execute(delete(SsoTokenRow).where(SsoTokenRow.expires_at < now - SSO_KEEP))
            await conn.execute(
                insert(SsoTokenRow).values(
                    token_hash=hash_token(token),
                    player_id=player_id,
                    key_id=key_id,
                    created_at=now,
                    expires_at=expires,
                )
            )
        return token, expires

    async def redeem_sso(self, token: str) -> int:
        """The account a sign-on token logs into; the token is used up. SsoLinkInvalid if it was used,
        has expired, or was never made."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            raise SsoLinkInvalid()
        now = self.clock()
        digest = hash_token(token)
        async with self.db.write() as conn:
            row = (
                await conn.execute(select(SsoTokenRow.player_id).where(SsoTokenRow.token_hash == digest))
            ).one_or_none()
            used = await conn.execute(
                update(SsoTokenRow)
                .where(
                    SsoTokenRow.token_hash == digest,
                    SsoTokenRow.used_at.is_(None),
                    SsoTokenRow.expires_at > now,
                )
                .values(used_at=now)
            )
            if row is None or used.rowcount != 1:
                raise SsoLinkInvalid()
        return int(row.player_id)
