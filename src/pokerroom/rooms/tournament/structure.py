"""Tournament structures: blind/ante levels by time, speeds, breaks (RULES.md §9.4)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pokerroom.engine import Betting, ConfigError, Stakes

__all__ = ["ANTES", "DEFAULT_LEVELS", "SPEEDS", "BlindLevel", "Schedule", "level_stakes"]

# (small blind, big blind, ante) of levels 1-18 (RULES.md §9.4); later levels double all three.
DEFAULT_LEVELS: tuple[tuple[int, int, int], ...] = (
    (10, 20, 0),
    (15, 30, 0),
    (25, 50, 0),
    (50, 100, 0),
    (75, 150, 0),
    (100, 200, 0),
    (100, 200, 25),
    (150, 300, 25),
    (200, 400, 50),
    (300, 600, 75),
    (400, 800, 100),
    (600, 1200, 150),
    (800, 1600, 200),
    (1000, 2000, 250),
    (1500, 3000, 400),
    (2000, 4000, 500),
    (3000, 6000, 750),
    (4000, 8000, 1000),
)

SPEEDS = {"normal": 10, "turbo": 5, "hyper": 3}  # sit-and-go minutes per level (R219)


@dataclass(frozen=True, slots=True)
class BlindLevel:
    number: int
    small_blind: int
    big_blind: int
    ante: int

    @classmethod
    def default(cls, number: int) -> BlindLevel:
        if number < 1:
            raise ConfigError("levels are numbered from 1")
        if number <= len(DEFAULT_LEVELS):
            sb, bb, ante = DEFAULT_LEVELS[number - 1]
        else:
            sb, bb, ante = DEFAULT_LEVELS[-1]
            factor = 2 ** (number - len(DEFAULT_LEVELS))
            sb, bb, ante = sb * factor, bb * factor, ante * factor
        return cls(number, sb, bb, ante)


ANTES = ("per_player", "big_blind")
"""How a blind game's antes are posted (``TournamentConfig.ante``); docs/decisions.md, issue 21."""


def level_stakes(level: BlindLevel, betting: Betting, stud: bool, ante: str = "per_player") -> Stakes:
    """The stakes of a level (§9.4): FL small bet = BB and big bet = 2 BB; stud small bet = BB, big bet =
    2 BB, bring-in = small bet / 4, ante = small bet / 5 (rounded down).

    ``ante="big_blind"`` (blind games): at every level with an ante, the big blind posts one ante for the
    whole table, equal to the big blind, before his blind (the big-blind ante, TDA); it is dead money."""
    if stud:
        small = level.big_blind
        return Stakes(0, 0, small, 2 * small, small // 5, small // 4, 1)
    bba = ante == "big_blind"
    amount = (level.big_blind if level.ante else 0) if bba else level.ante
    if betting is Betting.FIXED_LIMIT:
        bb = level.big_blind
        return Stakes(level.small_blind, bb, bb, 2 * bb, amount, 0, 1, big_blind_ante=bba)
    return Stakes(level.small_blind, level.big_blind, 0, 0, amount, 0, 1, big_blind_ante=bba)


@dataclass(frozen=True, slots=True)
class Schedule:
    """One clock for the whole tournament: levels of ``minutes`` each, and (MTTs) a break of
    ``break_minutes`` at the top of every hour during which the level clock stops (§9.4)."""

    started: datetime
    minutes: float
    break_minutes: float = 0.0

    def __post_init__(self) -> None:
        if self.minutes <= 0 or self.break_minutes < 0:
            raise ConfigError("level and break lengths must be positive")

    def _breaks_until(self, now: datetime) -> tuple[float, bool]:
        """Seconds spent in breaks between the start and ``now``, and whether ``now`` is in a break."""
        if not self.break_minutes:
            return 0.0, False
        spent = 0.0
        hour = self.started.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
        length = timedelta(minutes=self.break_minutes)
        while hour <= now:
            end = hour + length
            if now < end:
                return spent + (now - hour).total_seconds(), True
            spent += length.total_seconds()
            hour += timedelta(hours=1)
        return spent, False

    def in_break(self, now: datetime) -> bool:
        return self._breaks_until(now)[1]

    def break_ends(self, now: datetime) -> datetime | None:
        if not self.in_break(now):
            return None
        return now.replace(minute=0, second=0, microsecond=0) + timedelta(minutes=self.break_minutes)

    def level(self, now: datetime) -> int:
        """The level in force at ``now`` (1 from the start); the clock does not run during breaks."""
        if now < self.started:
            return 1
        played = (now - self.started).total_seconds() - self._breaks_until(now)[0]
        return 1 + int(played // (self.minutes * 60))

    def next_level_at(self, now: datetime) -> datetime:
        """When the next level starts (breaks on the way push it back)."""
        level = self.level(now)
        target = level * self.minutes * 60  # seconds of play
        t = now
        while self.level(t) == level:
            played = (t - self.started).total_seconds() - self._breaks_until(t)[0]
            t += timedelta(seconds=max(1.0, target - played))
            if self.in_break(t):
                ends = self.break_ends(t)
                assert ends is not None
                t = max(t, ends)
        return t

    def next_break(self, now: datetime) -> datetime | None:
        if not self.break_minutes:
            return None
        hour = now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
        return hour
