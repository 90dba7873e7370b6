"""The tournament page's re-entry (issue 35; RULES.md §11.3, R261) in chromium: the page's own module
renders given details (the server's answer of ``GET /api/tournaments/{id}``) in the browser; a player
whose entries are all out while late registration is open sees **Re-enter**, which sends
``tournament_register``; one still in, one at ``max_entries``, or any after late registration does not;
the standings number the entries. (The server's side: tests/server/test_tournament_reentry.py.) And the
lobby lists a recurring series' next start in the viewer's own time zone (issue 35)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any

import pytest

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.recurring import Recurrence
from pokerroom.server.room import RoomSettings
from tests.server.conftest import serve_room

from .conftest import Room, _need_browser, browser_page, headless_chromium, room_in_thread, sign_up
from .player import Player


@pytest.fixture(scope="module")
def bare_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A room with nothing in it: the pages and their modules are all this test needs."""
    _need_browser()
    tmp: Path = tmp_path_factory.mktemp("reentry-room")
    template = TournamentConfig("evening", "Evening", buy_in=100, start_time=datetime.now(UTC))
    evening = Recurrence(template, "daily", time(20, 0), "Europe/Sofia", ahead_hours=1)  # the next one
    with room_in_thread("reentry-room", serve_room(tmp, RoomSettings(recurring=((evening, False),)))) as r:
        yield r


@pytest.fixture(scope="module")
def chromium(bare_room: Room) -> Iterator[Any]:
    with headless_chromium() as b:
        yield b


def details(me_rows: list[dict[str, Any]], *, open_: bool = True, max_entries: int = 3) -> dict[str, Any]:
    others = [{"player": "9", "name": "rival", "entry": 1, "stack": 4000, "place": None, "table": "re-t1"}]
    rows = [*others, *me_rows]
    return {
        "summary": {
            "tournament": "re", "name": "Re-entry", "kind": "mtt", "status": "running", "variant": "holdem",
            "betting": "NL", "currency": "PLAY", "buy_in": 1000, "fee": 100, "starting_stack": 1500,
            "table_size": 9, "level_minutes": 10, "min_players": 2, "max_players": 0, "start_time": None,
            "entrants": 1 + len(me_rows), "remaining": 1, "prize_pool": 2000, "guarantee": 0,
            "freeroll": False, "satellite_to": None, "rebuy_levels": 0, "add_on": False,
            "late_registration_levels": 0, "late_registration_minutes": 30, "max_entries": max_entries,
            "featured": False, "bounty": 0, "progressive": False,
        },
        "structure": [],
        "entrants": [{"player": r["player"], "name": r["name"], "entry": r["entry"]} for r in rows],
        "registration_open": open_,
        "payouts": [],
        "seats_won": 0,
        "standings": rows,
        "tables": [],
        "hand_for_hand": False,
        "prizes": [],
        "tickets": [],
        "level": None,
    }  # fmt: skip


RENDER = """async (d) => {
  const { TournamentDialog } = await import("/static/js/tournament.js");
  const sent = [];
  const app = { me: { id: 5 }, socket: { request: async (m) => { sent.push(m); } },
    refreshBalance() {}, lobby: { refresh() {} } };
  const dlg = new TournamentDialog(app);
  dlg.load = async () => {};
  dlg.render(d);
  const body = dlg.body;
  const button = body.querySelector(".t-reenter");
  const cells = body.querySelectorAll(".t-standings-table tbody tr td:nth-child(2)");
  const names = [...cells].map((x) => x.textContent);
  const facts = body.querySelector(".t-facts").textContent;
  const label = button ? button.textContent : null;
  if (button) { button.click(); await new Promise((r) => setTimeout(r, 0)); }
  dlg.el.remove();
  return { label, sent, names, facts, register: Boolean(body.querySelector(".t-register")) };
}"""


def mine(entry: int, *, out: bool, place: int | None = None) -> dict[str, Any]:
    stack = 0 if out else 1500
    return {"player": "5", "name": "hero", "entry": entry, "stack": stack, "place": place, "table": None}


def test_re_enter_is_offered_to_a_busted_player_while_late_registration_is_open_r261(
    bare_room: Room, chromium: Any
) -> None:
    with browser_page(chromium) as page:
        page.goto(f"{bare_room.url}/")
        page.wait_for_load_state("domcontentloaded")
        seen = page.evaluate(RENDER, details([mine(1, out=True)]))
        assert seen["label"] is not None and seen["label"].startswith("Re-enter (")
        assert seen["sent"] == [{"type": "tournament_register", "tournament": "re"}]
        assert "up to 3 entries" in seen["facts"] and "30 min" in seen["facts"]
        # two entries out, the third allowed: offered; the standings number the entries
        seen = page.evaluate(RENDER, details([mine(1, out=True, place=None), mine(2, out=True)]))
        assert seen["label"] is not None
        assert "hero (entry 2)" in seen["names"] and "hero (entry 1)" in seen["names"]
        for rows, kw in (
            ([mine(1, out=True), mine(2, out=False)], {}),  # his entry 2 plays: nothing to re-enter
            ([mine(1, out=True), mine(2, out=True), mine(3, out=True)], {}),  # max_entries used
            ([mine(1, out=True)], {"open_": False}),  # late registration over
            ([mine(1, out=True)], {"max_entries": 1}),  # no re-entry in this tournament
        ):
            seen = page.evaluate(RENDER, details(rows, **kw))
            assert seen["label"] is None and seen["sent"] == [], (rows, kw)
        # a player not registered while late registration is open: Register, not Re-enter
        seen = page.evaluate(RENDER, details([]))
        assert seen["label"] is None and seen["register"] is True


def test_the_lobby_lists_a_start_in_the_viewers_time_zone(bare_room: Room, chromium: Any) -> None:
    """Issue 35: a recurring series' 20:00 Europe/Sofia occurrence is listed at 20:00 to a viewer in Sofia
    and at 13:00 to one in New York (the same instant, each in his own zone)."""
    seen = {}
    for zone in ("Europe/Sofia", "America/New_York"):
        with browser_page(chromium, timezone_id=zone) as page:
            player = Player(page, bare_room.url)  # (registered by hand: this room has no cash tables)
            sign_up(page, bare_room.url, player.name)
            page.click('.tab[data-tab="tournaments"]')
            start = page.locator('tr[data-tournament^="evening-"] time.t-start')
            start.wait_for()
            seen[zone] = (start.get_attribute("datetime"), start.inner_text())
    (at_sofia, sofia), (at_ny, new_york) = seen["Europe/Sofia"], seen["America/New_York"]
    assert at_sofia == at_ny, "one instant"
    assert "8:00:00" in sofia and "PM" in sofia and "1:00:00" in new_york and "PM" in new_york
