"""Responsible gaming at the tables (issue 29, item 5): a loss limit and a cool-off or self-exclusion are
honoured at every stake the actors book — a cash table's sit (buy-in) and top-up, a Rush pool's entry, a
tournament's registration and rebuy — before anything is booked. Played through the protocol on the
server's harness, in a real-money currency (EUR)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pokerroom.rooms import Timing
from pokerroom.rooms.rush_rules import RushTiming
from pokerroom.server.demo import demo_pools, demo_tables, demo_tournaments
from pokerroom.server.room import RoomSettings
from pokerroom.server.tournament import TournamentActor
from pokerroom.store import Player, Role

from .harness import Client, Harness
from .wire import PASSWORD

pytestmark = pytest.mark.asyncio

TIMING = Timing(action=5.0, time_bank=1.0, between_hands=0.5, disconnect_grace=5)
POOL = "rush-holdem-nl-6max"
EUR = "EUR"


def _settings() -> RoomSettings:
    return RoomSettings(
        tables=tuple(replace(t, currency=EUR) for t in demo_tables(TIMING, games=("holdem",))),
        pools=tuple(
            replace(p, currency=EUR) for p in demo_pools(RushTiming(action=5, reduced_action=5, time_bank=0))
        ),
        tournaments=tuple(replace(t, currency=EUR) for t in demo_tournaments(TIMING, 5.0)),
        currencies=("PLAY", EUR),
    )


def _player(c: Client) -> Player:
    assert c.player is not None
    return c.player


async def _funded(h: Harness, *names: str) -> list[Client]:
    admin = await h.store.accounts.register("boss", PASSWORD, role=Role.ADMIN)
    out = []
    for n in names:
        c = await h.login(n)
        key = f"seed-{n}"
        await h.store.ledger.deposit(_player(c).id, EUR, 100_000, admin_id=admin.id, idempotency_key=key)
        out.append(c)
    return out


def _sng(h: Harness) -> TournamentActor:
    return next(
        a
        for a in h.room.tournaments.values()
        if a.series is not None and a.director.status in ("announced", "registering")
    )


async def _join(h: Harness, c: Client) -> dict[str, Any]:
    ref = f"join-{c.name}-{len(c.of('error'))}"
    await h.send(c, {"type": "pool_join", "pool": POOL, "entries": 1, "buy_in": 2000, "ref": ref})
    await h.run(lambda: bool(c.reply(ref) or c.of("pool_joined")), seconds=60)
    return c.reply(ref) or c.of("pool_joined")[0]


def _refused(answer: dict[str, Any], code: str) -> dict[str, Any]:
    assert answer["type"] == "error" and answer["code"] == code, answer
    details: dict[str, Any] = answer["details"]
    return details


async def test_a_loss_limit_refuses_a_top_up_a_rush_entry_and_a_registration_over_it(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, _settings())
    try:
        ann, dan = await _funded(h, "ann", "dan")
        await h.store.gaming.set_limit(_player(ann).id, "loss_day", EUR, 3_000)
        table = next(iter(h.room.tables))
        assert (await h.sit(ann, table, 1))["type"] == "ack"  # 2,000 of 3,000 at stake
        assert await h.balance(_player(ann), EUR) == 98_000
        top_up = await h.ask(ann, {"type": "top_up", "table": table, "amount": 1_500})
        details = _refused(top_up, "limit_reached")
        assert details["limit"] == 3_000 and details["used"] == 2_000 and details["limit_text"] == "30.00 EUR"
        assert "30.00 EUR" in top_up["message"]
        _refused(await _join(h, ann), "limit_reached")
        assert not h.room.pools[POOL].pool.entries_of(str(_player(ann).id))
        actor = _sng(h)  # its buy-in and fee: 1,100
        register = {"type": "tournament_register", "tournament": actor.tid}
        _refused(await h.ask(ann, register), "limit_reached")
        assert str(_player(ann).id) not in actor.director.entrants
        assert await h.balance(_player(ann), EUR) == 98_000  # nothing more booked
        # (the sit within the limit went through;) a player without limits is not concerned
        assert (await h.ask(dan, register))["type"] == "ack"
        assert (await _join(h, dan))["type"] == "pool_joined"
    finally:
        await h.close()


async def test_a_cool_off_refuses_every_stake_and_a_rebuy(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, _settings())
    try:
        (ann,) = await _funded(h, "ann")
        actor = _sng(h)
        register = {"type": "tournament_register", "tournament": actor.tid}
        await h.store.gaming.exclude(_player(ann).id, "cool_off", password=PASSWORD, days=3)
        before = await h.balance(_player(ann), EUR)
        table = next(iter(h.room.tables))
        details = _refused(await h.sit(ann, table, 1), "self_excluded")
        assert details["kind"] == "cool_off" and details["ends"].endswith("UTC")
        _refused(await _join(h, ann), "self_excluded")
        _refused(await h.ask(ann, register), "self_excluded")
        assert str(_player(ann).id) not in actor.director.entrants
        with pytest.raises(Exception) as rebuy:  # checked first (before "not_playing")
            await actor.call(lambda: actor.rebuy(str(_player(ann).id)))
        assert getattr(rebuy.value, "code", None) == "self_excluded"
        assert await h.balance(_player(ann), EUR) == before
        assert not any(str(_player(ann).id) == p.player for p in h.room.tables[table].table.seats.values())
    finally:
        await h.close()
