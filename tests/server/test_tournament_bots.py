"""Issue 35, defect 4: ``pokerroom bots --tournament`` registers each bot as soon as it is logged in (40
bots logged in first took four minutes on a busy machine and missed the start), and warns when the start
is nearer than the time the bots still to come are expected to take."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from pokerroom.bots.runner import _tournament_over, start_tournament_bots, until_over
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


class _Stuck:
    """A bot that never learns the tournament ended (it missed the last ``tournament_status`` frame)."""

    name = "stuck"

    def running(self) -> bool:
        return True


@pytest.mark.asyncio
async def test_the_bots_run_ends_when_the_room_says_the_tournament_is_over_though_a_bot_missed_it(
    tmp_path: Path,
) -> None:
    """A tournament bot whose connection was down when the tournament ended never sees the frame that
    ends it; ``pokerroom bots --tournament`` used to wait for it for ever (a stalled run). It now asks the
    room, and ends with the tournament."""
    async with serve_room(tmp_path, RoomSettings(tournaments=(mtt(),)), durable=False) as s:
        forever = asyncio.create_task(asyncio.Event().wait())
        waiting = asyncio.create_task(until_over(s.url, "later", [(_Stuck(), forever)], poll=0.05))
        try:
            # while the tournament is on it keeps waiting (ten polls; a slow machine cannot make this fail)
            done, _ = await asyncio.wait({waiting}, timeout=0.5)
            assert not done
            await s.room.cancel_tournament("later")
            await asyncio.wait_for(waiting, 60)
        finally:
            forever.cancel()
            waiting.cancel()


@pytest.mark.allow_errors("pokerroom.bots", reason="a bot that dies is logged at ERROR")
@pytest.mark.asyncio
async def test_a_bot_that_died_is_not_waited_for_and_its_error_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def dies() -> None:
        raise RuntimeError("a strategy that cannot play this game")

    async with serve_room(tmp_path, RoomSettings(tournaments=(mtt(),)), durable=False) as s:
        task = asyncio.create_task(dies())
        with caplog.at_level(logging.ERROR, logger="pokerroom.bots"):
            await asyncio.wait_for(until_over(s.url, "later", [(_Stuck(), task)], poll=3600), 60)
        errors = [r.getMessage() for r in caplog.records if r.name == "pokerroom.bots"]
        assert errors == [
            "tournament bot stuck stopped: RuntimeError('a strategy that cannot play this game')"
        ]


@pytest.mark.asyncio
async def test_the_end_is_read_from_a_summary_and_from_a_cluster_gateways_archived_lobby_row() -> None:
    answers = {
        "/api/tournaments/running": {"summary": {"status": "running"}},
        "/api/tournaments/done": {"summary": {"status": "finished"}},
        "/api/tournaments/archived": {"tournament": "archived", "status": "cancelled", "archived": True},
    }

    def reply(request: httpx.Request) -> httpx.Response:
        body = answers.get(request.url.path)
        return httpx.Response(200, json=body) if body else httpx.Response(404, json={"detail": {}})

    async with httpx.AsyncClient(transport=httpx.MockTransport(reply)) as http:
        names = ("running", "done", "archived", "gone")
        seen = {t: await _tournament_over(http, "http://room", t) for t in names}
    assert seen == {"running": False, "done": True, "archived": True, "gone": False}
