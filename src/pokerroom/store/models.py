"""SQLAlchemy 2 models of the store. The schema itself is created by the Alembic migrations in
``pokerroom/store/migrations``; a test checks that the migrations and these models agree."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# An auto-incrementing 64-bit key (SQLite only auto-increments an INTEGER PRIMARY KEY).
BigId = BigInteger().with_variant(Integer(), "sqlite")


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on both databases (SQLite keeps naive UTC text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; pass an aware (UTC) datetime")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class PlayerRow(Base):
    __tablename__ = "players"
    __table_args__ = (
        CheckConstraint("role IN ('player', 'admin')", name="role"),
        CheckConstraint("failed_logins >= 0", name="failed_logins"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    name: Mapped[str] = mapped_column(String(20))
    name_key: Mapped[str] = mapped_column(String(20), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16))
    failed_logins: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    staff: Mapped[str | None] = mapped_column(String(16))  # 'support' (the console's read-only role)
    locked_by: Mapped[str | None] = mapped_column(Text)  # an operator's lock: the reason (login refused)
    reset_hash: Mapped[str | None] = mapped_column(String(64))  # a forced reset: SHA-256 of its code
    reset_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # 'player' (registered), or 'service': one of the room's own bots, made by the room (migration 0010)
    kind: Mapped[str] = mapped_column(String(16), server_default="player")


class AuthSessionRow(Base):
    __tablename__ = "auth_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_seen: Mapped[datetime | None] = mapped_column(UTCDateTime)  # last use (NULL: created_at)


class AccountRow(Base):
    """A ledger account: a kind, an owner (player) and/or a reference (table, tournament), a currency.

    ``balance`` is kept only for accounts that may not go negative (wallets, points, seat sessions, prize
    pools); it is NULL for the unbounded system accounts (cashier, bank, issuer, house, promotions), whose
    balance is the sum of their postings. Keeping no balance row for them means no hot row that every
    settlement would have to lock."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (CheckConstraint("balance IS NULL OR balance >= 0", name="balance_not_negative"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    currency: Mapped[str] = mapped_column(String(8))
    owner_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("players.id"), index=True)
    ref: Mapped[str | None] = mapped_column(String(64), index=True)
    key: Mapped[str | None] = mapped_column(String(160), unique=True)
    balance: Mapped[int | None] = mapped_column(BigInteger)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class TransactionRow(Base):
    __tablename__ = "ledger_transactions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    idem_key: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    fingerprint: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    memo: Mapped[str | None] = mapped_column(Text)


class PostingRow(Base):
    __tablename__ = "ledger_postings"
    __table_args__ = (CheckConstraint("amount <> 0", name="amount_not_zero"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    tx_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("ledger_transactions.id"), index=True)
    account_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("ledger_accounts.id"), index=True)
    currency: Mapped[str] = mapped_column(String(8))
    amount: Mapped[int] = mapped_column(BigInteger)


class HandRow(Base):
    __tablename__ = "hands"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'ended', 'cancelled')", name="status"),
        Index("ix_hands_status", "status"),
        Index("ix_hands_status_started_at", "status", "started_at"),  # the integrity report's periods
    )

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(64))
    currency: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(10))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    deck_commitment: Mapped[str] = mapped_column(String(64))
    start_fingerprint: Mapped[str] = mapped_column(String(64))
    deck: Mapped[str | None] = mapped_column(Text)
    salt: Mapped[str | None] = mapped_column(String(128))
    result: Mapped[str | None] = mapped_column(Text)
    tx_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("ledger_transactions.id"))
    # the stakes as the lobby worded them when the hand started ("10/20"), and a Rush hand's pool
    # (revision 0019; None for hands dealt before it): the rake report's groups
    stakes: Mapped[str | None] = mapped_column(String(64))
    pool_id: Mapped[str | None] = mapped_column(String(64))


