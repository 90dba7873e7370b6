"""Chat kept civil in the store (issue 30): the chat log and its search, the word filter, mutes (a
player's for himself, the staff's for everyone for a time) and players' reports."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pokerroom.store import InvalidRecord, Store

from .storehelpers import PASSWORD, FakeClock


async def _players(store: Store, *names: str) -> list[int]:
    return [(await store.accounts.register(n, PASSWORD)).id for n in names]


@pytest.mark.asyncio
async def test_the_chat_log_is_searched_by_table_player_and_text(store: Store, clock: FakeClock) -> None:
    ann, bob = await _players(store, "ann", "bob")
    a = await store.chat.record("t1", ann, "ann", "hello table", "hello table")
    clock.advance(timedelta(seconds=5))
    b = await store.chat.record("t1", bob, "bob", "100% sure, darn_it", "100% sure, ****_it")
    c = await store.chat.record("t2", ann, "ann", "gg", "gg")
    assert [x.id for x in await store.chat.search()] == [c.id, b.id, a.id]
    assert [x.id for x in await store.chat.search(table="t1")] == [b.id, a.id]
    assert [x.id for x in await store.chat.search(player="ANN")] == [c.id, a.id]
    assert [x.id for x in await store.chat.search(text="HELLO")] == [a.id]
    assert [x.id for x in await store.chat.search(text="0% s")] == [b.id]  # % and _ are literal
    assert [x.id for x in await store.chat.search(text="n_i")] == [b.id]
    assert [x.id for x in await store.chat.search(text="%")] == [b.id]
    assert [x.id for x in await store.chat.search(limit=1, offset=1)] == [b.id]
    got = await store.chat.line(b.id)
    assert got is not None and (got.text, got.shown, got.at) == (
        "100% sure, darn_it",
        "100% sure, ****_it",
        clock.now,
    )
    assert await store.chat.line(999) is None


@pytest.mark.asyncio
async def test_the_word_filter_is_replaced_as_a_whole_and_checked(store: Store) -> None:
    assert await store.chat.words() == []
    before, after = await store.chat.set_words([" Darn ", "heck", "darn", ""])
    assert (before, after) == ([], ["darn", "heck"])
    before, after = await store.chat.set_words(["heck", "blast"])
    assert (before, after) == (["darn", "heck"], ["blast", "heck"])
    for bad in (["two words"], ["x" * 65], [f"w{i}" for i in range(501)]):
        with pytest.raises(InvalidRecord):
            await store.chat.set_words(bad)
    assert await store.chat.words() == ["blast", "heck"]  # a refused list changed nothing


@pytest.mark.asyncio
async def test_a_players_mute_is_his_own_and_the_staffs_ends_in_time(store: Store, clock: FakeClock) -> None:
    ann, bob, cat = await _players(store, "ann", "bob", "cat")
    await store.chat.mute(ann, bob, by_name="ann")
    await store.chat.mute(ann, bob, by_name="ann")  # again: still one mute
    await store.chat.mute(cat, bob, by_name="cat")
    assert await store.chat.muted_by(bob) == {ann, cat}
    assert [m.muted_name for m in await store.chat.mutes_of(ann)] == ["bob"]
    assert await store.chat.room_mute(bob) is None  # the players' mutes are not the staff's
    with pytest.raises(InvalidRecord):
        await store.chat.mute(ann, ann, by_name="ann")
    lifted = await store.chat.unmute(ann, bob)
    assert lifted is not None and await store.chat.muted_by(bob) == {cat}
    assert await store.chat.unmute(ann, bob) is None
    with pytest.raises(InvalidRecord):
        await store.chat.mute(None, bob, until=clock.now, reason="past", by_name="boss")
    mute = await store.chat.mute(
        None, bob, until=clock.now + timedelta(minutes=30), reason="abuse", by_name="boss"
    )
    got = await store.chat.room_mute(bob)
    assert got == mute and got.reason == "abuse" and got.by_name == "boss"
    assert [m.muted_name for m in await store.chat.room_mutes()] == ["bob"]
    assert await store.chat.muted_by(bob) == {cat}  # the staff's mute is nobody's own
    clock.advance(timedelta(minutes=30))
    assert await store.chat.room_mute(bob) is None and await store.chat.room_mutes() == []


@pytest.mark.asyncio
async def test_reports_of_a_line_or_a_hand_are_listed_and_closed(store: Store) -> None:
    ann, bob = await _players(store, "ann", "bob")
    line = await store.chat.record("t1", bob, "bob", "rude", "rude")
    first = await store.chat.report(ann, "chat", "he is rude", table_id="t1", line_id=line.id)
    second = await store.chat.report(ann, "hand", "chip dumping?", table_id="t1", hand_id="t1-7")
    with pytest.raises(InvalidRecord):
        await store.chat.report(ann, "table", "?")
    rows = await store.chat.reports()
    assert [r.id for r in rows] == [second, first]
    assert rows[1].line == line and rows[1].reporter_name == "ann" and rows[0].hand_id == "t1-7"
    assert await store.chat.close_report(first, "boss")
    assert not await store.chat.close_report(first, "boss")  # closed already
    assert not await store.chat.close_report(999, "boss")
    assert [r.id for r in await store.chat.reports(status="open")] == [second]
    closed = await store.chat.reports(status="closed")
    assert closed[0].closed_by == "boss" and closed[0].status == "closed"
