"""Players' copies written when first asked for (store/later_views.py, docs/server-speed.md), on SQLite and
PostgreSQL: a hand stored with its audit PHH and the players' seats keeps no copies; the first read writes
each player's PHH and PokerStars text from the audit PHH with the numbers the hand got when it was stored,
equal to the copies written from the hand itself, and keeps them; exports and tournament hands too."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from sqlalchemy import select

from pokerroom.engine import (
    BetDecision,
    Betting,
    Fold,
    HandState,
    ListDeck,
    SeatSetup,
    Stakes,
    Structure,
    TimeOut,
)
from pokerroom.history import HandContext, TournamentInfo, write_phh, write_pokerstars
from pokerroom.store import HandHistory, TournamentChanges, TournamentHand
from pokerroom.store.models import PlayerHandRow
from pokerroom.variants import VARIANTS

from .conftest import Room
from .storehelpers import FakeClock
from .test_store_journal import DECK, SALT, start

pytestmark = pytest.mark.asyncio


def _hand(seats: list[int], seed: int) -> HandState:
    """A short hold'em hand at these seats: each decision times out or folds at random."""
    v = VARIANTS["holdem"]
    rng = random.Random(seed)
    hand = HandState.start(
        variant=v,
        structure=Structure(Betting.NO_LIMIT, Stakes.blinds(100, 200)),
        seats=[SeatSetup(s, 1000 + 10 * s, True) for s in seats],
        deck=ListDeck.shuffled(v.deck_for(len(seats)), rng),
        button=seats[0],
    )
    while not hand.is_over:
        p = hand.pending
        seat = p.seat  # type: ignore[union-attr]
        fold = isinstance(p, BetDecision) and p.fold and rng.random() < 0.3
        hand.apply(Fold(seat) if fold else TimeOut(seat))
    return hand


async def test_a_cash_hands_copies_are_written_at_the_first_read_and_kept(room: Room) -> None:
    s = room.store
    records = await start(room, "h1")
    seat_of = {r.player_id: r.seat for r in records}
    hand = _hand(sorted(seat_of.values()), 1)
    ctx = HandContext(hand_id="h1", table="t1", players={seat: f"p{seat}" for seat in seat_of.values()})
    history = HandHistory(full_phh=write_phh(hand, context=ctx), views={}, seats=seat_of)
    await s.journal.end_hand("h1", deck_text=DECK, salt=SALT, deltas={}, rake=0, points={}, history=history)
    async with s.db.read() as conn:
        stored = (await conn.execute(select(PlayerHandRow.phh, PlayerHandRow.seat))).all()
    assert sorted(stored) == sorted((None, seat) for seat in seat_of.values())  # nothing written yet
    number = await s.numbers.hand("h1")  # (given when the hand was stored)
    numbered = replace(ctx, hand_number=number)
    for player, seat in seat_of.items():
        mine = await s.histories.player_hand(player, "h1")
        assert mine.phh == write_phh(hand, viewer=seat, context=numbered)
        assert mine.pokerstars == write_pokerstars(hand, numbered, viewer=seat)
        assert f"PokerStars Hand #{number}:" in mine.pokerstars
    async with s.db.read() as conn:
        kept = (
            await conn.execute(select(PlayerHandRow.phh).where(PlayerHandRow.player_id == room.alice))
        ).one()
    assert kept.phh == write_phh(hand, viewer=seat_of[room.alice], context=numbered)
    listed = await s.histories.player_hands(room.bob)
    assert [h.phh for h in listed] == [write_phh(hand, viewer=seat_of[room.bob], context=numbered)]
    assert write_pokerstars(hand, numbered, viewer=seat_of[room.bob]).strip() in (
        await s.histories.export_pokerstars(room.bob)
    )


async def test_a_tournament_hands_copies_carry_the_tournament_number(room: Room, clock: FakeClock) -> None:
    s = room.store
    seat_of = {room.alice: 2, room.bob: 5}
    info = TournamentInfo(tournament_id="t9", name="Daily", buy_in=1000, fee=100, level=1)
    ctx = HandContext(hand_id="t9-1", table="Daily 1", players={2: "alice", 5: "bob"}, tournament=info)
    hand = _hand([2, 5], 2)
    history = HandHistory(full_phh=write_phh(hand, context=ctx), views={}, seats=seat_of)
    await s.tournaments.apply(
        "t9", TournamentChanges(hands=[TournamentHand("t9-1", "t9-t1", "NT/NL", clock(), history)])
    )
    numbered = replace(
        ctx,
        hand_number=await s.numbers.hand("t9-1"),
        tournament=replace(info, number=await s.numbers.tournament("t9")),
    )
    text = await s.histories.export_phhs(room.alice)
    assert write_phh(hand, viewer=2, context=numbered).strip() in text
    mine = await s.histories.player_hand(room.bob, "t9-1")
    assert mine.pokerstars == write_pokerstars(hand, numbered, viewer=5)
