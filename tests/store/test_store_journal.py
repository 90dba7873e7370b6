"""The hand journal: start records with a deck commitment, commands, end records that settle in the same
transaction, recovery of hands left open, and the hand histories."""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from pokerroom.store import (
    AccountKind,
    BadSequence,
    DeckMismatch,
    HandEnd,
    HandExists,
    HandHistory,
    HandNotOpen,
    InsufficientFunds,
    InvalidRecord,
    PlayerView,
    SeatRecord,
    SessionClosed,
    SessionInHand,
    StackMismatch,
    UnknownHand,
    UnknownSession,
    deck_commitment,
    format_phhs,
    format_pokerstars,
    new_salt,
    verify_deck,
)

from .conftest import Room
from .storehelpers import FakeClock

pytestmark = pytest.mark.asyncio

DECK = "AsKd7c2h9s" + "Tc" * 3
SALT = "00112233445566778899aabbccddeeff"


async def test_deck_commitment_is_sha256_of_salt_colon_deck() -> None:
    c = deck_commitment(DECK, SALT)
    assert c == hashlib.sha256(f"{SALT}:{DECK}".encode()).hexdigest()
    assert verify_deck(c, DECK, SALT)
    assert not verify_deck(c, DECK, SALT[:-1] + "0")
    assert not verify_deck(c, DECK[2:] + DECK[:2], SALT)
    assert len(new_salt()) == 32 and new_salt() != new_salt()
    with pytest.raises(ValueError):
        deck_commitment(DECK, "")


async def seats(room: Room, table: str = "t1", stack: int = 10_000) -> list[SeatRecord]:
    led = room.store.ledger
    a = await led.buy_in(room.alice, table, "USD", stack, idempotency_key=f"{table}-a")
    b = await led.buy_in(room.bob, table, "USD", stack, idempotency_key=f"{table}-b")
    return [SeatRecord(1, room.alice, a.session_id, stack), SeatRecord(4, room.bob, b.session_id, stack)]


async def start(
    room: Room, hand_id: str = "h1", table: str = "t1", s: list[SeatRecord] | None = None
) -> list[SeatRecord]:
    s = s if s is not None else await seats(room, table)
    await room.store.journal.start_hand(
        hand_id,
        table_id=table,
        game="NT",
        currency="USD",
        seats=s,
        deck_commitment=deck_commitment(DECK, SALT),
    )
    return s


async def finish(
    room: Room,
    hand_id: str = "h1",
    deltas: Mapping[int, int] | None = None,
    *,
    rake: int = 0,
    points: Mapping[int, int] | None = None,
    **more: Any,
) -> HandEnd:
    """The end record of ``hand_id`` revealing this file's deck and salt (``more``: ``end_hand``'s other
    arguments: history, commands, times, now)."""
    return await room.store.journal.end_hand(
        hand_id, deck_text=DECK, salt=SALT, deltas=deltas or {}, rake=rake, points=points or {}, **more
    )


def views(room: Room, hand_id: str) -> HandHistory:
    return HandHistory(
        full_phh=f'variant = "NT"\nhand = "{hand_id}"\nhole = ["AsKd", "7c2h"]\n',
        views={
            room.alice: PlayerView(
                f'variant = "NT"\nhand = "{hand_id}"\nhole = ["AsKd", "????"]\n', f"PS {hand_id} alice"
            ),
            room.bob: PlayerView(
                f'variant = "NT"\nhand = "{hand_id}"\nhole = ["????", "7c2h"]\n', f"PS {hand_id} bob"
            ),
        },
    )


async def test_a_whole_hand_start_commands_end(room: Room) -> None:
    s = room.store
    seat_a, seat_b = await start(room)
    for seq, cmd in enumerate([{"fold": 4}, '{"check": 1}'], 1):
        await s.journal.record_command("h1", seq, cmd)
    end = await finish(
        room,
        "h1",
        {seat_a.session_id: 150, seat_b.session_id: -160},
        rake=10,
        points={room.alice: 50, room.bob: 50},
        history=views(room, "h1"),
    )
    assert not end.replayed and end.transaction.key == "hand:h1"
    assert (await s.ledger.session(seat_a.session_id)).balance == 10_150
    assert await s.ledger.system_balance(AccountKind.HOUSE, "USD") == 10
    rec = await s.journal.hand("h1")
    assert rec.status == "ended" and rec.deck == DECK and rec.salt == SALT
    assert rec.result["rake"] == 10
    assert DECK not in repr(rec) and SALT not in repr(rec)
    assert [c.command for c in await s.journal.commands("h1")] == [{"fold": 4}, {"check": 1}]
    again = await finish(
        room,
        "h1",
        {seat_a.session_id: 150, seat_b.session_id: -160},
        rake=10,
        points={room.alice: 50, room.bob: 50},
    )
    assert again.replayed and again.transaction.id == end.transaction.id
    assert (await s.verify()).ok