class HandSeatRow(Base):
    __tablename__ = "hand_seats"

    hand_id: Mapped[str] = mapped_column(String(64), ForeignKey("hands.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    session_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("ledger_accounts.id"), index=True)
    stack: Mapped[int] = mapped_column(BigInteger)
    released: Mapped[int | None] = mapped_column(BigInteger)  # Rush: result booked when it left early


class HandCommandRow(Base):
    __tablename__ = "hand_commands"

    hand_id: Mapped[str] = mapped_column(String(64), ForeignKey("hands.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    command: Mapped[str] = mapped_column(Text)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class HandHistoryRow(Base):
    """The full PHH of a hand, for audit only: it holds every hole card. Never shown to players."""

    __tablename__ = "hand_histories"

    hand_id: Mapped[str] = mapped_column(String(64), ForeignKey("hands.id"), primary_key=True)
    full_phh: Mapped[str] = mapped_column(Text)
    stored_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PlayerHandRow(Base):
    """One player's own view of a hand he was dealt into (PHH and PokerStars-style text), written from the
    hand's audit PHH when he first asks for it."""

    __tablename__ = "player_hands"
    __table_args__ = (Index("ix_player_hands_player_id_ended_at", "player_id", "ended_at"),)

    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(64), ForeignKey("hands.id"), primary_key=True)
    ended_at: Mapped[datetime] = mapped_column(UTCDateTime)
    seat: Mapped[int | None] = mapped_column(Integer)  # (his seat: his copies are written from it later)
    phh: Mapped[str | None] = mapped_column(Text)  # NULL until first asked for (store/histories.py)
    pokerstars: Mapped[str | None] = mapped_column(Text)


class TournamentRow(Base):
    """A tournament that has taken money (created with its first registration): what a restart needs to
    give every buy-in back or carry on. ``spec`` is the admin API's JSON of an admin-scheduled one (to open
    it again), ``series`` the sit-and-go series of a copy; ``prizes`` the payout table once running."""

    __tablename__ = "tournaments"
    __table_args__ = (
        CheckConstraint("status IN ('registering', 'running', 'finished', 'cancelled')", name="status"),
        Index("ix_tournaments_status", "status"),
    )

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    series: Mapped[str | None] = mapped_column(String(64))
    spec: Mapped[str | None] = mapped_column(Text)
    currency: Mapped[str] = mapped_column(String(8))
    buy_in: Mapped[int] = mapped_column(BigInteger)
    fee: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(12))
    prizes: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TournamentTicketRow(Base):
    """A satellite seat won by a player: its value waits in his ticket account until ``used_for`` (the
    tournament it registered him for; NULL while unused)."""

    __tablename__ = "tournament_tickets"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), index=True)
    satellite: Mapped[str] = mapped_column(String(64))
    target: Mapped[str] = mapped_column(String(64))
    currency: Mapped[str] = mapped_column(String(8))
    value: Mapped[int] = mapped_column(BigInteger)
    account_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("ledger_accounts.id"))
    won_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_for: Mapped[str | None] = mapped_column(String(64))


class TournamentEntryRow(Base):
    """A player's entry in a tournament: the account its buy-in came from (wallet or ticket account), its
    chips after its last finished hand and its place once out. ``entry`` numbers a player's entries: 1,
    then his re-entries (RULES.md §11.3, R261)."""

    __tablename__ = "tournament_entries"

    tournament_id: Mapped[str] = mapped_column(String(64), ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    entry: Mapped[int] = mapped_column(Integer, primary_key=True, server_default="1")
    name: Mapped[str] = mapped_column(String(20))
    source_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("ledger_accounts.id"))
    ticket_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("tournament_tickets.id"))
    stack: Mapped[int | None] = mapped_column(BigInteger)
    place: Mapped[int | None] = mapped_column(Integer)
    registered_at: Mapped[datetime] = mapped_column(UTCDateTime)
    bounty: Mapped[int | None] = mapped_column(BigInteger)  # its bounty now (a bounty tournament)
    deal: Mapped[int | None] = mapped_column(BigInteger)  # what deals at the final table paid it (0024)


