"""Recurring series in the room (issue 35): the occurrences due open at the start with stable ids, the next
opens when one gets under way, and a restart opens nothing twice (a registered occurrence is taken back,
one that is over never opens again). The configuration file's ``[[recurring]]`` is checked by
``pokerroom config check``.

On the server's harness (tests/server/harness.py): the room on a manual clock (1 December 2026, 12:00
UTC: 14:00 in Sofia)."""

from __future__ import annotations

from datetime import UTC, datetime, time
from pathlib import Path

import pytest

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.recurring import Recurrence
from pokerroom.server.config import ConfigInvalid, parse_config
from pokerroom.server.ids import player_key
from pokerroom.server.room import RoomSettings

from .harness import EPOCH, Harness


def daily() -> Recurrence:
    template = TournamentConfig("daily", "Daily", buy_in=100, fee=10, start_time=EPOCH, currency="PLAY")
    return Recurrence(template, "daily", time(15, 0), "Europe/Sofia", ahead_hours=12)  # 13:00 UTC


@pytest.mark.asyncio
async def test_occurrences_open_ahead_and_never_twice_across_a_restart(tmp_path: Path) -> None:
    settings = RoomSettings(recurring=((daily(), False),))
    h = await Harness.open(tmp_path, settings, seed=2)
    try:
        room = h.room
        assert [t for t in room.tournaments if t.startswith("daily")] == ["daily-2026-12-01"]
        first = room.tournaments["daily-2026-12-01"]
        assert first.director.config.start_time == datetime(2026, 12, 1, 13, 0, tzinfo=UTC)
        alone = player_key((await h.player("alone")).id)
        await h.front.tournament_request("daily-2026-12-01", "register", alone, "alone", False)
        # 13:00 UTC: too few players, cancelled (and refunded); it is under way: the next one opens
        await h.run(lambda: "daily-2026-12-02" in room.tournaments, seconds=7_200)
        assert first.director.status == "cancelled"
        second = room.tournaments["daily-2026-12-02"]
        assert second.director.config.start_time == datetime(2026, 12, 2, 13, 0, tzinfo=UTC)
        await h.front.tournament_request("daily-2026-12-02", "register", alone, "alone", False)
        await h.restart(settings)
        room = h.room
        daily_ids = sorted(t for t in room.tournaments if t.startswith("daily"))
        assert daily_ids == ["daily-2026-12-02"], "the one over never opens again, the next is taken back"
        assert alone in room.tournaments["daily-2026-12-02"].director.entrants, "its registration kept"
    finally:
        await h.close()


FILE = """
[[recurring]]
id = "evening"
name = "Evening 1,000"
repeat = "weekdays"
at = "20:00"
timezone = "Europe/Sofia"
ahead_hours = 30
buy_in = 1000
fee = 100
"""


def test_the_configuration_files_recurring_series() -> None:
    now = datetime(2026, 12, 4, 10, tzinfo=UTC)  # a Friday
    room = parse_config(FILE, now=now)
    assert [c.tournament_id for c in room.tournaments] == ["evening-2026-12-04"]
    assert [rec.series for rec, _ in room.recurring] == ["evening"]
    monday = parse_config(FILE, now=datetime(2026, 12, 5, 10, tzinfo=UTC))  # Saturday: Monday's is next
    assert [c.tournament_id for c in monday.tournaments] == ["evening-2026-12-07"]
    for bad, key in (
        (FILE.replace('"weekdays"', '"hourly"'), "repeat"),
        (FILE.replace('"20:00"', '"8pm"'), "at"),
        (FILE.replace('"Europe/Sofia"', '"Mars/Olympus"'), "timezone"),
        (FILE + 'start = "2026-12-05T20:00:00Z"\n', "start"),
        (FILE.replace('"evening"', '"a-very-long-series-name-indeed-x"'), "id"),
    ):
        with pytest.raises(ConfigInvalid) as caught:
            parse_config(bad, now=now)
        assert any(key in str(p) for p in caught.value.problems), (key, caught.value.problems)
