"""Cash table configuration (RULES.md §4.1) and its validation."""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.engine import Betting, ConfigError, RakeRule, Stakes, Structure, VariantSpec
from pokerroom.rooms.mixes import Mix, TableGame, game_stakes, get_mix
from pokerroom.variants import get_variant

__all__ = ["STRADDLES", "ConfigError", "TableConfig", "Timing"]

STRADDLES = ("off", "utg", "mississippi")
"""The straddle options of a cash table (RULES.md §11.2): none, under the gun, or Mississippi (the button
may straddle; so may the player under the gun when the button does not)."""


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
    choose_game: float = 15.0  # dealer's choice: time to pick the round's game (RULES.md §11.1)
    # The web client's beat between the streets of an all-in run-out (runout.js BEAT_MS): a hand run out
    # after the all-in exposure waits this much longer per street run out, plus one for the result.
    run_out_beat: float = 1.1

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
            "choose_game",
            "run_out_beat",
        ):
            if getattr(self, name) < 0:
                raise ConfigError(f"timing {name} must not be negative")
        if self.action <= 0 or self.refill_every <= 0:
            raise ConfigError("the action time and the refill period must be positive")

    def pause_after(self, run_out_streets: int) -> float:
        """The pause after a hand before the next one: ``between_hands``, and when the hand's board (or
        stud cards) was run out after the all-in exposure, a beat per street run out and one for the
        result, so that a player watching the run-out street by street sees it end (issue 31)."""
        if run_out_streets <= 0:
            return self.between_hands
        return self.between_hands + (run_out_streets + 1) * self.run_out_beat


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A cash table: game, structure, stakes, seats, buy-in limits, rake, clocks and currency.

    ``min_buy_in`` / ``max_buy_in`` default per RULES.md §4.1: NL/PL 40 / 100 big blinds; fixed limit
    and stud 10 big bets and no maximum (``max_buy_in`` 0 = no maximum).

    Options of RULES.md §11.2, off by default: ``straddle`` (one of :data:`STRADDLES`; NL and PL blind
    games, tables of three seats or more) and ``bomb_pot_every`` (every K-th hand of the table is a bomb
    pot; 0 = never; flop games) with its ``bomb_pot_ante`` (0 = the default, 2 big blinds).

    A mixed table (RULES.md §11.1): ``mix`` names a mix of :data:`~pokerroom.rooms.mixes.MIXES`, played in
    rounds of ``round_hands`` hands (0: the table's seats); ``variant`` and ``betting`` are then its first
    game's and ``stakes`` the mix's small bet / big bet (``Stakes.fixed_limit``), from which every game's
    stakes derive (:attr:`games`). Its buy-in range defaults to 10 to 50 big bets of the mix. With
    ``dealers_choice`` the mix's games are the list a round's chooser picks from (R250).
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
    straddle: str = "off"
    bomb_pot_every: int = 0
    bomb_pot_ante: int = 0
    mix: str = ""
    round_hands: int = 0
    dealers_choice: bool = False

    def __post_init__(self) -> None:
        v = get_variant(self.variant)
        self._check_options()
        if self.mix:
            self._check_mix()
        elif self.dealers_choice:
            raise ConfigError("dealer's choice needs a mix: the games to choose from")
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

    def _check_options(self) -> None:
        v = get_variant(self.variant)
        if self.straddle not in STRADDLES:
            raise ConfigError(f"the straddle option is one of {', '.join(STRADDLES)}")
        if self.straddle != "off":
            if self.betting is Betting.FIXED_LIMIT or v.is_stud:
                raise ConfigError("a straddle is played only in no limit and pot limit blind games")
            if self.seats < 3:
                raise ConfigError("a straddle is never played heads-up: the table needs three seats or more")
        for name in ("bomb_pot_every", "bomb_pot_ante"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ConfigError(f"{name.replace('_', ' ')} must be a whole number, 0 or more")
        if self.bomb_pot_every:
            if v.is_stud or len(v.streets) < 2 or not v.streets[1].board:
                raise ConfigError(f"{v.name} has no flop: no bomb pot")
            if self.bomb_ante % self.stakes.chip_unit:
                raise ConfigError("the bomb pot ante must be a multiple of the chip unit")
        elif self.bomb_pot_ante:
            raise ConfigError("a bomb pot ante without bomb pots (set bomb_pot_every)")

    def _check_mix(self) -> None:
        mix = get_mix(self.mix)
        first = mix.games[0]
        if (self.variant, self.betting) != (first.variant, first.betting):
            raise ConfigError(f"a {mix.name} table's first game is {first.label}")
        if self.stakes.small_bet <= 0 or self.stakes.big_bet <= 0:
            raise ConfigError("the stakes of a mix are its small bet and big bet")
        if type(self.round_hands) is not int or self.round_hands < 0:
            raise ConfigError("round_hands must be a whole number, 0 or more")
        if self.straddle != "off" or self.bomb_pot_every:
            raise ConfigError("a mixed table has no straddle and no bomb pot")
        for game in self.games:
            v = game.spec
            if not v.min_players <= self.seats <= v.max_players or (
                v.table_sizes and self.seats not in v.table_sizes
            ):
                raise ConfigError(f"{mix.name} tables have at most {v.max_players} seats ({v.name})")
            game.structure  # noqa: B018  (validates the game's stakes)

    @property
    def mix_spec(self) -> Mix | None:
        return get_mix(self.mix) if self.mix else None

    @property
    def hands_per_round(self) -> int:
        """The hands of a round of the mix: ``round_hands``, else the table's seats (RULES.md §11.1)."""
        return self.round_hands or self.seats

    @property
    def games(self) -> tuple[TableGame, ...]:
        """Every game the table deals, with its stakes (one for a single-game table; R249 for a mix)."""
        mix = self.mix_spec
        if mix is None:
            return (TableGame(self.variant, self.betting, self.stakes),)
        s = self.stakes
        return tuple(
            TableGame(g.variant, g.betting, game_stakes(g, s.small_bet, s.big_bet, s.chip_unit))
            for g in mix.games
        )

    @property
    def bomb_ante(self) -> int:
        """The ante of a bomb pot: ``bomb_pot_ante``, by default 2 big blinds (RULES.md §11.2)."""
        return self.bomb_pot_ante or 2 * self.stakes.big_blind

    @property
    def straddle_amount(self) -> int:
        """A straddle is 2 big blinds (RULES.md §11.2)."""
        return 2 * self.stakes.big_blind

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
        if self.mix:  # RULES.md §11.1: in big bets of the mix, 10 to 50
            lo, hi = 10 * s.big_bet, 50 * s.big_bet
        elif self.betting is Betting.FIXED_LIMIT:
            lo, hi = 10 * s.big_bet, 0
        else:
            lo, hi = 40 * s.big_blind, 100 * s.big_blind
        return (self.min_buy_in or lo, self.max_buy_in or hi)
