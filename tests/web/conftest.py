"""A real room for the browser tests: uvicorn in a background thread (Playwright's sync API owns the main
thread), demo tables with fast clocks, two bots at every table the tests play, and Debian's chromium."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pokerroom.bots.runner import start_bots, start_pool_bots, start_tournament_bots
from pokerroom.engine import Betting
from pokerroom.rooms import Timing
from pokerroom.rooms.rush_rules import RushTiming
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.demo import demo_pools, demo_tables, demo_tournaments
from pokerroom.server.room import RoomSettings
from tests.server.conftest import LiveServer, serve_room
from tests.web.player import PASSWORD

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
# One table per family of issue 7; bots sit at these.
PLAYED = (
    "holdem-nl",
    "omaha8-fl",
    "stud-fl",
    "razz-fl",
    "deuce7_triple-fl",
    "irish-pl",
    "draw7a-fl",
)
# The browser player's clock is generous (a loaded machine); bots think fast, hands follow each other fast.
TIMING = Timing(action=12.0, time_bank=5.0, between_hands=0.3, offer_time=5, disconnect_grace=30)


POOL = "rush-holdem-nl-6max"
TOURNAMENT = "turbo6"
# A sit-and-go that ends in a minute or two: 15 big blinds and 15-second levels (the end-to-end test).
FAST_SNG = TournamentConfig(
    "hyper6",
    "Hyper 6-max Hold'em NL (fast)",
    kind="sng",
    variant="holdem",
    betting=Betting.NO_LIMIT,
    buy_in=100,
    fee=10,
    starting_stack=300,
    table_size=6,
    max_players=6,
    level_minutes=0.25,
    timing=TIMING,
    currency="PLAY",
)
# A heads-up rebuy sit-and-go: rebuys and the add-on in level 1 (the add-on window: the last rebuy level and
# the one after it), with pauses between hands long enough to click Rebuy (only allowed between hands).
FAST_REBUY = TournamentConfig(
    "rebuy2",
    "Rebuy Heads-up Hold'em NL (fast)",
    kind="sng",
    variant="holdem",
    betting=Betting.NO_LIMIT,
    buy_in=100,
    fee=10,
    starting_stack=300,
    table_size=2,
    max_players=2,
    level_minutes=2.0,
    rebuy_levels=1,
    add_on=True,
    timing=Timing(action=12.0, time_bank=5.0, between_hands=2.5, offer_time=5, disconnect_grace=30),
    currency="PLAY",
)


@contextlib.asynccontextmanager
async def web_room(tmp: Path) -> AsyncIterator[LiveServer]:
    """The demo room (cash tables, Rush pools, the sit-and-go) with fast clocks on a fresh SQLite store."""
    settings = RoomSettings(
        tables=tuple(demo_tables(TIMING)),
        pools=tuple(demo_pools(RushTiming(action=12.0, reduced_action=12.0, time_bank=5.0))),
        tournaments=(*demo_tournaments(TIMING, level_minutes=5.0), FAST_SNG, FAST_REBUY),
    )
    async with serve_room(tmp, settings) as live:
        yield live


def _need_browser() -> Any:
    in_ci = os.environ.get("CI") == "true"
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing (apt-get install chromium); the browser tests need Debian's chromium"
        if in_ci:
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if in_ci:
            pytest.fail("playwright is not installed (pip install -e '.[test]')")
        pytest.skip("playwright is not installed")
    return sync_playwright


@dataclass
class Room:
    live: LiveServer
    loop: asyncio.AbstractEventLoop
    bots: list[Any] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.live.url

    def start_tournament_bots(self, tournament: str, count: int, prefix: str = "tbot") -> None:
        async def start() -> None:
            self.bots += await start_tournament_bots(
                self.url, tournament, count, think=(0.05, 0.25), prefix=prefix, seed=7
            )

        asyncio.run_coroutine_threadsafe(start(), self.loop).result(120)


@contextlib.contextmanager
def room_in_thread(
    name: str,
    manager: contextlib.AbstractAsyncContextManager[LiveServer],
    setup: Callable[[Room], Awaitable[None]] | None = None,
) -> Iterator[Room]:
    """A live room served from an event loop of its own thread (the browser tests are synchronous):
    ``setup`` runs there once it is up (accounts, bots; none by default); on exit its bots stop, then the
    room."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name=name, daemon=True)
    thread.start()

    async def start() -> Room:
        r = Room(await manager.__aenter__(), loop)
        if setup is not None:
            await setup(r)
        return r

    r = asyncio.run_coroutine_threadsafe(start(), loop).result(120)

    async def stop() -> None:
        for bot, task in r.bots:
            bot.stopped = True
            task.cancel()
        await asyncio.gather(*(t for _, t in r.bots), return_exceptions=True)
        await asyncio.wait_for(manager.__aexit__(None, None, None), 30)
        rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in rest:  # (what the room's tasks started and left: cancelled, not destroyed pending)
            task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)

    try:
        yield r
    finally:
        # A server that does not stop in time must not fail the tests it served.
        with contextlib.suppress(TimeoutError):
            asyncio.run_coroutine_threadsafe(stop(), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        if not thread.is_alive():  # the loop has stopped: close it, and the sockets it still holds
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            gc.collect()  # (what the room left is finalized in this teardown, not in a later test)


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    _need_browser()

    async def setup(r: Room) -> None:
        for i, tid in enumerate(PLAYED):
            r.bots += await start_bots(r.url, 2, tables=[tid], think=(0.05, 0.25), prefix=f"bot{i}x", seed=i)
        r.bots += await start_pool_bots(r.url, POOL, 3, entries=1, think=(0.05, 0.25), seed=99)

    with room_in_thread("web-room", web_room(tmp_path_factory.mktemp("web-room")), setup) as r:
        yield r


@contextlib.contextmanager
def holdem_room(
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    setup: Callable[[Room], Awaitable[None]] | None = None,
) -> Iterator[Room]:
    """A room of the demo's hold'em cash tables only (a store that is not durable), named ``name``:
    the ``room`` of a test module that plays at one or two of them (``setup``: its bots, if any)."""
    _need_browser()
    tmp = tmp_path_factory.mktemp(name)
    manager = serve_room(
        tmp, RoomSettings(tables=tuple(demo_tables(TIMING, games=("holdem",)))), durable=False
    )
    with room_in_thread(name, manager, setup) as r:
        yield r


def bots_at(
    table: str, count: int = 2, think: tuple[float, float] = (0.05, 0.2), **options: Any
) -> Callable[[Room], Awaitable[None]]:
    """A room's ``setup`` that seats ``count`` bots at ``table`` (``options``: ``start_bots``' others,
    e.g. ``prefix``, ``seed``, ``strategies``)."""

    async def setup(r: Room) -> None:
        r.bots += await start_bots(r.url, count, tables=[table], think=think, **options)

    return setup


@contextlib.contextmanager
def headless_chromium() -> Iterator[Any]:
    """Debian's chromium, headless, for a module's pages (closed on exit; a browser that fails to close
    does not fail the tests it served)."""
    sync_playwright = _need_browser()
    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            yield b
        finally:
            with contextlib.suppress(Exception):
                b.close()


@pytest.fixture(scope="module")
def browser(room: Room) -> Iterator[Any]:
    with headless_chromium() as b:
        yield b


@contextlib.contextmanager
def browser_page(browser: Any, **context: Any) -> Iterator[Any]:
    """A page in a context of its own (``context``: Playwright's context options), closed afterwards;
    English unless ``locale`` says otherwise (the tests read the English strings; test_i18n the others)."""
    ctx = browser.new_context(**{"locale": "en-US", **context})
    pg = ctx.new_page()
    pg.set_default_timeout(15_000)
    try:
        yield pg
    finally:
        ctx.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with browser_page(browser, viewport={"width": 1280, "height": 900}) as pg:
        yield pg


@pytest.fixture(scope="module")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def painted(page: Any) -> None:
    """Wait until the page has drawn what the last change asked for: two animation frames (the first runs
    before the layout of the change, the second after it is painted), not a fixed time."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def sign_up(page: Any, url: str, name: str) -> None:
    """Register ``name`` (the test password) on the room's login form and wait for the app: what
    ``Player.register`` does, for a room without the cash tables it then waits for in the lobby."""
    page.goto(f"{url}/")
    page.locator("#login-form input[name=name]").fill(name)
    page.locator("#login-form input[name=password]").fill(PASSWORD)
    page.click("#register-btn")
    page.wait_for_selector("#app:not([hidden])")


def console_at(page: Any, url: str, where: str, name: str) -> list[str]:
    """Sign ``name`` (an administrator, password PASSWORD) in to the console at ``url`` and open its page
    ``where`` (``findings``, ``players/<id>``, ...); the page's script errors and CSP violations, as they
    come, in the list returned."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{url}/static/console.html")
    form = page.locator("#console-login-form")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    page.click("#console-login-btn")
    page.wait_for_selector("#console:not([hidden])")
    page.goto(f"{url}/static/console.html#{where}")
    page.wait_for_selector(f'.console-page[data-page="{where.split("/")[0]}"] h2')
    return errors


def overlap(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """The area two boxes (Playwright's ``bounding_box``: x, y, width, height) share, in px²."""
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


# The start of a page script that draws a table from frames the test gives it (in an ``async`` function
# whose ``state`` is a snapshot's state): a tile for ``state.table``, in view; ``app`` and ``tile`` are the
# rest of the script's.
NEW_TILE = """
    const { Tile } = await import("/static/js/tile.js");
    const app = window.pokerroom;
    const tile = new Tile(app, state.table);
    app.tiles.set(state.table, tile);
    document.querySelector("#tiles").append(tile.el);
    app.layout.setView("tables");"""
