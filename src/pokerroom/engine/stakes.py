"""Stakes and betting structures (RULES.md §1.3, §3.3-§3.5)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pokerroom.engine.errors import ConfigError

__all__ = ["Betting", "RakeRule", "Stakes", "Structure"]


class Betting(Enum):
    """Betting structure: fixed limit, pot limit or no limit."""

    FIXED_LIMIT = "FL"
    POT_LIMIT = "PL"
    NO_LIMIT = "NL"

    @property
    def label(self) -> str:
        return {"FL": "Fixed Limit", "PL": "Pot Limit", "NL": "No Limit"}[self.value]


def _check_int(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{name} must be an integer number of minor units, not {type(value).__name__}")
    if value < 0:
        raise ConfigError(f"{name} must not be negative")
    return value


@dataclass(frozen=True, slots=True)
class Stakes:
    """Every forced and fixed amount of a table, in minor units (cents or chips); unused fields are 0.

    In fixed limit the big blind equals the small bet (RULES.md §1.3); :meth:`fixed_limit` builds that.

    ``big_blind_ante``: the ante is posted once per hand, by the big blind, for the whole table (the
    big-blind ante of today's tournaments, TDA): ``ante`` is then that one post, made before his blind,
    and it is dead money of the main pot. Off: every player dealt in posts ``ante`` (RULES.md §4.5, §9.4).
    """

    small_blind: int = 0
    big_blind: int = 0
    small_bet: int = 0
    big_bet: int = 0
    ante: int = 0
    bring_in: int = 0
    chip_unit: int = 1
    big_blind_ante: bool = False

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "small_bet", "big_bet", "ante", "bring_in", "chip_unit"):
            _check_int(name, getattr(self, name))
        if not isinstance(self.big_blind_ante, bool):
            raise ConfigError("big_blind_ante must be True or False")
        if self.chip_unit <= 0:
            raise ConfigError("chip_unit must be positive")
        for name in ("small_blind", "big_blind", "small_bet", "big_bet", "ante", "bring_in"):
            if getattr(self, name) % self.chip_unit:
                raise ConfigError(f"{name} must be a multiple of the chip unit {self.chip_unit}")

    @staticmethod
    def default_small_blind(big_blind: int, chip_unit: int = 1) -> int:
        """Half the big blind rounded down to the chip unit (RULES.md §1.3, R2-R5)."""
        return (big_blind // 2) // chip_unit * chip_unit

    @classmethod
    def blinds(
        cls,
        small_blind: int | None,
        big_blind: int,
        *,
        ante: int = 0,
        chip_unit: int = 1,
        big_blind_ante: bool = False,
    ) -> Stakes:
        """Pot-limit / no-limit blind stakes, named by the blinds ($5/$10 NL: SB 5.00, BB 10.00)."""
        sb = cls.default_small_blind(big_blind, chip_unit) if small_blind is None else small_blind
        return cls(
            small_blind=sb,
            big_blind=big_blind,
            ante=ante,
            chip_unit=chip_unit,
            big_blind_ante=big_blind_ante,
        )

    @classmethod
    def fixed_limit(
        cls,
        small_bet: int,
        big_bet: int | None = None,
        *,
        small_blind: int | None = None,
        ante: int = 0,
        bring_in: int | None = None,
        chip_unit: int = 1,
        blinds: bool = True,
    ) -> Stakes:
        """Fixed-limit stakes named by small bet / big bet; the big blind is the small bet (R6).

        With ``blinds=False`` (stud) no blinds are set and the bring-in defaults to a quarter of the small
        bet rounded down to the chip unit (RULES.md §1.3).
        """
        big = 2 * small_bet if big_bet is None else big_bet
        if blinds:
            sb = cls.default_small_blind(small_bet, chip_unit) if small_blind is None else small_blind
            return cls(sb, small_bet, small_bet, big, ante, 0 if bring_in is None else bring_in, chip_unit)
        bi = (small_bet // 4) // chip_unit * chip_unit if bring_in is None else bring_in
        return cls(0, 0, small_bet, big, ante, bi, chip_unit)


@dataclass(frozen=True, slots=True)
class RakeRule:
    """Rake of a cash table (RULES.md §7.1): ``percent_bp`` in basis points (500 = 5 %), ``cap`` in cents."""

    percent_bp: int
    cap: int

    def __post_init__(self) -> None:
        _check_int("percent_bp", self.percent_bp)
        _check_int("cap", self.cap)
        if self.percent_bp > 10_000:
            raise ConfigError("rake percent cannot exceed 100 %")

    def amount(self, total: int) -> int:
        """rake = min(cap, floor(total * percent)) in whole minor units (R185)."""
        return min(self.cap, total * self.percent_bp // 10_000)


@dataclass(frozen=True, slots=True)
class Structure:
    """A betting structure with its stakes and options.

    ``cap`` is the number of bets per fixed-limit round (one bet and three raises, RULES.md §3.3).
    ``heads_up_uncapped`` lifts the cap for a round that starts with exactly two players who have not
    folded: on at cash tables, off in tournaments (R58, R59).
    """

    betting: Betting
    stakes: Stakes
    cap: int = 4
    heads_up_uncapped: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.betting, Betting):
            raise ConfigError("betting must be a Betting value")
        if self.cap < 2:
            raise ConfigError("the fixed-limit cap must allow at least one raise")
        s = self.stakes
        if self.betting is Betting.FIXED_LIMIT:
            if s.small_bet <= 0 or s.big_bet <= 0:
                raise ConfigError("fixed limit needs a small bet and a big bet")
        elif s.big_blind <= 0 and s.small_bet <= 0:
            raise ConfigError(
                "pot limit and no limit need a big blind (or a small bet in games without blinds)"
            )

    @property
    def min_bet(self) -> int:
        """The minimum opening bet in PL/NL: the big blind, or the small bet without blinds (R73, R75)."""
        return self.stakes.big_blind or self.stakes.small_bet

    @property
    def label(self) -> str:
        return self.betting.label
