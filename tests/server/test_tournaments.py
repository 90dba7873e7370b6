"""Tournaments online (issue 9, RULES.md §9): sit-and-gos played to the end by bots over the live server,
registration and refunds through the ledger, guarantees, the lobby, the admin API, the schedule file."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from pokerroom.bots.runner import run_bots, start_tournament_bots
from pokerroom.history import read_phh, verify_hand
from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import RushTournamentDirector, TournamentConfig
from pokerroom.server.demo import demo_tournaments
from pokerroom.server.room import RoomSettings
from pokerroom.server.schedule import ScheduleError, load_schedule, load_split_schedule, schedule_from_data
from pokerroom.server.tournament import TournamentActor
from pokerroom.store import PLAY, AccountKind, Role, verify_ledger
from tests.waiting import until

from .conftest import LiveServer, serve_room
from .wire import Wire, register, stop_bots

FAST = Timing(action=1.0, time_bank=0.5, between_hands=0.02, disconnect_grace=2)
LEVEL = 0.03  # minutes: a level every 1.8 s


@contextlib.asynccontextmanager
async def tourney_server(tmp: Path, tournaments: Sequence[TournamentConfig]) -> AsyncIterator[LiveServer]:
    async with serve_room(tmp, RoomSettings(tournaments=tuple(tournaments)), durable=False) as s:
        yield s


@pytest_asyncio.fixture
async def sng(tmp_path: Path) -> AsyncIterator[LiveServer]:
    async with tourney_server(tmp_path, demo_tournaments(FAST, LEVEL)) as s:
        yield s


def open_sng(s: LiveServer) -> TournamentActor:
    return next(
        a
        for a in s.room.tournaments.values()
        if a.series is not None and a.director.status in ("announced", "registering")
    )


async def until_over(actor: TournamentActor, seconds: float = 240) -> None:
    await until(
        lambda: actor.finished_at is not None,  # the director's last effects are booked
        timeout=seconds,
        what=f"the tournament {actor.tid} ends",
        show=lambda: (actor.director.status, actor.director.standings()),
    )


@pytest.mark.asyncio
async def test_a_six_player_sit_and_go_is_played_to_the_end_and_pays_exactly_the_pool(
    sng: LiveServer,
) -> None:
    """R218: it starts when full; every elimination is ranked; prizes add up to the pool, paid through
    the ledger, which verifies; a fresh copy of the sit-and-go opens for registration. One bot goes away
    at the start: disconnected, he is blinded and folded (R223) until he is out."""
    actor = open_sng(sng)
    tid = actor.tid
    bots = await start_tournament_bots(sng.url, tid, 6, ["random", "caller"], think=(0, 0.01), seed=7)
    try:
        await stop_bots(bots[:1])
        await until_over(actor)  # the absent player is folded when the action reaches him
    finally:
        await stop_bots(bots)
    d = actor.director
    assert d.status == "finished" and len(d.entrants) == 6
    places = sorted(e.place or 0 for e in d.entrants.values())
    assert places[0] == 1 and all(p == i + 1 or p == places[i - 1] for i, p in enumerate(places))  # R234 ties
    cfg = d.config
    assert d.pool == 6 * cfg.buy_in and sum(actor.prizes.values()) == d.pool
    ledger = sng.room.store.ledger
    pool_account = await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref=tid)
    assert (await ledger.get_account(pool_account)).balance == 0
    assert await ledger.system_balance(AccountKind.HOUSE, PLAY) == 6 * cfg.fee  # the fees
    winner = next(e for e in d.entrants.values() if e.place == 1)
    assert actor.prizes[winner.player] == d.prizes[0]
    report = await verify_ledger(sng.room.store.db)
    assert report.ok, report.problems
    assert open_sng(sng).tid != tid  # the next one of the series is open
    async with httpx.AsyncClient(base_url=sng.url) as http:
        lobby = (await http.get("/api/tournaments")).json()
        assert tid in [r["tournament"] for r in lobby["finished"]]
        details = (await http.get(f"/api/tournaments/{tid}")).json()
    assert [s["place"] for s in details["standings"]] == places
    assert sum(p["amount"] for p in details["payouts"]) == d.pool


@pytest.mark.asyncio
async def test_register_and_unregister_refunds_the_buy_in_and_fee(sng: LiveServer) -> None:
    """R217: a full refund while registration is open; R216: the lobby shows the entrant."""
    token = await register(sng, "regina")
    actor = open_sng(sng)
    h = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=sng.url, headers=h) as http:
        before = (await http.get("/api/account")).json()["balances"]["PLAY"]
        r = await http.post(f"/api/tournaments/{actor.tid}/register")
        assert r.status_code == 200, r.text
        cfg = actor.director.config
        after = (await http.get("/api/account")).json()["balances"]["PLAY"]
        assert after == before - cfg.buy_in - cfg.fee
        r = await http.post(f"/api/tournaments/{actor.tid}/register")
        assert r.status_code == 409 and r.json()["detail"]["code"] == "already_registered"
        row = next(t for t in (await http.get("/api/lobby")).json()["tournaments"]["upcoming"])
        assert row["entrants"] == 1 and row["kind"] == "sng"
        r = await http.post(f"/api/tournaments/{actor.tid}/unregister")
        assert r.status_code == 200
        assert (await http.get("/api/account")).json()["balances"]["PLAY"] == before
        r = await http.post(f"/api/tournaments/{actor.tid}/unregister")
        assert r.status_code == 409 and r.json()["detail"]["code"] == "unregister_refused"
        assert (await http.post("/api/tournaments/nope/register")).status_code == 404
    assert (await verify_ledger(sng.room.store.db)).ok


@pytest.mark.asyncio
async def test_a_refused_rebuy_books_nothing(sng: LiveServer) -> None:
    """R232: no rebuy outside a rebuy period (here: a sit-and-go without one); the wallet is untouched."""
    token = await register(sng, "rebuyer")
    actor = open_sng(sng)
    async with httpx.AsyncClient(base_url=sng.url, headers={"Authorization": f"Bearer {token}"}) as http:
        r = await http.post(f"/api/tournaments/{actor.tid}/rebuy")
        assert r.status_code == 409 and r.json()["detail"]["code"] == "not_playing"
        assert (await http.post(f"/api/tournaments/{actor.tid}/register")).status_code == 200
        before = (await http.get("/api/account")).json()["balances"]["PLAY"]
        r = await http.post(f"/api/tournaments/{actor.tid}/rebuy", json={"add_on": False})
        assert r.status_code == 409 and r.json()["detail"]["code"] == "rebuy_refused"
        assert (await http.get("/api/account")).json()["balances"]["PLAY"] == before
    assert actor.director.entrants[str((await sng.room.store.accounts.find("rebuyer")).id)].entries == 1
    assert (await verify_ledger(sng.room.store.db)).ok


@pytest.mark.asyncio
async def test_a_satellite_winner_is_registered_for_the_target_with_his_ticket(tmp_path: Path) -> None:
    """R228: a heads-up satellite, 2 x 600 in the pool: one seat worth 1,100 for the winner (registered
    at once for the open target), the 100 remainder in cash to the runner-up."""
    target = TournamentConfig(
        "target", "Target", buy_in=1000, fee=100, start_time=datetime.now(UTC) + timedelta(hours=1)
    )
    satellite = TournamentConfig(
        "sat",
        "Satellite",
        kind="sng",
        max_players=2,
        buy_in=600,
        seat_value=1100,
        target="target",
        level_minutes=LEVEL,
        timing=FAST,
    )
    async with tourney_server(tmp_path, [target, satellite]) as s:
        actor = open_sng(s)
        bots = await start_tournament_bots(s.url, actor.tid, 2, ["random"], think=(0, 0.01), seed=11)
        try:
            await until_over(actor)
        finally:
            await stop_bots(bots)
        winner = next(e for e in actor.director.entrants.values() if e.place == 1)
        runner_up = next(e for e in actor.director.entrants.values() if e.place == 2)
        await until(
            lambda: winner.player in s.room.tournaments["target"].director.entrants,
            timeout=15,
            what="the satellite's winner is registered in the target with his ticket",
        )
        entrant = s.room.tournaments["target"].director.entrants[winner.player]
        assert entrant.ticket and not await s.room.store.tournaments.tickets(int(winner.player))
        assert actor.prizes == {runner_up.player: 100}
        ledger = s.room.store.ledger
        assert (
            await ledger.get_account(await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref=actor.tid))
        ).balance == 0
        target_pool = await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref="target")
        assert (await ledger.get_account(target_pool)).balance == 1000
        assert (await verify_ledger(s.room.store.db)).ok


@pytest.mark.asyncio
async def test_the_admin_api_refuses_non_admins_and_schedules_for_admins(sng: LiveServer) -> None:
    token = await register(sng, "plainuser")
    admin_token = await register(sng, "boss")
    boss = await sng.room.store.accounts.find("boss")
    await sng.room.store.accounts.set_role(boss.id, Role.ADMIN)
    body = {
        "id": "nightly",
        "name": "Nightly",
        "kind": "mtt",
        "start_in_minutes": 60,
        "buy_in": 500,
        "fee": 50,
    }
    async with httpx.AsyncClient(base_url=sng.url) as http:
        r = await http.post("/api/admin/tournaments", json=body, headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 403 and r.json()["detail"]["code"] == "forbidden"
        assert (await http.post("/api/admin/tournaments", json=body)).status_code == 401
        assert "nightly" not in sng.room.tournaments
        admin = {"Authorization": f"Bearer {admin_token}"}
        r = await http.post("/api/admin/tournaments", json=body, headers=admin)
        assert r.status_code == 201, r.text
        bad = dict(body, id="bad", kind="sng", max_players=99)
        r = await http.post("/api/admin/tournaments", json=bad, headers=admin)
        assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_tournament"
        r = await http.post("/api/admin/tournaments", json=dict(body, id="rushy", rush=True), headers=admin)
        assert r.status_code == 201, r.text
        upcoming = (await http.get("/api/tournaments", params={"status": "upcoming"})).json()["upcoming"]
    assert {"nightly", "rushy"} <= {t["tournament"] for t in upcoming}
    assert isinstance(sng.room.tournaments["rushy"].director, RushTournamentDirector)


@pytest.mark.asyncio
async def test_a_guarantee_is_topped_up_from_promotions_and_paid(tmp_path: Path) -> None:
    """R227-style overlay: two players, a guarantee above the buy-ins; the promotions account pays the
    difference into the prize pool and the winners get exactly the guarantee."""
    start = datetime.now(UTC) + timedelta(seconds=10)  # time to log the bots in, even on a busy machine
    cfg = TournamentConfig(
        "gtd",
        "Guaranteed",
        kind="mtt",
        buy_in=1000,
        fee=100,
        guarantee=5000,
        start_time=start,
        table_size=6,
        level_minutes=LEVEL,
        break_minutes=0,
        timing=FAST,
        currency="PLAY",
    )
    async with tourney_server(tmp_path, [cfg]) as s:
        actor = s.room.tournaments["gtd"]
        bots = await start_tournament_bots(s.url, "gtd", 2, ["random"], think=(0, 0.01), seed=9)
        try:
            await until_over(actor)
        finally:
            await stop_bots(bots)
        assert actor.director.status == "finished"
        assert sum(actor.prizes.values()) == 5000
        assert await s.room.store.ledger.system_balance(AccountKind.PROMOTIONS, PLAY) == -3000
        assert (await verify_ledger(s.room.store.db)).ok


@pytest.mark.asyncio
async def test_a_scheduled_tournament_below_its_minimum_is_cancelled_with_refunds(tmp_path: Path) -> None:
    start = datetime.now(UTC) + timedelta(seconds=6)
    cfg = TournamentConfig(
        "small", "Small", kind="mtt", buy_in=1000, fee=100, min_players=3, start_time=start
    )
    async with tourney_server(tmp_path, [cfg]) as s:
        token = await register(s, "lonely")
        h = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=s.url, headers=h) as http:
            before = (await http.get("/api/account")).json()["balances"]["PLAY"]
            assert (await http.post("/api/tournaments/small/register")).status_code == 200
            await until_over(s.room.tournaments["small"], 20)
            assert s.room.tournaments["small"].director.status == "cancelled"
            assert (await http.get("/api/account")).json()["balances"]["PLAY"] == before
        assert (await verify_ledger(s.room.store.db)).ok


def test_the_schedule_file_gives_tournaments_and_the_big_game_with_satellites(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        """
[[tournament]]
id = "turbo"
kind = "sng"
max_players = 6
table_size = 6
buy_in = 1000
fee = 100
level_minutes = 5
payouts = [65, 35]

