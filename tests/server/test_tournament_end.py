"""Issue 35, defect 5: an operator ends a running tournament from the console (``POST
/api/console/tournaments/{id}/end``, the ``EndTournament`` command): its hands are void, its pool is paid
out by the interrupted-tournament rule (docs/tournaments.md, "Ended by an operator") in the ledger, and
the audit log keeps the entry. Before the fix the console refused (only ``cancel``, before the start)."""

from __future__ import annotations

import contextlib

import pytest

from pokerroom.bots.runner import start_tournament_bots
from pokerroom.store import PLAY, AccountKind
from tests.waiting import until

from .console.conftest import Console, console  # noqa: F401 (the fixture)

BASE = {"variant": "holdem", "betting": "NL", "buy_in": 100, "fee": 10, "currency": "PLAY"}


@pytest.mark.asyncio
async def test_an_operator_ends_a_running_tournament_paid_by_the_interrupted_rule(
    console: Console,  # noqa: F811
) -> None:
    slow = {"level_minutes": 30, "action_seconds": 2.0, "time_bank": 1.0, "between_hands": 0.02}
    fields = {**BASE, **slow, "id": "c-end", "kind": "sng", "max_players": 3, "table_size": 3}
    r = await console.http.post("/api/console/tournaments", json=fields, headers=console.admin)
    assert r.status_code == 201, r.text
    room = console.s.room
    copy = next(t for t in room.tournaments.values() if t.series == "c-end")
    url = f"/api/console/tournaments/{copy.tid}/end"
    assert (await console.http.post(url, headers=console.admin)).status_code == 409  # not running yet
    bots = await start_tournament_bots(console.s.url, copy.tid, 3, ["caller"], think=(0, 0.01), seed=7)
    try:
        await until(
            lambda: copy.hands_played >= 2 or copy.finished_at is not None,
            timeout=120,
            what="two hands played",
        )
        assert copy.director.status == "running", "three callers at 30-minute levels bust nobody so fast"
        ledger = console.store.ledger
        ids = {e.name: int(p) for p, e in copy.director.entrants.items()}
        before = {name: await ledger.balance(pid, PLAY) for name, pid in ids.items()}
        r = await console.http.post(url, headers=console.support)
        assert r.status_code == 403  # an admin's command
        r = await console.http.post(url, headers=console.admin)
        assert r.status_code == 200, r.text
        paid = {x["name"]: x["amount"] for x in r.json()["paid"]}
        assert sum(paid.values()) == 300 and r.json()["tournament"]["status"] == "cancelled"
        for name, pid in ids.items():  # his share of the pool, and his fee back
            assert await ledger.balance(pid, PLAY) == before[name] + paid.get(name, 0) + 10
        pool = await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref=copy.tid)
        assert (await ledger.get_account(pool)).balance == 0
        assert (await console.store.verify()).ok
        assert not copy.director.tables and copy.finished_at is not None
        assert (await console.http.post(url, headers=console.admin)).status_code == 409  # once
    finally:
        for bot, task in bots:
            await bot.stop()
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
    r = await console.http.get(
        "/api/console/audit", params={"action": "tournament.end"}, headers=console.admin
    )
    [entry] = r.json()["entries"]
    assert entry["before"]["status"] == "running" and entry["after"]["status"] == "cancelled"
    assert sum(x["amount"] for x in entry["after"]["paid"]) == 300
