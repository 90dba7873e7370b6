"""A room made in code: one play-money table per game and structure of RULES.md, Rush pools and
sit-and-gos. The tests and embedders use it; ``pokerroom serve`` opens its configuration file instead
(server/config/room.toml by default)."""

from __future__ import annotations

from pokerroom.engine import Betting, RakeRule, Stakes
from pokerroom.rooms import TableConfig, Timing
from pokerroom.rooms.rush_rules import PoolConfig, RushTiming
from pokerroom.rooms.tournament import SPEEDS, TournamentConfig
from pokerroom.variants import VARIANTS

__all__ = ["RULES_GAMES", "demo_pools", "demo_tables", "demo_tournaments"]

RULES_GAMES = (
    "holdem",
    "irish",
    "omaha",
    "omaha5",
    "omaha6",
    "omaha8",
    "stud",
    "stud8",
    "razz",
    "stud5",
    "soko",
    "deuce7_triple",
    "draw5",
    "draw7a",
)
_SEATS = {"holdem": 6, "irish": 6, "omaha": 6, "omaha8": 6}


def _stakes(variant: str, betting: Betting) -> Stakes:
    if VARIANTS[variant].is_stud:
        return Stakes.fixed_limit(20, 40, ante=4, bring_in=5, blinds=False)
    if betting is Betting.FIXED_LIMIT:
        return Stakes.fixed_limit(20, 40)
    return Stakes.blinds(10, 20)


def demo_tables(timing: Timing | None = None, games: tuple[str, ...] = RULES_GAMES) -> list[TableConfig]:
    """One table for every game of RULES.md and every structure it is played in (play money)."""
    out = []
    for code in games:
        v = VARIANTS[code]
        for betting in v.structures:
            seats = _SEATS.get(code, v.max_players if v.max_players <= 6 else 6)
            stakes = _stakes(code, betting)
            big = stakes.big_blind or stakes.small_bet
            out.append(
                TableConfig(
                    table_id=f"{code}-{betting.value.lower()}",
                    name=f"{v.name} {betting.value}",
                    variant=code,
                    betting=betting,
                    stakes=stakes,
                    seats=seats,
                    rake=RakeRule(500, 3 * big),
                    timing=timing or Timing(),
                    currency="PLAY",
                )
            )
    return out


def demo_pools(timing: RushTiming | None = None) -> list[PoolConfig]:
    """The demo Rush pools: no-limit hold'em, 6-max and 9-max, play money."""
    return [
        PoolConfig(
            pool_id=f"rush-holdem-nl-{size}max",
            name=f"Rush Hold'em NL {size}-max",
            variant="holdem",
            betting=Betting.NO_LIMIT,
            stakes=Stakes.blinds(10, 20),
            table_size=size,
            rake=RakeRule(500, 60),
            timing=timing or RushTiming(),
            currency="PLAY",
        )
        for size in (6, 9)
    ]


def demo_tournaments(
    timing: Timing | None = None, level_minutes: float | None = None
) -> list[TournamentConfig]:
    """The demo sit-and-go: 6-player no-limit hold'em turbo, play money (a new one opens as each starts)."""
    return [
        TournamentConfig(
            "turbo6",
            "Turbo 6-max Hold'em NL",
            kind="sng",
            variant="holdem",
            betting=Betting.NO_LIMIT,
            buy_in=1000,
            fee=100,
            starting_stack=1500,
            table_size=6,
            max_players=6,
            level_minutes=level_minutes or SPEEDS["turbo"],
            timing=timing or Timing(between_hands=2.0),
            currency="PLAY",
        )
    ]