[[tournament]]
id = "daily"
name = "Daily"
start = 2026-12-01T18:00:00Z
guarantee = 5000
betting = "pl"
variant = "omaha"
rush = true

[[big_game]]
variant = "holdem"
satellites = 3
currency = "PLAY"
"""
    )
    now = datetime(2026, 11, 30, 9, tzinfo=UTC)  # a Monday
    configs = {c.tournament_id: c for c in load_schedule(path, now)}
    assert configs["turbo"].kind == "sng" and sum(configs["turbo"].payouts) == 100
    assert configs["daily"].betting.value == "PL" and configs["daily"].start_time == datetime(
        2026, 12, 1, 18, tzinfo=UTC
    )
    big = next(c for c in configs.values() if c.tournament_id.startswith("big-"))
    assert (big.buy_in, big.fee, big.guarantee) == (10_000, 900, 1_000_000)
    satellites = [c for c in configs.values() if c.target == big.tournament_id]
    assert len(satellites) == 3 and all(c.seat_value == 10_900 for c in satellites)
    standard, rush = load_split_schedule(path, now)
    assert [c.tournament_id for c in rush] == ["daily"] and "turbo" in [c.tournament_id for c in standard]
    with pytest.raises(ScheduleError, match="unknown field"):
        schedule_from_data({"tournament": [{"id": "x", "colour": "red"}]}, now)
    with pytest.raises(ScheduleError):
        schedule_from_data({"tournament": [{"id": "x", "kind": "sng", "max_players": 40}]}, now)


@pytest.mark.asyncio
async def test_a_rush_sit_and_go_plays_its_pool_phase_then_the_final_table(tmp_path: Path) -> None:
    """R214/R215 online: twelve players start in a Rush pool of 4-seat tables (per-entry windows, quick
    folds), the last nine play one standard final table, and the prizes are exactly the pool."""
    cfg = TournamentConfig(
        "rush12",
        "Rush 12",
        kind="sng",
        max_players=12,
        buy_in=100,
        fee=10,
        level_minutes=LEVEL,
        timing=FAST,
    )
    async with serve_room(tmp_path, RoomSettings(rush_tournaments=(cfg,)), durable=False) as s:
        actor = open_sng(s)
        bots = await start_tournament_bots(
            s.url, actor.tid, 12, ["random", "caller"], think=(0, 0.01), seed=5
        )
        try:
            await until_over(actor)
        finally:
            await stop_bots(bots)
        d = actor.director
        assert d.status == "finished" and sum(actor.prizes.values()) == d.pool == 12 * 100
        assert actor.rush_hands > 0  # the Rush phase was played
        assert actor.hands_played > 0  # and the final table
        assert sum(b.moves for b, _ in bots) >= actor.rush_hands
        assert not any(b.stats.error_codes.get("internal_error") for b, _ in bots)
        assert (await verify_ledger(s.room.store.db)).ok
        # Every hand of both phases is in its players' hand histories (docs/decisions.md).
        stored: set[str] = set()
        for e in d.entrants.values():
            own = await s.room.store.histories.player_hands(int(e.player), limit=1000)
            stored |= {h.hand_id for h in own}
            for h in own:  # each with its deck proof, which holds (docs/fairness.md)
                verdict = verify_hand(read_phh(h.phh))
                assert verdict.ok, (h.hand_id, verdict.problems)
        pool_hands = {h for h in stored if h.startswith(f"{actor.tid}-rush-t")}
        assert len(pool_hands) == actor.rush_hands
        assert len(stored - pool_hands) == actor.hands_played


@pytest.mark.asyncio
async def test_registration_over_the_websocket_follows_the_http_rules(sng: LiveServer) -> None:
    """``tournament_register`` / ``tournament_unregister`` (docs/protocol.md): an ack, the buy-in and fee
    booked (R216) and fully refunded (R217) with a balance frame; the HTTP endpoints' codes as errors;
    a refused request changes nothing."""
    token = await register(sng, "wendy")
    actor = open_sng(sng)
    cfg = actor.director.config
    anonymous = await Wire.open(sng)
    w = await Wire.open(sng, token)
    try:
        await anonymous.send({"type": "tournament_register", "tournament": actor.tid, "ref": "a"})
        assert (await anonymous.reply("a"))["code"] == "login_required"
        async with httpx.AsyncClient(base_url=sng.url, headers={"Authorization": f"Bearer {token}"}) as http:
            before = (await http.get("/api/account")).json()["balances"]["PLAY"]
        await w.send({"type": "tournament_register", "tournament": actor.tid, "ref": "r1"})
        assert (await w.reply("r1"))["type"] == "ack"
        balances = [m["amount"] for m in w.seen if m["type"] == "balance"]  # sent before the ack
        assert balances == [before - cfg.buy_in - cfg.fee]
        me = str((await sng.room.store.accounts.find("wendy")).id)
        assert me in actor.director.entrants
        refused: list[tuple[str, dict[str, Any], str]] = [
            ("r2", {"type": "tournament_register", "tournament": actor.tid}, "already_registered"),
            ("r3", {"type": "tournament_register", "tournament": "nope"}, "unknown_tournament"),
            ("r4", {"type": "tournament_register", "tournament": "a b"}, "invalid_field"),
            ("r5", {"type": "tournament_register", "tournament": actor.tid, "ticket": 1}, "invalid_field"),
            ("r6", {"type": "tournament_unregister", "tournament": "nope"}, "unknown_tournament"),
        ]
        for ref, msg, code in refused:
            await w.send({**msg, "ref": ref})
            assert (await w.reply(ref))["code"] == code, ref
        await w.send({"type": "tournament_unregister", "tournament": actor.tid, "ref": "u1"})
        assert (await w.reply("u1"))["type"] == "ack"
        assert [m["amount"] for m in w.seen if m["type"] == "balance"][-1] == before
        assert me not in actor.director.entrants
        await w.send({"type": "tournament_unregister", "tournament": actor.tid, "ref": "u2"})
        assert (await w.reply("u2"))["code"] == "unregister_refused"
        await w.send({"type": "tournament_register", "tournament": actor.tid, "ticket": True, "ref": "t"})
        assert (await w.reply("t"))["code"] == "no_ticket"
    finally:
        await w.close()
        await anonymous.close()
    assert me not in actor.director.entrants
    assert (await verify_ledger(sng.room.store.db)).ok


@pytest.mark.asyncio
async def test_pokerroom_bots_fills_a_tournament_and_plays_it_to_its_end(tmp_path: Path) -> None:
    """Issue 18: ``pokerroom bots --tournament ID`` registers the bots, and they play it to the end."""
    heads_up = TournamentConfig(
        "hu", "Heads-up", kind="sng", max_players=2, buy_in=100, level_minutes=LEVEL, timing=FAST
    )
    async with tourney_server(tmp_path, [heads_up]) as s:
        actor = open_sng(s)
        stats = await asyncio.wait_for(
            run_bots(s.url, 2, ["random"], think=(0, 0.01), prefix="rehearsal", tournament=actor.tid), 240
        )
        assert actor.director.status == "finished"
        assert sorted(e.name for e in actor.director.entrants.values()) == ["rehearsal1", "rehearsal2"]
        assert stats.actions > 0
        assert (await verify_ledger(s.room.store.db)).ok
