"""The operator's console in chromium (issue 17): an administrator logs in and opens a table that a
player then sees in the lobby and plays at; schedules a sit-and-go that bots fill and finish; adjusts a
balance, found in the player's cashier and in the audit log; cancels a registering tournament and sees
the refunds."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pokerroom.bots.runner import start_bots, start_tournament_bots
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import PLAY, Role
from tests.server.conftest import serve_room
from tests.waiting import wait_until
from tests.web.conftest import TIMING, Room, _need_browser, console_at, room_in_thread
from tests.web.player import PASSWORD, Player, Seen

ADMIN = "consoleboss"
FAST = {"action": 12.0, "time_bank": 5.0, "between_hands": 0.3, "disconnect_grace": 30}


def run(room: Room, coro: Any, limit: float = 120) -> Any:
    return asyncio.run_coroutine_threadsafe(coro, room.loop).result(limit)


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A small room of its own (the hold'em tables), with an administrator."""
    _need_browser()
    tmp = tmp_path_factory.mktemp("console-room")
    manager = serve_room(
        tmp, RoomSettings(tables=tuple(demo_tables(TIMING, games=("holdem",)))), durable=False
    )

    async def setup(r: Room) -> None:
        await r.live.room.store.accounts.register(ADMIN, PASSWORD, role=Role.ADMIN)

    with room_in_thread("console-room", manager, setup) as r:
        yield r


def console(page: Any, room: Room, where: str = "dashboard") -> list[str]:
    """Log the page in to the console as the administrator (``console_at``), with every
    Content-Security-Policy violation reported to the page's console; returns the page's script errors and
    CSP refusals (a list that fills as they happen)."""
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation',"
        " e => console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    return console_at(page, room.url, where, ADMIN)


def status(page: Any) -> str:
    text: str = page.locator("#console-status").inner_text()
    return text


def test_an_admin_opens_a_table_that_a_player_sees_in_the_lobby_and_plays_at(room: Room, page: Any) -> None:
    errors = console(page, room, "tables")
    fields = {"id": "web-console-nl", "name": "Console Table", "game": "holdem", "betting": "NL",
              "stakes": {"small_blind": 5, "big_blind": 10}, "seats": 4, "timing": FAST}  # fmt: skip
    page.locator("#open-game-form textarea[name=fields]").fill(json.dumps(fields))
    page.click("#open-game-form button[type=submit]")
    page.wait_for_selector('#games-list tr[data-game="web-console-nl"]')
    assert "web-console-nl opened" in status(page)

    async def bots() -> None:
        room.bots += await start_bots(
            room.url, 1, ["caller"], tables=["web-console-nl"], think=(0.05, 0.2), seed=3
        )

    run(room, bots())
    other = page.context.browser.new_context(
        viewport={"width": 1280, "height": 900}, locale="en-US"
    ).new_page()
    other.set_default_timeout(15_000)
    p = Player(other, room.url)
    p.register()
    other.wait_for_selector('button.open-table[data-table="web-console-nl"]')
    p.open_and_sit("web-console-nl")
    seen = Seen()
    p.play(
        "web-console-nl", seen, until=lambda s, t: s.decisions >= 2 and len(s.hand_ids) >= 1, raise_once=False
    )
    assert seen.decisions >= 2
    page.click('button[data-watch="web-console-nl"]')  # the administrator watches the table
    page.locator("#watch-view", has_text=p.name).wait_for()
    assert p.errors == [] and errors == []
    other.context.close()


def test_an_admin_schedules_a_sit_and_go_that_bots_fill_and_finish(room: Room, page: Any) -> None:
    errors = console(page, room, "tournaments")
    page.select_option("#schedule-form select[name=preset]", "sng")
    fields = json.loads(page.locator("#schedule-form textarea[name=fields]").input_value())
    assert fields["kind"] == "sng"
    fields.update({"id": "web-sng", "name": "Console SNG", "max_players": 3, "table_size": 3,
                   "starting_stack": 300, "level_minutes": 0.05, "action_seconds": 2.0, "time_bank": 1.0,
                   "between_hands": 0.05})  # fmt: skip
    page.locator("#schedule-form textarea[name=fields]").fill(json.dumps(fields))
    page.click("#schedule-form button[type=submit]")
    row = page.locator('#tournaments-upcoming tr[data-tournament^="web-sng-"]')
    row.wait_for()
    tid = row.get_attribute("data-tournament")
    assert tid is not None

    async def bots() -> None:
        room.bots += await start_tournament_bots(
            room.url, tid, 3, ["caller", "random"], think=(0, 0.05), seed=9
        )

    run(room, bots())
    actor = room.live.room.tournaments[tid]
    wait_until(
        lambda: actor.finished_at is not None,
        timeout=240,
        what=f"the sit-and-go {tid} is played to its end",
        show=lambda: actor.director.status,
    )
    page.reload()
    done = page.locator(f'#tournaments-finished tr[data-tournament="{tid}"]')
    done.wait_for()
    assert done.locator(".t-status").inner_text() == "finished"
    done.locator("a").click()
    page.wait_for_selector("#tournament-detail")
    assert page.locator("#tournament-entrants li").count() == 3
    assert errors == []


