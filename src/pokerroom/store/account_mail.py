"""Accounts players manage themselves (issue 29): an e-mail address on the account, verified by a link
sent to it, and password resets by a code sent to that verified address. The operator's forced reset
(store/operator.py) takes the same road in: :meth:`AccountMail.reset_password` accepts either code.

Nothing here sends mail: the methods return what to send (server/mail.py sends it). Codes and link tokens
come from ``secrets``; only their SHA-256 is kept. A reset code is short enough to type (ten characters of
an alphabet without look-alikes: 50 bits), so it lives ``code_valid`` (30 minutes), is used once, and
``max_failures`` wrong codes for an account void every live code of it."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, select, update

from pokerroom.store.accounts import Accounts, Kind, Player, check_name, name_key
from pokerroom.store.db import Database
from pokerroom.store.errors import BadCredentials, InvalidEmail, InvalidLink
from pokerroom.store.models import AccountEmailRow, PasswordCodeRow, PlayerRow
from pokerroom.store.operator import Operator
from pokerroom.store.util import Clock, hash_token, utc_now

__all__ = ["AccountMail", "EmailAddress", "ResetMail", "VerifyMail", "check_email", "normalize_code"]

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # 32 symbols: no 0/O, 1/I/L
CODE_LENGTH = 10
MAX_EMAIL = 254  # RFC 5321's longest path
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)+$")
_SEPARATORS = re.compile(r"[\s-]+")


@dataclass(frozen=True)
class EmailAddress:
    address: str
    verified: bool

    def to_dict(self) -> dict[str, Any]:
        return {"address": self.address, "verified": self.verified}


@dataclass(frozen=True)
class VerifyMail:
    """A verification link to send: ``token`` goes into the link (shown once, kept as its SHA-256)."""

    player: str
    address: str
    token: str = field(repr=False)
    expires_at: datetime


@dataclass(frozen=True)
class ResetMail:
    """A reset code to send to ``address`` for the account ``player`` (shown once, kept hashed)."""

    player: str
    address: str
    code: str = field(repr=False)
    expires_at: datetime


def check_email(address: object) -> str:
    """The address, trimmed, if the room accepts it; else InvalidEmail. No CR, LF or other control
    characters (nothing can be smuggled into a mail header)."""
    if not isinstance(address, str):
        raise InvalidEmail("an e-mail address is a string")
    text = address.strip()
    if len(text) > MAX_EMAIL or not _EMAIL.match(text) or any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise InvalidEmail("not an e-mail address the room can send to (name@example.com)")
    return text


def normalize_code(code: object) -> str | None:
    """A typed reset code in its stored form (upper case, no spaces or dashes), None if it cannot be one."""
    if not isinstance(code, str) or len(code) > 40:
        return None
    text = _SEPARATORS.sub("", code).upper()
    if len(text) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in text):
        return None
    return text


def _code_hash(player_id: int, code: str) -> str:
    return hash_token(f"reset:{player_id}:{code}")


class AccountMail:
    """E-mail addresses and e-mail reset codes. Times come from the injected ``clock``; codes and link
    tokens from ``secrets``."""

    def __init__(
        self,
        db: Database,
        accounts: Accounts,
        operator: Operator,
        *,
        clock: Clock = utc_now,
        code_valid: timedelta = timedelta(minutes=30),
        link_valid: timedelta = timedelta(days=2),
        codes_per_hour: int = 3,
        max_failures: int = 5,
    ) -> None:
        self.db = db
        self.accounts = accounts
        self.operator = operator
        self.clock = clock
        self.code_valid = code_valid
        self.link_valid = link_valid
        self.codes_per_hour = codes_per_hour
        self.max_failures = max_failures

    # -- the address --------------------------------------------------------------------------------------

    async def email(self, player_id: int) -> EmailAddress | None:
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(AccountEmailRow.address, AccountEmailRow.verified_at).where(
                        AccountEmailRow.player_id == player_id
                    )
                )
            ).one_or_none()
        return None if row is None else EmailAddress(row.address, row.verified_at is not None)

    async def set_email(self, player_id: int, password: str, address: str) -> VerifyMail | None:
        """Set (or, with ``""``, remove) a player's address; his current ``password`` is asked first
        (WrongPassword). A new address is unverified until its link is used (:meth:`verify_email`); the
        answer is the link's mail to send (None: nothing to verify, removed or verified already)."""
        text = address.strip() if isinstance(address, str) else address
        if text != "":
            text = check_email(text)
        player = await self.accounts.get(player_id)
        await self.accounts.check_password(player_id, password)
        now = self.clock()
        async with self.db.write() as conn:
            if text == "":
                await conn.execute(delete(AccountEmailRow).where(AccountEmailRow.player_id == player_id))
                return None
            old = (
                await conn.execute(
                    select(AccountEmailRow.address, AccountEmailRow.verified_at).where(
                        AccountEmailRow.player_id == player_id
                    )
                )
            ).one_or_none()
            if old is not None and old.address == text and old.verified_at is not None:
                return None
            token = secrets.token_urlsafe(24)
            values = {
                "address": text,
                "address_key": text.lower(),
                "verified_at": None,
                "verify_hash": hash_token(token),
                "verify_until": now + self.link_valid,
                "updated_at": now,
            }
            if old is None:
                await conn.execute(insert(AccountEmailRow).values(player_id=player_id, **values))
            else:
                await conn.execute(
                    update(AccountEmailRow).where(AccountEmailRow.player_id == player_id).values(**values)
                )
        return VerifyMail(player.name, text, token, now + self.link_valid)

    async def verify_email(self, token: str) -> Player:
        """Mark the address whose link carries ``token`` verified. Raises InvalidLink (unknown, used,
        replaced by a newer link, or expired)."""
        if not isinstance(token, str) or not token or len(token) > 100:
            raise InvalidLink()
        now = self.clock()
        async with self.db.write() as conn:
            pid = (
                await conn.execute(
                    update(AccountEmailRow)
                    .where(
                        AccountEmailRow.verify_hash == hash_token(token), AccountEmailRow.verify_until > now
                    )
                    .values(verified_at=now, verify_hash=None, verify_until=None, updated_at=now)
                    .returning(AccountEmailRow.player_id)
                )
            ).scalar_one_or_none()
        if pid is None:
            raise InvalidLink()
        return await self.accounts.get(pid)

    # -- reset codes --------------------------------------------------------------------------------------

    async def request_reset(self, who: str) -> list[ResetMail]:
        """Reset codes for the accounts ``who`` names (a player's name, or a verified e-mail address), to
        send to their verified addresses. An unknown name or address, an account with no verified
        address, one of the room's bots, or an account that had ``codes_per_hour`` codes in the last hour
        gets nothing, and the caller cannot tell (the answer to the player is the same)."""
        now = self.clock()
        q = select(PlayerRow.id, PlayerRow.name, AccountEmailRow.address).join(
            AccountEmailRow, AccountEmailRow.player_id == PlayerRow.id
        )
        q = q.where(AccountEmailRow.verified_at.is_not(None), PlayerRow.kind == Kind.PLAYER.value)
        if not isinstance(who, str) or not who.strip() or len(who) > MAX_EMAIL:
            return []
        who = who.strip()
        if "@" in who:
            q = q.where(AccountEmailRow.address_key == who.lower())
        else:
            try:
                check_name(who)
            except Exception:
                return []
            q = q.where(PlayerRow.name_key == name_key(who))
        out: list[ResetMail] = []
        async with self.db.write() as conn:
            for row in (await conn.execute(q.order_by(PlayerRow.id).limit(5))).all():
                recent = (
                    await conn.execute(
                        select(func.count())
                        .select_from(PasswordCodeRow)
                        .where(
                            PasswordCodeRow.player_id == row.id,
                            PasswordCodeRow.created_at > now - timedelta(hours=1),
                        )
                    )
                ).scalar_one()
                if recent >= self.codes_per_hour:
                    continue
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                await conn.execute(
                    insert(PasswordCodeRow).values(
                        player_id=row.id,
                        code_hash=_code_hash(row.id, code),
                        created_at=now,
                        expires_at=now + self.code_valid,
                        failures=0,
                    )
                )
                out.append(ResetMail(row.name, row.address, code, now + self.code_valid))
        return out

    async def reset_password(self, name: str, code: str, password: str) -> Player:
        """A new password with a code: one sent by e-mail (:meth:`request_reset`) or the operator's forced
        reset's. Raises BadCredentials (unknown name, wrong, used, voided or expired code: not told apart)
        or WeakPassword (the code stays usable). Every session of the account ends."""
        try:
            player = await self.operator.reset_password(name, code, password)
        except BadCredentials:
            player = await self._mail_reset(name, code, password)
        await self.accounts.end_sessions(player.id)
        return player

    async def _mail_reset(self, name: str, code: str, password: str) -> Player:
        try:
            player = await self.accounts.find(check_name(name))
        except Exception:
            raise BadCredentials() from None
        now = self.clock()
        live = (
            PasswordCodeRow.player_id == player.id,
            PasswordCodeRow.used_at.is_(None),
            PasswordCodeRow.expires_at > now,
            PasswordCodeRow.failures < self.max_failures,
        )
        async with self.db.read() as conn:
            rows = (
                await conn.execute(select(PasswordCodeRow.id, PasswordCodeRow.code_hash).where(*live))
            ).all()
        typed = normalize_code(code)
        wanted = _code_hash(player.id, typed) if typed is not None else ""
        match = next(
            (r.id for r in rows if typed is not None and secrets.compare_digest(r.code_hash, wanted)), None
        )
        if match is None:
            if rows:
                async with self.db.write() as conn:
                    await conn.execute(
                        update(PasswordCodeRow).where(*live).values(failures=PasswordCodeRow.failures + 1)
                    )
            raise BadCredentials()
        self.accounts.password_policy.check(player.name, password)
        async with self.db.write() as conn:
            used = await conn.execute(
                update(PasswordCodeRow)
                .where(PasswordCodeRow.id == match, PasswordCodeRow.used_at.is_(None))
                .values(used_at=now)
            )
            if not used.rowcount:  # (used meanwhile, by another request)
                raise BadCredentials()
            await conn.execute(update(PasswordCodeRow).where(*live).values(used_at=now))
        await self.accounts.set_password(player.id, password)
        async with self.db.write() as conn:
            await conn.execute(
                update(PlayerRow)
                .where(PlayerRow.id == player.id)
                .values(failed_logins=0, locked_until=None, reset_hash=None, reset_until=None)
            )
        return player