async def test_a_hands_commands_go_with_its_end_record_in_one_transaction(room: Room) -> None:
    """The server's way (docs/store.md, "Per hand"): no command is written while the hand is played; the
    end record carries them all, after any the journal already had, and a retry adds none twice."""
    s = room.store
    x, y = await start(room, "h0", "t0")  # (a first hand makes the room's rake and points accounts)
    await finish(room, "h0", {x.session_id: 5, y.session_id: -10}, rake=5)
    seat_a, seat_b = await start(room)
    await s.journal.record_command("h1", 1, {"post": 1})  # one already journaled the old way
    commands = [{"post": 1}, '{"fold": 4}', {"check": 1}]
    before = s.db.commits
    deltas = {seat_a.session_id: 150, seat_b.session_id: -160}
    await finish(room, "h1", deltas, rake=10, commands=commands)
    assert s.db.commits == before + 1  # the end record, its settlement and its commands together
    expected = [{"post": 1}, {"fold": 4}, {"check": 1}]
    assert [c.command for c in await s.journal.commands("h1")] == expected
    assert [c.seq for c in await s.journal.commands("h1")] == [1, 2, 3]
    again = await finish(room, "h1", deltas, rake=10, commands=commands)
    assert again.replayed
    assert [c.command for c in await s.journal.commands("h1")] == expected


async def test_a_failed_end_record_writes_none_of_its_commands(room: Room) -> None:
    s = room.store
    seat_a, seat_b = await start(room)
    with pytest.raises(InsufficientFunds):  # (Bob has 10,000: the transaction fails, and all of it)
        await finish(
            room,
            "h1",
            {seat_a.session_id: 10_990, seat_b.session_id: -11_000},
            rake=10,
            commands=[{"fold": 4}],
        )
    assert await s.journal.commands("h1") == []
    with pytest.raises(InvalidRecord):
        await finish(room, commands=[b"x"])
    assert (await s.journal.hand("h1")).status == "open"


async def test_a_voided_hand_keeps_the_commands_it_was_played_with(room: Room) -> None:
    s = room.store
    await start(room)
    cancelled = await s.journal.cancel_hand("h1", reason="voided", commands=[{"post": 1}, {"raise": 400}])
    assert cancelled.reason == "voided" and not cancelled.mismatches
    assert [c.command for c in await s.journal.commands("h1")] == [{"post": 1}, {"raise": 400}]
    assert (await s.journal.hand("h1")).status == "cancelled"


async def test_commands_written_with_the_end_keep_the_times_they_were_played(room: Room) -> None:
    """The timing detector (server/integrity/timing.py) reads decision times from ``recorded_at``: a
    command written with the end record keeps the time it was played, not the end's."""
    s = room.store
    seat_a, seat_b = await start(room)
    t0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    played = [t0, t0 + timedelta(seconds=3), t0 + timedelta(seconds=11)]
    await finish(
        room,
        "h1",
        {seat_a.session_id: 10, seat_b.session_id: -10},
        commands=[{"post": 1}, {"post": 4}, {"fold": 1}],
        times=played,
        now=t0 + timedelta(seconds=12),
    )
    assert [c.recorded_at for c in await s.journal.commands("h1")] == played
    assert (await s.verify()).ok


async def test_the_start_record_is_checked_against_the_seat_sessions(room: Room) -> None:
    s = room.store
    a, b = await seats(room)
    c = deck_commitment(DECK, SALT)
    bad = [
        ([SeatRecord(1, room.alice, a.session_id, 9_999), b], StackMismatch),
        ([SeatRecord(1, room.admin, a.session_id, 10_000), b], UnknownSession),  # not his session
        ([SeatRecord(1, room.alice, 777, 10_000), b], UnknownSession),
        ([a, SeatRecord(1, room.bob, b.session_id, 10_000)], InvalidRecord),  # two players in seat 1
        ([a, SeatRecord(4, room.alice, b.session_id, 10_000)], InvalidRecord),  # one player twice
        ([], InvalidRecord),
    ]
    for seat_list, error in bad:
        with pytest.raises(error):
            await s.journal.start_hand(
                "h1", table_id="t1", game="NT", currency="USD", seats=seat_list, deck_commitment=c
            )
    with pytest.raises(InvalidRecord):
        await s.journal.start_hand(
            "h1", table_id="t1", game="NT", currency="USD", seats=[a, b], deck_commitment="abc"
        )
    with pytest.raises(UnknownSession):  # USD sessions in a EUR hand
        await s.journal.start_hand(
            "h1", table_id="t1", game="NT", currency="EUR", seats=[a, b], deck_commitment=c
        )
    assert await s.journal.open_hands() == []
    await s.ledger.cash_out(b.session_id, idempotency_key="co")
    with pytest.raises(SessionClosed):
        await s.journal.start_hand(
            "h1", table_id="t1", game="NT", currency="USD", seats=[a, b], deck_commitment=c
        )


