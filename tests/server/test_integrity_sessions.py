"""Issue 30, item 3: bots spotted by their sessions and hours. Unit tests of the score on hand-made times
(sessions cut at the break, hands at several tables at once, the longest session, the hours of each day
cut at midnight, the hands of each hour of the day; a player who never stops flagged, a human with
breaks not), then the hands each player was dealt read from the store (``store.hand_times.played``:
cash and Rush, not tournament hands: an honest deep run in a long tournament is no bot) and the report's
options."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.server.integrity.timing import (
    MAX_DAY,
    MAX_SESSION,
    SESSION_BREAK,
    Played,
    session_findings,
    sessions_of,
)
from pokerroom.store.models import TournamentHandRow, TournamentPlayerHandRow
from tests.store.conftest import Room, clock, db_target, pg_schema, room, sqlite_template, store
from tests.store.storehelpers import FakeClock
from tests.store.test_store_journal import DECK, SALT, seats, start

__all__ = ["clock", "db_target", "pg_schema", "room", "sqlite_template", "store"]  # (the fixtures)

T0 = datetime(2026, 12, 1, 8, tzinfo=UTC)
MIN = timedelta(minutes=1)


def _hands(
    start: datetime, count: int, every: timedelta, length: timedelta = MIN, tag: str = "h"
) -> list[Played]:
    return [Played(f"{tag}{i}", start + i * every, start + i * every + length) for i in range(count)]


def test_the_defaults_are_the_documented_ones() -> None:
    assert (
        timedelta(minutes=30),
        timedelta(hours=10),
        timedelta(hours=16),
    ) == (SESSION_BREAK, MAX_SESSION, MAX_DAY)


def test_sessions_are_cut_where_no_hand_ran_for_the_break() -> None:
    # 20 hands 2 min apart (1 min each), a pause of 40 min, 10 more; then a pause of 29 min: the same session
    first = _hands(T0, 20, 2 * MIN, tag="a")
    second = _hands(first[-1].end + 40 * MIN, 10, 2 * MIN, tag="b")
    third = _hands(second[-1].end + 29 * MIN, 5, 2 * MIN, tag="c")
    got = sessions_of(first + second + third)
    assert [(s.hands, s.first_hand, s.last_hand) for s in got] == [(20, "a0", "a19"), (15, "b0", "c4")]
    assert got[0].start == T0 and got[0].end == first[-1].end
    assert got[0].length == 39 * MIN
    # a shorter break cuts the 29-minute pause too
    assert len(sessions_of(first + second + third, timedelta(minutes=20))) == 3


def test_hands_at_several_tables_overlap_in_one_session() -> None:
    # a long hand (0-50 min) at one table covers the gap between short ones at another
    long = Played("long", T0, T0 + 50 * MIN)
    short = [Played("s1", T0 + MIN, T0 + 2 * MIN), Played("s2", T0 + 45 * MIN, T0 + 46 * MIN)]
    later = Played("s3", T0 + 75 * MIN, T0 + 76 * MIN)  # 25 min after the long hand's end
    (one,) = sessions_of([later, *short, long])  # (any order)
    assert one.hands == 4 and one.start == T0 and one.end == T0 + 76 * MIN and one.last_hand == "s3"


def test_a_player_who_never_stops_is_flagged_and_one_with_breaks_is_not() -> None:
    # the machine: a hand every 90 s for 20 hours; the human: 3 sessions of 3 h with 1 h pauses
    machine = _hands(T0, 800, timedelta(seconds=90), tag="m")
    human: list[Played] = []
    for k in range(3):
        human += _hands(T0 + k * 4 * 60 * MIN, 90, 2 * MIN, tag=f"u{k}-")
    found = session_findings({1: machine, 2: human})
    assert [f.player_id for f in found] == [1, 2]
    bot, person = found
    assert bot.flagged and "without a 30-minute break" in bot.reason and "m0 to m799" in bot.reason
    assert len(bot.sessions) == 1 and bot.longest.hands == 800
    assert not person.flagged and len(person.sessions) == 3 and person.reason == ""
    assert timedelta(hours=2, minutes=58) < person.longest.length <= timedelta(hours=3)
    row = bot.to_dict()
    assert row["sessions"] == 1 and row["flagged"] is True and row["longest"]["hands"] == 800  # type: ignore[index]
    assert row["longest_hours"] == pytest.approx((799 * 90 + 60) / 3600, abs=0.001)  # the last start + 1 min


def test_hours_by_day_are_cut_at_midnight_and_hours_of_day_count_hands() -> None:
    # 22:00 to 02:00 the next day, a hand every 10 min (1 min each)
    start = datetime(2026, 12, 1, 22, tzinfo=UTC)
    hands = _hands(start, 24, 10 * MIN)
    (f,) = session_findings({5: hands})
    by_day = dict(f.hours_by_day)
    assert by_day["2026-12-01"] == pytest.approx(2.0)
    assert by_day["2026-12-02"] == pytest.approx((3 * 60 + 51 - 2 * 60) / 60)  # to 01:51
    assert f.hours_of_day[22] == f.hours_of_day[23] == f.hours_of_day[0] == f.hours_of_day[1] == 6
    assert sum(f.hours_of_day) == 24 and len(f.hours_of_day) == 24
    assert not f.flagged
    assert f.to_dict()["hours_by_day"] == {d: round(h, 3) for d, h in f.hours_by_day}


def test_too_many_hours_in_one_day_is_flagged_though_each_session_is_short() -> None:
    # 9 sessions of 1 h 50 min with 35-minute pauses from 00:00: 16.5 h of play in one day
    day = datetime(2026, 12, 2, tzinfo=UTC)
    hands: list[Played] = []
    for k in range(9):
        hands += _hands(day + k * 145 * MIN, 11, 10 * MIN, 10 * MIN, tag=f"s{k}-")  # 110 min
    (f,) = session_findings({3: hands})
    assert len(f.sessions) == 9 and f.longest.length < MAX_SESSION
    assert f.flagged and f.reason == "16.5 h of play on 2026-12-02"
    assert not session_findings({3: hands}, max_day=timedelta(hours=17))[0].flagged
    # the session limit is an option too
    assert (
        "without a 30-minute break" in session_findings({3: hands}, max_session=timedelta(hours=1))[0].reason
    )
    with pytest.raises(ValueError):
        session_findings({3: hands}, session_break=timedelta(0))


# --------------------------------------------------------------------------------- through the store


@pytest.mark.asyncio
async def test_the_hands_each_player_was_dealt_are_read_and_the_report_shows_the_sessions(
    room: Room, clock: FakeClock, db_target: tuple[str, str | None]
) -> None:
    s = room.store
    began = clock()
    seat_list = await seats(room)
    for k in range(4):  # four cash hands, 10 minutes apart, each 1 minute long
        await start(room, f"c{k}", s=seat_list)
        clock.advance(MIN)
        await s.journal.end_hand(f"c{k}", deck_text=DECK, salt=SALT, deltas={}, rake=0, points={})
        clock.advance(9 * MIN)
    await start(room, "open", s=seat_list)  # not ended: not read
    # and alice's deep run in a tournament: a hand every 2 minutes for 12 hours, no break (not read: an
    # honest long tournament is no bot's session)
    async with s.db.write() as conn:
        for k in range(360):
            ended = began + 5 * MIN + k * 2 * MIN
            await conn.execute(
                insert(TournamentHandRow).values(
                    id=f"t{k}", tournament_id="cup", table_id="cup-1", game="NT", ended_at=ended, full_phh="x"
                )
            )
            await conn.execute(
                insert(TournamentPlayerHandRow).values(
                    player_id=room.alice, hand_id=f"t{k}", ended_at=ended, seat=1
                )
            )
    played = await s.hand_times.played(since=began)
    assert sorted(played) == sorted((room.alice, room.bob))
    assert [h for h, _, _ in played[room.alice]] == ["c0", "c1", "c2", "c3"]
    assert [h for h, _, _ in played[room.bob]] == ["c0", "c1", "c2", "c3"]
    _, a, b = played[room.bob][0]
    assert b - a == MIN and a == began
    assert [h for h, _, _ in (await s.hand_times.played(since=began + 15 * MIN))[room.bob]] == ["c2", "c3"]
    url, schema = db_target
    args = ["integrity", "report", "--url", url, "--since", began.strftime("%Y-%m-%dT%H:%M:%S"),
            "--min-decisions", "100000", "--max-session-hours", "0.5", "--session-break", "20"]  # fmt: skip
    if schema:
        args += ["--schema", schema]
    out = await asyncio.to_thread(CliRunner().invoke, app, [*args, "--json"])
    assert out.exit_code == 1, out.output
    report = json.loads(out.output)
    rows = {r["name"]: r for r in report["bots_by_sessions"]}
    assert set(rows) == {"alice", "bob"} and rows["alice"]["flagged"] and rows["bob"]["flagged"]
    assert rows["bob"]["sessions"] == 1 and rows["bob"]["hands"] == 4
    assert rows["bob"]["longest_hours"] == pytest.approx(31 / 60, abs=0.001)
    assert report["thresholds"]["session_break_minutes"] == 20 and report["flagged"] == 2
    assert sum(rows["alice"]["hours_of_day"]) == 4 and rows["alice"]["longest_hours"] < 1
    # with the default limits nobody is flagged: exit 0
    calm = [a for a in args if a not in ("--max-session-hours", "0.5", "--session-break", "20")]
    text = await asyncio.to_thread(CliRunner().invoke, app, calm)
    assert text.exit_code == 0, text.output
    assert "bots by sessions: 2 players, 0 flagged" in text.output
    assert "ok      bob                       4 hands in 1 sessions, longest 0.5 h" in text.output
