"""Issue 35, defect 2: a satellite ticket is never stranded (docs/tournaments.md, "Satellite tickets whose
target is gone"). Once its target can no longer take it (cancelled, over, or its registration closed
without the holder), the ticket's value goes to the holder's wallet, with a memo; a ticket won for such a
target is cashed at once; a satellite series stops opening copies for a target that is over. Before the
fix the tickets of a cancelled target stayed in the ticket accounts for ever.

On the server's harness (tests/server/harness.py): a manual clock, bots as clients."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.commands import CancelTournament
from pokerroom.server.operator import execute
from pokerroom.server.room import RoomSettings
from pokerroom.server.tournament import TournamentActor
from pokerroom.store import PLAY, AccountKind, verify_ledger

from .harness import EPOCH, Harness

CLOCK = Timing(action=1.0, time_bank=0.5, between_hands=0.5, disconnect_grace=2)
LEVEL = 0.03


def configs(sat_players: int = 4) -> tuple[TournamentConfig, TournamentConfig]:
    main = TournamentConfig("main", "Main", buy_in=3000, fee=300, start_time=EPOCH + timedelta(hours=1))
    sat = TournamentConfig(
        "sat", "Satellite", kind="sng", max_players=sat_players, buy_in=2500, seat_value=3300,
        target="main", level_minutes=LEVEL, timing=CLOCK,
    )  # fmt: skip
    return main, sat


def open_copy(h: Harness) -> TournamentActor:
    return next(
        a
        for a in h.room.tournaments.values()
        if a.series == "sat" and a.director.status in ("announced", "registering")
    )


async def cashed(h: Harness) -> list[dict[str, object]]:
    async with h.store.db.read() as conn:
        rows = (
            await conn.execute(text("SELECT memo FROM ledger_transactions WHERE kind = 'ticket_cash'"))
        ).all()
    return [json.loads(m) for (m,) in rows]


async def ticket_balance(h: Harness, player: str) -> int:
    ledger = h.store.ledger
    return (await ledger.get_account(await ledger.account(AccountKind.TICKET, PLAY, ref=player))).balance


@pytest.mark.asyncio
async def test_the_tickets_of_a_cancelled_target_are_paid_to_the_winners_wallets(tmp_path: Path) -> None:
    """The issue's case: the satellite for ``main`` ends after ``main`` was cancelled: three tickets of
    3,300 (9,900 of its 10,000 pool) go to the winners' wallets, and no new copy of the series opens."""
    h = await Harness.open(tmp_path, RoomSettings(tournaments=configs()), seed=5)
    try:
        actor = open_copy(h)
        for i in range(4):
            await h.tournament_bot(f"tbot{i + 1}", actor.tid, "random", seed=i)
        await h.run(lambda: actor.director.status == "running", seconds=30)
        copies = {a.tid for a in h.room.tournaments.values() if a.series == "sat"}
        ledger = h.store.ledger
        before = {p: await ledger.balance(int(p), PLAY) for p in actor.director.entrants}
        await execute(h.room, CancelTournament("main"))
        await h.run(lambda: actor.finished_at is not None, seconds=50_000)
        winners = sorted(actor.tickets_won)
        assert len(winners) == 3 and actor.director.seats_won == 3
        for p in winners:
            assert not await h.store.tournaments.tickets(int(p)) and await ticket_balance(h, p) == 0
        memos = await cashed(h)
        assert sorted(str(m["player"]) for m in memos) == sorted(winners)
        assert all(m["target"] == "main" and m["value"] == 3300 for m in memos)
        for p in winners:  # a ticket's 3,300 to each winner's wallet
            assert await ledger.balance(int(p), PLAY) == before[p] + 3300
        assert (await verify_ledger(h.store.db)).ok
        # the copy registering when the target was cancelled plays (its tickets are cashed as these),
        # but opens no next copy: the series ends with its target
        following = open_copy(h)
        assert {a.tid for a in h.room.tournaments.values() if a.series == "sat"} == copies
        for i in range(4):
            await h.tournament_bot(f"next{i + 1}", following.tid, "random", seed=i)
        await h.run(lambda: following.director.status == "running", seconds=30)
        await h.quiet()
        assert {a.tid for a in h.room.tournaments.values() if a.series == "sat"} == copies
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_ticket_its_holder_did_not_use_is_paid_to_him_when_the_target_starts(tmp_path: Path) -> None:
    """A winner registered with his ticket unregisters (the ticket comes back, unused); when ``main``
    starts without him, the ticket's value goes to his wallet."""
    h = await Harness.open(tmp_path, RoomSettings(tournaments=configs()), seed=6)
    try:
        actor = open_copy(h)
        for i in range(4):
            await h.tournament_bot(f"tbot{i + 1}", actor.tid, "random", seed=i)
        await h.run(lambda: actor.finished_at is not None, seconds=50_000)
        main = h.room.tournaments["main"]
        winners = sorted(actor.tickets_won)
        await h.run(lambda: all(p in main.director.entrants for p in winners), seconds=15)
        quitter = winners[0]
        await main.call(lambda: main.unregister(quitter))
        assert [t.value for t in await h.store.tournaments.tickets(int(quitter))] == [3300]
        before = await h.store.ledger.balance(int(quitter), PLAY)
        await h.run(lambda: main.director.status == "running", seconds=4_000)
        await h.quiet()  # (its first step stored)
        assert not await h.store.tournaments.tickets(int(quitter))
        assert await h.store.ledger.balance(int(quitter), PLAY) == before + 3300
        assert [str(m["player"]) for m in await cashed(h)] == [quitter]
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()
