"""Tournaments across a restart of the room (issue 9's money safety, docs/decisions.md "Tournaments"): a
room on a fresh SQLite file is started, stopped and started again on the same file. Registrations of
tournaments that have not started come back (or are refunded when the tournament is not offered any
more), a running tournament is cancelled with its prize pool paid out by chips, satellite tickets stay in
the account, and afterwards no prize pool of a tournament that is over holds money.

On the server's harness (tests/server/harness.py): :meth:`Harness.restart` stops the room as a server
process stops and starts a new one on the same store file; what the HTTP API would answer is asked of the
room's front and store, as its handlers ask them (registration, the lobby and a tournament's page, the
tickets of an account, a player's stored hands)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.errors import Refused
from pokerroom.server.ids import player_key
from pokerroom.server.room import Room, RoomSettings
from pokerroom.store import PLAY, AccountKind, NewTicket, Player, TournamentChanges, verify_ledger

from .harness import EPOCH, Client, Harness
from .wire import prize_pool

SLOW = Timing(action=60.0, time_bank=0.0, between_hands=0.02, disconnect_grace=60)


def daily() -> TournamentConfig:
    return TournamentConfig("daily", "Daily", buy_in=1000, fee=100, start_time=EPOCH + timedelta(hours=1))


def trio() -> TournamentConfig:
    return TournamentConfig("trio", "Trio", kind="sng", max_players=3, buy_in=500, fee=50)


def duel() -> TournamentConfig:
    return TournamentConfig("duel", "Duel", kind="sng", max_players=2, buy_in=1000, fee=100, timing=SLOW)


def settings(*tournaments: TournamentConfig) -> RoomSettings:
    return RoomSettings(tournaments=tuple(tournaments))


async def request(h: Harness, player: Player, tid: str, what: str, flag: bool = False) -> dict[str, Any]:
    """A registration request as ``POST /api/tournaments/{tid}/{what}`` makes it (a refusal raises what
    the HTTP API answers 404 or 409)."""
    return await h.front.tournament_request(tid, what, player_key(player.id), player.name, flag)


async def tickets(h: Harness, player: Player) -> list[dict[str, Any]]:
    """``GET /api/account/tickets``."""
    rows = await h.store.tournaments.tickets(player.id)
    return [{"target": t.target, "value": t.value, "satellite": t.satellite} for t in rows]


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
    h = await Harness.open(tmp_path, settings(daily(), trio()))
    try:
        alice, bob, carol = [await h.player(n) for n in ("alice", "bobby", "carol")]
        start = await h.balance(alice)
        (sng,) = copy_of(h.room, "trio")
        await request(h, alice, "daily", "register")
        await request(h, bob, sng, "register")
        await give_ticket(h.room, carol.id, "daily")
        await h.restart(settings(daily(), trio()))
        assert [e.name for e in h.room.tournaments["daily"].director.entrants.values()] == ["alice"]
        assert copy_of(h.room, "trio") == [sng]
        assert [e.name for e in h.room.tournaments[sng].director.entrants.values()] == ["bobby"]
        assert await h.balance(alice) == start - 1100 and await h.balance(bob) == start - 550
        assert await prize_pool(h.store, "daily") == 1000 and await prize_pool(h.store, sng) == 500
        assert await tickets(h, carol) == [{"target": "daily", "value": 1100, "satellite": "sat-1"}]
        await request(h, carol, "daily", "register", True)  # with his ticket
        assert h.room.tournaments["daily"].director.entrants[str(carol.id)].ticket
        assert await h.store.tournaments.tickets(carol.id) == []
        assert await h.balance(carol) == start  # the ticket paid
        await request(h, alice, "daily", "unregister")
        assert await h.balance(alice) == start
        assert await prize_pool(h.store, "daily") == 1000  # carol's seat
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_registrations_of_a_tournament_no_longer_offered_are_refunded(tmp_path: Path) -> None:
    """§9.2: buy-in and fee back (R217's full refund) when the restarted room does not offer the
    tournament any more; the prize pools are empty and the tournaments over; a ticket for the cancelled
    tournament is paid to its holder's wallet (issue 35: its target can never take it now)."""
    h = await Harness.open(tmp_path, settings(daily(), trio()))
    try:
        alice, bob = [await h.player(n) for n in ("alice", "bobby")]
        start = await h.balance(alice)
        (sng,) = copy_of(h.room, "trio")
        await request(h, alice, "daily", "register")
        await request(h, bob, sng, "register")
        await give_ticket(h.room, bob.id, "daily")
        await h.restart(settings())
        assert h.room.tournaments == {}
        assert await h.balance(alice) == start and await h.balance(bob) == start + 1100
        assert await h.store.tournaments.statuses(["daily", sng]) == {"daily": "cancelled", sng: "cancelled"}
        assert await h.store.tournaments.tickets(bob.id) == []
        await over_pools_are_empty(h.room, ["daily", sng])
        await h.restart(settings(daily()))
        assert "daily" not in h.room.tournaments  # over: not opened again under the same id
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_running_tournament_is_cancelled_and_its_pool_paid_by_chips(tmp_path: Path) -> None:
    """A heads-up sit-and-go stops after its first hand (the small blind folded: 1,490 against 1,510
    chips). After the restart it is cancelled: the pool of 2,000 goes by chips (993 and 1,007: the odd
    unit to the bigger stack) and each gets his fee back; the pool is empty; the hand played is in both
    players' hand histories (PHH and text) after the restart."""
    h = await Harness.open(tmp_path, settings(duel()))
    try:
        players = {n: await h.player(n) for n in ("alice", "bobby")}
        start = await h.balance(players["alice"])
        (tid,) = copy_of(h.room, "duel")
        for player in players.values():
            await request(h, player, tid, "register")
        actor = h.room.tournaments[tid]
        table = actor.director.tables[1]
        await h.run(lambda: bool(table.in_hand and table.clocks), seconds=60)  # the first hand, a clock runs
        assert table.hand is not None
        hand_id = table.hand.hand_id
        seat = next(iter(table.clocks))
        folder = table.seats[seat].name
        w = h.connect(folder, players[folder])
        snap = await h.subscribe(w, f"{tid}-t1")
        assert snap["state"]["hand"]["decision"]["seat"] == seat
        action_no = snap["state"]["hand"]["action_no"]
        fold = {"type": "act", "table": f"{tid}-t1", "hand_id": hand_id, "action_no": action_no}
        assert (await h.ask(w, {**fold, "action": {"type": "fold"}, "ref": "f"}))["type"] == "ack"
        stacks = {e.name: e.stack for e in actor.director.entrants.values()}
        assert stacks[folder] == 1490 and sum(stacks.values()) == 3000
        await h.restart()
        assert tid not in h.room.tournaments
        assert await h.store.tournaments.statuses([tid]) == {tid: "cancelled"}
        other = "bobby" if folder == "alice" else "alice"
        assert await h.balance(players[folder]) == start - 1100 + 993 + 100
        assert await h.balance(players[other]) == start - 1100 + 1007 + 100
        await over_pools_are_empty(h.room, [tid])
        number = await h.store.numbers.tournament(tid)  # issue 21: trackers read digits
        for player in players.values():  # GET /api/hands, /api/hands/{id}.phh and .txt
            hands = await h.store.histories.player_hands(player.id, limit=50)
            assert [x.hand_id for x in hands] == [hand_id]
            own = await h.store.histories.player_hand(player.id, hand_id)
            phh, text = own.phh, own.pokerstars
            assert f"Tournament #{number}, " in text and "folds" in text
            assert "_tournament_id" in phh or tid in phh
        # The lobby still lists it among the finished ones, and its page opens (from the store).
        finished = h.front.tournament_lobby("finished")["finished"]
        row = next(r for r in finished if r["tournament"] == tid)
        assert (row["status"], row["entrants"], row["name"]) == ("cancelled", 2, "Duel")
        page = await h.front.tournament_details(tid)
        assert page["archived"] is True and page["summary"] == row
        assert sorted(e["name"] for e in page["entrants"]) == ["alice", "bobby"]
        assert page["tables"] == [] and page["level"] is None
    finally:
        await h.close()


async def answer(h: Harness, bot: Client) -> dict[str, Any]:
    """The answer to a tournament bot's registration."""
    await h.run(lambda: bot.reply("reg") is not None, seconds=60)
    got = bot.reply("reg")
    assert got is not None
    return got


@pytest.mark.asyncio
async def test_bots_registered_before_a_restart_play_on(tmp_path: Path) -> None:
    """``pokerroom serve`` registers its demo bots again on every start: bots whose registration came back
    are told ``already_registered`` (which a bot takes as registered), and the restored sit-and-go fills
    and starts (R218)."""
    h = await Harness.open(tmp_path, settings(trio()))
    try:
        (sng,) = copy_of(h.room, "trio")
        for i in range(2):
            bot = await h.tournament_bot(f"tb{i + 1}", sng, "caller", seed=i)
            assert (await answer(h, bot))["type"] == "ack"
            await h.stop_bot(bot)
        await h.restart()
        assert len(h.room.tournaments[sng].director.entrants) == 2
        for i in range(3):
            known = await h.store.accounts.find(f"tb{i + 1}") if i < 2 else None
            bot = await h.tournament_bot(f"tb{i + 1}", sng, "caller", seed=i, player=known)
            got = await answer(h, bot)
            assert got.get("code" if known else "type") == ("already_registered" if known else "ack")
        assert h.room.tournaments[sng].director.status in ("running", "finished")
        assert len(copy_of(h.room, "trio")) == 2  # the next copy of the series opened
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_tournaments_that_ended_before_a_restart_stay_in_the_lobby(tmp_path: Path) -> None:
    """A finished tournament's row, places and payout table are in the store; after a restart the lobby's
    finished list shows it and its page gives the payouts and the players by finishing place."""
    h = await Harness.open(tmp_path, settings(trio()))
    try:
        (sng,) = copy_of(h.room, "trio")
        for name in ("alice", "bobby"):
            await request(h, await h.player(name), sng, "register")
        ids = {e.name: int(e.player) for e in h.room.tournaments[sng].director.entrants.values()}
        # Its end as the tournament actor stores it (places, payout table, status; the money aside).
        await h.store.tournaments.apply(
            sng,
            TournamentChanges(
                chips={ids["alice"]: (0, 2), ids["bobby"]: (0, 1)}, prizes=[1000], status="finished"
            ),
        )
        await h.restart()
        assert sng not in h.room.tournaments and sng in h.room.archive
        lobby = h.front.tournament_lobby()  # GET /api/tournaments
        assert sng in [r["tournament"] for r in lobby["finished"]]
        assert sng not in [r["tournament"] for r in lobby["upcoming"] + lobby["running"]]
        page = await h.front.tournament_details(sng)  # GET /api/tournaments/{id}
        assert page["summary"]["status"] == "finished" and page["summary"]["prize_pool"] == 1000
        assert page["payouts"] == [{"place": 1, "amount": 1000}]
        assert [(e["name"], e["place"]) for e in page["standings"]] == [("bobby", 1), ("alice", 2)]
        with pytest.raises(Refused) as missing:  # the HTTP API's 404
            await h.front.tournament_details("no-such-one")
        assert missing.value.code == "unknown_tournament"
    finally:
        await h.close()