def test_an_adjustment_is_in_the_players_cashier_and_in_the_audit_log(room: Room, page: Any) -> None:
    errors = console(page, room, "players")
    other = page.context.browser.new_context(
        viewport={"width": 1280, "height": 900}, locale="en-US"
    ).new_page()
    p = Player(other, room.url)
    p.register()
    page.locator("#player-search input[name=q]").fill(p.name)
    page.click("#player-search button[type=submit]")
    page.click(f'#player-results a:text-is("{p.name}")')
    page.wait_for_selector("#adjust-form")
    page.select_option("#adjust-form select[name=currency]", PLAY)
    page.locator("#adjust-form input[name=amount]").fill("4321")
    page.locator("#adjust-form input[name=reason]").fill("goodwill after a disconnect")
    page.click("#adjust-form button[type=submit]")
    page.locator("#console-status", has_text="adjusted by 4321").wait_for()
    # the player's cashier
    other.click("#cashier-btn")
    ledger = other.locator("dialog.cashier table.ledger tbody tr").first
    ledger.wait_for()
    assert "adjustment" in ledger.inner_text() and "4,321" in ledger.inner_text()
    # the audit log
    page.goto(f"{room.url}/static/console.html#audit")
    entry = page.locator('#audit-log tr[data-action="player.adjust"]').first
    entry.wait_for()
    text = entry.inner_text()
    assert ADMIN in text and p.name in text and "goodwill after a disconnect" in text
    assert errors == [] and p.errors == []
    other.context.close()


def test_an_admin_cancels_a_registering_tournament_and_sees_the_refunds(room: Room, page: Any) -> None:
    errors = console(page, room, "tournaments")
    page.select_option("#schedule-form select[name=preset]", "scheduled")
    fields = json.loads(page.locator("#schedule-form textarea[name=fields]").input_value())
    fields.update({"id": "web-cancel", "name": "To Cancel", "buy_in": 200, "fee": 20})
    page.locator("#schedule-form textarea[name=fields]").fill(json.dumps(fields))
    page.click("#schedule-form button[type=submit]")
    page.locator('#tournaments-upcoming tr[data-tournament="web-cancel"]').wait_for()
    # a player registers
    name = f"canc{int(time.time()) % 100000}"
    with httpx.Client(base_url=room.url, timeout=30) as http:
        token = http.post("/api/register", json={"name": name, "password": PASSWORD}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        http.cookies.clear()
        before = http.get("/api/account", headers=auth).json()["balances"][PLAY]
        assert http.post("/api/tournaments/web-cancel/register", json={}, headers=auth).status_code == 200
        assert http.get("/api/account", headers=auth).json()["balances"][PLAY] == before - 220
        page.reload()
        page.on("dialog", lambda d: d.accept())
        page.click('button[data-cancel="web-cancel"]')
        page.locator("#console-status", has_text="refunded").wait_for()
        assert http.get("/api/account", headers=auth).json()["balances"][PLAY] == before
    page.goto(f"{room.url}/static/console.html#audit")
    entry = page.locator('#audit-log tr[data-action="tournament.cancel"]').first
    entry.wait_for()
    assert name in entry.inner_text() and '"amount":220' in entry.inner_text()
    assert errors == []


def test_an_admin_edits_a_tournament_nobody_registered_for(room: Room, page: Any) -> None:
    errors = console(page, room, "tournaments")
    page.select_option("#schedule-form select[name=preset]", "guaranteed")
    fields = json.loads(page.locator("#schedule-form textarea[name=fields]").input_value())
    fields.update({"id": "web-edit", "name": "Before", "guarantee": 1000})
    page.locator("#schedule-form textarea[name=fields]").fill(json.dumps(fields))
    page.click("#schedule-form button[type=submit]")
    page.locator('#tournaments-upcoming tr[data-tournament="web-edit"]').wait_for()
    page.click('button[data-edit="web-edit"]')
    edited = json.loads(page.locator("#schedule-form textarea[name=fields]").input_value())
    assert edited["guarantee"] == 1000 and "start" in edited
    edited.update({"name": "After", "guarantee": 3000})
    page.locator("#schedule-form textarea[name=fields]").fill(json.dumps(edited))
    page.click("#schedule-form button[type=submit]")
    page.locator('#tournaments-upcoming tr[data-tournament="web-edit"]', has_text="After").wait_for()
    cfg = room.live.room.tournaments["web-edit"].director.config
    assert cfg.name == "After" and cfg.guarantee == 3000
    assert errors == []


def test_an_admin_sets_the_game_of_the_week_and_a_happy_hour(room: Room, page: Any) -> None:
    errors = console(page, room, "promotions")
    gotw = [{"week": "this", "game": "omaha", "betting": "PL"}]
    happy = [{"days": ["fri"], "start": "20:00", "end": "22:00", "multiplier": 2}]
    fields = {"timezone": "UTC", "game_of_the_week": gotw, "happy_hour": happy}
    page.locator("#promotions-form textarea[name=fields]").fill(json.dumps(fields))
    page.click("#promotions-form button[type=submit]")
    page.locator("#gotw-now", has_text="omaha PL").wait_for()
    assert "fri" in page.locator("#happy-hours").inner_text()
    assert "Set in the console" in page.locator(".console-page").inner_text()
    points = room.live.room.tables["holdem-nl"].table.points
    assert points is not None and points.happy_hours[0].multiplier_pct == 200
    assert errors == []


def test_the_console_is_refused_to_a_player(room: Room, page: Any) -> None:
    p = Player(page, room.url)
    p.register()
    assert page.locator("#console-link").is_hidden()
    page.goto(f"{room.url}/static/console.html")
    page.wait_for_selector("#console-login:not([hidden])")
    assert "not an administrator" in page.locator("#console-login-error").inner_text()
    assert page.locator("#console").is_hidden()
