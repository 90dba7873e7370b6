"""Ledger vocabulary: account kinds, currencies, and the records the ledger returns."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from pokerroom.store.errors import InvalidAmount, InvalidCurrency

PLAY = "PLAY"
"""Play money (chips for the free tables), topped up from the play-money bank."""

POINTS = "PTS"
"""Loyalty points, in centipoints. Not cash: no deposits, withdrawals or buy-ins."""

_CURRENCY_RE = re.compile(r"^[A-Z]{3,5}$")


class AccountKind(StrEnum):
    """What an account is for. System kinds (``may_go_negative``) keep no stored balance: they are sources
    and sinks whose balance is the (possibly negative) sum of their postings."""

    WALLET = "wallet"  # a player's cash balance in one currency (owner = player)
    POINTS = "points"  # a player's loyalty points, PTS (owner = player)
    SEAT = "seat"  # one table seat session: the chips on the table (owner = player, ref = table id)
    PRIZE_POOL = "prize_pool"  # a tournament's prize pool (ref = tournament id)
    HOUSE = "house"  # rake and fees
    POINTS_ISSUER = "issuer"  # source of loyalty points, PTS
    PROMOTIONS = "promotions"  # pays overlays and other promotions
    BANK = "bank"  # source of play money
    CASHIER = "cashier"  # the outside world: real-money deposits and withdrawals
    ESCROW = "escrow"  # Rush: chips of seats that left an open hand early, until it ends (ref = hand id)
    TICKET = "ticket"  # a player's unused satellite tickets: their value until used (ref = player id)
    ADJUSTMENTS = "adjustments"  # the house side of an operator's balance corrections (the console)
    WITHDRAWAL = "withdrawal"  # a player's withdrawals asked for and not yet paid (ref = player id)

    @property
    def may_go_negative(self) -> bool:
        return self in _UNBOUNDED


_UNBOUNDED = frozenset(
    {
        AccountKind.HOUSE,
        AccountKind.POINTS_ISSUER,
        AccountKind.PROMOTIONS,
        AccountKind.BANK,
        AccountKind.CASHIER,
        AccountKind.ESCROW,
        AccountKind.ADJUSTMENTS,
    }
)


def check_currency(currency: object, *, cash: bool = False) -> str:
    """A currency code: 3-5 upper-case letters (``USD``, ``EUR``, ``PLAY``, ``PTS``). ``cash=True`` also
    refuses the non-cash points currency."""
    if not isinstance(currency, str) or not _CURRENCY_RE.match(currency):
        raise InvalidCurrency(currency)
    if cash and currency == POINTS:
        raise InvalidCurrency(currency, "loyalty points are not cash")
    return currency


def check_amount(amount: object, *, allow_zero: bool = False, what: str = "amount") -> int:
    """A positive (or, with ``allow_zero``, non-negative) int in minor units. Never a float or a bool."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(f"{what} must be an int in minor units, got {type(amount).__name__}")
    if amount < 0 or (amount == 0 and not allow_zero):
        raise InvalidAmount(f"{what} must be {'>= 0' if allow_zero else '> 0'}, got {amount}")
    if amount >= 2**62:
        raise InvalidAmount(f"{what} is too large")
    return amount


def check_key(key: object) -> str:
    if not isinstance(key, str) or not 1 <= len(key) <= 190:
        raise InvalidAmount("an idempotency key is a non-empty string of at most 190 characters")
    return key


@dataclass(frozen=True)
class Posting:
    account_id: int
    currency: str
    amount: int


@dataclass(frozen=True)
class Transaction:
    """A booked ledger transaction. ``replayed`` is True when a retry with the same idempotency key and
    the same content returned the original instead of booking again."""

    id: int
    key: str
    kind: str
    created_at: datetime
    postings: tuple[Posting, ...]
    replayed: bool = False

    def amount_for(self, account_id: int) -> int:
        return sum(p.amount for p in self.postings if p.account_id == account_id)


@dataclass(frozen=True)
class Account:
    id: int
    kind: AccountKind
    currency: str
    owner_id: int | None
    ref: str | None
    balance: int
    opened_at: datetime
    closed_at: datetime | None


@dataclass(frozen=True)
class SeatSession:
    """A player's chips at one table: a seat-session account. ``id`` is the account id."""

    id: int
    player_id: int
    table_id: str
    currency: str
    balance: int
    opened_at: datetime
    closed_at: datetime | None

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True)
class BuyIn:
    session_id: int
    transaction: Transaction