class TournamentSwitchRow(Base):
    """The operator's word on deals in one tournament (``POST /api/console/tournaments/{id}/deals``):
    read when the tournament opens, so that a restart keeps it (migration 0024). A row of its own: a
    tournament nobody registered for has no ``tournaments`` row."""

    __tablename__ = "tournament_switches"

    tournament_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    deals: Mapped[bool] = mapped_column(Boolean)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TournamentHandRow(Base):
    """A tournament hand's full PHH (audit only: every hole card). Tournament chips are not money, so the
    hand is not journaled; its histories are stored when it ends."""

    __tablename__ = "tournament_hands"
    __table_args__ = (Index("ix_tournament_hands_ended_at", "ended_at"),)  # the integrity report's periods

    id: Mapped[str] = mapped_column(String(128), primary_key=True)  # a Rush phase's hand ids are long
    tournament_id: Mapped[str] = mapped_column(String(64), index=True)
    table_id: Mapped[str] = mapped_column(String(128))
    game: Mapped[str] = mapped_column(String(64))
    ended_at: Mapped[datetime] = mapped_column(UTCDateTime)
    full_phh: Mapped[str] = mapped_column(Text)


class TournamentPlayerHandRow(Base):
    """One player's own view of a tournament hand he was dealt into."""

    __tablename__ = "tournament_player_hands"
    __table_args__ = (Index("ix_tournament_player_hands_player_id_ended_at", "player_id", "ended_at"),)

    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(128), ForeignKey("tournament_hands.id"), primary_key=True)
    ended_at: Mapped[datetime] = mapped_column(UTCDateTime)
    seat: Mapped[int | None] = mapped_column(Integer)
    phh: Mapped[str | None] = mapped_column(Text)
    pokerstars: Mapped[str | None] = mapped_column(Text)


class HandNumberRow(Base):
    """A hand's global number (PokerStars-format histories, trackers): assigned by the database (an
    auto-incrementing key; a PostgreSQL sequence), so it stays unique when several server processes share
    one database. Cash and tournament hands share the numbers."""

    __tablename__ = "hand_numbers"

    number: Mapped[int] = mapped_column(BigId, primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(128), unique=True)


class TournamentNumberRow(Base):
    """A tournament's global number (``Tournament #number`` in its hands' PokerStars-format text)."""

    __tablename__ = "tournament_numbers"

    number: Mapped[int] = mapped_column(BigId, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(64), unique=True)


class LeaseRow(Base):
    """Which host of a cluster runs a table, pool or tournament (store/leases.py, docs/cluster.md)."""

    __tablename__ = "leases"

    resource: Mapped[str] = mapped_column(String(96), primary_key=True)
    holder: Mapped[str | None] = mapped_column(String(96))
    fence: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    hand_to: Mapped[str | None] = mapped_column(String(96))


