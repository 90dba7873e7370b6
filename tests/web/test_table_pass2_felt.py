"""Issue 31, the player's table second pass, in chromium: own cards readable and uncovered at one to six
tables (1280x800) and on a phone (390x844), and a table that deals us in or needs a decision brought to
view in the one-table layout. The tables are drawn from frames the test gives them (no bots needed), in a
room of its own; screenshots go to artifacts/screenshots/ and are checked by bounding boxes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import (
    NEW_TILE,
    Room,
    _need_browser,
    browser_page,
    overlap,
    painted,
    room_in_thread,
    web_room,
)
from tests.web.player import Player

MOUNT = (
    "async ([state, decision]) => {"
    + NEW_TILE
    + """
    tile.apply({ type: "snapshot", table: state.table, state });
    if (decision) tile.apply({ type: "turn", table: state.table, hand_id: state.hand.hand_id, seat: state.you,
      action_no: state.hand.action_no, action_left: 12, bank_left: 5, decision });
}"""
)

DECISION = {
    "kind": "bet",
    "fold": True,
    "check": False,
    "call": 20,
    "bring_in": 0,
    "raise": True,
    "min_to": 40,
    "max_to": 2000,
    "choices": [],
}


def table_state(
    table: str, *, variant: str = "holdem", cards: int = 2, you: int | None = 1
) -> dict[str, Any]:
    """A six-seat cash table mid-hand: every seat has bet (the chips in front of each seat), our seat (1)
    holds face-up cards, the others face-down ones; the button at our seat."""
    own = ["Ah", "Kd", "Qs", "Jc", "Th", "9d", "8s"][:cards]

    def seat(c: list[str], bet: int) -> dict[str, Any]:
        return {
            "stack": 1980,
            "bet": bet,
            "paid": bet,
            "folded": False,
            "all_in": False,
            "cards": c,
            "up": [False] * len(c),
            "shown": False,
        }

    players = {str(s): seat(own if s == you else ["??"] * cards, 20 * s) for s in range(1, 7)}
    return {
        "table": table,
        "name": "Texas Hold'em NL",
        "variant": variant,
        "betting": "NL",
        "stakes": {"small_blind": 10, "big_blind": 20, "chip_unit": 1},
        "currency": "PLAY",
        "seats": 6,
        "players": {
            str(s): {
                "player": f"x{s}",
                "name": f"player{s}long",
                "stack": 2000,
                "status": "playing",
                "markers": [],
            }
            for s in range(1, 7)
        },
        "you": you,
        "hand": {
            "hand_id": f"{table}-h1",
            "variant": variant,
            "betting": "NL",
            "button": 1,
            "board": [],
            "street": "preflop",
            "phase": "betting",
            "pots": [],
            "action_no": 7,
            "waiting_for": [you],
            "over": False,
            "to_act": you,
            "players": players,
        },
        "clocks": {},
        "kind": "cash",
        "cash": {"buy_in": {"min": 400, "max": 2000}, "waiting_list": 0},
        "tournament": None,
    }


def quiet_room(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Room]:
    """The demo room without bots (the tables of these tests are drawn from the frames the tests give): the
    body of each test_table_pass2 module's own ``room`` fixture."""
    _need_browser()
    with room_in_thread(name, web_room(tmp_path_factory.mktemp(name))) as r:
        yield r


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    yield from quiet_room(tmp_path_factory, "pass2-felt")


def own_cards(page: Any, table: str) -> list[dict[str, float]]:
    return [
        c.bounding_box() for c in page.locator(f'.tile[data-table="{table}"] .seat.mine .cards .card').all()
    ]


# (an element's class and its seat, for the message of a failed check)
WHAT = "e => `${e.className.baseVal ?? e.className} ${e.closest('.seat')?.dataset.seat}`"


def covering(page: Any, table: str) -> list[tuple[str, float, list[int]]]:
    """What covers our own cards at a table: any bet chip, name plate, dealer button, equity or status label
    whose box overlaps one of our cards (name, share of the card covered)."""
    cards = own_cards(page, table)
    found = []
    sel = ".bet, .plate, .dealer-button, .seat:not(.mine) .card, .countdown, .clock, .center > *"
    for el in page.locator(f'.tile[data-table="{table}"] :is({sel})').all():
        box = el.bounding_box()
        if box is None or not box["width"]:
            continue
        for c in cards:
            share = overlap(c, box) / (c["width"] * c["height"])
            if share > 0.001:
                what = str(el.evaluate(WHAT))
                found.append((what, round(share, 3), [round(box[k]) for k in ("x", "y", "width", "height")]))
    return found


def mount(page: Any, state: dict[str, Any], decision: dict[str, Any] | None = DECISION) -> None:
    page.evaluate(MOUNT, [state, decision])
    page.locator(f'.tile[data-table="{state["table"]}"] .seat.mine .card').first.wait_for(state="attached")


