"""Loyalty points, Game of the Week and happy hour (RULES.md §7.2-§7.4, R188-R195)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, timezone

import pytest

from pokerroom.engine import Betting, ConfigError
from pokerroom.rooms.points import Discipline, HappyHour, PointsPolicy, hand_points, share_points

UTC = UTC
ROOM = timezone(timedelta(hours=2))
PL_HOLDEM = Discipline("holdem", Betting.POT_LIMIT)
NL_HOLDEM = Discipline("holdem", Betting.NO_LIMIT)


def test_r188_ten_points_per_dollar_of_rake() -> None:
    assert hand_points(200) == 2000  # $2.00 rake -> 20.00 points (centipoints)


def test_r189_points_shared_by_contribution() -> None:
    """R189: Loyalty points: contributions of $30 and $10 to that hand → 15.00 and 5.00 points."""
    assert share_points(2000, {1: 3000, 2: 1000}, [1, 2]) == {1: 1500, 2: 500}


def test_r190_hundredths_are_never_lost() -> None:
    # RULES.md R190 says the leftover 0.01 of this hand is discarded, but §7.2, §0.3 item 12 and the
    # cash-table issue say the shares always add up to the hand's points: the leftover hundredth goes to
    # the largest contributor, ties in seat order from the left of the button. We follow §7.2.
    shares = share_points(hand_points(1), {4: 100, 6: 100, 2: 100}, [4, 6, 2])
    assert sum(shares.values()) == 10
    assert shares == {4: 4, 6: 3, 2: 3}


def test_shares_add_up_whatever_the_contributions() -> None:
    import random

    rng = random.Random(5)
    for _ in range(500):
        n = rng.randint(2, 10)
        contrib = {s: rng.randint(0, 10_000) for s in range(1, n + 1)}
        total = rng.randint(0, 30_000)
        shares = share_points(total, contrib, list(contrib))
        if any(contrib.values()):
            assert sum(shares.values()) == total
        assert all(v >= 0 for v in shares.values())
        assert all(shares[s] == 0 for s, c in contrib.items() if c == 0)


def test_r191_a_player_who_folded_still_gets_his_share() -> None:
    # A folded (or quick-folded) player's chips stay in the pot, so his contribution earns points.
    assert share_points(1000, {1: 50, 2: 450}, [1, 2]) == {1: 100, 2: 900}


def policy(**kw: object) -> PointsPolicy:
    return PointsPolicy(tz=ROOM, game_of_the_week={date(2026, 11, 30): PL_HOLDEM}, **kw)  # type: ignore[arg-type]


def test_r192_game_of_the_week_doubles() -> None:
    """R192: Game of the Week: the same hand in the featured discipline credits 2 × the points (40.00 for
    $2.00 rake)."""
    monday = datetime(2026, 12, 1, 12, tzinfo=ROOM)
    assert hand_points(200, policy().multiplier_pct(PL_HOLDEM, monday)) == 4000
    assert policy().multiplier_pct(NL_HOLDEM, monday) == 100


def test_r193_happy_hour_multiplies_with_the_game_of_the_week() -> None:
    """R193: Happy hour ×2 during the Game of the Week → 4 × the base points."""
    hh = HappyHour(frozenset({1}), time(18), time(20), 200)
    tuesday_evening = datetime(2026, 12, 1, 19, tzinfo=ROOM)
    p = policy(happy_hours=(hh,))
    assert hand_points(200, p.multiplier_pct(PL_HOLDEM, tuesday_evening)) == 8000
    assert p.multiplier_pct(PL_HOLDEM, datetime(2026, 12, 1, 20, tzinfo=ROOM)) == 200
    assert p.multiplier_pct(NL_HOLDEM, tuesday_evening, cash=False) == 100  # tournaments: no happy hour


def test_r194_the_week_runs_monday_to_sunday_in_the_rooms_time_zone() -> None:
    """R194: Game of the Week: a hand starting Sunday 23:59:59 counts for that week; a hand starting Monday
    00:00:00 counts for the next week's discipline."""
    p = PointsPolicy(tz=ROOM, game_of_the_week={date(2026, 11, 30): PL_HOLDEM, date(2026, 12, 7): NL_HOLDEM})
    sunday_last_second = datetime(2026, 12, 6, 23, 59, 59, tzinfo=ROOM)
    monday_first_second = datetime(2026, 12, 7, 0, 0, 0, tzinfo=ROOM)
    assert p.featured(sunday_last_second) == PL_HOLDEM
    assert p.featured(monday_first_second) == NL_HOLDEM
    # The same instants in UTC land in the same weeks: the room's zone decides.
    assert p.featured(sunday_last_second.astimezone(UTC)) == PL_HOLDEM
    assert p.featured(monday_first_second.astimezone(UTC)) == NL_HOLDEM


def test_r195_only_the_featured_discipline_doubles_standard_and_rush_differ() -> None:
    monday = datetime(2026, 12, 1, tzinfo=ROOM)
    p = policy()
    assert p.multiplier_pct(PL_HOLDEM, monday, cash=False) == 200  # SNG / tournament of the discipline
    assert p.multiplier_pct(Discipline("holdem", Betting.POT_LIMIT, "rush"), monday) == 100
    assert p.multiplier_pct(Discipline("omaha", Betting.POT_LIMIT), monday) == 100


def test_game_of_the_week_is_keyed_by_monday() -> None:
    with pytest.raises(ConfigError):
        PointsPolicy(tz=ROOM, game_of_the_week={date(2026, 12, 1): PL_HOLDEM})
