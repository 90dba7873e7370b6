"""Typed errors of the store. Each has a stable string ``code`` for the wire; messages hold no secrets."""

from __future__ import annotations

from datetime import datetime


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""

    code = "store_error"


# -- accounts ------------------------------------------------------------------------------------------


class InvalidName(StoreError):
    """A player name that breaks the rules (3-20 chars: letters, digits, ``_`` and ``-``)."""

    code = "invalid_name"


class NameTaken(StoreError):
    """The name (compared case-insensitively) belongs to another account."""

    code = "name_taken"


class ReservedName(StoreError):
    """A name kept for the room's own bots (``bot-...``): no player registers it, and a service account
    has no other."""

    code = "reserved_name"


class ServiceNameTaken(StoreError):
    """A bot's name belongs to a player's account (one registered before bot names were kept): the room
    will not use that account for its bot."""

    code = "service_name_taken"


class WeakPassword(StoreError):
    """The password does not meet the policy; ``reason`` says which rule."""

    code = "weak_password"

    def __init__(self, reason: str) -> None:
        super().__init__(f"weak password: {reason}")
        self.reason = reason


class BadCredentials(StoreError):
    """Unknown name or wrong password (deliberately not told apart)."""

    code = "bad_credentials"

    def __init__(self) -> None:
        super().__init__("bad name or password")


class AccountLocked(StoreError):
    """Too many failed logins in a row: the name is locked until ``until`` for devices it was never
    logged in from (a known device still logs in; an operator can lift the lock)."""

    code = "account_locked"

    def __init__(self, until: object, *, by_operator: bool = False) -> None:
        when = until.strftime("%Y-%m-%d %H:%M:%S UTC") if isinstance(until, datetime) else str(until)
        if by_operator:  # the console's lock: no login from any device until an operator unlocks it
            super().__init__("this account is locked by the operator: contact support")
        else:
            super().__init__(
                f"too many failed logins: this name is locked until {when} for devices it was never "
                "logged in from; log in from a device you used before, wait, or ask the operator"
            )
        self.until = until
        self.by_operator = by_operator


class UnknownToken(StoreError):
    """A session token the store never issued, or one that was logged out."""

    code = "unknown_token"

    def __init__(self) -> None:
        super().__init__("unknown session token")


class TokenExpired(StoreError):
    """A session token past its expiry time, or unused for longer than the idle timeout."""

    code = "token_expired"

    def __init__(self, message: str = "session token expired") -> None:
        super().__init__(message)


class UnknownPlayer(StoreError):
    code = "unknown_player"

    def __init__(self, player: object) -> None:
        super().__init__(f"unknown player {player!r}")
        self.player = player


class Forbidden(StoreError):
    """The acting account lacks the role the operation needs (e.g. a deposit needs an admin)."""

    code = "forbidden"


class WrongPassword(StoreError):
    """A logged-in player's current password, asked again (a password change, a new e-mail address),
    is wrong. It counts as a failed login towards the account's lock."""

    code = "wrong_password"

    def __init__(self) -> None:
        super().__init__("the current password is wrong")


class PasswordResetRequired(StoreError):
    """The operator forced a password reset on this account: no password logs in until the player sets a
    new one with the code the operator gave him (``POST /api/account/reset-password``)."""

    code = "password_reset_required"

    def __init__(self) -> None:
        super().__init__(
            "the operator reset this account's password: set a new one with the code you were given"
        )


class InvalidEmail(StoreError):
    """An e-mail address the room does not accept (one ``@``, a domain with a dot, at most 254 characters,
    no spaces or control characters)."""

    code = "invalid_email"


class InvalidLink(StoreError):
    """An e-mail verification link that is unknown, used already, replaced by a newer one, or expired."""

    code = "invalid_link"

    def __init__(self) -> None:
        super().__init__("this verification link is not valid (used, replaced or expired): ask for a new one")


# -- ledger --------------------------------------------------------------------------------------------


