"""The lobby's numbers of a cash table (issue 20, item 5): average pot, players per flop, hands per hour."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pokerroom.engine.events import ActionTaken, HandStarted, PotAwarded, StreetStarted
from pokerroom.rooms.table_stats import TableStats, figures_of

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _hand(seats: int, folds_before_flop: int, pot: int, rake: int = 0, flop: bool = True) -> list[object]:
    events: list[object] = [
        HandStarted("holdem", "NL", 1, tuple(range(1, seats + 1)), tuple([100] * seats)),
    ]
    events += [ActionTaken(s, "fold") for s in range(1, folds_before_flop + 1)]
    if flop:
        events.append(StreetStarted(1, "flop"))
        events.append(ActionTaken(seats, "fold"))  # a fold after the flop does not change who saw it
    events.append(PotAwarded(0, pot - rake, rake, (1,), (pot - rake,), "", ""))
    return events


def test_figures_of_a_hand() -> None:
    f = figures_of(_hand(6, 2, 120, rake=6), T0)  # type: ignore[arg-type]
    assert (f.dealt, f.saw_second, f.pot) == (6, 4, 120)
    folded = figures_of(_hand(6, 5, 3, flop=False), T0)  # type: ignore[arg-type]
    assert folded.saw_second == 0, "a hand that ends before the flop: nobody saw it"


def test_summary_over_the_last_hands() -> None:
    stats = TableStats(keep=3)
    assert stats.summary(T0) == {"avg_pot": None, "players_per_flop": None, "hands_per_hour": None}
    # Hands every 60 s: 60 an hour.
    for i, (folds, pot) in enumerate([(0, 999), (2, 100), (4, 41), (5, 30)]):
        stats.add(figures_of(_hand(6, folds, pot), T0 + timedelta(seconds=60 * i)))  # type: ignore[arg-type]
    now = T0 + timedelta(seconds=180)
    s = stats.summary(now)
    # The last three hands only: pots 100, 41, 30; 4 + 2 + 1 of 18 players saw the flop.
    assert s["avg_pot"] == (100 + 41 + 30) // 3
    assert s["players_per_flop"] == round(100 * 7 / 18)
    assert s["hands_per_hour"] == 60
    # Over an hour later the table has dealt no hand in the last hour.
    assert stats.summary(now + timedelta(hours=2))["hands_per_hour"] == 0
