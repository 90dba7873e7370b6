"""Issue 31, the small defects, in chromium: a hand-strength answer for every game the room deals
(defect 5), and the details of defect 9."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from pokerroom.variants import VARIANTS
from tests.web.conftest import Room, browser_page
from tests.web.player import Player
from tests.web.test_table_pass2_felt import mount, quiet_room, table_state
from tests.web.test_table_play import FRAMES


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    yield from quiet_room(tmp_path_factory, "pass2-small")


# A player's own cards and the board for each game (cards of every deck: tens and up).
_HOLDEM = ("AhKh", "QhJhTs")
_FIVE = ("AhKdQcJsTh", "")
CASES = {
    "holdem": _HOLDEM,
    "irish": ("AhKhQdJd", "QhJhTs"),  # (before the discard: four cards)
    "shortdeck": _HOLDEM,
    "omaha": ("AhKhQdJd", "TcTsJc"),
    "omaha5": ("AhKhQdJdKs", "TcTsJc"),
    "omaha6": ("AhKhQdJdKsKc", "TcTsJc"),
    "omaha8": ("AhKhQdJd", "TcTsJc"),
    "omaha8_5": ("AhKhQdJdKs", "TcTsJc"),
    "stud": ("AhKdQcJsThAdKh", ""),
    "stud8": ("AhKdQcJsThAdKh", ""),
    "razz": ("AhKdQcJsThAdKh", ""),
    "stud5": _FIVE,
    "soko": _FIVE,
    "draw5": _FIVE,
    "deuce7_triple": _FIVE,
    "deuce7_single": _FIVE,
    "draw7a": _FIVE,
    "badugi": ("AhKdQcJs", ""),
}


def test_every_game_has_a_hand_value(room: Room, page: Any) -> None:
    """Defect 5: GET /api/hand-value answered 400 unknown_game for 5-Card Draw. Every game the room has (its
    lobby's tables and pools, and every game a table may be configured with) answers in words."""
    p = Player(page, room.url)
    p.register()
    lobby = page.request.get(f"{room.url}/api/lobby").json()
    in_room = {r["variant"] for r in lobby["tables"]} | {r["variant"] for r in lobby.get("pools") or []}
    assert "draw5" in in_room and in_room <= set(VARIANTS), in_room
    assert set(CASES) == set(VARIANTS), "a case for every game"
    for game, (cards, board) in CASES.items():
        r = page.request.get(
            f"{room.url}/api/hand-value?{urlencode({'game': game, 'cards': cards, 'board': board})}"
        )
        assert r.ok, (game, r.status, r.text())
        assert r.json()["high"], (game, r.json())
    low = page.request.get(f"{room.url}/api/hand-value?game=omaha8&cards=Ah2h3dKd&board=4c5sJc").json()
    assert low["low"] and low["high"], low
    draw = page.request.get(f"{room.url}/api/hand-value?game=draw5&cards=AhAdKcKs2h").json()
    assert draw["high"] == "Two pair, aces and kings", draw
    assert not p.errors, p.errors


# ---------------------------------------------------------------------------------------- defect 9


def test_replayer_last_hands_top_up_and_spoken_names(room: Room, browser: Any) -> None:
    """Defect 9: the replayer's "to start" button is our own SVG icon (no glyph Debian's fonts lack); "Last
    hands" lists the hands newest first in time order; a disabled Top-up box is empty, not `1`; in Russian
    the screen-reader names of a table are the Russian ones, as its heading."""
    with browser_page(browser, viewport={"width": 1280, "height": 800}, locale="ru-RU") as page:
        p = Player(page, room.url)
        p.register()
        out = page.evaluate(
            """async ([state, frames]) => {
                const { ReplayTile } = await import("/static/js/replay.js");
                const app = window.pokerroom;
                const rp = new ReplayTile(app, { hand_id: "rp-1", table: "t", seats: 6, seat: 1,
                  players: { "1": "alice", "4": "bob" }, events: frames });
                document.body.append(rp.el);
                const start = rp.el.querySelector("button.rp-start");
                app.lastHands.onMessage({ type: "last_hands", hands: [
                  { hand_id: "h-b", table: "b", started_at: "2026-12-06T10:05:00Z" },
                  { hand_id: "h-a", table: "a", started_at: "2026-12-06T10:20:00Z" },
                  { hand_id: "h-c", table: "c", started_at: "2026-12-06T09:00:00Z" },
                ] });
                const listed = [...app.lastHands.list.querySelectorAll("li")].map((li) => li.textContent);
                return { text: start.textContent, icons: start.querySelectorAll("svg path").length,
                  label: start.getAttribute("aria-label"), listed };
            }""",
            [None, FRAMES],
        )
        assert out["text"].strip() == "" and out["icons"] == 1 and out["label"], out
        assert [x.split(" · ")[1] for x in out["listed"]] == ["h-a", "h-b", "h-c"], out["listed"]
        state = table_state("small-ru")
        state["cash"] = {"buy_in": {"min": 400, "max": 1980}, "waiting_list": 0}  # our stack is the maximum
        mount(page, state, None)
        tile = page.locator('.tile[data-table="small-ru"]')
        box = tile.locator(".top-up-amount")
        assert box.is_disabled() and box.input_value() == "", "nothing to top up: an empty, disabled box"
        heading = tile.locator(".tile-head h2").inner_text()
        assert heading != "Texas Hold'em NL" and "Texas" not in heading, heading
        assert tile.get_attribute("aria-label") == heading
        close = tile.locator(".close-btn").get_attribute("aria-label") or ""
        assert heading in close and "Texas Hold'em" not in close, close
        assert not p.errors, p.errors


def test_the_shipped_room_runs_it_twice_and_offers_its_demo_account() -> None:
    """Defect 9: the key legend offers run it twice (y / n): the shipped room enables it at its big-bet
    board tables (R-RIT: games with a shared board only); its demo account is on, and the room's settings
    carry it for the login page (GET /api/room)."""
    from pokerroom.cli.serve import DEMO_NAME, DEMO_PASSWORD, room_settings
    from pokerroom.engine import Betting
    from pokerroom.server.config.parse import parse_config

    shipped = Path(__file__).resolve().parents[2] / "src" / "pokerroom" / "server" / "config" / "room.toml"
    config = parse_config(shipped.read_text())
    twice = [t for t in config.tables if t.run_it_twice]
    assert {t.table_id for t in twice} >= {"holdem-nl", "omaha-pl"}, twice
    for t in twice:
        assert VARIANTS[t.variant].has_shared_board and t.betting is not Betting.FIXED_LIMIT, t.table_id
    assert room_settings(config).demo_account == (DEMO_NAME, DEMO_PASSWORD)


def test_the_login_page_says_nothing_of_a_demo_account_the_room_has_not(room: Room, browser: Any) -> None:
    """Defect 9: a room without ``[room] demo_account`` says nothing of one (test_table_pass2_login: one
    with it says so)."""
    assert login_hint(browser, room.url) == (False, "")


def login_hint(browser: Any, url: str) -> tuple[bool, str]:
    """Whether the login page at ``url`` shows its demo-account line, and its text."""
    with browser_page(browser, viewport={"width": 1280, "height": 800}) as page:
        page.goto(url + "/")
        page.wait_for_selector("#login:not([hidden])")
        page.wait_for_load_state("networkidle")
        hint = page.locator("#demo-hint")
        return hint.is_visible(), hint.inner_text() if hint.is_visible() else ""
