"""Global hand and tournament numbers (issue 21), on SQLite and PostgreSQL: assigned by the database, the
same number when asked again, unique when several processes (engines) share one database, and written
into the players' PokerStars-format views in the transaction that stores them."""

from __future__ import annotations

import asyncio

import pytest

from pokerroom.store import (
    Database,
    HandHistory,
    HandNumbers,
    PlayerView,
    Store,
    TournamentChanges,
    TournamentHand,
    UnknownHand,
)

from .conftest import Room
from .storehelpers import CHEAP_HASHER, FakeClock
from .test_store_journal import DECK, SALT, start

pytestmark = pytest.mark.asyncio


async def test_numbers_are_assigned_once_per_hand_and_per_tournament(store: Store) -> None:
    first = await store.numbers.hand("holdem-nl-7")
    second = await store.numbers.hand("holdem-nl-8")
    assert first != second and {type(first), type(second)} == {int}
    assert await store.numbers.hand("holdem-nl-7") == first  # asked again: the same number
    t = await store.numbers.tournament("turbo6-a1b2")
    assert await store.numbers.tournament("turbo6-a1b2") == t
    assert await store.numbers.hand_id_of(second) == "holdem-nl-8"
    with pytest.raises(UnknownHand):
        await store.numbers.hand_id_of(10**9)


async def test_several_processes_sharing_the_database_never_share_a_number(
    db_target: tuple[str, str | None], clock: FakeClock
) -> None:
    """Two stores, each with its own engine and connections (as two server processes have), number 60
    hands at the same time: 60 different numbers."""
    url, schema = db_target
    stores = [Store(Database(url, schema=schema), clock=clock, hasher=CHEAP_HASHER) for _ in range(2)]
    try:
        got = await asyncio.gather(*(stores[i % 2].numbers.hand(f"t{i % 3}-{i}") for i in range(60)))
        again = await asyncio.gather(*(stores[(i + 1) % 2].numbers.hand(f"t{i % 3}-{i}") for i in range(60)))
    finally:
        for s in stores:
            await s.close()
    assert len(set(got)) == 60
    assert again == got


def _numbered(room: Room, seen: list[HandNumbers]) -> HandHistory:
    def views(numbers: HandNumbers) -> dict[int, PlayerView]:
        seen.append(numbers)
        t = f" Tournament #{numbers.tournament}," if numbers.tournament is not None else ""
        return {
            room.alice: PlayerView("hand = 1\n", f"PokerStars Hand #{numbers.hand}:{t} alice"),
            room.bob: PlayerView("hand = 1\n", f"PokerStars Hand #{numbers.hand}:{t} bob"),
        }

    return HandHistory(full_phh="hand = 1\n", views={}, numbered=views)


async def test_a_cash_hands_views_are_numbered_when_they_are_stored(room: Room) -> None:
    s = room.store
    await start(room, "h1")
    seen: list[HandNumbers] = []
    await s.journal.end_hand(
        "h1", deck_text=DECK, salt=SALT, deltas={}, rake=0, points={}, history=_numbered(room, seen)
    )
    number = await s.numbers.hand("h1")
    assert seen == [HandNumbers(number)]
    mine = await s.histories.player_hand(room.alice, "h1")
    assert mine.pokerstars == f"PokerStars Hand #{number}: alice"
    assert (await s.histories.player_hand(room.bob, "h1")).pokerstars.endswith(" bob")


async def test_a_tournament_hand_gets_the_tournament_number_too(room: Room, clock: FakeClock) -> None:
    s = room.store
    seen: list[HandNumbers] = []
    for n in (1, 2):
        hand = TournamentHand(f"t9-{n}", "t9-t1", "NT/NL", clock(), _numbered(room, seen))
        await s.tournaments.apply("t9", TournamentChanges(hands=[hand]))
    t = await s.numbers.tournament("t9")
    assert [x.tournament for x in seen] == [t, t] and seen[0].hand != seen[1].hand
    mine = await s.histories.player_hand(room.bob, "t9-2")
    assert mine.pokerstars == f"PokerStars Hand #{seen[1].hand}: Tournament #{t}, bob"
