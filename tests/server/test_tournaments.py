"""Tournaments (issue 9, RULES.md §9): sit-and-gos played to the end by bots, registration and refunds
through the ledger, guarantees, the lobby, the admin API, the schedule file.

How tournaments play (to the end, satellites, guarantees, cancellations, Rush, registration over the
WebSocket protocol) runs on the server's harness (tests/server/harness.py: a manual clock, no sockets);
what the HTTP API answers and ``pokerroom bots`` filling a tournament end to end run on a live server."""

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

from pokerroom.bots.runner import run_bots
from pokerroom.history import read_phh, verify_hand
from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import RushTournamentDirector, TournamentConfig
from pokerroom.server.demo import demo_tournaments
from pokerroom.server.ids import player_key
from pokerroom.server.room import Room, RoomSettings
from pokerroom.server.schedule import ScheduleError, load_schedule, load_split_schedule, schedule_from_data
from pokerroom.server.tournament import TournamentActor
from pokerroom.store import PLAY, AccountKind, Role, verify_ledger

from .conftest import LiveServer, serve_room
from .harness import EPOCH, Client, Harness
from .wire import register

FAST = Timing(action=1.0, time_bank=0.5, between_hands=0.02, disconnect_grace=2)
# On the manual clock a hand takes no time at all: half a second between hands keeps the levels' pace to
# the hands about what it is live (with FAST, hundreds of hands are played per level).
CLOCK = Timing(action=1.0, time_bank=0.5, between_hands=0.5, disconnect_grace=2)
LEVEL = 0.03  # minutes: a level every 1.8 s


@contextlib.asynccontextmanager
async def tourney_server(tmp: Path, tournaments: Sequence[TournamentConfig]) -> AsyncIterator[LiveServer]:
    async with serve_room(tmp, RoomSettings(tournaments=tuple(tournaments)), durable=False) as s:
        yield s


@pytest_asyncio.fixture
async def sng(tmp_path: Path) -> AsyncIterator[LiveServer]:
    async with tourney_server(tmp_path, demo_tournaments(FAST, LEVEL)) as s:
        yield s


def open_sng(room: Room) -> TournamentActor:
    return next(
        a
        for a in room.tournaments.values()
        if a.series is not None and a.director.status in ("announced", "registering")
    )


async def until_over(h: Harness, actor: TournamentActor, seconds: float = 50_000) -> None:
    """Let the room play until the tournament is over: the director's last effects are booked."""
    await h.run(lambda: actor.finished_at is not None, seconds=seconds)


async def bots(h: Harness, tid: str, count: int, strategies: Sequence[str], seed: int) -> list[Client]:
    """``count`` tournament bots registered in ``tid`` (as ``start_tournament_bots`` starts them live)."""
    return [
        await h.tournament_bot(f"tbot{i + 1}", tid, strategies[i % len(strategies)], seed=seed + i)
        for i in range(count)
    ]