async def test_a_start_record_is_idempotent_and_a_session_is_in_one_open_hand_only(room: Room) -> None:
    s = room.store
    seat_list = await start(room)
    await start(room, s=seat_list)  # the same start again: fine
    with pytest.raises(HandExists) as err:
        await s.journal.start_hand(
            "h1",
            table_id="t1",
            game="PLO",
            currency="USD",
            seats=seat_list,
            deck_commitment=deck_commitment(DECK, SALT),
        )
    assert err.value.code == "hand_exists"
    with pytest.raises(SessionInHand):
        await start(room, "h2", s=seat_list)
    assert [h.hand_id for h in await s.journal.open_hands()] == ["h1"]


async def test_no_top_up_or_cash_out_while_the_session_is_in_a_hand(room: Room) -> None:
    s = room.store
    a, _ = await start(room)
    with pytest.raises(SessionInHand) as err:
        await s.ledger.top_up(a.session_id, 100, idempotency_key="tu")
    assert err.value.code == "session_in_hand" and err.value.hand_id == "h1"
    with pytest.raises(SessionInHand):
        await s.ledger.cash_out(a.session_id, idempotency_key="co")
    await s.journal.cancel_hand("h1", reason="misdeal")
    await s.ledger.top_up(a.session_id, 100, idempotency_key="tu")


async def test_commands_are_numbered_one_by_one(room: Room) -> None:
    j = room.store.journal
    await start(room)
    await j.record_command("h1", 1, {"a": 1})
    await j.record_command("h1", 1, {"a": 1})  # a retry of the same command: no-op
    with pytest.raises(BadSequence) as err:
        await j.record_command("h1", 3, {"a": 3})
    assert (err.value.code, err.value.expected, err.value.got) == ("bad_sequence", 2, 3)
    with pytest.raises(BadSequence):
        await j.record_command("h1", 1, {"a": "other"})
    await j.record_command("h1", 2, {"a": 2})
    with pytest.raises(UnknownHand):
        await j.record_command("nope", 1, {})
    with pytest.raises(InvalidRecord):
        await j.record_command("h1", 3, "{not json")
    with pytest.raises(InvalidRecord):
        await j.record_command("h1", 0, {})
    assert [c.seq for c in await j.commands("h1")] == [1, 2]


async def test_no_commands_after_the_end(room: Room) -> None:
    s = room.store
    await start(room)
    await finish(room)
    with pytest.raises(HandNotOpen) as err:
        await s.journal.record_command("h1", 1, {"late": True})
    assert err.value.status == "ended"


async def test_the_end_record_must_reveal_the_committed_deck(room: Room) -> None:
    s = room.store
    a, b = await start(room)
    for deck, salt in ((DECK[::-1], SALT), (DECK, new_salt())):
        with pytest.raises(DeckMismatch) as err:
            await s.journal.end_hand(
                "h1", deck_text=deck, salt=salt, deltas={a.session_id: 5, b.session_id: -5}, rake=0, points={}
            )
        assert err.value.code == "deck_mismatch"
    rec = await s.journal.hand("h1")
    assert rec.status == "open" and rec.deck is None
    assert (await s.ledger.session(a.session_id)).balance == 10_000


async def test_end_record_and_settlement_commit_together_or_not_at_all(room: Room) -> None:
    s = room.store
    a, b = await start(room)
    with pytest.raises(InsufficientFunds):
        await finish(room, "h1", {a.session_id: 10_001, b.session_id: -10_001})
    rec = await s.journal.hand("h1")
    assert rec.status == "open" and rec.deck is None and rec.result is None
    assert await s.ledger.transaction("hand:h1") is None
    # A history that names a player not dealt in aborts the whole end record too.
    bad = HandHistory("x = 1\n", {room.admin: PlayerView("x = 1\n", "PS")})
    with pytest.raises(InvalidRecord):
        await finish(room, "h1", {a.session_id: 1, b.session_id: -1}, history=bad)
    assert (await s.journal.hand("h1")).status == "open"
    assert await s.ledger.transaction("hand:h1") is None
    assert (await s.verify()).ok


