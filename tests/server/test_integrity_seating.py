"""Issue 30, item 1: the same-table rule. With ``[integrity] separate_linked_players`` on, a player whose
kept logins share an address or a device with a player already at a cash table, in a Rush pool or
registered in a tournament is refused ``shared_connection`` (naming nobody), and nothing is booked; an
unlinked player is not concerned, and with the option off (the default) nobody is refused. Played through
the protocol on the server's harness (a manual clock)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pokerroom.rooms import Timing
from pokerroom.rooms.rush_rules import RushTiming
from pokerroom.server.demo import demo_pools, demo_tables, demo_tournaments
from pokerroom.server.integrity import IntegritySettings
from pokerroom.server.room import RoomSettings
from pokerroom.server.tournament import TournamentActor
from pokerroom.store import Player

from .harness import Client, Harness

pytestmark = pytest.mark.asyncio

TIMING = Timing(action=5.0, time_bank=1.0, between_hands=0.5, disconnect_grace=5)
POOL = "rush-holdem-nl-6max"
TABLE = "holdem-nl"
SHARED_ADDRESS = "203.0.113.7"
SHARED_DEVICE = "d" * 32


def _settings(separate: bool) -> RoomSettings:
    return RoomSettings(
        tables=tuple(demo_tables(TIMING, games=("holdem",))),
        pools=tuple(demo_pools(RushTiming(action=5, reduced_action=5, time_bank=0))),
        tournaments=tuple(demo_tournaments(TIMING, 5.0)),
        integrity=IntegritySettings(separate_linked=separate),
    )


@dataclass
class Players:
    ann: Client
    bob: Client  # once logged in from ann's address
    cat: Client  # from ann's browser (another address)
    dan: Client  # shares nothing with anybody


async def _players(h: Harness) -> Players:
    four = Players(*[await h.login(n) for n in ("ann", "bob", "cat", "dan")])
    await h.store.logins.record(_player(four.ann).id, SHARED_ADDRESS, SHARED_DEVICE, "Firefox")
    await h.store.logins.record(_player(four.bob).id, SHARED_ADDRESS, "b" * 32, "Chrome")
    await h.store.logins.record(_player(four.cat).id, "198.51.100.3", SHARED_DEVICE, "Firefox")
    await h.store.logins.record(_player(four.dan).id, "192.0.2.44", "e" * 32, "Safari")
    return four


def _player(c: Client) -> Player:
    assert c.player is not None
    return c.player


def _refused(answer: dict[str, Any], where: str) -> None:
    assert answer["type"] == "error" and answer["code"] == "shared_connection", answer
    assert answer["details"] == {"where": where}
    assert "ann" not in answer["message"] and SHARED_ADDRESS not in answer["message"]


async def _join(h: Harness, c: Client) -> dict[str, Any]:
    """Join the pool with one entry: ``pool_joined``, or the error."""
    ref = f"join-{c.name}"
    await h.send(c, {"type": "pool_join", "pool": POOL, "entries": 1, "buy_in": 2000, "ref": ref})
    await h.run(lambda: bool(c.reply(ref) or c.of("pool_joined")), seconds=60)
    return c.reply(ref) or c.of("pool_joined")[0]


def _table(h: Harness) -> str:
    return next(iter(h.room.tables))


def _sng(h: Harness) -> TournamentActor:
    return next(
        a
        for a in h.room.tournaments.values()
        if a.series is not None and a.director.status in ("announced", "registering")
    )


async def test_linked_players_cannot_sit_at_one_cash_table(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, _settings(True))
    try:
        p = await _players(h)
        ann, bob, cat, dan = p.ann, p.bob, p.cat, p.dan
        table = _table(h)
        assert (await h.sit(ann, table, 1))["type"] == "ack"
        for linked in (bob, cat):  # by the address, by the device
            before = await h.balance(_player(linked))
            _refused(await h.sit(linked, table, 2), "table")
            assert await h.balance(_player(linked)) == before  # no buy-in booked
            assert str(_player(linked).id) not in {
                p.player for p in h.room.tables[table].table.seats.values()
            }
        assert (await h.sit(dan, table, 3))["type"] == "ack"
    finally:
        await h.close()


async def test_linked_players_cannot_share_a_rush_pool(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, _settings(True))
    try:
        p = await _players(h)
        ann, bob, dan = p.ann, p.bob, p.dan
        assert (await _join(h, ann))["type"] == "pool_joined"
        before = await h.balance(_player(bob))
        _refused(await _join(h, bob), "pool")
        assert await h.balance(_player(bob)) == before
        assert not h.room.pools[POOL].pool.entries_of(str(_player(bob).id))
        assert (await _join(h, dan))["type"] == "pool_joined"
    finally:
        await h.close()


async def test_linked_players_cannot_register_in_one_tournament(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, _settings(True))
    try:
        p = await _players(h)
        ann, bob, dan = p.ann, p.bob, p.dan
        actor = _sng(h)
        register = {"type": "tournament_register", "tournament": actor.tid}
        assert (await h.ask(ann, register))["type"] == "ack"
        before = await h.balance(_player(bob))
        _refused(await h.ask(bob, register), "tournament")
        assert await h.balance(_player(bob)) == before
        assert str(_player(bob).id) not in actor.director.entrants
        assert (await h.ask(dan, register))["type"] == "ack"
        # once ann has left (unregistered), bob may register
        assert (await h.ask(ann, {"type": "tournament_unregister", "tournament": actor.tid}))["type"] == "ack"
        assert (await h.ask(bob, register))["type"] == "ack"
    finally:
        await h.close()


async def test_with_the_option_off_linked_players_play_together(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, _settings(False))
    try:
        p = await _players(h)
        ann, bob = p.ann, p.bob
        table = _table(h)
        assert (await h.sit(ann, table, 1))["type"] == "ack"
        assert (await h.sit(bob, table, 2))["type"] == "ack"
        assert (await _join(h, ann))["type"] == "pool_joined"
        assert (await _join(h, bob))["type"] == "pool_joined"
        register = {"type": "tournament_register", "tournament": _sng(h).tid}
        assert (await h.ask(ann, register))["type"] == "ack"
        assert (await h.ask(bob, register))["type"] == "ack"
    finally:
        await h.close()
