"""RULES.md §7.2-§7.4, R192-R194 at a cash table: the points a finished hand's settlement credits, with
the Game of the Week and happy hour decided by the moment the hand started (the room's time zone)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta, timezone

from pokerroom.engine import BetDecision, Betting, Call, Check, RakeRule, Stakes
from pokerroom.rooms import CashTable, HandSettlement, TableConfig
from pokerroom.rooms.points import Discipline, HappyHour, PointsPolicy

ROOM = timezone(timedelta(hours=2))  # the room's zone is not UTC: its weeks are its own
NL_HOLDEM = Discipline("holdem", Betting.NO_LIMIT)
PL_OMAHA = Discipline("omaha", Betting.POT_LIMIT)
# Week of Monday 30 November: NL Hold'em; week of Monday 7 December: PL Omaha.
WEEKS = {date(2026, 11, 30): NL_HOLDEM, date(2026, 12, 7): PL_OMAHA}
SUNDAY_LAST_SECOND = datetime(2026, 12, 6, 23, 59, 59, tzinfo=ROOM)
MONDAY_FIRST_SECOND = datetime(2026, 12, 7, 0, 0, 0, tzinfo=ROOM)


def _hand(policy: PointsPolicy, start: datetime, end: datetime) -> HandSettlement:
    """A heads-up NL Hold'em hand at $10/$20 blinds, rake 5 % capped at $3, started at ``start``: the SB
    calls and it is checked down, every action at ``end``. Pot $40.00, rake $2.00: 20.00 base points."""
    cfg = TableConfig(
        "t1", "Alpha", "holdem", Betting.NO_LIMIT, Stakes.blinds(1000, 2000), 6, rake=RakeRule(500, 300)
    )
    t = CashTable(cfg, random.Random(1), policy)
    t.sit("ann", "Ann", 1, 100_000, start - timedelta(seconds=1))
    t.sit("bob", "Bob", 2, 100_000, start - timedelta(seconds=1))
    t.tick(start)
    assert t.in_hand and t.hand_started_at == start
    out: Sequence[object] = []
    while t.in_hand:
        d = t.hand.pending  # type: ignore[union-attr]
        assert isinstance(d, BetDecision)
        out = t.act(t.seats[d.seat].player, Check(d.seat) if d.check else Call(d.seat), end)
    s = next(x for x in out if isinstance(x, HandSettlement))
    assert s.rake == 200 and s.contributions == {"ann": 2000, "bob": 2000}
    return s


def test_r192_the_featured_discipline_credits_twice_the_points() -> None:
    """R192: Game of the Week: the same hand in the featured discipline credits 2 × the points (40.00 for
    $2.00 rake)."""
    tuesday = datetime(2026, 12, 1, 12, tzinfo=ROOM)
    featured = _hand(PointsPolicy(tz=ROOM, game_of_the_week=WEEKS), tuesday, tuesday + timedelta(seconds=5))
    plain = _hand(PointsPolicy(tz=ROOM), tuesday, tuesday + timedelta(seconds=5))
    assert plain.points == {"ann": 1000, "bob": 1000}  # 20.00 points (centipoints), shared equally
    assert featured.points == {"ann": 2000, "bob": 2000}  # 40.00 points
    other_week = datetime(2026, 12, 8, 12, tzinfo=ROOM)  # PL Omaha's week: NL Hold'em earns 1x
    later = _hand(PointsPolicy(tz=ROOM, game_of_the_week=WEEKS), other_week, other_week)
    assert later.points == {"ann": 1000, "bob": 1000}


def test_r193_happy_hour_during_the_game_of_the_week_credits_four_times() -> None:
    """R193: Happy hour ×2 during the Game of the Week → 4 × the base points."""
    happy = HappyHour(frozenset({1}), time(18), time(20), 200)  # Tuesdays 18:00-20:00, room time
    policy = PointsPolicy(tz=ROOM, game_of_the_week=WEEKS, happy_hours=(happy,))
    evening = datetime(2026, 12, 1, 19, tzinfo=ROOM)
    assert _hand(policy, evening, evening).points == {"ann": 4000, "bob": 4000}  # 80.00 = 4 x 20.00
    after = datetime(2026, 12, 1, 20, tzinfo=ROOM)  # the happy hour is over: the Game of the Week alone
    assert _hand(policy, after, after).points == {"ann": 2000, "bob": 2000}


def test_r194_the_week_of_the_hands_start_decides() -> None:
    """R194: Game of the Week: a hand starting Sunday 23:59:59 counts for that week; a hand starting
    Monday 00:00:00 counts for the next week's discipline."""
    policy = PointsPolicy(tz=ROOM, game_of_the_week=WEEKS)
    # Started in NL Hold'em's week, finished in PL Omaha's: the start counts, the points are doubled.
    sunday = _hand(policy, SUNDAY_LAST_SECOND, MONDAY_FIRST_SECOND + timedelta(seconds=30))
    assert sunday.points == {"ann": 2000, "bob": 2000}
    # Started on the first second of the new week: NL Hold'em is no longer featured.
    monday = _hand(policy, MONDAY_FIRST_SECOND, MONDAY_FIRST_SECOND + timedelta(seconds=30))
    assert monday.points == {"ann": 1000, "bob": 1000}
    # The server's clock gives UTC: Monday 00:00:00 in the room is still Sunday 22:00 in UTC, and the
    # room's week decides.
    utc_start = MONDAY_FIRST_SECOND.astimezone(UTC)
    assert utc_start.weekday() == 6
    utc = _hand(policy, utc_start, utc_start + timedelta(seconds=30))
    assert utc.points == {"ann": 1000, "bob": 1000}
