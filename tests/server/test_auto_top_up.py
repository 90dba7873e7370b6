"""Auto top-up through the protocol (issue 31): the seat's ``settings`` option ``auto_top_up`` tops the
player up to his stack from his wallet in the table's currency, booked in the ledger as a manual top-up;
a target outside the buy-in limits is refused and changes nothing; the balance or a limit the player set
refusing it stops it with ``auto_top_up_stopped`` (and nothing booked). Real money (EUR) on the harness."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pokerroom.rooms import Timing
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import Player, Role

from .harness import Client, Harness
from .wire import PASSWORD

pytestmark = pytest.mark.asyncio

TIMING = Timing(action=5.0, time_bank=1.0, between_hands=0.5, disconnect_grace=5)
EUR = "EUR"


def _settings() -> RoomSettings:
    return RoomSettings(
        tables=tuple(replace(t, currency=EUR) for t in demo_tables(TIMING, games=("holdem",))),
        currencies=("PLAY", EUR),
    )


def _player(c: Client) -> Player:
    assert c.player is not None
    return c.player


async def _funded(h: Harness, name: str, amount: int) -> Client:
    admin = await h.store.accounts.register(f"boss{name}", PASSWORD, role=Role.ADMIN)
    c = await h.login(name)
    await h.store.ledger.deposit(
        _player(c).id, EUR, amount, admin_id=admin.id, idempotency_key=f"seed-{name}"
    )
    return c


def _stack(h: Harness, table: str, c: Client) -> int:
    t = h.room.tables[table].table
    seat = t.seat_of(str(_player(c).id))
    assert seat is not None
    return t.seats[seat].stack


async def test_auto_top_up_books_the_chips_as_a_top_up(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, _settings())
    try:
        ann = await _funded(h, "ann", 100_000)
        table = next(iter(h.room.tables))
        lo, hi = h.room.tables[table].table.config.buy_in_range
        assert (await h.sit(ann, table, 1, buy_in=lo))["type"] == "ack"
        assert await h.balance(_player(ann), EUR) == 100_000 - lo
        bad = await h.ask(ann, {"type": "settings", "table": table, "auto_top_up": hi + 1})
        assert (bad["type"], bad["code"]) == ("error", "buy_in_out_of_range"), bad
        assert _stack(h, table, ann) == lo and await h.balance(_player(ann), EUR) == 100_000 - lo
        ok = await h.ask(ann, {"type": "settings", "table": table, "auto_top_up": hi})
        assert ok["type"] == "ack", ok
        await h.run(lambda: _stack(h, table, ann) == hi, seconds=5)
        assert await h.balance(_player(ann), EUR) == 100_000 - hi
        snapshot = await h.subscribe(ann, table)
        assert snapshot["state"]["cash"]["auto_top_up"] == hi
        report = await h.store.verify()
        assert report.ok, report
    finally:
        await h.close()


@pytest.mark.parametrize("refusal", ["limit_reached", "insufficient_funds"])
async def test_a_refused_auto_top_up_stops_with_a_message_and_books_nothing(
    tmp_path: Path, refusal: str
) -> None:
    h = await Harness.open(tmp_path, _settings())
    try:
        table = next(iter(h.room.tables))
        lo, hi = h.room.tables[table].table.config.buy_in_range
        ann = await _funded(h, "ann", 100_000 if refusal == "limit_reached" else lo + 1)
        if refusal == "limit_reached":
            await h.store.gaming.set_limit(_player(ann).id, "loss_day", EUR, lo + 1)
        assert (await h.sit(ann, table, 1, buy_in=lo))["type"] == "ack"
        before = await h.balance(_player(ann), EUR)
        ok = await h.ask(ann, {"type": "settings", "table": table, "auto_top_up": hi})
        assert ok["type"] == "ack", ok
        await h.run(lambda: bool(ann.of("error", code="auto_top_up_stopped")), seconds=5)
        (stopped,) = ann.of("error", code="auto_top_up_stopped")
        assert stopped["details"] == {"table": table, "amount": hi - lo, "reason": refusal}
        assert stopped["message"].startswith("auto top-up stopped: ") and "account" not in stopped["message"]
        assert _stack(h, table, ann) == lo and await h.balance(_player(ann), EUR) == before
        await h.quiet()
        assert ann.of("seat")[-1]["stack"] == lo, "the last word on the seat is the stack without the chips"
        seat = h.room.tables[table].table.seat_of(str(_player(ann).id))
        assert seat is not None and h.room.tables[table].table.seats[seat].auto_top_up == 0
        report = await h.store.verify()
        assert report.ok, report
    finally:
        await h.close()
