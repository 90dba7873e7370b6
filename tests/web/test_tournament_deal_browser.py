"""Deals at the final table in the browser (issue 35; RULES.md §11.3, R256-R258): three players, each in a
browser context of his own, play a 3-handed sit-and-go. One opens the tournament page, clicks **Propose
deal**, sees each player's ICM and chip-chop figures (the server's, R256/R257: ``deal_amounts`` of the
stacks shown) and proposes an ICM deal; every player gets the offer with the time left and clicks
**Accept**; all three see the amounts paid, which are the server's (the ledger: each wallet rose by
exactly his amount, the pool paid to the chip) and the tournament page's Deal column shows them. In the
next sit-and-go a chip chop is proposed and one player refuses: all see the refusal and play resumes
with the next hand (R258). (The server's side: tests/server/test_tournament_deals.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pokerroom.rooms import Timing
from pokerroom.rooms.tournament.icm import deal_amounts
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role
from tests.server.conftest import serve_room
from tests.waiting import wait_until

from .conftest import FAST_SNG, Room, _need_browser, console_at, headless_chromium, room_in_thread, sign_up
from .player import PASSWORD, Player, page_pause

# Three players who never act: every decision times out fast (a check or a fold), so a hand ends soon.
# (the fast sit-and-go of the browser tests, three-handed, deep and with a long level)
TRIO = replace(
    FAST_SNG,
    tournament_id="dealtrio",
    name="Deal Trio",
    starting_stack=3000,
    table_size=3,
    max_players=3,
    level_minutes=30.0,
    timing=Timing(action=1.0, time_bank=0.0, between_hands=0.5, offer_time=5, disconnect_grace=60),
)
ADMIN = "dealboss"
BROWSER: list[Any] = []  # (the players' browser: the console's page opens a context of its own in it)


@pytest.fixture(scope="module")
def deal_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    _need_browser()

    async def setup(r: Room) -> None:
        await r.live.room.store.accounts.register(ADMIN, PASSWORD, role=Role.ADMIN)

    tmp: Path = tmp_path_factory.mktemp("deal-room")
    with room_in_thread("deal-room", serve_room(tmp, RoomSettings(tournaments=(TRIO,))), setup) as r:
        yield r


@pytest.fixture(scope="module")
def players(deal_room: Room) -> Iterator[list[Player]]:
    """Three players, each logged in in a browser context of his own."""
    with headless_chromium() as b:
        out = []
        BROWSER[:] = [b]
        for _ in range(3):
            ctx = b.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
            page = ctx.new_page()
            page.set_default_timeout(20_000)
            p = Player(page, deal_room.url)
            sign_up(page, deal_room.url, p.name)
            out.append(p)
        yield out


def _room_call(room: Room, fn: Any) -> Any:
    async def run() -> Any:
        return fn()

    return asyncio.run_coroutine_threadsafe(run(), room.loop).result(30)


def _start(room: Room, ps: list[Player]) -> tuple[str, Any]:
    """All three register for the open copy of the sit-and-go (from the Tournaments tab); it starts."""
    first = ps[0].page
    first.click('.tab[data-tab="tournaments"]')
    row = first.locator('tr[data-tournament^="dealtrio-"]:has(button.t-register)').first
    tid = row.get_attribute("data-tournament")
    assert tid
    for p in ps:
        r = p.page.request.post(f"{room.url}/api/tournaments/{tid}/register", data={})
        assert r.ok, r.text()
    actor = _room_call(room, lambda: room.live.room.tournaments[tid])
    for p in ps:  # each is seated: his table opens in his browser
        p.page.locator(f'.tile[data-table^="{tid}-t"]').first.wait_for(timeout=60_000)
    wait_until(lambda: actor.hands_played >= 1, timeout=60, what="a hand played", pause=page_pause(first))
    return tid, actor


def _propose(room: Room, p: Player, tid: str, method: str) -> dict[str, Any]:
    """``p`` opens the tournament page from his table, clicks Propose deal, checks the figures shown are
    the server's for the stacks shown, and proposes ``method``. Returns the details the page showed."""
    page = p.page
    page.locator(f'.tile[data-table^="{tid}-t"] .t-info-btn').first.click()
    tdlg = page.locator(f'dialog.tournament-dialog[data-tournament="{tid}"]')
    tdlg.locator("button.t-deal-propose").click()
    details = page.evaluate("async (id) => (await import('/static/js/api.js')).api.tournament(id)", tid)
    ddlg = page.locator(f'dialog.deal-dialog[data-tournament="{tid}"][data-state="propose"]')
    ddlg.wait_for()
    rows = ddlg.locator(".deal-table tbody tr")
    assert rows.count() == 3
    names = rows.evaluate_all("rs => rs.map(r => r.dataset.name)")
    stacks = [
        int(x.replace(",", "")) for x in rows.evaluate_all("rs => rs.map(r => r.children[1].textContent)")
    ]
    icm = [int(x) for x in ddlg.locator("td.deal-icm").evaluate_all("cs => cs.map(c => c.dataset.amount)")]
    chop = [int(x) for x in ddlg.locator("td.deal-chop").evaluate_all("cs => cs.map(c => c.dataset.amount)")]
    prizes = ([x["amount"] for x in details["payouts"]] + [0, 0, 0])[:3]
    assert sorted(names) == sorted(x.name for x in room_players(details))
    assert sum(stacks) == 9000 and stacks == sorted(stacks, reverse=True)
    assert icm == deal_amounts(stacks, prizes, "icm") and sum(icm) == 300  # R256: the server's figures
    assert chop == deal_amounts(stacks, prizes, "chip_chop") and sum(chop) == 300  # R257
    ddlg.locator("button.deal-propose-icm" if method == "icm" else "button.deal-propose-chop").click()
    return dict(details)


