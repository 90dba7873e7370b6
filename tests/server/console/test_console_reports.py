"""The console's Dashboard and Reports (issue 17): figures that agree with the ledger and the journal
after bots played raked hands, and the CSV downloads (with formula cells defused)."""

from __future__ import annotations

import asyncio
import csv
import io

import pytest

from pokerroom.bots.runner import start_bots
from pokerroom.server.console.csvout import csv_text
from pokerroom.store import PLAY, POINTS, AccountKind
from tests.waiting import until

from .conftest import Console


async def play(console: Console, hands: int) -> None:
    room = console.s.room
    tid = "holdem-nl"
    bots = await start_bots(console.s.url, 3, ["caller"], tables=[tid], think=(0, 0.01), seed=4)
    try:
        await until(
            lambda: room.tables[tid].hands_played >= hands, timeout=90, what=f"{hands} hands at {tid}"
        )
    finally:
        for _, task in bots:
            task.cancel()
        await asyncio.gather(*(t for _, t in bots), return_exceptions=True)
    await until(lambda: not room.tables[tid].table.in_hand, timeout=90, what=f"the hand at {tid} ends")


@pytest.mark.asyncio
async def test_the_dashboard_and_the_reports_agree_with_the_ledger(console: Console) -> None:
    await play(console, 6)
    store = console.store
    house = await store.ledger.system_balance(AccountKind.HOUSE, PLAY)
    assert house > 0  # the demo table rakes
    d = (await console.http.get("/api/console/dashboard", headers=console.support)).json()
    async with store.db.read() as conn:
        from sqlalchemy import text

        ended = (await conn.execute(text("SELECT COUNT(*) FROM hands WHERE status = 'ended'"))).scalar_one()
    assert d["hands_last_hour"] == ended >= 6
    assert d["rake"]["today"] == {PLAY: house} and d["rake"]["week"] == {PLAY: house}
    issuer = await store.ledger.system_balance(AccountKind.POINTS_ISSUER, POINTS)
    assert d["points_issued_today"] == -issuer
    assert d["store"]["ready"] is True
    assert {(t["kind"], t["game"], t["state"]) for t in d["tables"]} == {("cash", "holdem", "playing")}

    rake = (await console.http.get("/api/console/reports/rake", headers=console.support)).json()["rows"]
    assert sum(r["rake"] for r in rake) == house and sum(r["hands"] for r in rake) <= ended
    assert all(r["game"] == "holdem/NL" and r["table"] == "holdem-nl" and r["stakes"] for r in rake)
    r = await console.http.get("/api/console/reports/rake.csv", headers=console.support)
    assert r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert sum(int(x["rake"]) for x in rows) == house
    points = (await console.http.get("/api/console/reports/points", headers=console.support)).json()["rows"]
    assert sum(p["points"] for p in points) == -issuer


@pytest.mark.asyncio
async def test_tournament_fees_and_overlays_are_reported(console: Console) -> None:
    fields = {
        "id": "c-gtd",
        "kind": "mtt",
        "start_in_minutes": 90,
        "buy_in": 100,
        "fee": 10,
        "guarantee": 5000,
    }
    assert (
        await console.http.post("/api/console/tournaments", json=fields, headers=console.admin)
    ).status_code == 201
    r = await console.http.post("/api/tournaments/c-gtd/register", json={}, headers=console.player)
    assert r.status_code == 200
    rows = (await console.http.get("/api/console/reports/tournaments", headers=console.admin)).json()["rows"]
    assert rows == [{"tournament": "c-gtd", "currency": PLAY, "fees": 10, "overlay": 0}]
    await console.http.post("/api/tournaments/c-gtd/unregister", json={}, headers=console.player)
    rows = (await console.http.get("/api/console/reports/tournaments", headers=console.admin)).json()["rows"]
    assert rows == [{"tournament": "c-gtd", "currency": PLAY, "fees": 0, "overlay": 0}]
    text = (await console.http.get("/api/console/reports/tournaments.csv", headers=console.admin)).text
    assert text.splitlines() == ["tournament,currency,fees,overlay", "c-gtd,PLAY,0,0"]


def test_csv_cells_a_spreadsheet_would_run_are_defused() -> None:
    text = csv_text(["a", "b"], [["=HYPERLINK(1)", -5], ["+x", "plain"]])
    assert text.splitlines() == ["a,b", "'=HYPERLINK(1),-5", "'+x,plain"]


@pytest.mark.asyncio
async def test_an_overlay_is_reported_when_a_guaranteed_tournament_starts_short(console: Console) -> None:
    fields = {
        "id": "c-over",
        "kind": "mtt",
        "start_in_minutes": 0.03,
        "buy_in": 100,
        "fee": 10,
        "guarantee": 1000,
    }
    assert (
        await console.http.post("/api/console/tournaments", json=fields, headers=console.admin)
    ).status_code == 201
    for headers in (console.player, console.admin):
        r = await console.http.post("/api/tournaments/c-over/register", json={}, headers=headers)
        assert r.status_code == 200, r.text
    actor = console.s.room.tournaments["c-over"]
    await until(
        lambda: actor.director.status != "registering" and actor.director.pool > 0,
        timeout=90,
        what="the tournament starts with its pool",
        show=lambda: (actor.director.status, actor.director.pool),
    )

    async def report() -> list[dict[str, object]]:
        r = await console.http.get("/api/console/reports/tournaments", headers=console.admin)
        rows: list[dict[str, object]] = r.json()["rows"]
        return rows

    async def overlaid() -> list[dict[str, object]] | None:
        rows = await report()
        return rows if rows and rows[0]["overlay"] else None

    # the overlay is booked by the tournament's actor just after it starts
    rows = await until(overlaid, timeout=30, what="the report shows the overlay", show=report)
    assert rows == [{"tournament": "c-over", "currency": PLAY, "fees": 20, "overlay": 1000 - 200}]
