"""Issue 31: the lifetime statistics page in chromium, against the known stored hands of
tests/server/test_my_stats.py (five hold'em hands and a tournament hand of alice's, the figures worked out
by hand there): the graph is drawn, the filters change the figures, the session CSV downloads with the
right content, and the page fits at 1280x800 and 390x844 (bounding boxes checked, not by eye)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from pokerroom.server.room import RoomSettings
from tests.server.conftest import LiveServer, serve_room
from tests.server.test_my_stats import _known_room
from tests.server.wire import PASSWORD

from .conftest import SCREENSHOTS, Room, _need_browser, browser_page, overlap, room_in_thread


@contextlib.asynccontextmanager
async def stats_room(tmp: Path) -> AsyncIterator[LiveServer]:
    async with serve_room(tmp, RoomSettings(), durable=False) as live:
        yield live


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    _need_browser()

    async def setup(r: Room) -> None:
        await _known_room(r.live)

    with room_in_thread("lifetime-room", stats_room(tmp_path_factory.mktemp("lifetime-room")), setup) as r:
        yield r


def _open(page: Any, url: str) -> Any:
    page.goto(url + "/")
    page.fill("#login-form input[name=name]", "alice")
    page.fill("#login-form input[name=password]", PASSWORD)
    page.click("#login-btn")
    page.wait_for_selector("#app:not([hidden])")
    menu = page.locator("#menu-btn")
    if menu.count() and menu.is_visible():  # a phone: the header's controls are behind the Menu button
        menu.click()
    page.click("#lifetime-btn")
    dialog = page.locator("dialog.lifetime-dialog")
    dialog.locator(".life-totals .hands").wait_for()
    return dialog


def _inside(inner: dict[str, float], outer: dict[str, float], slack: float = 1.0) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


def test_the_page_draws_the_graph_filters_and_downloads_the_sessions(room: Room, browser: Any) -> None:
    from playwright.sync_api import expect

    with browser_page(browser, viewport={"width": 1280, "height": 800}, accept_downloads=True) as page:
        refused: list[str] = []  # the page works under the Content-Security-Policy, without errors
        page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
        page.on("pageerror", lambda e: refused.append(str(e)))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation',"
            " e => console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI));"
        )
        d = _open(page, room.url)
        totals = d.locator(".life-totals")
        expect(totals.locator(".hands")).to_have_text("5")
        expect(totals.locator(".net")).to_have_attribute("data-net", "-12")
        for cls, text in (
            ("vpip", "60.0%"),
            ("pfr", "40.0%"),
            ("three_bet", "50.0%"),
            ("wtsd", "66.7%"),
            ("wsd", "50.0%"),
        ):
            expect(totals.locator(f".{cls}")).to_have_text(text)
        # the graph: (0, 0) and the five hands' cumulative results -18, -10, -6, -12, -12
        line = d.locator(".life-graph polyline")
        pts = [tuple(map(float, p.split(","))) for p in (line.get_attribute("points") or "").split()]
        assert len(pts) == 6
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        assert xs == sorted(xs) and len(set(xs)) == 6
        # y grows downwards from 0 (the top, 8 px in) to -18 (the bottom, 212 px): 204 px for 18 chips
        assert ys == [round(8 + 204 * -v / 18, 1) for v in (0, -18, -10, -6, -12, -12)]
        assert "lost" in (line.get_attribute("class") or "")
        rows = d.locator(".life-rows tbody tr")
        expect(rows).to_have_count(2)
        expect(d.locator('.life-rows tr[data-stakes="1/2"] .hands')).to_have_text("4")

        # filters change the figures
        d.locator("select[name=stakes]").select_option("1/2")
        expect(totals.locator(".hands")).to_have_text("4")
        expect(totals.locator(".vpip")).to_have_text("75.0%")
        d.locator("select[name=stakes]").select_option("")
        d.locator("select[name=kind]").select_option("tournament")
        expect(totals.locator(".hands")).to_have_text("1")
        expect(d.locator("select[name=currency]")).to_have_value("CHIPS")
        expect(totals.locator(".net")).to_have_attribute("data-net", "8")
        d.locator("select[name=kind]").select_option("")
        d.locator("input[name=from]").fill("2026-03-02")
        d.locator("input[name=to]").fill("2026-03-02")
        expect(totals.locator(".hands")).to_have_text("2")
        expect(totals.locator(".net")).to_have_attribute("data-net", "-6")
        d.locator("input[name=to]").fill("2026-03-01")
        expect(d.locator(".life-status")).to_contain_text("filter")
        d.locator("input[name=from]").fill("")
        expect(totals.locator(".hands")).to_have_text("3")

        # the session summary of what is shown (the first day: one session of three hands)
        with page.expect_download() as dl:
            d.locator(".life-csv").click()
        text = Path(dl.value.path()).read_text(encoding="utf-8")
        assert text.splitlines() == [
            "start,end,minutes,hands,profit,currency",
            "2026-03-01T23:00:00+00:00,2026-03-01T23:10:00+00:00,10,3,-6,PLAY",
        ]
        d.locator("input[name=to]").fill("")
        expect(totals.locator(".hands")).to_have_text("5")
        expect(d.locator(".life-sessions tbody tr")).to_have_count(2)
        with page.expect_download() as dl:
            d.locator(".life-csv").click()
        assert len(Path(dl.value.path()).read_text(encoding="utf-8").splitlines()) == 3
        assert refused == []


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_page_fits_the_screen(room: Room, browser: Any, width: int, height: int) -> None:
    with browser_page(browser, viewport={"width": width, "height": height}) as page:
        d = _open(page, room.url)
        d.locator(".life-graph").wait_for()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"lifetime-{width}x{height}.png"))
        screen = {"x": 0.0, "y": 0.0, "width": float(width), "height": float(height)}
        box = d.bounding_box()
        assert box is not None and _inside(box, screen), box
        filters = [b for b in (f.bounding_box() for f in d.locator(".life-filter").all()) if b is not None]
        assert len(filters) == 6
        for i, a in enumerate(filters):
            assert _inside(a, box), a
            for b in filters[i + 1 :]:
                assert overlap(a, b) == 0, (a, b)
        parts = [d.locator(sel).bounding_box() for sel in (".life-filters", ".life-totals", ".life-chart")]
        assert all(p is not None for p in parts)
        for i, a in enumerate(parts):
            assert (
                a is not None and a["x"] >= box["x"] and a["x"] + a["width"] <= box["x"] + box["width"] + 1
            ), a
            for b in parts[i + 1 :]:
                assert b is not None and overlap(a, b) == 0, (a, b)
        graph = d.locator(".life-graph").bounding_box()
        assert graph is not None and graph["width"] >= min(width * 0.8, 600) and graph["height"] >= 100, graph
        # the tables scroll inside the dialog rather than push it wider than the screen
        for scroller in d.locator(".life-scroll").all():
            sb = scroller.bounding_box()
            assert sb is not None and sb["x"] + sb["width"] <= box["x"] + box["width"] + 1, sb


def test_the_page_speaks_russian(room: Room, browser: Any) -> None:
    """In Russian (the browser's language) the page's words are the Russian dictionary's."""
    from playwright.sync_api import expect

    with browser_page(browser, locale="ru-RU", viewport={"width": 1280, "height": 800}) as page:
        d = _open(page, room.url)
        expect(d.locator("header h2")).to_have_text("Статистика за всё время")
        expect(page.locator("#lifetime-btn")).to_have_text("За всё время")
        heads = d.locator(".life-rows thead th").all_inner_texts()
        assert "До вскрытия" in heads and "3-бет" in heads
        assert "Cash" not in d.inner_text() and "Sessions" not in d.inner_text()
