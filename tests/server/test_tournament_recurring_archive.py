"""Occurrences of a recurring series that got under way stay in the lobby after a restart (issue 35;
docs/tournaments.md "Recurring tournaments"): a finished occurrence of an earlier day, and one that was
running when the room stopped (cancelled by the recovery, its pool paid by chips), are in the lobby's
finished list and their pages answer from the store, with standings and the payout table, as one-off
tournaments' do (R261: entries numbered).

On the server's harness (tests/server/harness.py): the room on a manual clock (1 December 2026, 12:00
UTC), a daily series at 15:00 in Sofia (13:00 UTC)."""

from __future__ import annotations

from datetime import UTC, datetime, time
from pathlib import Path

import pytest

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.recurring import Recurrence
from pokerroom.server.ids import player_key
from pokerroom.server.room import RoomSettings

from .harness import EPOCH, Harness


def daily() -> Recurrence:
    template = TournamentConfig(
        "daily", "Daily", buy_in=100, fee=10, starting_stack=200, start_time=EPOCH, currency="PLAY"
    )
    return Recurrence(template, "daily", time(15, 0), "Europe/Sofia", ahead_hours=12)


@pytest.mark.asyncio
async def test_finished_and_interrupted_occurrences_stay_in_the_lobby_after_a_restart(
    tmp_path: Path,
) -> None:
    settings = RoomSettings(recurring=((daily(), False),))
    h = await Harness.open(tmp_path, settings, seed=2)
    try:
        room = h.room
        first, second = "daily-2026-12-01", "daily-2026-12-02"
        bots = [await h.tournament_bot(f"rb{i}", first, "random", seed=i) for i in range(3)]
        await h.run(lambda: room.tournaments[first].director.status == "finished", seconds=36_000)
        played = room.tournaments[first].director
        places = {e.name: e.place or 0 for e in played.entrants.values()}
        assert sorted(places.values()) == [1, 2, 3], "each placed, once"
        prizes = list(played.prizes)
        assert sum(prizes) == 300  # three buy-ins of 100 (the fees to the house)
        for bot in bots:
            await h.stop_bot(bot)
        await h.quiet()
        h.clock.advance_to(datetime(2026, 12, 2, 12, 0, tzinfo=UTC))  # (the night passes: nothing due)
        await h.quiet()
        # The next day's occurrence starts with two players who never act; the room stops mid-play.
        for name in ("ann", "ben"):
            p = await h.player(name)
            await h.front.tournament_request(second, "register", player_key(p.id), name, False)
        await h.run(
            lambda: (
                second in room.tournaments
                and room.tournaments[second].director.status == "running"
                and "daily-2026-12-03" in room.tournaments  # (its start opened the next)
            ),
            seconds=7_200,
        )
        assert h.clock.now() >= datetime(2026, 12, 2, 13, 0, tzinfo=UTC)
        await h.restart(settings)
        room = h.room
        assert first not in room.tournaments and second not in room.tournaments
        assert await h.store.tournaments.statuses([first, second]) == {first: "finished", second: "cancelled"}

        finished = {r["tournament"]: r for r in h.front.tournament_lobby("finished")["finished"]}
        assert {first, second} <= set(finished), "every occurrence that got under way is listed"
        assert (finished[first]["status"], finished[first]["entrants"]) == ("finished", 3)
        assert (finished[second]["status"], finished[second]["entrants"]) == ("cancelled", 2)
        upcoming = [r["tournament"] for r in h.front.tournament_lobby("upcoming")["upcoming"]]
        assert first not in upcoming and second not in upcoming

        page = await h.front.tournament_details(first)  # GET /api/tournaments/{id}
        assert page["archived"] is True and page["summary"] == finished[first]
        assert page["summary"]["start_time"] == datetime(2026, 12, 1, 13, 0, tzinfo=UTC).isoformat()
        assert [(e["name"], e["place"]) for e in page["standings"]] == sorted(
            places.items(), key=lambda kv: kv[1]
        )
        assert [p["amount"] for p in page["payouts"]] == prizes
        other = await h.front.tournament_details(second)
        assert other["archived"] is True and other["summary"]["status"] == "cancelled"
        assert sorted(e["name"] for e in other["standings"]) == ["ann", "ben"]
        assert sum(e["stack"] for e in other["standings"]) == 400, "the chips they held, kept"
        assert other["summary"]["start_time"] == datetime(2026, 12, 2, 13, 0, tzinfo=UTC).isoformat()
    finally:
        await h.close()
