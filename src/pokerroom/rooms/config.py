"""Cash table configuration (RULES.md §4.1) and its validation."""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.engine import Betting, ConfigError, RakeRule, Stakes, Structure, VariantSpec
from pokerroom.variants import get_variant

__all__ = ["ConfigError", "TableConfig", "Timing"]


@dataclass(frozen=True, slots=True)
class Timing:
    """Clocks of a table, in seconds (RULES.md §4.1 defaults)."""

    action: float = 15.0
    time_bank: float = 30.0  # the bank a player starts with and its ceiling
    bank_refill: float = 5.0  # added every ``refill_every`` hands dealt to the player
    refill_every: int = 20
    sit_out_limit: float = 15 * 60.0  # a player sitting out longer is unseated
    disconnect_grace: float = 120.0  # a disconnected player keeps playing his seat this long
    offer_time: float = 30.0  # a waiting-list seat offer expires after this
    post_prompt: float = 15.0  # auto-post off: time to answer "post the blind?"
    between_hands: float = 2.0  # pause after a hand before the next one starts

    def __post_init__(self) -> None:
        for name in (
            "action",
            "time_bank",
            "bank_refill",
            "sit_out_limit",
            "disconnect_grace",
            "offer_time",
            "post_prompt",
            "between_hands",
        ):
            if getattr(self, name) < 0:
                raise ConfigError(f"timing {name} must not be negative")
        if self.action <= 0 or self.refill_every <= 0:
            raise ConfigError("the action time and the refill period must be positive")


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A cash table: game, structure, stakes, seats, buy-in limits, rake, clocks and currency.

    ``min_buy_in`` / ``max_buy_in`` default per RULES.md §4.1: NL/PL 40 / 100 big blinds; fixed limit
    and stud 10 big bets and no maximum (``max_buy_in`` 0 = no maximum).
    """

    table_id: str
    name: str
    variant: str
    betting: Betting
    stakes: Stakes
    seats: int
    min_buy_in: int = 0
    max_buy_in: int = 0
    rake: RakeRule | None = None
    timing: Timing = Timing()
    currency: str = "PLAY"
    run_it_twice: bool = False  # the operator allows running the board twice (R-RIT; board games only)

    def __post_init__(self) -> None:
        v = get_variant(self.variant)
        if self.run_it_twice and not v.has_shared_board:
            raise ConfigError(f"{v.name} has no shared board: it cannot be run twice")
        v.check_structure(self.betting)
        Structure(self.betting, self.stakes)  # validates the stakes for the structure
        if not v.min_players <= self.seats <= v.max_players:
            raise ConfigError(
                f"{v.name} tables have {v.min_players} to {v.max_players} seats, not {self.seats}"
            )
        if v.table_sizes and self.seats not in v.table_sizes:
            sizes = " or ".join(map(str, v.table_sizes))
            raise ConfigError(f"{v.name} tables have {sizes} seats")
        if v.is_stud:
            if self.stakes.bring_in <= 0 or self.stakes.small_bet <= 0:
                raise ConfigError("stud tables need a bring-in and a small bet")
        elif self.stakes.big_blind <= 0:
            raise ConfigError("blind games need a big blind")
        if self.min_buy_in < 0 or self.max_buy_in < 0:
            raise ConfigError("buy-in limits must not be negative")
        lo, hi = self.buy_in_range
        if lo <= 0:
            raise ConfigError("the minimum buy-in must be positive")
        if hi and hi < lo:
            raise ConfigError("the maximum buy-in is below the minimum")
        if lo % self.stakes.chip_unit or (hi and hi % self.stakes.chip_unit):
            raise ConfigError("buy-in limits must be multiples of the chip unit")
        if not self.currency.isalnum() or not 2 <= len(self.currency) <= 8:
            raise ConfigError("the currency code must be 2-8 letters or digits")

    @property
    def spec(self) -> VariantSpec:
        return get_variant(self.variant)

    @property
    def structure(self) -> Structure:
        return Structure(self.betting, self.stakes, heads_up_uncapped=True)

    @property
    def buy_in_range(self) -> tuple[int, int]:
        """(minimum, maximum) buy-in; a maximum of 0 means no maximum."""
        s = self.stakes
        if self.betting is Betting.FIXED_LIMIT:
            lo, hi = 10 * s.big_bet, 0
        else:
            lo, hi = 40 * s.big_blind, 100 * s.big_blind
        return (self.min_buy_in or lo, self.max_buy_in or hi)
