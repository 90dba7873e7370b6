"""Issue 18, where money moves: a tournament that must break one-player tables finishes and pays its pool;
a guarantee with rebuys and late entries books only the overlay still owed, once; late entrants never
make the room pay a place twice (RULES.md §9.5, §9.7, §9.8, §9.10, §9.11).

On the server's harness (tests/server/harness.py): the room on a manual clock, bots as clients of its
connections, requests the HTTP API makes through the room's front; the levels and the start pass without
waiting for them."""

from __future__ import annotations

import json
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from pokerroom.engine import EngineError
from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.errors import Refused
from pokerroom.server.ids import player_key
from pokerroom.server.room import RoomSettings
from pokerroom.store import PLAY, AccountKind, verify_ledger

from .harness import EPOCH, Harness
from .wire import prize_pool

# On the manual clock a hand takes no time: half a second between hands keeps the levels' pace to the
# hands about what it is live.
FAST = Timing(action=1.0, time_bank=0.5, between_hands=0.5, disconnect_grace=2)
LEVEL = 0.03  # minutes: a level every 1.8 s


@pytest.mark.asyncio
async def test_heads_up_tables_that_must_break_finish_and_pay_the_pool(tmp_path: Path) -> None:
    """Five players at two-seat tables (2, 2, 1): the lone player's table can never deal. Before the fix
    the room ended with three one-player tables, the pool held and no winner (defect 1)."""
    cfg = TournamentConfig(
        "hu",
        "Heads-up tables",
        kind="mtt",
        buy_in=1000,
        fee=100,
        start_time=EPOCH + timedelta(seconds=8),
        table_size=2,
        starting_stack=300,
        level_minutes=LEVEL,
        break_minutes=0,
        timing=FAST,
        currency="PLAY",
    )
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(cfg,)), seed=3)
    try:
        actor = h.room.tournaments["hu"]
        for i in range(5):
            await h.tournament_bot(f"tbot{i + 1}", "hu", "caller", seed=i)
        await h.run(lambda: actor.finished_at is not None, seconds=36_000)
        d = actor.director
        assert d.status == "finished"
        assert sum(actor.prizes.values()) == d.pool == 5000
        assert await prize_pool(h.store, "hu") == 0
        assert (await verify_ledger(h.store.db)).ok
        # issue 35, defect 3: every tournament transaction keeps its memo; a prize's names its place
        async with h.store.db.read() as conn:
            rows = (
                await conn.execute(
                    text("SELECT kind, memo FROM ledger_transactions WHERE kind LIKE 'tourney%'")
                )
            ).all()
        memos = [(kind, json.loads(memo) if memo else None) for kind, memo in rows]
        assert len(memos) == 5 + len(actor.prizes) and all(m for _, m in memos)
        places = {m["player"]: m["place"] for k, m in memos if k == "tourney_prize" and m}
        assert places == {p: d.entrants[p].place for p in actor.prizes}
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_guarantee_with_rebuys_and_late_entries_books_only_the_overlay_owed_once(
    tmp_path: Path,
) -> None:
    """§9.8: pool = max(guarantee, buy-ins + rebuys + late entries). The overlay is booked once, when the
    pool is final; it used to be fixed at the start with every later entry added on top (defect 2), and
    late entrants made places be paid twice (defect 3)."""
    cfg = TournamentConfig(
        "gr",
        "Guaranteed rebuy",
        kind="mtt",
        buy_in=1000,
        fee=100,
        guarantee=8000,
        start_time=EPOCH + timedelta(seconds=8),
        table_size=6,
        rebuy_levels=2,
        late_registration_levels=2,
        level_minutes=0.1,  # 6 s a level: time to rebuy and to register late
        break_minutes=0,
        timing=Timing(action=1.0, time_bank=0.5, between_hands=0.4, disconnect_grace=2),
        currency="PLAY",
    )
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(cfg,)), seed=5)
    try:
        actor = h.room.tournaments["gr"]
        for i in range(3):
            await h.tournament_bot(f"tbot{i + 1}", "gr", ("random", "caller")[i % 2], seed=i)
        rebuyers = [await register(h, "gr", f"rebuyer{i}") for i in range(2)]
        rebuys = [await rebuy_once(h, "gr", key, name) for key, name in rebuyers]
        for i in range(2):
            await h.tournament_bot(f"late{i + 1}", "gr", "caller", seed=10 + i)
        await h.run(lambda: actor.finished_at is not None, seconds=36_000)
        d = actor.director
        entries = sum(e.entries for e in d.entrants.values())
        assert rebuys == [True, True] and len(d.entrants) == 7 and entries == 9
        # 5,000 collected at the start, 9,000 once the pool was final: no overlay (it was 3,000 before)
        assert await h.store.ledger.system_balance(AccountKind.PROMOTIONS, PLAY) == 0
        assert sum(actor.prizes.values()) == d.pool == 9000 and await prize_pool(h.store, "gr") == 0
        assert d.contributions == 9000
        places = Counter(e.place for e in d.entrants.values())
        for place, n in places.items():  # a place is shared only by players out in the same hand
            assert place is not None
            assert n == 1 or len({e.busted_at for e in d.entrants.values() if e.place == place}) == 1
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


async def register(h: Harness, tid: str, name: str) -> tuple[str, str]:
    """A new player registers over the HTTP API (he never connects, so he never acts: he is folded,
    R223); his key and name."""
    key = player_key((await h.player(name)).id)
    await h.front.tournament_request(tid, "register", key, name, False)
    return key, name


async def rebuy_once(h: Harness, tid: str, key: str, name: str) -> bool:
    """Rebuy once between two of his hands, as the HTTP API asks (a refusal: try again after a hand)."""
    actor = h.room.tournaments[tid]
    await h.run(lambda: actor.director.status != "registering", seconds=600)
    for _ in range(1000):
        if actor.director.status == "finished":
            return False  # too late
        try:
            await h.front.tournament_request(tid, "rebuy", key, name, False)
        except (Refused, EngineError):

            def next_hand(played: int = actor.hands_played) -> bool:
                return actor.hands_played > played or actor.finished_at is not None

            await h.run(next_hand, seconds=600)
        else:
            return True
    raise AssertionError(f"{name} never rebought in {tid} between two of his hands")
