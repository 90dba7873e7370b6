"""pokerroom.store: persistence. Accounts, a double-entry ledger, the hand journal and hand histories, on
SQLite (default, in the user's data directory) or PostgreSQL (``POKERROOM_DATABASE_URL``).

Typical start-up::

    store = Store.open()            # or Store.open("postgresql+asyncpg://...")
    await store.db.upgrade()        # apply migrations
    cancelled = await store.journal.recover()
"""

from __future__ import annotations

from datetime import timedelta

from argon2 import PasswordHasher

from pokerroom.store.account_mail import AccountMail
from pokerroom.store.accounts import Accounts, LockPolicy, LoginSession, PasswordPolicy, Player, Role
from pokerroom.store.api_keys import ApiKeys
from pokerroom.store.audit import AuditEntry, AuditLog
from pokerroom.store.cashier import Cashier, CashierRequest
from pokerroom.store.chat import ChatLine, ChatStore, Mute, Report
from pokerroom.store.db import Database, default_url, resolve_url
from pokerroom.store.errors import (
    AccountLocked,
    AlreadySeated,
    BadCredentials,
    BadSequence,
    DeckMismatch,
    FenceLost,
    Forbidden,
    HandExists,
    HandNotOpen,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidCurrency,
    InvalidName,
    InvalidRecord,
    NameTaken,
    ReservedName,
    ServiceNameTaken,
    SessionClosed,
    SessionInHand,
    StackMismatch,
    StoreError,
    StoreUnavailable,
    TokenExpired,
    TopUpRefused,
    UnbalancedTransaction,
    UnknownAccount,
    UnknownHand,
    UnknownPlayer,
    UnknownSession,
    UnknownToken,
    WeakPassword,
    unavailable,
)
from pokerroom.store.fence import FENCE, Fence
from pokerroom.store.games import ConsoleGame, ConsoleGames
from pokerroom.store.gaming import Gaming
from pokerroom.store.histories import (
    HandHistories,
    HandHistory,
    PlayerHand,
    PlayerView,
    format_phhs,
    format_pokerstars,
)
from pokerroom.store.integrity import AuditHands, HandTimes, Link, LoginRecord, Logins, Note, Notes
from pokerroom.store.journal import (
    CancelledHand,
    HandEnd,
    HandJournal,
    HandRecord,
    HandStart,
    JournalCommand,
    SeatRecord,
)
from pokerroom.store.kinds import (
    PLAY,
    POINTS,
    Account,
    AccountKind,
    BuyIn,
    Posting,
    SeatSession,
    Transaction,
)
from pokerroom.store.leases import Lease, Leases
from pokerroom.store.ledger import Ledger, LedgerEntry, PlayMoneyPolicy, PreparedSettlement
from pokerroom.store.numbers import HandNumbers, Numbers
from pokerroom.store.operator import AccountDetail, Operator
from pokerroom.store.reads import Reads
from pokerroom.store.reports import RakeRow, Reports
from pokerroom.store.tournaments import (
    Booking,
    CashTickets,
    NewTicket,
    Refund,
    StoredEntry,
    StoredTicket,
    StoredTournament,
    TournamentChanges,
    TournamentHand,
    TournamentRefused,
    TournamentStore,
)
from pokerroom.store.util import Clock, deck_commitment, new_salt, utc_now, verify_deck
from pokerroom.store.verify import CurrencyTotals, VerifyReport, verify_ledger


