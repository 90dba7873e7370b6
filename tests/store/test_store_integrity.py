"""Game integrity in the store (issue 30): the login history, its pruning, and the accounts linked by a
shared address or device."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pokerroom.store import InvalidRecord, Store

from .storehelpers import PASSWORD, FakeClock


async def _players(store: Store, *names: str) -> list[int]:
    return [(await store.accounts.register(n, PASSWORD)).id for n in names]


@pytest.mark.asyncio
async def test_a_login_is_kept_with_its_address_device_and_agent_newest_first(
    store: Store, clock: FakeClock
) -> None:
    (ann,) = await _players(store, "ann")
    first = await store.logins.record(ann, "203.0.113.7", "a" * 32, "Firefox/140")
    clock.advance(timedelta(hours=1))
    second = await store.logins.record(ann, "198.51.100.2", None, "x" * 400)
    got = await store.logins.history(ann)
    assert [r.id for r in got] == [second.id, first.id]
    assert (got[1].address, got[1].device, got[1].user_agent, got[1].at) == (
        "203.0.113.7",
        "a" * 32,
        "Firefox/140",
        clock.now - timedelta(hours=1),
    )
    assert got[0].device is None and got[0].user_agent == "x" * 256  # a long agent is cut


@pytest.mark.asyncio
async def test_bad_input_is_refused_and_keeps_nothing(store: Store) -> None:
    (ann,) = await _players(store, "ann")
    for address, device in (("", None), ("1" * 65, None), ("203.0.113.7", ""), ("203.0.113.7", "d" * 65)):
        with pytest.raises(InvalidRecord):
            await store.logins.record(ann, address, device, None)
    assert await store.logins.history(ann) == []


@pytest.mark.asyncio
async def test_logins_older_than_the_retention_are_pruned(store: Store, clock: FakeClock) -> None:
    ann, bob = await _players(store, "ann", "bob")
    await store.logins.record(ann, "203.0.113.7", None, None)
    clock.advance(timedelta(days=10))
    await store.logins.record(bob, "203.0.113.7", None, None)
    assert [k.name for k in await store.logins.links(ann)] == ["bob"]
    clock.advance(timedelta(days=25))
    await store.logins.record(bob, "198.51.100.9", None, None, keep=timedelta(days=30))
    assert await store.logins.history(ann) == []  # 35 days old: gone
    assert len(await store.logins.history(bob)) == 2
    assert await store.logins.links(ann) == []
    clock.advance(timedelta(days=40))
    assert await store.logins.prune(timedelta(days=30)) == 2


@pytest.mark.asyncio
async def test_accounts_are_linked_by_a_shared_address_or_device_and_say_which(
    store: Store, clock: FakeClock
) -> None:
    ann, bob, cat, dan = await _players(store, "ann", "bob", "cat", "dan")
    dev = "b" * 32
    await store.logins.record(ann, "203.0.113.7", dev, None)
    clock.advance(timedelta(minutes=5))
    await store.logins.record(bob, "203.0.113.7", None, None)  # same address
    clock.advance(timedelta(minutes=5))
    await store.logins.record(cat, "198.51.100.1", dev, None)  # same device, another address
    clock.advance(timedelta(minutes=5))
    await store.logins.record(cat, "203.0.113.7", dev, None)  # and the same address too, later
    await store.logins.record(dan, "192.0.2.1", "c" * 32, None)  # nothing shared
    links = await store.logins.links(ann)
    assert [(k.name, k.addresses, k.devices) for k in links] == [
        ("cat", ("203.0.113.7",), (dev,)),
        ("bob", ("203.0.113.7",), ()),
    ]
    assert links[0].last_seen == clock.now
    assert await store.logins.links(dan) == []
    assert [k.name for k in await store.logins.links(bob)] == ["cat", "ann"]
    assert await store.logins.linked_among(ann, [bob, dan, ann]) == [bob]
    assert await store.logins.linked_among(dan, [ann, bob, cat]) == []
    both = await store.logins.links_of([ann, dan])
    assert set(both) == {ann}


@pytest.mark.asyncio
async def test_the_addresses_and_devices_of_several_accounts_most_recent_first(
    store: Store, clock: FakeClock
) -> None:
    ann, bob, cat = await _players(store, "ann", "bob", "cat")
    await store.logins.record(ann, "203.0.113.7", "a" * 32, None)
    await store.logins.record(ann, "203.0.113.7", "a" * 32, None)  # one account twice: not shared
    clock.advance(timedelta(minutes=1))
    await store.logins.record(bob, "203.0.113.7", "b" * 32, None)
    clock.advance(timedelta(minutes=1))
    await store.logins.record(cat, "198.51.100.1", "b" * 32, None)
    got = [(s.kind, s.value, [n for _, n in s.players], s.last_seen) for s in await store.logins.shared()]
    assert got == [
        ("device", "b" * 32, ["bob", "cat"], clock.now),
        ("address", "203.0.113.7", ["ann", "bob"], clock.now - timedelta(minutes=1)),
    ]
    assert len(await store.logins.shared(limit=1)) == 1


@pytest.mark.asyncio
async def test_notes_keep_who_wrote_what_when_newest_first(store: Store, clock: FakeClock) -> None:
    ann, boss = await _players(store, "ann", "boss")
    first = await store.notes.add(ann, boss, "boss", "  called about a lost hand  ")
    clock.advance(timedelta(hours=2))
    second = await store.notes.add(ann, None, "command line", "shares a flat with bob")
    got = await store.notes.of(ann)
    assert got == [second, first]
    assert (first.text, first.author_name, first.author_id, first.at) == (
        "called about a lost hand",
        "boss",
        boss,
        clock.now - timedelta(hours=2),
    )
    for bad in ("", "   ", "x" * 2001):
        with pytest.raises(InvalidRecord):
            await store.notes.add(ann, boss, "boss", bad)
    assert await store.notes.of(boss) == [] and len(await store.notes.of(ann)) == 2