@pytest.mark.asyncio
async def test_a_six_player_sit_and_go_is_played_to_the_end_and_pays_exactly_the_pool(tmp_path: Path) -> None:
    """R218: it starts when full; every elimination is ranked; prizes add up to the pool, paid through
    the ledger, which verifies; a fresh copy of the sit-and-go opens for registration. One bot goes away
    at the start: disconnected, he is blinded and folded (R223) until he is out."""
    h = await Harness.open(tmp_path, RoomSettings(tournaments=tuple(demo_tournaments(CLOCK, LEVEL))), seed=7)
    try:
        actor = open_sng(h.room)
        tid = actor.tid
        clients = await bots(h, tid, 6, ["random", "caller"], seed=7)
        await h.stop_bot(clients[0])
        await until_over(h, actor)  # the absent player is folded when the action reaches him
        d = actor.director
        assert d.status == "finished" and len(d.entrants) == 6
        places = sorted(e.place or 0 for e in d.entrants.values())
        assert places[0] == 1 and all(p == i + 1 or p == places[i - 1] for i, p in enumerate(places))  # R234
        cfg = d.config
        assert d.pool == 6 * cfg.buy_in and sum(actor.prizes.values()) == d.pool
        ledger = h.store.ledger
        pool_account = await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref=tid)
        assert (await ledger.get_account(pool_account)).balance == 0
        assert await ledger.system_balance(AccountKind.HOUSE, PLAY) == 6 * cfg.fee  # the fees
        winner = next(e for e in d.entrants.values() if e.place == 1)
        assert actor.prizes[winner.player] == d.prizes[0]
        report = await verify_ledger(h.store.db)
        assert report.ok, report.problems
        assert open_sng(h.room).tid != tid  # the next one of the series is open
        lobby = h.front.tournament_lobby()  # what /api/tournaments and /api/tournaments/{tid} answer
        assert tid in [r["tournament"] for r in lobby["finished"]]
        details = await h.front.tournament_details(tid)
        assert [s["place"] for s in details["standings"]] == places
        assert sum(p["amount"] for p in details["payouts"]) == d.pool
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_register_and_unregister_refunds_the_buy_in_and_fee(sng: LiveServer) -> None:
    """R217: a full refund while registration is open; R216: the lobby shows the entrant."""
    token = await register(sng, "regina")
    actor = open_sng(sng.room)
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
    actor = open_sng(sng.room)
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
    target = TournamentConfig("target", "Target", buy_in=1000, fee=100, start_time=EPOCH + timedelta(hours=1))
    satellite = TournamentConfig(
        "sat",
        "Satellite",
        kind="sng",
        max_players=2,
        buy_in=600,
        seat_value=1100,
        target="target",
        level_minutes=LEVEL,
        timing=CLOCK,
    )
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(target, satellite)), seed=11)
    try:
        actor = open_sng(h.room)
        await bots(h, actor.tid, 2, ["random"], seed=11)
        await until_over(h, actor)
        winner = next(e for e in actor.director.entrants.values() if e.place == 1)
        runner_up = next(e for e in actor.director.entrants.values() if e.place == 2)
        # the satellite's winner is registered in the target with his ticket
        await h.run(lambda: winner.player in h.room.tournaments["target"].director.entrants, seconds=15)
        entrant = h.room.tournaments["target"].director.entrants[winner.player]
        assert entrant.ticket and not await h.store.tournaments.tickets(int(winner.player))
        assert actor.prizes == {runner_up.player: 100}
        ledger = h.store.ledger
        assert (
            await ledger.get_account(await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref=actor.tid))
        ).balance == 0
        target_pool = await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref="target")
        assert (await ledger.get_account(target_pool)).balance == 1000
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


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
    cfg = TournamentConfig(
        "gtd",
        "Guaranteed",
        kind="mtt",
        buy_in=1000,
        fee=100,
        guarantee=5000,
        start_time=EPOCH + timedelta(seconds=10),
        table_size=6,
        level_minutes=LEVEL,
        break_minutes=0,
        timing=CLOCK,
        currency="PLAY",
    )
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(cfg,)), seed=9)
    try:
        actor = h.room.tournaments["gtd"]
        await bots(h, "gtd", 2, ["random"], seed=9)
        await until_over(h, actor)
        assert actor.director.status == "finished"
        assert sum(actor.prizes.values()) == 5000
        assert await h.store.ledger.system_balance(AccountKind.PROMOTIONS, PLAY) == -3000
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_scheduled_tournament_below_its_minimum_is_cancelled_with_refunds(tmp_path: Path) -> None:
    cfg = TournamentConfig(
        "small",
        "Small",
        kind="mtt",
        buy_in=1000,
        fee=100,
        min_players=3,
        start_time=EPOCH + timedelta(seconds=6),
    )
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(cfg,)), seed=1)
    try:
        lonely = await h.player("lonely")
        before = await h.balance(lonely)
        await h.front.tournament_request(
            "small", "register", player_key(lonely.id), "lonely", False
        )  # (HTTP)
        assert await h.balance(lonely) == before - 1100
        await until_over(h, h.room.tournaments["small"], 20)
        assert h.room.tournaments["small"].director.status == "cancelled"
        assert await h.balance(lonely) == before
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


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
    """R214/R215: twelve players start in a Rush pool of 4-seat tables (per-entry windows, quick folds),
    the last nine play one standard final table, and the prizes are exactly the pool."""
    cfg = TournamentConfig(
        "rush12",
        "Rush 12",
        kind="sng",
        max_players=12,
        buy_in=100,
        fee=10,
        level_minutes=LEVEL,
        timing=CLOCK,
    )
    h = await Harness.open(tmp_path, RoomSettings(rush_tournaments=(cfg,)), seed=5)
    try:
        actor = open_sng(h.room)
        clients = await bots(h, actor.tid, 12, ["random", "caller"], seed=5)
        await until_over(h, actor)
        d = actor.director
        assert d.status == "finished" and sum(actor.prizes.values()) == d.pool == 12 * 100
        assert actor.rush_hands > 0  # the Rush phase was played
        assert actor.hands_played > 0  # and the final table
        assert sum(c.bot.moves for c in clients) >= actor.rush_hands
        assert not h.stats.error_codes.get("internal_error")
        assert (await verify_ledger(h.store.db)).ok
        # Every hand of both phases is in its players' hand histories (docs/decisions.md).
        stored: set[str] = set()
        for e in d.entrants.values():
            own = await h.store.histories.player_hands(int(e.player), limit=1000)
            stored |= {x.hand_id for x in own}
            for x in own:  # each with its deck proof, which holds (docs/fairness.md)
                verdict = verify_hand(read_phh(x.phh))
                assert verdict.ok, (x.hand_id, verdict.problems)
        pool_hands = {x for x in stored if x.startswith(f"{actor.tid}-rush-t")}
        assert len(pool_hands) == actor.rush_hands
        assert len(stored - pool_hands) == actor.hands_played
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_registration_over_the_websocket_follows_the_http_rules(tmp_path: Path) -> None:
    """``tournament_register`` / ``tournament_unregister`` (docs/protocol.md): an ack, the buy-in and fee
    booked (R216) and fully refunded (R217) with a balance frame; the HTTP endpoints' codes as errors;
    a refused request changes nothing."""
    h = await Harness.open(tmp_path, RoomSettings(tournaments=tuple(demo_tournaments(CLOCK, LEVEL))), seed=1)
    try:
        actor = open_sng(h.room)
        cfg = actor.director.config
        anonymous = h.connect("anonymous", None)
        answer = await h.ask(anonymous, {"type": "tournament_register", "tournament": actor.tid})
        assert answer["code"] == "login_required"
        wendy = await h.player("wendy")
        w = h.connect("wendy", wendy)
        before = await h.balance(wendy)
        ack = await h.ask(w, {"type": "tournament_register", "tournament": actor.tid, "ref": "r1"})
        assert ack["type"] == "ack"
        upto = next(i for i, f in enumerate(w.frames) if f is ack)
        balances = [m["amount"] for m in w.frames[:upto] if m["type"] == "balance"]  # sent before the ack
        assert balances == [before - cfg.buy_in - cfg.fee]
        me = str(wendy.id)
        assert me in actor.director.entrants
        refused: list[tuple[str, dict[str, Any], str]] = [
            ("r2", {"type": "tournament_register", "tournament": actor.tid}, "already_registered"),
            ("r3", {"type": "tournament_register", "tournament": "nope"}, "unknown_tournament"),
            ("r4", {"type": "tournament_register", "tournament": "a b"}, "invalid_field"),
            ("r5", {"type": "tournament_register", "tournament": actor.tid, "ticket": 1}, "invalid_field"),
            ("r6", {"type": "tournament_unregister", "tournament": "nope"}, "unknown_tournament"),
        ]
        for ref, msg, code in refused:
            assert (await h.ask(w, {**msg, "ref": ref}))["code"] == code, ref
        ack = await h.ask(w, {"type": "tournament_unregister", "tournament": actor.tid, "ref": "u1"})
        assert ack["type"] == "ack"
        assert [m["amount"] for m in w.frames if m["type"] == "balance"][-1] == before
        assert me not in actor.director.entrants
        answer = await h.ask(w, {"type": "tournament_unregister", "tournament": actor.tid, "ref": "u2"})
        assert answer["code"] == "unregister_refused"
        ticket = {"type": "tournament_register", "tournament": actor.tid, "ticket": True, "ref": "t"}
        assert (await h.ask(w, ticket))["code"] == "no_ticket"
        assert me not in actor.director.entrants
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_pokerroom_bots_fills_a_tournament_and_plays_it_to_its_end(tmp_path: Path) -> None:
    """Issue 18: ``pokerroom bots --tournament ID`` registers the bots, and they play it to the end."""
    heads_up = TournamentConfig(
        "hu", "Heads-up", kind="sng", max_players=2, buy_in=100, level_minutes=LEVEL, timing=FAST
    )
    async with tourney_server(tmp_path, [heads_up]) as s:
        actor = open_sng(s.room)
        stats = await asyncio.wait_for(
            run_bots(s.url, 2, ["random"], think=(0, 0.01), prefix="rehearsal", tournament=actor.tid), 240
        )
        assert actor.director.status == "finished"
        assert sorted(e.name for e in actor.director.entrants.values()) == ["rehearsal1", "rehearsal2"]
        assert stats.actions > 0
        assert (await verify_ledger(s.room.store.db)).ok
