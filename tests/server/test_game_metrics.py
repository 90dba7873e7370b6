"""Statistics per game (issue 36 item 3, RULES.md §11.1 "statistics are kept per game"): the server's
``/metrics`` counts a mixed table's hands in their own games (``pokerroom_game_hands_total{kind,game}``),
and the load test's per-game figures add up its hands and the bots' actions by game."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerroom.bots.load import LoadReport, by_game, load_tables
from pokerroom.bots.runner import start_bots
from pokerroom.engine import Betting, Stakes
from pokerroom.rooms import TableConfig
from pokerroom.server.room import RoomSettings
from tests.waiting import until

from .conftest import serve_room
from .test_operations import CLOCK, scrape

HORSE = TableConfig(
    "horse-metrics", "H.O.R.S.E.", "holdem", Betting.FIXED_LIMIT, Stakes.fixed_limit(20, 40), 6, timing=CLOCK,
    mix="horse", round_hands=1,
)  # fmt: skip


@pytest.mark.asyncio
async def test_metrics_count_a_mixed_tables_hands_in_their_own_games(tmp_path: Path) -> None:
    async with serve_room(tmp_path, RoomSettings(tables=(HORSE,))) as s:
        bots = await start_bots(s.url, 3, ["caller"], think=(0, 0.02), seed=9)
        try:

            async def three_games() -> bool:  # rounds of one hand: hold'em, Omaha hi/lo, razz, ...
                return s.room.tables[HORSE.table_id].hands_played >= 4

            await until(three_games, timeout=120, what="four hands")
            m = await scrape(s)
            # the console's Tables page (the table's summary): the same games, each with its figures
            figures = s.room.tables[HORSE.table_id].summary()["games"]
        finally:
            for bot, task in bots:
                bot.stopped = True
                task.cancel()
    games = {
        dict(labels)["game"]: n for (name, labels), n in m.items() if name == "pokerroom_game_hands_total"
    }
    assert {"holdem/FL", "omaha8/FL", "razz/FL"} <= set(games), games
    assert set(games) <= {"holdem/FL", "omaha8/FL", "razz/FL", "stud/FL", "stud8/FL"}
    assert sum(games.values()) == m[("pokerroom_hands_total", (("kind", "cash"),))]
    assert set(games) <= set(figures) and all(figures[g]["hands"] >= n for g, n in games.items())


def test_the_load_tests_figures_by_game_add_up() -> None:
    before = {"holdem/FL": 10, "razz/FL": 4}
    after = {"holdem/FL": 16, "razz/FL": 4, "omaha8/FL": 3}
    figures = by_game(before, after, [{"holdem/FL": 40, "omaha8/FL": 5}, {"holdem/FL": 2}])
    assert figures == {"holdem/FL": {"hands": 6, "actions": 42}, "omaha8/FL": {"hands": 3, "actions": 5}}
    report = LoadReport(12, 2, 1, (0.0, 0.1), 10.0, 9, 0.9, 47, 1.0, 2.0, 3.0, 0, games=figures, mix="horse")
    text = report.text()
    assert "holdem/FL        6 hands, 42 actions" in text and "omaha8/FL        3 hands, 5 actions" in text
    tables = load_tables(2, "8game")
    assert [t.mix for t in tables] == ["8game", "8game"] and tables[0].variant == "deuce7_triple"
    assert load_tables(1)[0].mix == ""
