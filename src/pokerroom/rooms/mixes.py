"""Mixed games as data (RULES.md §11.1): a mix is an ordered list of (game, structure) played in rounds.

Pure. A cash table plays each game of its mix for a round of N hands (the table's seats by default), then
the next game of the list, cyclically (R246). The mix has one small bet / big bet, and every game's stakes
derive from them (:func:`game_stakes`, R249). The button and the missed blinds across games (R247, R248)
are the cash table's: it keeps its blind positions untouched through the stud rounds (rooms/cash.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.engine import Betting, ConfigError, Stakes, Structure, VariantSpec
from pokerroom.variants import get_variant

__all__ = ["MIXES", "Mix", "MixGame", "Rotation", "TableGame", "game_stakes", "get_mix"]

FL, PL, NL = Betting.FIXED_LIMIT, Betting.POT_LIMIT, Betting.NO_LIMIT


@dataclass(frozen=True, slots=True)
class MixGame:
    """One game of a mix: a variant of the catalog and its betting structure."""

    variant: str
    betting: Betting

    @property
    def spec(self) -> VariantSpec:
        return get_variant(self.variant)

    @property
    def label(self) -> str:
        """``"FL Hold'em"``: how the lobby and the table name the game."""
        return f"{self.betting.value} {self.spec.name}"


@dataclass(frozen=True, slots=True)
class Mix:
    """A named rotation of games (RULES.md §11.1)."""

    code: str
    name: str
    games: tuple[MixGame, ...]

    def __post_init__(self) -> None:
        if not self.games:
            raise ConfigError("a mix needs at least one game")
        for g in self.games:
            g.spec.check_structure(g.betting)


MIXES: dict[str, Mix] = {
    m.code: m
    for m in (
        Mix(
            "horse",
            "H.O.R.S.E.",
            (
                MixGame("holdem", FL),
                MixGame("omaha8", FL),
                MixGame("razz", FL),
                MixGame("stud", FL),
                MixGame("stud8", FL),
            ),
        ),
        Mix(
            "8game",
            "8-Game",
            (
                MixGame("deuce7_triple", FL),
                MixGame("holdem", FL),
                MixGame("omaha8", FL),
                MixGame("razz", FL),
                MixGame("stud", FL),
                MixGame("stud8", FL),
                MixGame("holdem", NL),
                MixGame("omaha", PL),
            ),
        ),
        Mix("ha", "Mixed Hold'em/Omaha", (MixGame("holdem", NL), MixGame("omaha", PL))),
    )
}
"""The shipped mixes (RULES.md §11.1): H.O.R.S.E., 8-game and HA (NL Hold'em / PL Omaha)."""


def get_mix(code: str) -> Mix:
    try:
        return MIXES[code]
    except KeyError:
        raise ConfigError(f"unknown mix {code[:20]!r}: one of {', '.join(MIXES)}") from None


def game_stakes(game: MixGame, small_bet: int, big_bet: int, chip_unit: int = 1) -> Stakes:
    """The stakes of one game of a mix whose limit games bet ``small_bet`` / ``big_bet`` (RULES.md §11.1,
    R249): limit blind games post big blind = small bet and half of it as the small blind; the big-bet
    games play big blind = small bet / 2, small blind = big blind / 2; stud games ante small bet / 5 and
    bring in small bet / 4 (each rounded down to the chip unit)."""
    if game.spec.is_stud:
        ante = (small_bet // 5) // chip_unit * chip_unit
        return Stakes.fixed_limit(small_bet, big_bet, ante=ante, chip_unit=chip_unit, blinds=False)
    if game.betting is FL:
        return Stakes.fixed_limit(small_bet, big_bet, chip_unit=chip_unit)
    big_blind = (small_bet // 2) // chip_unit * chip_unit
    return Stakes.blinds(None, big_blind, chip_unit=chip_unit)


@dataclass(frozen=True, slots=True)
class TableGame:
    """The game a table deals now: variant, structure and stakes (a single-game table has one forever)."""

    variant: str
    betting: Betting
    stakes: Stakes

    @property
    def spec(self) -> VariantSpec:
        return get_variant(self.variant)

    @property
    def structure(self) -> Structure:
        return Structure(self.betting, self.stakes, heads_up_uncapped=True)

    @property
    def label(self) -> str:
        return MixGame(self.variant, self.betting).label


@dataclass(frozen=True, slots=True)
class Rotation:
    """Where a table is in its mix: the round (0, 1, ...), its game and the hands dealt in it.

    Rounds of ``per_round`` hands (R246). In a plain rotation each round plays the game after the last
    one's, cyclically. In dealer's choice (``choice``) a new round waits for its game to be chosen
    (``choosing``; :meth:`chose`), and when nobody chooses it plays the game after the last one's (R250).
    Immutable: the table replaces it as hands are dealt (:meth:`dealt`) and as a round ends (:meth:`rolled`).
    """

    mix: Mix
    per_round: int
    round: int = 0
    dealt_in_round: int = 0
    index: int = 0  # the game of the round, in the mix's list
    choice: bool = False
    choosing: bool = False

    def __post_init__(self) -> None:
        if self.per_round < 1:
            raise ConfigError("a round of a mix has at least one hand")
        if not 0 <= self.index < len(self.mix.games):
            raise ConfigError("no such game in the mix")

    @property
    def game(self) -> MixGame:
        """The game of the current round (while the round is not over: of the next hand too). While a
        dealer's choice is pending: the game played if nobody chooses."""
        return self.mix.games[self.index]

    @property
    def next_game(self) -> MixGame:
        """The next round's game (in dealer's choice: the one played if its chooser does not choose)."""
        return self.mix.games[(self.index + 1) % len(self.mix.games)]

    @property
    def hands_left(self) -> int:
        """Hands still to be dealt in the current round."""
        return self.per_round - self.dealt_in_round

    @classmethod
    def after(cls, mix: Mix, per_round: int, hands: int, choice: bool = False) -> Rotation:
        """The rotation of a table that has dealt ``hands`` hands (a table reopened after a restart or
        taken over by another host: its hand count is the journal's). The rounds are taken to have gone
        in the list's order: the choices of a dealer's choice table are not kept."""
        rounds, dealt = divmod(hands, per_round)
        return cls(mix, per_round, rounds, dealt, rounds % len(mix.games), choice, False)

    def rolled(self) -> Rotation:
        """Before a hand: the next round if the current one is over, else the same."""
        if self.dealt_in_round < self.per_round:
            return self
        nxt = (self.index + 1) % len(self.mix.games)
        return Rotation(self.mix, self.per_round, self.round + 1, 0, nxt, self.choice, self.choice)

    def chose(self, index: int) -> Rotation:
        """Dealer's choice: the round's game is the mix's game ``index`` (the chooser's pick)."""
        return Rotation(self.mix, self.per_round, self.round, self.dealt_in_round, index, self.choice, False)

    def dealt(self) -> Rotation:
        """A hand of the current round was dealt (a pending choice is over: its default was played)."""
        r = self.round
        return Rotation(self.mix, self.per_round, r, self.dealt_in_round + 1, self.index, self.choice, False)