class _Named:
    def __init__(self, name: str) -> None:
        self.name = name


def room_players(details: dict[str, Any]) -> list[_Named]:
    return [_Named(e["name"]) for e in details["standings"] if not e["place"]]


def _offer_shown(p: Player, tid: str) -> Any:
    dlg = p.page.locator(f'dialog.deal-dialog[data-tournament="{tid}"][data-state="offered"]')
    dlg.wait_for(timeout=60_000)  # (the hand in progress ends first)
    return dlg


def _offer_frame(p: Player) -> dict[str, Any]:
    return [f for f in p.frames if f.get("type") == "tournament_deal" and f.get("state") == "offered"][-1]


def _balance(p: Player) -> int:
    return int(p.page.get_attribute("#balance", "data-amount") or 0)


def test_a_deal_proposed_and_accepted_by_all_in_the_browser_is_paid_as_the_server_figured(
    deal_room: Room, players: list[Player]
) -> None:
    tid, actor = _start(deal_room, players)
    before = {p.name: _balance(p) for p in players}
    _propose(deal_room, players[1], tid, "icm")
    for p in players:
        dlg = _offer_shown(p, tid)
        assert dlg.locator(".deal-table tbody tr").count() == 3
        assert dlg.locator(".deal-clock").inner_text().startswith("Time left: ")
        assert "ICM" in dlg.locator(".deal-news").inner_text()
    offer = _offer_frame(players[0])
    assert offer["method"] == "icm" and sum(offer["amounts"]) == 300
    assert offer["amounts"] == deal_amounts(offer["stacks"], ([*actor.director.prizes, 0, 0, 0])[:3], "icm")
    for i, p in enumerate(players):
        dlg = _offer_shown(p, tid)
        dlg.locator("button.deal-accept").click()
        if i < 2:  # the others see him accepted
            other = players[(i + 1) % 3].page.locator(
                f'dialog.deal-dialog tr[data-name="{p.name}"] .deal-status'
            )
            other.get_by_text("accepted").wait_for()
    paid: dict[str, int] = {}
    for p in players:
        made = p.page.locator(f'dialog.deal-dialog[data-tournament="{tid}"][data-state="made"]')
        made.wait_for(timeout=30_000)
        lines = made.locator(".deal-paid li")
        assert lines.count() == 3
        names = lines.evaluate_all("ls => ls.map(l => l.dataset.name)")
        amounts = [int(x) for x in lines.evaluate_all("ls => ls.map(l => l.dataset.amount)")]
        shown = dict(zip(names, amounts, strict=True))
        paid = paid or shown
        assert shown == paid == dict(zip(offer["players"], offer["amounts"], strict=True))
    # The server's account: the standings' deal column, the wallets, the pool to the chip.
    details = players[0].page.request.get(f"{deal_room.url}/api/tournaments/{tid}").json()
    assert details["summary"]["status"] == "finished"
    assert {e["name"]: e["deal"] for e in details["standings"]} == paid
    for p in players:  # each wallet rose by exactly his amount
        want = before[p.name] + paid[p.name]
        p.page.wait_for_function(f"Number(document.querySelector('#balance').dataset.amount) === {want}")
    report = asyncio.run_coroutine_threadsafe(deal_room.live.room.store.verify(), deal_room.loop).result(60)
    assert report.ok, report
    # The tournament page shows the deal in its standings (the Deal column), from the server's details.
    cells = players[2].page.evaluate(DEAL_COLUMN, details)
    assert {name: int(amount) for name, amount in cells} == paid
    for p in players:
        assert not p.errors, p.errors


