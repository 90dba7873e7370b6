"""A mixed table's figures per game (issue 36 item 3, RULES.md §11.1 "statistics are kept per game"): each
hand counted in its own game, the average pot and players per second street of each game over the kept
hands, the hands since the table opened even when they are no longer kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pokerroom.engine.events import ActionTaken, HandStarted, PotAwarded, StreetStarted
from pokerroom.rooms.table_stats import TableStats, figures_of

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _hand(variant: str, seats: int, folds: int, pot: int) -> list[object]:
    events: list[object] = [HandStarted(variant, "FL", 1, tuple(range(1, seats + 1)), tuple([100] * seats))]
    events += [ActionTaken(s, "fold") for s in range(1, folds + 1)]
    events.append(StreetStarted(1, "second"))
    events.append(PotAwarded(0, pot, 0, (seats,), (pot,), "", ""))
    return events


def test_each_hand_is_counted_in_its_own_game() -> None:
    stats = TableStats(keep=3)
    assert stats.by_game() == {}
    hands = [("holdem", 0, 100), ("holdem", 2, 60), ("razz", 4, 30), ("omaha8", 1, 80), ("razz", 0, 50)]
    for i, (variant, folds, pot) in enumerate(hands):
        stats.add(figures_of(_hand(variant, 6, folds, pot), T0 + timedelta(seconds=i)))  # type: ignore[arg-type]
    assert stats.hands[-1].game == "razz/FL"
    games = stats.by_game()
    # hold'em: two hands since the table opened, none of them among the last three kept
    assert games["holdem/FL"] == {"hands": 2, "recent": 0, "avg_pot": None, "players_per_flop": None}
    # razz: pots 30 and 50; 2 + 6 of 12 players saw the second street
    assert games["razz/FL"] == {"hands": 2, "recent": 2, "avg_pot": 40, "players_per_flop": 67}
    assert games["omaha8/FL"] == {"hands": 1, "recent": 1, "avg_pot": 80, "players_per_flop": 83}
    assert sum(g["hands"] or 0 for g in games.values()) == len(hands)