class Store:
    """The whole store over one database: ``accounts``, ``ledger``, ``journal``, ``histories``,
    ``tournaments``, ``numbers`` (global hand and tournament numbers), ``audit`` (the console's audit log),
    ``operator`` (the console's account actions), ``games`` (tables, pools and tournaments changed from the
    console), ``reports`` (the console's)."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock = utc_now,
        hasher: PasswordHasher | None = None,
        lock_policy: LockPolicy | None = None,
        play_money: PlayMoneyPolicy | None = None,
        session_idle: timedelta | None = timedelta(minutes=30),
    ) -> None:
        self.db = db
        self.clock = clock
        self.accounts = Accounts(
            db, clock=clock, hasher=hasher, lock_policy=lock_policy, session_idle=session_idle
        )
        self.ledger = Ledger(db, clock=clock, play_money=play_money)
        self.journal = HandJournal(db, self.ledger, clock=clock)
        self.histories = HandHistories(db, clock=clock)
        self.tournaments = TournamentStore(db, self.ledger, clock=clock)
        self.numbers = Numbers(db)
        self.leases = Leases(db, clock)
        self.audit = AuditLog(db, clock=clock)
        self.operator = Operator(db, self.accounts, self.ledger, clock=clock)
        self.account_mail = AccountMail(db, self.accounts, self.operator, clock=clock)  # issue 29, item 4
        self.games = ConsoleGames(db, clock=clock)
        self.reports = Reports(db)
        self.logins = Logins(db, clock=clock)  # where players come from (issue 30)
        self.chat = ChatStore(db, clock=clock)  # chat log, word filter, mutes, reports (issue 30)
        self.notes = Notes(db, clock=clock)  # operators' notes on accounts (issue 30)
        self.hand_times = HandTimes(db)  # decision times from the journal (the bot detector)
        self.audit_hands = AuditHands(db)  # the audit PHH of a period (the chip-dumping detector)
        self.gaming = Gaming(db, self.accounts, clock=clock)  # responsible gaming (issue 29)
        self.api_keys = ApiKeys(db, clock=clock)  # the operator API's keys (issue 29)
        self.reads = Reads(db, self.accounts, clock=clock)  # players' notes, tags, preferences (issue 31)
        self.cashier = Cashier(  # deposit and withdrawal requests (issue 29), limits by self.gaming
            db, self.ledger, clock=clock, deposit_guard=self.gaming.check_deposit
        )

    @classmethod
    def open(cls, url: str | None = None, *, schema: str | None = None, clock: Clock = utc_now) -> Store:
        """A store on ``url`` (else ``$POKERROOM_DATABASE_URL``, else SQLite in the user data dir)."""
        return cls(Database(url, schema=schema), clock=clock)

    async def verify(self) -> VerifyReport:
        return await verify_ledger(self.db)

    async def close(self) -> None:
        await self.db.dispose()


__all__ = [
    "FENCE",
    "PLAY",
    "POINTS",
    "Account",
    "AccountDetail",
    "AccountKind",
    "AccountLocked",
    "Accounts",
    "AlreadySeated",
    "AuditEntry",
    "AuditLog",
    "BadCredentials",
    "BadSequence",
    "Booking",
    "BuyIn",
    "CancelledHand",
    "CashTickets",
    "Cashier",
    "CashierRequest",
    "ChatLine",
    "ChatStore",
    "Clock",
    "ConsoleGame",
    "ConsoleGames",
    "CurrencyTotals",
    "Database",
    "DeckMismatch",
    "Fence",
    "FenceLost",
    "Forbidden",
    "HandEnd",
    "HandExists",
    "HandHistories",
    "HandHistory",
    "HandJournal",
    "HandNotOpen",
    "HandNumbers",
    "HandRecord",
    "HandStart",
    "HandTimes",
    "IdempotencyConflict",
    "InsufficientFunds",
    "InvalidAmount",
    "InvalidCurrency",
    "InvalidName",
    "InvalidRecord",
    "JournalCommand",
    "Lease",
    "Leases",
    "Ledger",
    "LedgerEntry",
    "Link",
    "LockPolicy",
    "LoginRecord",
    "LoginSession",
    "Logins",
    "Mute",
    "NameTaken",
    "NewTicket",
    "Note",
    "Notes",
    "Numbers",
    "Operator",
    "PasswordPolicy",
    "PlayMoneyPolicy",
    "Player",
    "PlayerHand",
    "PlayerView",
    "Posting",
    "PreparedSettlement",
    "RakeRow",
    "Refund",
    "Report",
    "Reports",
    "ReservedName",
    "Role",
    "SeatRecord",
    "SeatSession",
    "ServiceNameTaken",
    "SessionClosed",
    "SessionInHand",
    "StackMismatch",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "StoredEntry",
    "StoredTicket",
    "StoredTournament",
    "TokenExpired",
    "TopUpRefused",
    "TournamentChanges",
    "TournamentHand",
    "TournamentRefused",
    "TournamentStore",
    "Transaction",
    "UnbalancedTransaction",
    "UnknownAccount",
    "UnknownHand",
    "UnknownPlayer",
    "UnknownSession",
    "UnknownToken",
    "VerifyReport",
    "WeakPassword",
    "deck_commitment",
    "default_url",
    "format_phhs",
    "format_pokerstars",
    "new_salt",
    "resolve_url",
    "unavailable",
    "utc_now",
    "verify_deck",
    "verify_ledger",
]