DEAL_COLUMN = """async (d) => {
  const { TournamentDialog } = await import("/static/js/tournament.js");
  const dlg = new TournamentDialog({ me: null, socket: {}, refreshBalance() {}, lobby: { refresh() {} } });
  dlg.render({ ...d, level: null }); // (the level clock is load()'s)
  const rows = [...dlg.body.querySelectorAll(".t-standings-table tbody tr")];
  const out = rows.map((r) => [r.children[1].textContent, r.querySelector(".t-deal").dataset.amount]);
  dlg.el.remove();
  dlg.deals.el.remove();
  return out;
}"""


def test_a_refused_deal_in_the_browser_resumes_play(deal_room: Room, players: list[Player]) -> None:
    for p in players:  # (the last test's outcome closed)
        p.page.evaluate(
            "() => { const d = document.querySelector('dialog.deal-dialog'); if (d && d.open) d.close(); }"
        )
    tid, actor = _start(deal_room, players)
    _propose(deal_room, players[0], tid, "chip_chop")
    for p in players:
        assert "Chip chop" in _offer_shown(p, tid).locator(".deal-news").inner_text()
    _offer_shown(players[0], tid).locator("button.deal-accept").click()
    hands = actor.hands_played
    _offer_shown(players[2], tid).locator("button.deal-refuse").click()
    for p in players:
        closed = p.page.locator(f'dialog.deal-dialog[data-tournament="{tid}"][data-reason="refused"]')
        closed.wait_for(timeout=30_000)
        assert (
            closed.locator(".deal-news").inner_text() == f"{players[2].name} refused the deal: play resumes"
        )
    wait_until(
        lambda: actor.hands_played > hands,
        timeout=60,
        what="the next hand",
        pause=page_pause(players[0].page),
    )
    assert actor.director.status == "running" and actor.director.deal is None
    for p in players:
        assert not p.errors, p.errors


def test_the_console_shows_the_deal_setting_and_the_operator_forbids_deals(
    deal_room: Room, players: list[Player]
) -> None:
    """The console's tournament page shows that deals are allowed; the admin's **Forbid deals** turns
    them off in that running tournament (audited): the players' tournament page no longer offers Propose
    deal, and the server refuses one."""
    for p in players:  # (the last test's tournament goes on: these three join the next copy)
        p.page.evaluate(
            "() => { const d = document.querySelector('dialog.deal-dialog'); if (d && d.open) d.close(); }"
        )
    actor = next(a for a in deal_room.live.room.tournaments.values() if a.director.status == "running")
    assert actor.director.config.deals  # (on by default)
    tid = actor.tid
    ctx = BROWSER[0].new_context(locale="en-US")
    try:
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        errors = console_at(page, deal_room.url, f"tournaments/{tid}", ADMIN)
        section = page.locator("#tournament-deal")
        section.locator(".deal-setting", has_text="Deals allowed").wait_for()
        section.locator('button.deal-switch[data-deals="on"]').click()
        page.locator("#console-status", has_text="deals forbidden").wait_for()
        wait_until(
            lambda: not actor.director.config.deals, timeout=30, what="deals off", pause=page_pause(page)
        )
        page.goto(f"{deal_room.url}/static/console.html#audit")
        page.locator('#audit-log tr[data-action="tournament.deals"]').first.wait_for()
        assert errors == []
    finally:
        ctx.close()
    p = players[0]
    details = p.page.evaluate("async (id) => (await import('/static/js/api.js')).api.tournament(id)", tid)
    assert details["summary"]["deals"] is False and details["deal"]["blocked"] == "off"
    shown = p.page.evaluate(PROPOSE_BUTTON, details)
    assert shown is False  # no Propose deal
    r = p.page.request.post(f"{deal_room.url}/api/tournaments/{tid}/deal", data={"method": "icm"})
    assert r.status == 409 and r.json()["detail"]["code"] == "deal_refused"


PROPOSE_BUTTON = """async (d) => {
  const { TournamentDialog } = await import("/static/js/tournament.js");
  const me = d.standings.find((e) => !e.place);
  const app = { me: { id: me.player }, socket: {}, refreshBalance() {}, lobby: { refresh() {} } };
  const dlg = new TournamentDialog(app);
  dlg.render({ ...d, level: null });
  const shown = Boolean(dlg.body.querySelector(".t-deal-propose"));
  dlg.el.remove();
  dlg.deals.el.remove();
  return shown;
}"""
