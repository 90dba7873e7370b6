"""Issue 18 over the live server, where money moves: a tournament that must break one-player tables
finishes and pays its pool; a guarantee with rebuys and late entries books only the overlay still owed,
once; late entrants never make the room pay a place twice (RULES.md §9.5, §9.7, §9.8, §9.10, §9.11)."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from pokerroom.bots.runner import start_tournament_bots
from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.store import PLAY, AccountKind, verify_ledger
from tests.waiting import until

from .conftest import LiveServer
from .test_tournaments import FAST, LEVEL, tourney_server, until_over
from .wire import bearer, prize_pool, register, stop_bots


@pytest.mark.asyncio
async def test_heads_up_tables_that_must_break_finish_and_pay_the_pool(tmp_path: Path) -> None:
    """Five players at two-seat tables (2, 2, 1): the lone player's table can never deal. Before the fix
    the room ended with three one-player tables, the pool held and no winner (defect 1)."""
    start = datetime.now(UTC) + timedelta(seconds=8)
    cfg = TournamentConfig(
        "hu",
        "Heads-up tables",
        kind="mtt",
        buy_in=1000,
        fee=100,
        start_time=start,
        table_size=2,
        starting_stack=300,
        level_minutes=LEVEL,
        break_minutes=0,
        timing=FAST,
        currency="PLAY",
    )
    async with tourney_server(tmp_path, [cfg]) as s:
        actor = s.room.tournaments["hu"]
        bots = await start_tournament_bots(s.url, "hu", 5, ["caller"], think=(0, 0.01), seed=3)
        try:
            await until_over(actor, 180)
        finally:
            await stop_bots(bots)
        d = actor.director
        assert d.status == "finished"
        assert sum(actor.prizes.values()) == d.pool == 5000
        assert await prize_pool(s.room.store, "hu") == 0
        assert (await verify_ledger(s.room.store.db)).ok


@pytest.mark.asyncio
async def test_a_guarantee_with_rebuys_and_late_entries_books_only_the_overlay_owed_once(
    tmp_path: Path,
) -> None:
    """§9.8: pool = max(guarantee, buy-ins + rebuys + late entries). The overlay is booked once, when the
    pool is final; it used to be fixed at the start with every later entry added on top (defect 2), and
    late entrants made places be paid twice (defect 3)."""
    start = datetime.now(UTC) + timedelta(seconds=8)
    cfg = TournamentConfig(
        "gr",
        "Guaranteed rebuy",
        kind="mtt",
        buy_in=1000,
        fee=100,
        guarantee=8000,
        start_time=start,
        table_size=6,
        rebuy_levels=2,
        late_registration_levels=2,
        level_minutes=0.1,  # 6 s a level: time to rebuy and to register late
        break_minutes=0,
        timing=Timing(action=1.0, time_bank=0.5, between_hands=0.4, disconnect_grace=2),
        currency="PLAY",
    )
    async with tourney_server(tmp_path, [cfg]) as s:
        actor = s.room.tournaments["gr"]
        bots = await start_tournament_bots(s.url, "gr", 3, ["random", "caller"], think=(0, 0.01), seed=5)
        try:
            rebuys = await asyncio.gather(*(rebuy_once(s, "gr", f"rebuyer{i}") for i in range(2)))
            bots += await start_tournament_bots(s.url, "gr", 2, ["caller"], think=(0, 0.01), prefix="late")
            await until_over(actor, 240)
        finally:
            await stop_bots(bots)
        d = actor.director
        entries = sum(e.entries for e in d.entrants.values())
        assert rebuys == [True, True] and len(d.entrants) == 7 and entries == 9
        # 5,000 collected at the start, 9,000 once the pool was final: no overlay (it was 3,000 before)
        assert await s.room.store.ledger.system_balance(AccountKind.PROMOTIONS, PLAY) == 0
        assert sum(actor.prizes.values()) == d.pool == 9000 and await prize_pool(s.room.store, "gr") == 0
        assert d.contributions == 9000
        places = Counter(e.place for e in d.entrants.values())
        for place, n in places.items():  # a place is shared only by players out in the same hand
            assert place is not None
            assert n == 1 or len({e.busted_at for e in d.entrants.values() if e.place == place}) == 1
        assert (await verify_ledger(s.room.store.db)).ok


async def rebuy_once(s: LiveServer, tid: str, name: str) -> bool:
    """Register, then rebuy once between two of his hands (he never acts: he is folded, R223)."""
    token = await register(s, name)
    actor = s.room.tournaments[tid]
    async with httpx.AsyncClient(base_url=s.url, headers=bearer(token)) as http:
        assert (await http.post(f"/api/tournaments/{tid}/register")).status_code == 200

        async def attempt() -> str | None:
            if actor.director.status == "finished":
                return "too late"
            if actor.director.status == "running":
                r = await http.post(f"/api/tournaments/{tid}/rebuy", json={"add_on": False})
                if r.status_code == 200:
                    return "rebought"
            return None

        outcome = await until(
            attempt,
            timeout=60,
            every=0.01,
            what=f"{name} rebuys in {tid} between two of his hands",
            show=lambda: actor.director.status,
        )
    return outcome == "rebought"
