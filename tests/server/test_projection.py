"""Per-viewer projection: bots play every game and structure, and every frame sent to every client (each
player and an observer per table) is checked against an independent oracle (tests/server/leakcheck.py):
no card a viewer may not see, ever — others' hole cards, the deck, folded hands (R184), Irish discards
(R156) and draw discards (R161); mucked showdown hands only to players dealt in (R182).

The bounded run plays until each of the 39 tables of every variant and structure has dealt 6 hands (the
faster tables deal more: 500-900 hands in all, three bots and an observer per table); ``POKERROOM_SOAK=1``
plays until each has dealt 100 (several thousand hands). A smaller run does the same over real sockets.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import orjson
import pytest
import websockets

from pokerroom.bots.client import BotStats
from pokerroom.bots.runner import start_bots
from pokerroom.rooms import Timing
from pokerroom.server.demo import demo_tables
from pokerroom.variants import VARIANTS
from tests.waiting import until

from .conftest import live_server
from .leakcheck import HandTruth, Recorder, Report, Viewer, check
from .loopback import open_room, play_until

SOAK = os.environ.get("POKERROOM_SOAK") == "1"
TIMING = Timing(action=60, time_bank=0, between_hands=0, disconnect_grace=600, sit_out_limit=3600)
ALL_GAMES = tuple(VARIANTS)


def _report(viewers: list[Viewer], recorder: Recorder) -> Report:
    report = Report()
    for v in viewers:
        check(v, recorder, report)
    return report


def test_the_oracle_catches_a_leak() -> None:
    """The checker is not vacuous: a hole card of another seat in a frame is reported."""
    from pokerroom.cards import parse_cards
    from pokerroom.engine.events import CardsDealt, HandStarted

    rec = Recorder()
    truth = rec.hands.setdefault(("t", "h1"), HandTruth("h1"))
    a, b = parse_cards("AsKd"), parse_cards("2c3c")
    truth.events += [
        HandStarted("holdem", "NL", 1, (1, 2), (100, 100)),
        CardsDealt(1, tuple(a), (False, False)),
        CardsDealt(2, tuple(b), (False, False)),
    ]
    truth.seqs = {1: 0, 2: 1, 3: 2}

    def frame(i: int, event: dict[str, Any]) -> str:
        return orjson.dumps(
            {"type": "event", "table": "t", "seq": i, "hand_id": "h1", "event": event}
        ).decode()

    ok = Viewer("seat1", "t", 1)
    ok.frames = [
        frame(1, {"type": "hand_started"}),
        frame(2, {"type": "cards_dealt", "seat": 1, "cards": ["As", "Kd"]}),
        frame(3, {"type": "cards_dealt", "seat": 2, "cards": ["??", "??"]}),
    ]
    bad = Viewer("seat1-leaky", "t", 1)
    bad.frames = [*ok.frames[:2], frame(3, {"type": "cards_dealt", "seat": 2, "cards": ["2c", "??"]})]
    watcher = Viewer("observer", "t", None)
    watcher.frames = [ok.frames[0], frame(2, {"type": "cards_dealt", "seat": 1, "cards": ["As", "??"]})]
    assert _report([ok], rec).leaks == []
    assert len(_report([bad], rec).leaks) == 1
    assert len(_report([watcher], rec).leaks) == 1


@pytest.mark.slow
@pytest.mark.asyncio
async def test_every_frame_of_every_game_shows_each_viewer_only_what_he_may_see(tmp_path: Path) -> None:
    hands = 100 if SOAK else 6
    tables = demo_tables(TIMING, games=ALL_GAMES)
    assert {t.variant for t in tables} == set(VARIANTS)
    lb = await open_room(tmp_path, tables, players_per_table=3)
    try:
        await play_until(lb, hands, timeout=3600 if SOAK else 600)
    finally:
        await lb.close()
    report = _report([c.viewer for c in lb.clients], lb.recorder)
    assert report.leaks == [], report.leaks[:5]
    played = len(lb.recorder.hands)
    assert played >= hands * len(tables)
    assert report.cards_checked > 20 * played  # the check saw the cards the players were dealt
    kinds = {e.kind for h in lb.recorder.hands.values() for e in h.events}
    assert {"mucked", "cards_shown", "drew", "discarded"} <= kinds  # the hidden-card cases occurred
    assert set(lb.stats.error_codes) <= {"buy_in_out_of_range"}, lb.stats.error_codes  # (a bot's top-up)
    assert (await _verify(tmp_path)).ok


async def _verify(tmp: Path) -> Any:
    from pokerroom.store import Store

    store = Store.open(f"sqlite+aiosqlite:///{tmp / 'loopback.db'}")
    try:
        return await store.verify()
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_over_real_sockets_players_and_an_observer_see_only_their_cards(tmp_path: Path) -> None:
    """The same check on frames read from WebSockets: bots over the wire and a raw observer socket."""
    games = ("holdem", "irish", "stud", "draw5")
    tables = [t for t in demo_tables(TIMING, games=games) if t.betting.value in ("NL", "FL")][1:]
    async with live_server(tmp_path, tables) as s:
        recorder = Recorder()
        for actor in s.room.tables.values():
            recorder.wrap(actor)
        viewers: list[Viewer] = []
        watchers = [asyncio.create_task(_observe(s.ws, t.table_id, viewers)) for t in tables]
        await until(
            lambda: (
                len(viewers) == len(tables)
                and all(any('"type":"snapshot"' in f for f in v.frames) for v in viewers)
            ),
            timeout=30,
            what="every observer has its table's snapshot",
        )
        stats = BotStats()
        bots = []
        frames: dict[str, Viewer] = {}
        for t in tables:
            started = await start_bots(
                s.url,
                3,
                ["random", "caller"],
                tables=[t.table_id],
                think=(0, 0),
                prefix=f"w{t.table_id}-",
                stats=stats,
            )
            for bot, _ in started:  # (no await between: the bot has not read a frame yet)
                v = Viewer(bot.name, bot.table, None)
                frames[bot.name] = v
                bot.on_event = lambda msg, v=v: v.frames.append(orjson.dumps(msg).decode())
            bots += started
        try:
            await until(
                lambda: min(a.hands_played for a in s.room.tables.values()) >= (30 if SOAK else 4),
                timeout=300,
                what="every table plays its hands",
                show=lambda: {t: a.hands_played for t, a in s.room.tables.items()},
            )
        finally:
            for bot, task in bots:
                await bot.stop()
                task.cancel()
            for w in watchers:
                w.cancel()
        for bot, _ in bots:
            frames[bot.name].seat = bot.seat
        report = _report([*viewers, *frames.values()], recorder)
        assert report.leaks == [], report.leaks[:5]
        assert report.cards_checked > 100
        assert (await s.room.store.verify()).ok


async def _observe(url: str, table: str, out: list[Viewer]) -> None:
    viewer = Viewer(f"socket-observer@{table}", table, None)
    out.append(viewer)
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(orjson.dumps({"type": "subscribe", "table": table}).decode())
        async for raw in ws:
            viewer.frames.append(raw if isinstance(raw, str) else raw.decode())