async def test_the_end_record_only_settles_the_hands_own_seats(room: Room) -> None:
    a, _ = await start(room)
    other = await room.store.ledger.buy_in(room.alice, "t2", "USD", 100, idempotency_key="t2")
    with pytest.raises(InvalidRecord):
        await finish(room, "h1", {a.session_id: 5, other.session_id: -5})
    with pytest.raises(InvalidRecord):
        await finish(room, points={room.admin: 5})


async def test_recover_cancels_open_hands_and_returns_every_stack(room: Room, clock: FakeClock) -> None:
    s = room.store
    a, b = await start(room, "h1", "t1")
    await s.journal.record_command("h1", 1, {"bet": 500})
    c, d = await seats(room, "t2", 20_000)
    await start(room, "h2", "t2", [c, d])
    await finish(room, "h2", {c.session_id: 90, d.session_id: -100}, rake=10)
    await start(
        room,
        "h3",
        "t2",
        [SeatRecord(1, room.alice, c.session_id, 20_090), SeatRecord(2, room.bob, d.session_id, 19_900)],
    )
    clock.advance(timedelta(minutes=5))
    cancelled = await s.journal.recover()
    assert [h.hand_id for h in cancelled] == ["h3", "h1"]  # the newest first
    h1 = cancelled[1]
    assert h1.reason == "recovery" and h1.mismatches == ()
    assert dict(h1.stacks) == {a.session_id: 10_000, b.session_id: 10_000}
    assert dict(cancelled[0].stacks) == {c.session_id: 20_090, d.session_id: 19_900}
    rec = await s.journal.hand("h1")
    assert rec.status == "cancelled" and rec.ended_at == clock.now and rec.result["cancelled"] == "recovery"
    assert await s.journal.recover() == []
    assert await s.journal.open_hands() == []
    with pytest.raises(HandNotOpen):
        await finish(room)
    with pytest.raises(HandNotOpen):
        await s.journal.cancel_hand("h1", reason="again")
    # The chips never moved: the sessions can be cashed out in full.
    await s.ledger.cash_out(a.session_id, idempotency_key="co-a")
    assert await s.ledger.balance(room.alice, "USD") == 100_000 - 20_000  # t1 back in full, t2 still seated
    assert (await s.verify()).ok


async def test_histories_are_paged_newest_first_and_show_only_the_players_view(
    room: Room, clock: FakeClock
) -> None:
    s = room.store
    seat_list = await seats(room)
    ids = [f"hand-{n}" for n in range(5)]
    for hid in ids:
        await start(room, hid, s=seat_list)
        await finish(room, hid, history=views(room, hid))
        clock.advance(timedelta(seconds=30))
    page1 = await s.histories.player_hands(room.alice, limit=2)
    page2 = await s.histories.player_hands(room.alice, limit=2, offset=2)
    page3 = await s.histories.player_hands(room.alice, limit=2, offset=4)
    assert [h.hand_id for h in page1 + page2 + page3] == ids[::-1]
    assert all("7c2h" not in h.phh for h in page1 + page2 + page3)  # bob's hole cards never reach alice
    assert "AsKd" not in (await s.histories.player_hand(room.bob, "hand-0")).phh
    assert "AsKd" in (await s.histories.audit_phh("hand-0")) and "7c2h" in (
        await s.histories.audit_phh("hand-0")
    )
    assert await s.histories.player_hands(room.admin) == []
    with pytest.raises(UnknownHand):
        await s.histories.player_hand(room.admin, "hand-0")


async def test_exports_phhs_and_pokerstars_text(room: Room, clock: FakeClock) -> None:
    s = room.store
    seat_list = await seats(room)
    for hid in ("x1", "x2", "x3"):
        await start(room, hid, s=seat_list)
        await finish(room, hid, history=views(room, hid))
        clock.advance(timedelta(seconds=1))
    phhs = await s.histories.export_phhs(room.alice)
    parsed = tomllib.loads(phhs)
    assert list(parsed) == ["1", "2", "3"]
    assert [parsed[k]["hand"] for k in parsed] == ["x1", "x2", "x3"]  # oldest first
    assert parsed["1"]["hole"] == ["AsKd", "????"]
    ps = await s.histories.export_pokerstars(room.bob)
    assert ps.split("\n\n\n") == ["PS x1 bob", "PS x2 bob", "PS x3 bob\n"]


