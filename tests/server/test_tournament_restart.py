"""Tournaments across a real restart of the server (issue 9's money safety, docs/decisions.md
"Tournaments"): a room on a fresh SQLite file is served, stopped and served again on the same file.
Registrations of tournaments that have not started come back (or are refunded when the tournament is not
offered any more), a running tournament is cancelled with its prize pool paid out by chips, satellite
tickets stay in the account, and afterwards no prize pool of a tournament that is over holds money."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from pokerroom.bots.runner import start_tournament_bots
from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.room import Room, RoomSettings
from pokerroom.store import PLAY, AccountKind, NewTicket, TournamentChanges, verify_ledger
from tests.waiting import until

from .conftest import LiveServer, serve_room
from .wire import Wire, balance, prize_pool, register, stop_bots

SLOW = Timing(action=60.0, time_bank=0.0, between_hands=0.02, disconnect_grace=60)


def daily() -> TournamentConfig:
    start = datetime.now(UTC) + timedelta(hours=1)
    return TournamentConfig("daily", "Daily", buy_in=1000, fee=100, start_time=start)


def trio() -> TournamentConfig:
    return TournamentConfig("trio", "Trio", kind="sng", max_players=3, buy_in=500, fee=50)


def duel() -> TournamentConfig:
    return TournamentConfig("duel", "Duel", kind="sng", max_players=2, buy_in=1000, fee=100, timing=SLOW)


def settings(*tournaments: TournamentConfig) -> RoomSettings:
    return RoomSettings(tournaments=tuple(tournaments))


async def post(s: LiveServer, token: str, path: str, body: dict[str, object] | None = None) -> httpx.Response:
    async with httpx.AsyncClient(base_url=s.url, headers={"Authorization": f"Bearer {token}"}) as http:
        return await http.post(path, json=body or {})


def copy_of(room: Room, series: str) -> list[str]:
    return [t for t, a in room.tournaments.items() if a.series == series]


async def over_pools_are_empty(room: Room, tids: Sequence[str]) -> None:
    for tid in tids:
        assert await prize_pool(room.store, tid) == 0
    report = await verify_ledger(room.store.db)
    assert report.ok, report.problems


async def give_ticket(room: Room, player: int, target: str) -> None:
    """A satellite seat as the tournament actor books one (the satellite's pool is empty here, so the
    promotions account pays the seat: R230)."""
    ledger = room.store.ledger
    ticket = NewTicket(
        player,
        "sat-1",
        target,
        PLAY,
        1100,
        await ledger.account(AccountKind.TICKET, PLAY, ref=str(player)),
        await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref="sat-1"),
        await ledger.account(AccountKind.PROMOTIONS, PLAY),
        f"tticket:sat-1:test:{player}",
    )
    await room.store.tournaments.apply("sat-1", TournamentChanges(tickets=[ticket]))


@pytest.mark.asyncio
async def test_registrations_and_tickets_come_back_after_a_restart(tmp_path: Path) -> None:
    """R216/R217 across a restart: the scheduled tournament and the sit-and-go copy open again with their
    players (no fresh copy of the series beside it), nobody pays twice, unregistering still refunds the
    whole buy-in, and a kept ticket still registers its owner."""
    async with serve_room(tmp_path, settings(daily(), trio())) as s:
        alice, bob, carol = [await register(s, n) for n in ("alice", "bobby", "carol")]
        start = await balance(s, alice)
        (sng,) = copy_of(s.room, "trio")
        assert (await post(s, alice, "/api/tournaments/daily/register")).status_code == 200
        assert (await post(s, bob, f"/api/tournaments/{sng}/register")).status_code == 200
        carol_id = (await s.room.store.accounts.find("carol")).id
        await give_ticket(s.room, carol_id, "daily")
    async with serve_room(tmp_path, settings(daily(), trio())) as s:
        assert [e.name for e in s.room.tournaments["daily"].director.entrants.values()] == ["alice"]
        assert copy_of(s.room, "trio") == [sng]
        assert [e.name for e in s.room.tournaments[sng].director.entrants.values()] == ["bobby"]
        assert await balance(s, alice) == start - 1100 and await balance(s, bob) == start - 550
        assert await prize_pool(s.room.store, "daily") == 1000 and await prize_pool(s.room.store, sng) == 500
        async with httpx.AsyncClient(base_url=s.url, headers={"Authorization": f"Bearer {carol}"}) as http:
            tickets = (await http.get("/api/account/tickets")).json()["tickets"]
        assert tickets == [{"target": "daily", "value": 1100, "satellite": "sat-1"}]
        r = await post(s, carol, "/api/tournaments/daily/register", {"ticket": True})
        assert r.status_code == 200, r.text
        assert s.room.tournaments["daily"].director.entrants[str(carol_id)].ticket
        assert await s.room.store.tournaments.tickets(carol_id) == []
        assert await balance(s, carol) == start  # the ticket paid
        assert (await post(s, alice, "/api/tournaments/daily/unregister")).status_code == 200
        assert await balance(s, alice) == start
        assert await prize_pool(s.room.store, "daily") == 1000  # carol's seat
        assert (await verify_ledger(s.room.store.db)).ok


@pytest.mark.asyncio
async def test_registrations_of_a_tournament_no_longer_offered_are_refunded(tmp_path: Path) -> None:
    """§9.2: buy-in and fee back (R217's full refund) when the restarted room does not offer the
    tournament any more; the prize pools are empty and the tournaments over; a kept ticket stays."""
    async with serve_room(tmp_path, settings(daily(), trio())) as s:
        alice, bob = [await register(s, n) for n in ("alice", "bobby")]
        start = await balance(s, alice)
        (sng,) = copy_of(s.room, "trio")
        assert (await post(s, alice, "/api/tournaments/daily/register")).status_code == 200
        assert (await post(s, bob, f"/api/tournaments/{sng}/register")).status_code == 200
        bob_id = (await s.room.store.accounts.find("bobby")).id
        await give_ticket(s.room, bob_id, "daily")
    async with serve_room(tmp_path, settings()) as s:
        assert s.room.tournaments == {}
        assert await balance(s, alice) == start and await balance(s, bob) == start
        assert await s.room.store.tournaments.statuses(["daily", sng]) == {
            "daily": "cancelled",
            sng: "cancelled",
        }
        assert [t.target for t in await s.room.store.tournaments.tickets(bob_id)] == ["daily"]
        await over_pools_are_empty(s.room, ["daily", sng])
    async with serve_room(tmp_path, settings(daily())) as s:
        assert "daily" not in s.room.tournaments  # over: not opened again under the same id


@pytest.mark.asyncio
async def test_a_running_tournament_is_cancelled_and_its_pool_paid_by_chips(tmp_path: Path) -> None:
    """A heads-up sit-and-go stops after its first hand (the small blind folded: 1,490 against 1,510
    chips). After the restart it is cancelled: the pool of 2,000 goes by chips (993 and 1,007: the odd
    unit to the bigger stack) and each gets his fee back; the pool is empty; the hand played is in both
    players' hand histories (PHH and text) after the restart."""
    async with serve_room(tmp_path, settings(duel())) as s:
        tokens = {n: await register(s, n) for n in ("alice", "bobby")}
        start = await balance(s, tokens["alice"])
        (tid,) = copy_of(s.room, "duel")
        for token in tokens.values():
            assert (await post(s, token, f"/api/tournaments/{tid}/register")).status_code == 200
        actor = s.room.tournaments[tid]
        table = actor.director.tables[1]
        await until(
            lambda: table.in_hand and table.clocks, timeout=30, what="the first hand deals, a clock runs"
        )
        assert table.hand is not None
        hand_id = table.hand.hand_id
        seat = next(iter(table.clocks))
        folder = table.seats[seat].name
        w = await Wire.open(s, tokens[folder])
        try:
            await w.send({"type": "subscribe", "table": f"{tid}-t1", "ref": "s"})
            snap = await w.until(lambda m: m["type"] == "snapshot")
            assert snap["state"]["hand"]["decision"]["seat"] == seat
            action_no = snap["state"]["hand"]["action_no"]
            await w.send(
                {
                    "type": "act",
                    "table": f"{tid}-t1",
                    "hand_id": hand_id,
                    "action_no": action_no,
                    "action": {"type": "fold"},
                    "ref": "f",
                }
            )
            assert (await w.reply("f"))["type"] == "ack"
        finally:
            await w.close()
        stacks = {e.name: e.stack for e in actor.director.entrants.values()}
        assert stacks[folder] == 1490 and sum(stacks.values()) == 3000
    async with serve_room(tmp_path, settings(duel())) as s:
        assert tid not in s.room.tournaments
        assert await s.room.store.tournaments.statuses([tid]) == {tid: "cancelled"}
        other = "bobby" if folder == "alice" else "alice"
        assert await balance(s, tokens[folder]) == start - 1100 + 993 + 100
        assert await balance(s, tokens[other]) == start - 1100 + 1007 + 100
        await over_pools_are_empty(s.room, [tid])
        number = await s.room.store.numbers.tournament(tid)  # issue 21: trackers read digits
        for token in tokens.values():
            async with httpx.AsyncClient(
                base_url=s.url, headers={"Authorization": f"Bearer {token}"}
            ) as http:
                hands = (await http.get("/api/hands")).json()["hands"]
                assert [h["hand_id"] for h in hands] == [hand_id]
                phh = (await http.get(f"/api/hands/{hand_id}.phh")).text
                text = (await http.get(f"/api/hands/{hand_id}.txt")).text
            assert f"Tournament #{number}, " in text and "folds" in text
            assert "_tournament_id" in phh or tid in phh
        # The lobby still lists it among the finished ones, and its page opens (from the store).
        async with httpx.AsyncClient(base_url=s.url) as http:
            finished = (await http.get("/api/tournaments", params={"status": "finished"})).json()["finished"]
            row = next(r for r in finished if r["tournament"] == tid)
            assert (row["status"], row["entrants"], row["name"]) == ("cancelled", 2, "Duel")
            page = (await http.get(f"/api/tournaments/{tid}")).json()
        assert page["archived"] is True and page["summary"] == row
        assert sorted(e["name"] for e in page["entrants"]) == ["alice", "bobby"]
        assert page["tables"] == [] and page["level"] is None


@pytest.mark.asyncio
async def test_bots_registered_before_a_restart_play_on(tmp_path: Path) -> None:
    """``pokerroom serve`` registers its demo bots again on every start: bots whose registration came back
    are taken as registered, and the restored sit-and-go fills and starts (R218)."""
    async with serve_room(tmp_path, settings(trio())) as s:
        (sng,) = copy_of(s.room, "trio")
        bots = await start_tournament_bots(s.url, sng, 2, ["caller"], think=(0, 0), prefix="tb")
        await stop_bots(bots)
    async with serve_room(tmp_path, settings(trio())) as s:
        assert len(s.room.tournaments[sng].director.entrants) == 2
        bots = await start_tournament_bots(s.url, sng, 3, ["caller"], think=(0, 0), prefix="tb")
        try:
            assert s.room.tournaments[sng].director.status in ("running", "finished")
            assert len(copy_of(s.room, "trio")) == 2  # the next copy of the series opened
        finally:
            await stop_bots(bots)


@pytest.mark.asyncio
async def test_tournaments_that_ended_before_a_restart_stay_in_the_lobby(tmp_path: Path) -> None:
    """A finished tournament's row, places and payout table are in the store; after a restart the lobby's
    finished list shows it and its page gives the payouts and the players by finishing place."""
    async with serve_room(tmp_path, settings(trio())) as s:
        (sng,) = copy_of(s.room, "trio")
        tokens = {n: await register(s, n) for n in ("alice", "bobby")}
        for token in tokens.values():
            assert (await post(s, token, f"/api/tournaments/{sng}/register")).status_code == 200
        ids = {e.name: int(e.player) for e in s.room.tournaments[sng].director.entrants.values()}
        # Its end as the tournament actor stores it (places, payout table, status; the money aside).
        await s.room.store.tournaments.apply(
            sng,
            TournamentChanges(
                chips={ids["alice"]: (0, 2), ids["bobby"]: (0, 1)}, prizes=[1000], status="finished"
            ),
        )
    async with serve_room(tmp_path, settings(trio())) as s:
        assert sng not in s.room.tournaments and sng in s.room.archive
        async with httpx.AsyncClient(base_url=s.url) as http:
            lobby = (await http.get("/api/tournaments")).json()
            assert sng in [r["tournament"] for r in lobby["finished"]]
            assert sng not in [r["tournament"] for r in lobby["upcoming"] + lobby["running"]]
            page = (await http.get(f"/api/tournaments/{sng}")).json()
            missing = await http.get("/api/tournaments/no-such-one")
        assert page["summary"]["status"] == "finished" and page["summary"]["prize_pool"] == 1000
        assert page["payouts"] == [{"place": 1, "amount": 1000}]
        assert [(e["name"], e["place"]) for e in page["standings"]] == [("bobby", 1), ("alice", 2)]
        assert missing.status_code == 404
