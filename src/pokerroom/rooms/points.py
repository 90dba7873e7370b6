"""Loyalty points, the Game of the Week and happy hours (RULES.md §7.2-§7.4).

Points are kept in centipoints (hundredths of a point). A hand earns 10 points per 1.00 of rake, i.e.
10 centipoints per cent of rake, times the multipliers in force when the hand started.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo

from pokerroom.engine import Betting, ConfigError

__all__ = [
    "Discipline",
    "HappyHour",
    "PointsPolicy",
    "hand_points",
    "share_points",
    "week_start",
]

CENTIPOINTS_PER_CENT_OF_RAKE = 10


@dataclass(frozen=True, slots=True)
class Discipline:
    """A game as featured by the Game of the Week: variant, structure and mode (standard or rush)."""

    variant: str
    betting: Betting
    mode: str = "standard"


def week_start(moment: datetime, tz: tzinfo) -> date:
    """The Monday of the week (in the room's time zone) in which ``moment`` falls (R194)."""
    local = moment.astimezone(tz).date()
    return local - timedelta(days=local.weekday())


@dataclass(frozen=True, slots=True)
class HappyHour:
    """A window on some days of the week (0 = Monday) in the room's time zone; cash games only (§7.4)."""

    days: frozenset[int]
    start: time
    end: time
    multiplier_pct: int = 200

    def covers(self, moment: datetime, tz: tzinfo) -> bool:
        local = moment.astimezone(tz)
        return local.weekday() in self.days and self.start <= local.time().replace(tzinfo=None) < self.end


@dataclass(frozen=True, slots=True)
class PointsPolicy:
    """The room's points rules: Game of the Week per week (keyed by its Monday) and happy hours."""

    tz: tzinfo
    game_of_the_week: Mapping[date, Discipline] = field(default_factory=dict)
    happy_hours: tuple[HappyHour, ...] = ()
    tournament_points_per_unit: int = 10  # points per 1.00 of tournament fee

    def __post_init__(self) -> None:
        for monday in self.game_of_the_week:
            if monday.weekday() != 0:
                raise ConfigError(f"a Game of the Week is configured by the Monday of its week, not {monday}")

    def featured(self, moment: datetime) -> Discipline | None:
        return self.game_of_the_week.get(week_start(moment, self.tz))

    def multiplier_pct(self, discipline: Discipline, moment: datetime, *, cash: bool = True) -> int:
        """Multipliers multiply (R193): Game of the Week x2, happy hour xk (cash games only)."""
        pct = 100
        if self.featured(moment) == discipline:
            pct *= 2
        if cash:
            for hh in self.happy_hours:
                if hh.covers(moment, self.tz):
                    pct = pct * hh.multiplier_pct // 100
        return pct


def hand_points(rake: int, multiplier_pct: int = 100) -> int:
    """The centipoints a hand with ``rake`` cents of rake earns (R188, R192)."""
    return rake * CENTIPOINTS_PER_CENT_OF_RAKE * multiplier_pct // 100


def share_points(total: int, contributions: Mapping[int, int], order: Sequence[int]) -> dict[int, int]:
    """Share ``total`` centipoints by contribution; each share is floored to a centipoint and the leftover
    centipoints go one at a time to the largest contributors (ties: ``order``, seats from the left of the
    button), so the shares add up to the total (RULES.md §7.2, R189, R190)."""
    paid = {s: c for s, c in contributions.items() if c > 0}
    whole = sum(paid.values())
    if total <= 0 or whole == 0:
        return dict.fromkeys(contributions, 0)
    shares = {s: total * c // whole for s, c in paid.items()}
    rank = {s: i for i, s in enumerate(order)}
    by_size: Iterable[int] = sorted(paid, key=lambda s: (-paid[s], rank.get(s, len(rank) + s)))
    leftover = total - sum(shares.values())
    queue = list(by_size)
    i = 0
    while leftover > 0:
        shares[queue[i % len(queue)]] += 1
        leftover -= 1
        i += 1
    return {s: shares.get(s, 0) for s in contributions}
