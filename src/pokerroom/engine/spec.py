"""The shape of a game as data: streets, deck, forced bets, hand rules (ARCHITECTURE.md, "variants").

The engine is written per mechanic (board dealing, stud dealing, draws, the Irish discard, bring-in,
split pots); a :class:`VariantSpec` says which mechanics a game uses and with which numbers. The catalog
of games lives in :mod:`pokerroom.variants`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from pokerroom.cards import DeckSpec
from pokerroom.engine.errors import ConfigError
from pokerroom.engine.stakes import Betting

__all__ = ["ForcedBets", "Showing", "Street", "VariantSpec"]


class ForcedBets(Enum):
    BLINDS = "blinds"
    BRING_IN = "bring_in"


class Showing(Enum):
    """How stud boards are compared to find who acts first on later streets (RULES.md §5.7-§5.11)."""

    HIGH = "high"  # best showing high hand; straights and flushes never count
    LOW = "low"  # razz: best showing A-5 low
    SOKO = "soko"  # as HIGH, but a 4-card four flush / four straight ranks above a pair


@dataclass(frozen=True, slots=True)
class Street:
    """One dealing step and the betting round that follows it.

    ``deal`` lists, per card dealt to each player, whether it is dealt face up (stud) or down, e.g.
    ``(False, False, True)`` for 7-Card Stud's third street; cards are dealt one at a time around the
    table for each entry. ``board`` community cards are dealt after the players' cards. ``burn`` burns one
    card before the street's cards (never before the first street, RULES.md §1.1). ``draw`` opens the
    street with a draw of 0..``max_draw`` cards per player; ``discard`` with the Irish discard of exactly
    that many cards. ``big_bet`` picks the fixed-limit unit; ``open_pair`` allows the big bet when any
    board shows an open pair (7-Card Stud 4th street).
    """

    name: str
    deal: tuple[bool, ...] = ()
    board: int = 0
    burn: bool = False
    draw: bool = False
    discard: int = 0
    big_bet: bool = False
    open_pair: bool = False


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """A game: its deck, streets, forced bets, showdown rules and limits.

    ``high`` is the evaluation rule for the (only) hand of a pot; ``low`` the rule for the low half of a
    hi/lo game (an 8-or-better rule); a low-only game such as razz puts its low rule in ``high`` (it is
    "the" hand). ``deck_for_five`` is the deck used when exactly five players are dealt in (5-Card Draw
    7-A adds the sixes). Rule names are those of :func:`pokerroom.eval.evaluate`; ``high_with_sixes`` is
    the rule used with ``deck_for_five``.
    """

    code: str
    name: str
    family: str
    deck: DeckSpec
    streets: tuple[Street, ...]
    high: str
    low: str | None = None
    forced: ForcedBets = ForcedBets.BLINDS
    structures: tuple[Betting, ...] = (Betting.NO_LIMIT, Betting.POT_LIMIT, Betting.FIXED_LIMIT)
    default_structure: Betting = Betting.NO_LIMIT
    min_players: int = 2
    max_players: int = 10
    table_sizes: tuple[int, ...] = ()
    showing: Showing | None = None
    bring_in_highest: bool = False
    max_draw: int = 5
    deck_for_five: DeckSpec | None = None
    high_with_sixes: str | None = None
    phh_codes: Mapping[Betting, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.streets or self.streets[0].burn or self.streets[0].draw or self.streets[0].discard:
            raise ConfigError(f"{self.code}: the first street deals without burn, draw or discard")
        if self.default_structure not in self.structures:
            raise ConfigError(f"{self.code}: the default structure must be allowed")
        if self.forced is ForcedBets.BRING_IN and self.showing is None:
            raise ConfigError(f"{self.code}: a stud game needs a showing rule")

    @property
    def is_stud(self) -> bool:
        return self.forced is ForcedBets.BRING_IN

    @property
    def is_draw(self) -> bool:
        return any(s.draw for s in self.streets)

    @property
    def has_shared_board(self) -> bool:
        """Community cards that every hand plays (hold'em, Irish, the Omaha family): the games whose board
        can be run twice (R-RIT). Stud (its one community card is a shortage fallback) and draw games
        have none."""
        return not self.is_stud and not self.is_draw and any(s.board for s in self.streets)

    @property
    def hole_count(self) -> int:
        """Cards each player holds at the end (before any Irish discard)."""
        return sum(len(s.deal) for s in self.streets)

    @property
    def is_hi_lo(self) -> bool:
        return self.low is not None

    def deck_for(self, players: int) -> DeckSpec:
        """The deck for a hand with this many players dealt in (R52)."""
        if self.deck_for_five is not None and players == 5:
            return self.deck_for_five
        return self.deck

    def rule_for(self, deck: DeckSpec) -> str:
        if self.deck_for_five is not None and deck is self.deck_for_five and self.high_with_sixes:
            return self.high_with_sixes
        return self.high

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ConfigError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, not {players}"
            )

    def check_structure(self, betting: Betting) -> None:
        if betting not in self.structures:
            allowed = ", ".join(b.value for b in self.structures)
            raise ConfigError(f"{self.name} is not played {betting.value}; allowed: {allowed}")