class AuditRow(Base):
    """One console action: who, when, what, the values before and after. Append-only (a database trigger
    refuses UPDATE and DELETE), and chained: ``row_hash`` is the SHA-256 of ``prev_hash`` (the row before's
    ``row_hash``) and this row's content (store/audit.py), so a row dropped or changed shows."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_action", "action"), Index("ix_audit_log_target", "target"))

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    actor_id: Mapped[int | None] = mapped_column(BigInteger)
    actor_name: Mapped[str] = mapped_column(String(40))
    action: Mapped[str] = mapped_column(String(48))
    target: Mapped[str | None] = mapped_column(String(128))
    before: Mapped[str | None] = mapped_column(Text)
    after: Mapped[str | None] = mapped_column(Text)
    reason: Mapped[str | None] = mapped_column(Text)
    prev_hash: Mapped[str | None] = mapped_column(String(64))
    row_hash: Mapped[str | None] = mapped_column(String(64))


class ConsoleGameRow(Base):
    """A cash table or Rush pool opened (or paused, or closed) from the console: its configuration fields
    (``spec``, JSON) and its state, applied over the configuration file at every start."""

    __tablename__ = "console_games"
    __table_args__ = (
        CheckConstraint("kind IN ('table', 'pool', 'tournament', 'promotions', 'recurring')", name="kind"),
        CheckConstraint("state IN ('open', 'paused', 'closed')", name="state"),
    )

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(12))
    spec: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(12))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CashierRequestRow(Base):
    """A player's deposit or withdrawal request and the operator's decision (store/cashier.py, issue 29).
    ``hold_account_id``: a withdrawal's pending account (its amount sits there while pending); ``tx_id``
    the withdrawal's hold, ``decision_tx_id`` the approval's or a withdrawal's decline's transaction."""

    __tablename__ = "cashier_requests"
    __table_args__ = (
        CheckConstraint("kind IN ('deposit', 'withdrawal')", name="kind"),
        CheckConstraint("state IN ('pending', 'approved', 'declined')", name="state"),
        CheckConstraint("amount > 0", name="amount_positive"),
        Index("ux_cashier_requests_player_request", "player_id", "request_id", unique=True),
        Index("ix_cashier_requests_state", "state", "id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(12))
    currency: Mapped[str] = mapped_column(String(8))
    amount: Mapped[int] = mapped_column(BigInteger)
    state: Mapped[str] = mapped_column(String(12))
    reference: Mapped[str] = mapped_column(String(200))
    request_id: Mapped[str] = mapped_column(String(64))
    method: Mapped[str] = mapped_column(String(32))
    fingerprint: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    decided_by: Mapped[int | None] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(Text)
    hold_account_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("ledger_accounts.id"))
    tx_id: Mapped[int | None] = mapped_column(BigInteger)
    decision_tx_id: Mapped[int | None] = mapped_column(BigInteger)


class AccountEmailRow(Base):
    """A player's e-mail address (issue 29, migration 0016): at most one per account, used for password
    resets only once verified (``verified_at``) by the link sent to it (``verify_hash``: SHA-256 of its
    token, until ``verify_until``). ``address_key`` is its lower-case form (lookups)."""

    __tablename__ = "account_emails"
    __table_args__ = (
        Index("ix_account_emails_address_key", "address_key"),
        Index("ix_account_emails_verify_hash", "verify_hash"),
    )

    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(254))
    address_key: Mapped[str] = mapped_column(String(254))
    verified_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    verify_hash: Mapped[str | None] = mapped_column(String(64))
    verify_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PasswordCodeRow(Base):
    """A password-reset code sent by e-mail (issue 29, migration 0016): SHA-256 of the account and the
    code, valid until ``expires_at``, used once (``used_at``); ``failures`` wrong codes void it."""

    __tablename__ = "password_codes"
    __table_args__ = (Index("ix_password_codes_player_created", "player_id", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    code_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    failures: Mapped[int] = mapped_column(Integer, server_default="0")


class GamingLimitRow(Base):
    """A limit a player set on himself (responsible gaming, issue 29; store/gaming.py): ``kind`` is
    ``deposit_day|week|month``, ``loss_day|week|month`` (per ``currency``) or ``session`` (minutes;
    currency ``""``). ``amount`` is the limit in force (NULL: none); a raise or a removal waits in
    ``pending`` (NULL: removal) until ``pending_from``, the end of the cooling period."""

    __tablename__ = "gaming_limits"

    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    currency: Mapped[str] = mapped_column(String(8), primary_key=True)
    amount: Mapped[int | None] = mapped_column(BigInteger)
    pending: Mapped[int | None] = mapped_column(BigInteger)
    pending_from: Mapped[datetime | None] = mapped_column(UTCDateTime)
    set_at: Mapped[datetime] = mapped_column(UTCDateTime)


class GamingExclusionRow(Base):
    """A cool-off (``cool_off``) or a self-exclusion (``self_exclusion``) a player set on himself: from
    ``started_at`` to ``ends_at`` (NULL: permanent). Rows are never changed or deleted (the register)."""

    __tablename__ = "gaming_exclusions"
    __table_args__ = (
        CheckConstraint("kind IN ('cool_off', 'self_exclusion')", name="kind"),
        Index("ix_gaming_exclusions_player_id_ends_at", "player_id", "ends_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(16))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ApiKeyRow(Base):
    """An operator API key (issue 29, migration 0015; store/api_keys.py): its name (unique, ``name_key``
    lower-case), the public ``prefix`` that identifies it, the SHA-256 of the whole key (never the key),
    its scopes (space-separated), who made it, when it was last used, and its revocation."""

    __tablename__ = "api_keys"
    __table_args__ = (
        Index("ux_api_keys_name_key", "name_key", unique=True),
        Index("ux_api_keys_prefix", "prefix", unique=True),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40))
    prefix: Mapped[str] = mapped_column(String(16))
    secret_hash: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_by: Mapped[str] = mapped_column(String(40))
    created_by_id: Mapped[int | None] = mapped_column(BigInteger)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_by: Mapped[str | None] = mapped_column(String(40))


class SsoTokenRow(Base):
    """A one-time sign-on link made through the operator API (migration 0015): the SHA-256 of its token,
    the account it logs into, the key that made it, until when it works, and when it was used (once)."""

    __tablename__ = "sso_tokens"
    __table_args__ = (Index("ix_sso_tokens_expires_at", "expires_at"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    key_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("api_keys.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class PlayerNoteRow(Base):
    """A player's private read on another player (issue 31, migration 0020; store/reads.py): a note
    (``text``, may be empty) and a colour tag of the fixed palette (``tag``, NULL: none). Only ``owner_id``
    ever reads or changes it; the operators' notes on accounts are another thing (``account_notes``)."""

    __tablename__ = "player_notes"
    __table_args__ = (Index("ix_player_notes_target_id", "target_id"),)

    owner_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    target_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    tag: Mapped[str | None] = mapped_column(String(16))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PlayerPrefsRow(Base):
    """A player's table preferences (issue 31, migration 0020; store/reads.py): the names of his tag
    colours, bet-sizing presets, avatar, table theme and card back, as one JSON object the store checks
    (``prefs``)."""

    __tablename__ = "player_prefs"

    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    prefs: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PlayerHandFigureRow(Base):
    """A player's figures of one hand he was dealt into (issue 31, migration 0021; store/mystats.py),
    written from his own history the first time he asks for his lifetime statistics: ``ended_s`` (Unix
    seconds, UTC), the hand's game, betting, currency and stakes label, his result after the rake
    (``net``), and 0/1 counts of VPIP, PFR, 3-bet chance and 3-bet, the second street and the showdown
    (docs/client.md, "Lifetime statistics"). ``readable`` 0: the history could not be read (no figures)."""

    __tablename__ = "player_hand_figures"
    __table_args__ = (Index("ix_player_hand_figures_player_id_ended_s", "player_id", "ended_s", "hand_id"),)

    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    kind: Mapped[str] = mapped_column(String(12))  # 'cash' (Rush too) or 'tournament'
    ended_s: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(64))
    betting: Mapped[str] = mapped_column(String(8))
    currency: Mapped[str] = mapped_column(String(8))
    stakes: Mapped[str] = mapped_column(String(64))
    readable: Mapped[int] = mapped_column(Integer)
    net: Mapped[int] = mapped_column(BigInteger)
    vpip: Mapped[int] = mapped_column(Integer)
    pfr: Mapped[int] = mapped_column(Integer)
    three_bet_chance: Mapped[int] = mapped_column(Integer)
    three_bet: Mapped[int] = mapped_column(Integer)
    saw_second: Mapped[int] = mapped_column(Integer)
    showdown: Mapped[int] = mapped_column(Integer)
    won_showdown: Mapped[int] = mapped_column(Integer)
