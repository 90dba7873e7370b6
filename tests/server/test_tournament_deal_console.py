"""Issue 35, deals at the final table from the console: the operator's per-tournament switch (``POST
/api/console/tournaments/{id}/deals``, the ``SetTournamentDeals`` command) forbids and allows deals in a
running tournament, audited as ``tournament.deals``; only an admin may (a support agent, a player and an
anonymous caller are refused); the tournament's details carry the deal (``deal``: allowed, why not, the
figures of both methods at the final table) and the summary its setting (``deals``)."""

from __future__ import annotations

import contextlib

import pytest

from pokerroom.bots.runner import start_tournament_bots
from pokerroom.rooms.tournament.icm import deal_amounts
from pokerroom.server.errors import Refused
from tests.waiting import until

from .console.conftest import Console, console  # noqa: F401 (the fixture)

BASE = {"variant": "holdem", "betting": "NL", "buy_in": 100, "fee": 10, "currency": "PLAY"}


@pytest.mark.asyncio
async def test_the_operator_forbids_and_allows_deals_per_tournament(console: Console) -> None:  # noqa: F811
    slow = {"level_minutes": 30, "action_seconds": 2.0, "time_bank": 1.0, "between_hands": 0.02}
    fields = {**BASE, **slow, "id": "c-deal", "kind": "sng", "max_players": 3, "table_size": 3}
    r = await console.http.post("/api/console/tournaments", json=fields, headers=console.admin)
    assert r.status_code == 201, r.text
    room = console.s.room
    copy = next(t for t in room.tournaments.values() if t.series == "c-deal")
    url = f"/api/console/tournaments/{copy.tid}/deals"
    bots = await start_tournament_bots(console.s.url, copy.tid, 3, ["caller"], think=(0, 0.01), seed=7)
    try:
        await until(lambda: copy.hands_played >= 1, timeout=120, what="a hand played")
        d = copy.director
        r = await console.http.get(f"/api/console/tournaments/{copy.tid}", headers=console.support)
        details = r.json()
        assert details["summary"]["deals"] is True and details["deal"]["allowed"] is True
        preview = details["deal"]["preview"]  # (the figures move with the stacks: checked for themselves)
        prizes = [x["amount"] for x in details["payouts"]] + [0] * 3
        for method in ("icm", "chip_chop"):
            assert preview[method] == deal_amounts(preview["stacks"], prizes[:3], method)
        for headers in ({}, console.player, console.support):  # anonymous, a player, a support agent
            r = await console.http.post(url, json={"allowed": False}, headers=headers)
            assert r.status_code in (401, 403), (headers, r.status_code)
        assert d.config.deals is True
        r = await console.http.post(url, json={"allowed": "no"}, headers=console.admin)
        assert r.status_code == 422 and d.config.deals is True  # bad input: nothing changed
        r = await console.http.post(url, json={"allowed": False}, headers=console.admin)
        assert r.status_code == 200, r.text
        assert r.json()["tournament"]["deals"] is False and d.config.deals is False
        player = next(iter(d.remaining)).player
        with pytest.raises(Refused) as refused:
            await copy.call(lambda: copy.deal_request(player, "deal_icm", False))
        assert refused.value.code == "deal_refused"
        r = await console.http.get(f"/api/tournaments/{copy.tid}")
        assert r.json()["deal"]["blocked"] == "off" and r.json()["summary"]["deals"] is False
        r = await console.http.post(url, json={"allowed": True}, headers=console.admin)
        assert r.status_code == 200 and d.config.deals is True
        r = await console.http.post(
            "/api/console/tournaments/nope/deals", json={"allowed": True}, headers=console.admin
        )
        assert r.status_code == 404
    finally:
        for bot, task in bots:
            await bot.stop()
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
    r = await console.http.get(
        "/api/console/audit", params={"action": "tournament.deals"}, headers=console.admin
    )
    entries = r.json()["entries"]
    assert [(e["before"], e["after"]) for e in entries[::-1]] == [
        ({"deals": True}, {"deals": False}),
        ({"deals": False}, {"deals": True}),
    ]
    assert all(e["target"] == copy.tid for e in entries)
