"""Issue 31, the lobby and the phone's header, in chromium (defects 6 and 7): players per flop and hands
per hour only after a minimum sample of hands, the cash preview beside the cash list only, and on a 390x844
phone a header whose controls are all on the screen (the others behind a Menu button) and a Tournaments
list that keeps its Status column and its buttons on the screen. Checked by bounding boxes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Room, browser_page
from tests.web.player import Player
from tests.web.test_table_pass2_felt import quiet_room


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    yield from quiet_room(tmp_path_factory, "pass2-lobby")


PHONE = {"width": 390, "height": 844}


def _on_screen(box: Mapping[str, float] | None, width: float, height: float) -> bool:
    return (
        box is not None
        and box["x"] >= -1
        and box["x"] + box["width"] <= width + 1
        and box["y"] >= -1
        and (box["y"] + box["height"] <= height + 1)
    )


def _apart(boxes: list[Mapping[str, float]]) -> bool:
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
            h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
            if w > 1 and h > 1:
                return False
    return True


def test_lobby_figures_after_a_sample_and_the_preview_beside_cash_only(room: Room, page: Any) -> None:
    """Defect 6: "Hands/h 1" and "Plrs/flop 0 %" after one hand said nothing: both are shown once the table
    has dealt 10 hands (lobby.js MIN_SAMPLE), "–" before; the cash list's Table, Game and Stakes columns
    say different things in every row; the cash preview is not left beside the Rush and Tournaments lists."""
    p = Player(page, room.url)
    p.register()
    cells = page.evaluate(
        """async () => {
            const { MIN_SAMPLE } = await import("/static/js/lobby.js");
            const lobby = window.pokerroom.lobby;
            const row = lobby.data.tables.find((r) => r.table === "holdem-nl");
            lobby.data.tables = [
              { ...row, table: "one-hand", hands: 1, hands_per_hour: 1, players_per_flop: 0, avg_pot: 30 },
              { ...row, table: "sampled", hands: MIN_SAMPLE, hands_per_hour: 80, players_per_flop: 35,
                avg_pot: 90 },
            ];
            lobby.renderList();
            const text = (id, n) =>
              document.querySelector(`.lobby-table tr[data-table="${id}"] td:nth-child(${n})`).textContent;
            return { min: MIN_SAMPLE, one: [text("one-hand", 7), text("one-hand", 8), text("one-hand", 6)],
              sampled: [text("sampled", 7), text("sampled", 8)] };
        }"""
    )
    assert cells["min"] == 10
    assert cells["one"][:2] == ["\u2013", "\u2013"] and cells["one"][2] != "\u2013", cells
    assert cells["sampled"] == ["35%", "80"], cells
    page.click(".lobby-refresh")
    page.locator('.lobby-table tr[data-table="holdem-nl"]').wait_for()
    rows = page.locator(".lobby-table tbody tr").evaluate_all(
        "rs => rs.map((r) => [...r.cells].slice(0, 3).map((c) => c.textContent))"
    )
    assert len(rows) > 20 and all(len({*r}) == 3 for r in rows), (
        f"Table, Game and Stakes say different things: {rows}"
    )
    assert rows[0][:2] == ["6 seats", "Texas Hold'em"] and rows[0][2].endswith("20/40"), rows[0]
    page.click('.lobby-table tr[data-table="holdem-nl"] td.t-name')
    preview = page.locator('.lobby-preview[data-table="holdem-nl"]')
    preview.wait_for()
    for tab in ("rush", "tournaments"):
        page.click(f'.lobby-tabs button[data-tab="{tab}"]')
        assert preview.is_hidden(), f"no cash preview beside the {tab} list"
    page.click('.lobby-tabs button[data-tab="cash"]')
    assert preview.is_visible()
    # Every upcoming tournament says when it starts: a clock time (the viewer's zone) or, a sit-and-go,
    # when full.
    page.click('.lobby-tabs button[data-tab="tournaments"]')
    upcoming = page.locator('.lobby-table.t-list tr:has(td.t-status[data-status="announced"]), '
                            '.lobby-table.t-list tr:has(td.t-status[data-status="registering"])')  # fmt: skip
    assert upcoming.count() >= 1
    for row in upcoming.all():
        start = row.locator(".t-start")
        assert start.count() == 1 and start.inner_text().strip(), row.inner_text()
    assert "starts when 6 are in" in page.locator(".lobby-table.t-list").inner_text()
    assert not p.errors, p.errors


def test_phone_header_and_tournament_list_on_the_screen(room: Room, browser: Any, screenshots: Path) -> None:
    """Defect 7 on a 390x844 phone: every header control shown is wholly on the screen (none in a strip
    off its edge); the others are behind Menu, and once it is open they wrap onto the screen, none over
    another. The Tournaments list shows its Status column, and its Info and Register buttons are on the
    screen."""
    with browser_page(browser, viewport=PHONE, is_mobile=True, has_touch=True) as page:
        p = Player(page, room.url)
        p.register()
        controls = "header.top :is(button, select, label, .who, a):visible"
        boxes = [b.bounding_box() for b in page.locator(controls).all()]
        assert boxes and all(_on_screen(b, 390, 844) for b in boxes), boxes
        menu = page.locator("#menu-btn")
        assert menu.is_visible() and page.locator("#logout-btn").is_hidden()
        menu.click()
        assert menu.get_attribute("aria-expanded") == "true"
        page.screenshot(path=str(screenshots / "pass2-phone-menu-390x844.png"))
        for sel in (
            "#sound",
            "#lang",
            "#balance",
            "#last-hands-btn",
            "#stats-btn",
            "#cashier-btn",
            "#logout-btn",
        ):
            el = page.locator(sel)
            assert el.is_visible() and _on_screen(el.bounding_box(), 390, 844), sel
        shown = [
            b.bounding_box()
            for b in page.locator("header.top :is(button, select, input, .who):visible").all()
        ]
        assert _apart([b for b in shown if b]), "no control over another"
        menu.click()
        assert page.locator("#logout-btn").is_hidden()
        page.click('.lobby-tabs button[data-tab="tournaments"]')
        page.locator(".lobby-table.t-list tbody tr").first.wait_for()
        page.screenshot(path=str(screenshots / "pass2-phone-tournaments-390x844.png"))
        status = page.locator(".lobby-table.t-list thead th").nth(4)
        assert status.is_visible() and _on_screen(status.bounding_box(), 390, 844)
        for row in page.locator(".lobby-table.t-list tbody tr[data-tournament]").all():
            assert row.locator("td.t-status").is_visible()
            for button in row.locator("td:last-child button").all():
                assert _on_screen(button.bounding_box(), 390, 10_000), button.inner_text()
        assert not p.errors, p.errors