class InvalidAmount(StoreError):
    """An amount that is not a positive int (or not an int at all), or a bad currency code."""

    code = "invalid_amount"


class InvalidCurrency(StoreError):
    code = "invalid_currency"

    def __init__(self, currency: object, why: str = "unknown currency code") -> None:
        super().__init__(f"{why}: {currency!r}")
        self.currency = currency


class InsufficientFunds(StoreError):
    """The operation would take an account below zero. Nothing was booked."""

    code = "insufficient_funds"

    def __init__(self, account_id: int, balance: int, needed: int) -> None:
        super().__init__(f"account {account_id} holds {balance}, needs {needed}")
        self.account_id = account_id
        self.balance = balance
        self.needed = needed


class IdempotencyConflict(StoreError):
    """The idempotency key was already used for a different operation or different content."""

    code = "idempotency_conflict"

    def __init__(self, key: str) -> None:
        super().__init__(f"idempotency key {key!r} was used with different content")
        self.key = key


class UnbalancedTransaction(StoreError):
    """Postings (or settlement deltas + rake) that do not sum to zero per currency."""

    code = "unbalanced"


class UnknownAccount(StoreError):
    code = "unknown_account"

    def __init__(self, account_id: object) -> None:
        super().__init__(f"unknown ledger account {account_id!r}")
        self.account_id = account_id


class ConcurrentChange(StoreError):
    """A booking was refused, yet by the time the store looked the accounts would allow it (they changed
    in between, three times in a row). Nothing was booked; retrying is safe."""

    code = "concurrent_change"


class UnknownSession(StoreError):
    """No table seat session with that id (in that currency)."""

    code = "unknown_session"

    def __init__(self, session_id: object) -> None:
        super().__init__(f"unknown seat session {session_id!r}")
        self.session_id = session_id


class SessionClosed(StoreError):
    code = "session_closed"

    def __init__(self, session_id: int) -> None:
        super().__init__(f"seat session {session_id} is closed")
        self.session_id = session_id


class SessionInHand(StoreError):
    """Top-up or cash-out of a seat session while a hand that includes it is still open."""

    code = "session_in_hand"

    def __init__(self, session_id: int, hand_id: str) -> None:
        super().__init__(f"seat session {session_id} is in hand {hand_id}")
        self.session_id = session_id
        self.hand_id = hand_id


class TopUpRefused(StoreError):
    """A play-money top-up while the play-money balance is at or above the threshold."""

    code = "top_up_refused"


# -- journal -------------------------------------------------------------------------------------------


class UnknownHand(StoreError):
    code = "unknown_hand"

    def __init__(self, hand_id: str) -> None:
        super().__init__(f"unknown hand {hand_id!r}")
        self.hand_id = hand_id


class HandExists(StoreError):
    """A start record for this hand id exists already with different content."""

    code = "hand_exists"

    def __init__(self, hand_id: str) -> None:
        super().__init__(f"hand {hand_id!r} was already started")
        self.hand_id = hand_id


class HandNotOpen(StoreError):
    """The hand has ended or was cancelled; no more commands or end records."""

    code = "hand_not_open"

    def __init__(self, hand_id: str, status: str) -> None:
        super().__init__(f"hand {hand_id!r} is {status}")
        self.hand_id = hand_id
        self.status = status


class BadSequence(StoreError):
    """A journal command whose sequence number is not the next one."""

    code = "bad_sequence"

    def __init__(self, hand_id: str, expected: int, got: int) -> None:
        super().__init__(f"hand {hand_id!r}: expected command #{expected}, got #{got}")
        self.hand_id = hand_id
        self.expected = expected
        self.got = got


class DeckMismatch(StoreError):
    """The revealed deck and salt do not hash to the commitment published at the start."""

    code = "deck_mismatch"

    def __init__(self, hand_id: str) -> None:
        super().__init__(f"hand {hand_id!r}: revealed deck does not match its commitment")
        self.hand_id = hand_id


