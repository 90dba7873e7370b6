"""Tournament configuration and the money it moves (RULES.md §9)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction

from pokerroom.engine import Betting, ConfigError, VariantSpec
from pokerroom.rooms.config import Timing
from pokerroom.rooms.effects import Effect
from pokerroom.rooms.mixes import get_mix
from pokerroom.rooms.tournament.mixed import check_mixed
from pokerroom.rooms.tournament.structure import ANTES
from pokerroom.variants import get_variant

CHAT_PERMISSIONS = ("off", "players", "everyone")

__all__ = [
    "CHAT_PERMISSIONS",
    "TournamentBuyIn",
    "TournamentConfig",
    "TournamentOverlay",
    "TournamentPoints",
    "TournamentPrize",
    "TournamentRefund",
    "TournamentTicket",
]


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """A tournament. ``kind`` is ``"sng"`` (starts when ``max_players`` have registered, 2-30) or
    ``"mtt"`` (starts at ``start_time``). ``buy_in`` is the prize contribution, ``fee`` the house's part
    (R: $100 + $9). A freeroll has no buy-in and a ``freeroll_pool`` paid by the house; a guaranteed
    tournament a ``guarantee``; a rebuy tournament ``rebuy_levels`` (the rebuy period) and optionally an
    ``add_on``; a satellite a ``seat_value`` (the target's buy-in plus fee) and its ``target``."""

    tournament_id: str
    name: str
    kind: str = "mtt"
    variant: str = "holdem"
    betting: Betting = Betting.NO_LIMIT
    buy_in: int = 0
    fee: int = 0
    starting_stack: int = 1500
    table_size: int = 9
    min_players: int = 2
    max_players: int = 0
    level_minutes: float = 10.0
    break_minutes: float = 5.0
    start_time: datetime | None = None
    registration_opens: datetime | None = None
    late_registration_levels: int = 0
    late_registration_minutes: float = 0.0  # or in minutes from the start (RULES.md §11.3), not both
    guarantee: int = 0
    freeroll_pool: int = 0
    rebuy_levels: int = 0
    add_on: bool = False
    target: str = ""
    seat_value: int = 0
    guaranteed_seats: int = 0
    payouts: tuple[Fraction, ...] = ()
    timing: Timing = field(default_factory=lambda: Timing(between_hands=2.0))
    currency: str = "PLAY"
    featured: bool = False  # shown in the lobby only; points x2 follow the discipline (§7.3), not this flag
    ante: str = "per_player"  # or "big_blind" (blind games): structure.level_stakes, docs/decisions.md
    # Deals at the final table (RULES.md §11.3; docs/tournaments.md): allowed unless the operator turns
    # them off; every player answers within ``deal_seconds``; ``deal_keep`` of the pool stays to be played
    # for (it comes off the first prize).
    deals: bool = True
    # Bounties (RULES.md §11.3): ``bounty`` percent of each prize contribution is the player's bounty;
    # ``progressive``: a progressive knockout (half in cash, half onto the winner's own bounty).
    bounty: int = 0
    progressive: bool = False
    deal_seconds: float = 60.0
    deal_keep: int = 0
    # Re-entry (RULES.md §11.3, R261): entries a player may have, his first included (1: no re-entry);
    # a busted player registers again as a new entry while late registration is open.
    max_entries: int = 1
    # Chat at its tables (issue 35): "off", "players" (those seated at the table) or "everyone" (any
    # logged-in player watching it); the room's moderation applies to every line (server/integrity/chat.py).
    table_chat: str = "players"
    # Its lobby chat (issue 35): the chat of its page, read by its entrants and whoever follows the page;
    # who may write: "off" (no lobby chat), "players" (its entrants) or "everyone" (any logged-in follower).
    lobby_chat: str = "players"
    # A mixed tournament (RULES.md §11.1, R251): the code of a mix (rooms/mixes.py), one game per level
    # (rooms/tournament/mixed.py); ``variant`` and ``betting`` are then its first game's.
    mix: str = ""

    def __post_init__(self) -> None:
        if self.mix:
            check_mixed(self)
            first = get_mix(self.mix).games[0]
            object.__setattr__(self, "variant", first.variant)
            object.__setattr__(self, "betting", first.betting)
        v = get_variant(self.variant)
        v.check_structure(self.betting)
        if self.kind not in ("sng", "mtt"):
            raise ConfigError("a tournament is a sit-and-go (sng) or scheduled (mtt)")
        if self.kind == "sng" and not 2 <= self.max_players <= 30:
            raise ConfigError("a sit-and-go has 2 to 30 seats (R218)")
        if self.kind == "mtt" and self.start_time is None:
            raise ConfigError("a scheduled tournament needs a start time")
        if not v.min_players <= self.table_size <= v.max_players:
            raise ConfigError(f"{v.name} tables have {v.min_players} to {v.max_players} seats")
        if min(self.buy_in, self.fee, self.guarantee, self.freeroll_pool, self.seat_value) < 0:
            raise ConfigError("amounts must not be negative")
        if self.starting_stack <= 0 or self.level_minutes <= 0 or self.min_players < 2:
            raise ConfigError("bad starting stack, level length or minimum field")
        if self.payouts and sum(self.payouts) != 100:
            raise ConfigError("payout percentages must add up to 100")
        if self.freeroll_pool and (self.buy_in or self.fee):
            raise ConfigError("a freeroll (freeroll_pool) has no buy-in and no fee")
        if self.seat_value and not self.target:
            raise ConfigError("a satellite names its target tournament")
        if self.ante not in ANTES or (self.ante == "big_blind" and v.is_stud):
            raise ConfigError("the ante is 'per_player', or 'big_blind' in a game with blinds")
        if not 0 <= self.bounty < 100:
            raise ConfigError("a bounty is a share of 0 to 99 percent of the prize contribution")
        if self.bounty and (self.rebuy_levels or self.add_on or self.seat_value or self.freeroll_pool):
            raise ConfigError("a bounty tournament has no rebuys, add-on, satellite seats or freeroll pool")
        if self.late_registration_minutes < 0 or (
            self.late_registration_minutes and self.late_registration_levels
        ):
            raise ConfigError("late registration is set in levels or in minutes (not both, not negative)")
        if self.deal_seconds <= 0 or self.deal_keep < 0:
            raise ConfigError("a deal's time to answer is positive and the money kept is not negative")
        if self.table_chat not in CHAT_PERMISSIONS:
            raise ConfigError(f"table_chat is one of {', '.join(CHAT_PERMISSIONS)}")
        if self.lobby_chat not in CHAT_PERMISSIONS:
            raise ConfigError(f"lobby_chat is one of {', '.join(CHAT_PERMISSIONS)}")
        if self.max_entries < 1:
            raise ConfigError("max_entries counts a player's entries, his first included (1: no re-entry)")
        if self.max_entries > 1 and (
            self.kind != "mtt" or not (self.late_registration_levels or self.late_registration_minutes)
        ):
            raise ConfigError("re-entry (max_entries > 1) needs a scheduled tournament, late registration")
        if self.max_entries > 1 and (self.rebuy_levels or self.add_on or self.seat_value):
            raise ConfigError("a re-entry tournament has no rebuys, add-on or satellite seats")

    @property
    def spec(self) -> VariantSpec:
        return get_variant(self.variant)

    @property
    def is_satellite(self) -> bool:
        return self.seat_value > 0

    @property
    def is_freeroll(self) -> bool:
        return self.buy_in == 0 and self.fee == 0


@dataclass(frozen=True, slots=True)
class TournamentBuyIn(Effect):
    """Wallet (or a ticket) -> prize pool ``prize`` and house ``fee``; ``kind`` is buy_in, re_entry, rebuy
    or add_on."""

    player: str
    prize: int
    fee: int
    kind: str = "buy_in"
    ticket: bool = False


@dataclass(frozen=True, slots=True)
class TournamentRefund(Effect):
    """Unregistration or cancellation: the whole buy-in back (to the ticket if one was used)."""

    player: str
    prize: int
    fee: int
    ticket: bool = False


@dataclass(frozen=True, slots=True)
class TournamentOverlay(Effect):
    """Promotions account -> prize pool: a guarantee's overlay, a freeroll's pool, a satellite shortfall."""

    amount: int


@dataclass(frozen=True, slots=True)
class TournamentPrize(Effect):
    player: str
    place: int
    amount: int
    entry: int = 1  # which of the player's entries finished there (re-entry, R261)


@dataclass(frozen=True, slots=True)
class TournamentDealPaid(Effect):
    """A deal at the final table: prize pool -> the player's wallet ``amount`` (RULES.md §11.3)."""

    player: str
    amount: int
    method: str


@dataclass(frozen=True, slots=True)
class TournamentShare(Effect):
    """An ended (interrupted) tournament: prize pool -> the player's wallet ``amount`` (his share of what
    was left, ``interrupted_shares``), and his ``fee`` back from the house."""

    player: str
    amount: int
    fee: int


@dataclass(frozen=True, slots=True)
class TournamentTicket(Effect):
    """Prize pool -> a ticket worth ``value`` for ``target``, kept in the player's account until used."""

    player: str
    place: int
    target: str
    value: int


@dataclass(frozen=True, slots=True)
class TournamentPoints(Effect):
    player: str
    centipoints: int