@pytest.mark.parametrize(("variant", "cards"), [("holdem", 2), ("omaha", 4)])
def test_own_cards_readable_and_uncovered_at_one_to_six_tables(
    room: Room, browser: Any, screenshots: Path, variant: str, cards: int
) -> None:
    """Defect 1: at six tables on 1280x800 our own cards are at least 30 px wide and nothing (a bet chip,
    a name plate, the dealer button) covers them; at one table they are bigger than at six."""
    with browser_page(browser, viewport={"width": 1280, "height": 800}) as page:
        p = Player(page, room.url)
        p.register()
        tables = [f"felt{variant}{i}" for i in range(6)]
        for t in tables:
            mount(page, table_state(t, variant=variant, cards=cards))
        widths = {}
        for layout in ("1", "2", "4", "6"):
            page.evaluate("(m) => window.pokerroom.layout.setMode(m)", layout)
            page.evaluate("document.querySelector('#tiles').scrollTop = 0")
            painted(page)
            page.screenshot(path=str(screenshots / f"pass2-own-cards-{variant}-{layout}-1280x800.png"))
            shown = tables[: int(layout)]
            for t in shown:
                boxes = own_cards(page, t)
                assert len(boxes) == cards
                assert min(b["width"] for b in boxes) >= 30, (layout, t, boxes)
                assert not covering(page, t), (layout, t, covering(page, t))
            widths[layout] = min(b["width"] for b in own_cards(page, shown[0]))
        assert widths["1"] > widths["6"], widths
        assert widths["1"] >= 56, widths
        assert not p.errors, p.errors


def test_own_cards_uncovered_on_a_phone(room: Room, browser: Any, screenshots: Path) -> None:
    """Defect 1 on a 390x844 phone: our cards are not covered by a chip or plate either."""
    with browser_page(
        browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    ) as page:
        p = Player(page, room.url)
        p.register()
        mount(page, table_state("feltphone"))
        page.screenshot(path=str(screenshots / "pass2-own-cards-390x844.png"))
        boxes = own_cards(page, "feltphone")
        assert min(b["width"] for b in boxes) >= 30, boxes
        assert not covering(page, "feltphone"), covering(page, "feltphone")
        assert not p.errors, p.errors


def _in_view(page: Any, table: str) -> bool:
    box = page.locator(f'.tile[data-table="{table}"]').bounding_box()
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= 801


def test_a_started_sit_and_go_comes_forward_in_the_one_table_layout(room: Room, browser: Any) -> None:
    """Defect 8: one table to a screen, a cash table in view; a sit-and-go table opened behind it deals us
    our first hand: it is scrolled into view. Scrolled away, its decision brings it back once; with the
    lobby in view, the Tables button says that a table waits."""
    with browser_page(browser, viewport={"width": 1280, "height": 800}) as page:
        p = Player(page, room.url)
        p.register()
        mount(page, table_state("sng-cash"), None)
        sng = {**table_state("sng-t1"), "hand": None, "kind": "tournament"}
        page.evaluate(MOUNT, [sng, None])
        page.evaluate("() => window.pokerroom.layout.setMode('1')")
        page.evaluate("document.querySelector('#tiles').scrollTop = 0")
        assert _in_view(page, "sng-cash") and not _in_view(page, "sng-t1")
        seats = [1, 2, 3, 4, 5, 6]
        started = {"type": "hand_started", "seats": seats, "stacks": [1500] * 6, "variant": "holdem",
                   "betting": "NL", "button": 1}  # fmt: skip
        page.evaluate(
            """(e) => window.pokerroom.tiles.get("sng-t1").onMessage(
                { type: "event", table: "sng-t1", hand_id: "sng-h1", event: e })""",
            started,
        )
        assert _in_view(page, "sng-t1"), "the sit-and-go that dealt us in is brought to view"
        # Scrolled back to the cash table: the sit-and-go's decision brings it to view again.
        page.evaluate("document.querySelector('#tiles').scrollTop = 0")
        assert not _in_view(page, "sng-t1")
        turn = {"type": "turn", "table": "sng-t1", "hand_id": "sng-h1", "seat": 1, "action_no": 3,
                "action_left": 12, "bank_left": 5, "decision": DECISION}  # fmt: skip
        page.evaluate("(m) => window.pokerroom.tiles.get('sng-t1').onMessage(m)", turn)
        assert _in_view(page, "sng-t1"), "the table that needs a decision is brought to view"
        assert "keys-target" in (page.locator('.tile[data-table="sng-t1"]').get_attribute("class") or "")
        page.click("#lobby-toggle")
        toggle = page.locator("#tables-toggle")
        assert "needs-action" in (toggle.get_attribute("class") or ""), "the lobby says a table waits"
        assert not p.errors, p.errors