class StackMismatch(StoreError):
    """A start record's stack differs from the seat session's balance."""

    code = "stack_mismatch"

    def __init__(self, session_id: int, stack: int, balance: int) -> None:
        super().__init__(f"seat session {session_id}: stack {stack} but balance {balance}")
        self.session_id = session_id
        self.stack = stack
        self.balance = balance


class InvalidRecord(StoreError):
    """A malformed journal or history record (bad seats, players not dealt in, ...)."""

    code = "invalid_record"


class InvalidStatsFilter(StoreError):
    """A filter of the lifetime statistics (store/mystats.py) that is not valid: ``field`` names it
    (game, stakes, kind, currency, from, to, gap), ``reason`` says why."""

    code = "invalid_filter"

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"invalid filter {field!r}: {reason}")
        self.field = field
        self.reason = reason


class StoreUnavailable(StoreError):
    """The database cannot be reached or cannot write now (connection lost, server stopped or frozen,
    disk full). Nothing was booked; the same request may succeed when the database is back."""

    code = "store_unavailable"

    def __init__(self, why: str = "the store is unavailable") -> None:
        super().__init__(why)


class FenceLost(StoreError):
    """A write for a leased resource (a table, pool or tournament of a cluster) whose lease another host
    has taken since: nothing was written. The writer must stop running the resource (docs/cluster.md)."""

    code = "table_moved"

    def __init__(self, resource: str, fence: int) -> None:
        super().__init__(f"{resource} is run by another host now (lease {fence} was taken over)")
        self.resource = resource
        self.fence = fence


class AlreadySeated(StoreError):
    """The player has an open seat at this table already (a unique key of the database, whatever process
    asked)."""

    code = "already_seated"

    def __init__(self, player_id: int, table_id: str) -> None:
        super().__init__(f"player {player_id} is seated at {table_id} already")
        self.player_id = player_id
        self.table_id = table_id


# SQLSTATE classes and codes of PostgreSQL that say "the database is not reachable or not writable now":
# 08 connection exceptions, 53 insufficient resources (disk full, out of memory), 57P01-57P05 shutdown,
# crash recovery, cannot connect now, idle timeout; 58 system errors (I/O).
_PG_UNAVAILABLE = ("08", "53", "57P", "58")
_SQLITE_UNAVAILABLE = ("disk is full", "disk i/o", "locked", "unable to open", "readonly", "not a database")


def unavailable(exc: BaseException) -> bool:
    """Does ``exc`` say that the store is unreachable or cannot write *now* (a fault to wait out), rather
    than that a request was wrong (an error to report)?"""
    if isinstance(exc, StoreUnavailable):
        return True
    if isinstance(exc, StoreError):
        return False
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, ConnectionError | TimeoutError):  # refused, reset, timed out (asyncio's too)
            return True
        if isinstance(e, OSError) and e.errno is not None:
            return True
        name = type(e).__name__
        module = type(e).__module__
        if module.startswith("sqlalchemy") and name in (
            "OperationalError",
            "InterfaceError",
            "DisconnectionError",
            "TimeoutError",
        ):
            orig = getattr(e, "orig", None)
            if orig is None or name != "OperationalError":
                return True
            todo.append(orig)
            continue
        if getattr(e, "connection_invalidated", False):
            return True
        if module.startswith("sqlite3") or name == "OperationalError":
            text = str(e).lower()
            if any(s in text for s in _SQLITE_UNAVAILABLE):
                return True
        sqlstate = getattr(e, "sqlstate", None) or getattr(e, "pgcode", None)
        if isinstance(sqlstate, str) and sqlstate.startswith(_PG_UNAVAILABLE):
            return True
        if module.startswith("asyncpg") and name in (
            "ConnectionDoesNotExistError",
            "InterfaceError",
            "InternalClientError",
            "ConnectionFailureError",
        ):
            return True
        todo += [getattr(e, "orig", None), e.__cause__, e.__context__]
    return False