async def test_histories_can_be_stored_after_the_end_record(room: Room) -> None:
    s = room.store
    await start(room)
    with pytest.raises(InvalidRecord):  # not ended yet
        await s.histories.store("h1", views(room, "h1"))
    await finish(room)
    await s.histories.store("h1", views(room, "h1"))
    with pytest.raises(InvalidRecord):  # only once
        await s.histories.store("h1", views(room, "h1"))
    assert len(await s.histories.player_hands(room.bob)) == 1
    with pytest.raises(UnknownHand):
        await s.histories.store("nope", views(room, "nope"))


async def test_format_helpers() -> None:
    docs = ['a = 1\nb = "x"\n', 'a = 2\nb = "y"']
    assert tomllib.loads(format_phhs(docs)) == {"1": {"a": 1, "b": "x"}, "2": {"a": 2, "b": "y"}}
    assert format_phhs([]) == "" and format_pokerstars([]) == ""
    assert format_pokerstars(["one\n", "two"]) == "one\n\n\ntwo\n"


# -- Rush: a seat leaves an open hand early (quick fold) -------------------------------------------------


async def test_a_released_seat_books_its_result_at_once_and_plays_on(room: Room) -> None:
    s = room.store
    a, b = await start(room, "h1", "t1")
    await s.journal.release_seat("h1", a.session_id, -150)
    await s.journal.release_seat("h1", a.session_id, -150)  # a retry changes nothing
    assert (await s.ledger.session(a.session_id)).balance == 9_850
    assert await s.ledger.system_balance(AccountKind.ESCROW, "USD", ref="h1") == 150
    # The session is free: another hand with the rest of its chips, and a cash-out are allowed.
    c = await s.ledger.buy_in(room.bob, "t2", "USD", 5_000, idempotency_key="t2-b")
    await start(
        room,
        "h2",
        "t2",
        [SeatRecord(1, room.alice, a.session_id, 9_850), SeatRecord(2, room.bob, c.session_id, 5_000)],
    )
    with pytest.raises(InvalidRecord):
        await s.journal.release_seat("h1", a.session_id, -100)  # a different result
    with pytest.raises(InvalidRecord):
        await s.journal.release_seat("h1", b.session_id, 5)  # a result is <= 0
    with pytest.raises(InvalidRecord):  # the released seat is no longer in the hand
        await finish(room, "h1", {a.session_id: 0, b.session_id: 0})
    # The end record pays the escrow out: Bob wins Alice's 150 minus 10 rake.
    await finish(room, "h1", {b.session_id: 140}, rake=10)
    assert await s.ledger.system_balance(AccountKind.ESCROW, "USD", ref="h1") == 0
    assert (await s.ledger.session(b.session_id)).balance == 10_140
    assert (await s.verify()).ok


async def test_cancelling_a_hand_gives_released_chips_back(room: Room) -> None:
    s = room.store
    a, b = await start(room, "h1", "t1")
    await s.journal.release_seat("h1", a.session_id, -200)
    await s.journal.release_seat("h1", b.session_id, -100)
    await s.ledger.cash_out(b.session_id, idempotency_key="co-b")  # Bob left the pool meanwhile
    before = await s.ledger.balance(room.bob, "USD")
    await s.journal.recover()
    assert (await s.ledger.session(a.session_id)).balance == 10_000
    assert await s.ledger.balance(room.bob, "USD") == before + 100  # back to his wallet
    assert await s.ledger.system_balance(AccountKind.ESCROW, "USD", ref="h1") == 0
    assert (await s.verify()).ok


async def test_recovery_of_a_quick_folded_entry_records_no_false_mismatch(
    room: Room, clock: FakeClock
) -> None:
    """Issue 15: an entry quick-folds out of hand A (its result released into A's escrow) and is dealt into
    hand B with the rest; both are interrupted by a crash. The recovery cancels B first (its start stack is
    the session's balance) and then A (its release comes back): no hand records a mismatch, and the
    session holds what it held before A."""
    s = room.store
    a, _ = await start(room, "h1", "t1")
    await s.journal.release_seat("h1", a.session_id, -150)
    clock.advance(timedelta(seconds=1))
    c = await s.ledger.buy_in(room.bob, "t2", "USD", 5_000, idempotency_key="t2-b")
    await start(
        room,
        "h2",
        "t2",
        [SeatRecord(1, room.alice, a.session_id, 9_850), SeatRecord(2, room.bob, c.session_id, 5_000)],
    )
    cancelled = await s.journal.recover()
    assert [h.hand_id for h in cancelled] == ["h2", "h1"]  # the newest first
    assert all(h.mismatches == () for h in cancelled), [h.mismatches for h in cancelled]
    assert (await s.ledger.session(a.session_id)).balance == 10_000
    assert await s.ledger.system_balance(AccountKind.ESCROW, "USD", ref="h1") == 0
    assert (await s.verify()).ok
