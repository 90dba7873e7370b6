"""Issue 35, defect 4: ``pokerroom bots --tournament`` registers each bot as soon as it is logged in (40
bots logged in first took four minutes on a busy machine and missed the start), and warns when the start
is nearer than the time the bots still to come are expected to take."""

from __future__ import annotations

import contextlib
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pokerroom.bots.runner import start_tournament_bots
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.room import RoomSettings

from .conftest import serve_room
from .wire import register

START = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=2)


def mtt() -> TournamentConfig:
    return TournamentConfig("later", "Later", buy_in=100, fee=10, start_time=START, currency="PLAY")


@pytest.mark.asyncio
async def test_each_bot_is_registered_before_the_next_logs_in_and_a_near_start_is_warned(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with serve_room(tmp_path, RoomSettings(tournaments=(mtt(),)), durable=False) as s:
        actor = s.room.tournaments["later"]
        registered_when_issued: list[int] = []

        async def issue(name: str) -> str:
            registered_when_issued.append(len(actor.director.entrants))
            return await register(s, name)

        ticks = iter(range(0, 10_000, 600))  # every bot takes 10 minutes (a clock read per bot)
        with caplog.at_level(logging.WARNING, logger="pokerroom.bots"):
            bots = await start_tournament_bots(
                s.url,
                "later",
                4,
                ["caller"],
                think=(0, 0),
                seed=1,
                issue=issue,
                clock=lambda: float(next(ticks)),
                now=lambda: START - timedelta(minutes=25),
            )
        try:
            assert registered_when_issued == [0, 1, 2, 3]
            assert len(actor.director.entrants) == 4
            # 25 minutes before the start, 3 bots to come at 10 minutes each: warned once, at once
            warnings = [r.getMessage() for r in caplog.records if r.name == "pokerroom.bots"]
            assert len(warnings) == 1 and "starts in 1500 s" in warnings[0] and "3 bot(s)" in warnings[0]
        finally:
            for bot, task in bots:
                await bot.stop()
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
