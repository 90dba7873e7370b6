"""The weekly promotions (RULES.md §7.3, §9.10): the Sunday Big Game of the Week and its satellites."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from pokerroom.engine import Betting
from pokerroom.rooms.tournament.config import TournamentConfig

__all__ = ["big_game_of_the_week", "big_game_satellite"]

BIG_GAME_BUY_IN = 10_000  # $100.00
BIG_GAME_FEE = 900  # $9.00
BIG_GAME_GUARANTEE = 1_000_000  # $10,000.00


def big_game_of_the_week(
    any_day: datetime, variant: str, betting: Betting, *, at: time = time(18), currency: str = "USD"
) -> TournamentConfig:
    """The next Sunday Big Game starting after ``any_day``: $100 + $9, $10,000 guaranteed (R227). On a
    Sunday at or after its hour that is next Sunday's, never one that would start at once."""
    day = any_day.date() + timedelta(days=6 - any_day.weekday())
    start = datetime.combine(day, at, tzinfo=any_day.tzinfo)
    if start <= any_day:
        day += timedelta(days=7)
        start = datetime.combine(day, at, tzinfo=any_day.tzinfo)
    return TournamentConfig(
        f"big-{day.isoformat()}",
        f"Big Game of the Week {day.isoformat()}",
        kind="mtt",
        variant=variant,
        betting=betting,
        buy_in=BIG_GAME_BUY_IN,
        fee=BIG_GAME_FEE,
        guarantee=BIG_GAME_GUARANTEE,
        start_time=start,
        registration_opens=start - timedelta(days=6),
        currency=currency,
        featured=True,
    )


def big_game_satellite(
    target: TournamentConfig, start: datetime, number: int, *, buy_in: int = 1_000
) -> TournamentConfig:
    """A satellite to the Big Game during the week: each awards at least one seat worth $109 (§9.10)."""
    return TournamentConfig(
        f"{target.tournament_id}-sat{number}",
        f"{target.name} satellite {number}",
        kind="mtt",
        variant=target.variant,
        betting=target.betting,
        buy_in=buy_in,
        fee=0,
        start_time=start,
        seat_value=target.buy_in + target.fee,
        guaranteed_seats=1,
        target=target.tournament_id,
        currency=target.currency,
        featured=True,
    )
