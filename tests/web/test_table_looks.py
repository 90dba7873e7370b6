"""Issue 31, avatars, table themes and card backs in chromium: chosen in the account dialog, kept on the
server; the avatar shows on the player's name plate for everybody at the table (covering neither his name
nor any card, at 1280x800 and 390x844: checked on the page), the felt colour and the card backs for him
only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Room, bots_at, browser_page, holdem_room
from tests.web.player import Player

TABLE = "holdem-nl"

# The avatar's box against its plate's name and against every card on the felt: overlapping area in px².
GEOMETRY = """([table, name]) => {
  const r = (e) => e.getBoundingClientRect();
  const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const tile = document.querySelector(`.tile[data-table="${table}"]`);
  for (const plate of tile.querySelectorAll(".seat .plate")) {
    const n = plate.querySelector(".name");
    const img = plate.querySelector("img.avatar");
    if (!n || n.textContent !== name || !img || !img.complete || !r(img).width) continue;
    const cards = [...tile.querySelectorAll(".seat .card")].map((c) => area(r(img), r(c)));
    return { name: area(r(img), r(n)), cards: Math.max(0, ...cards), width: r(img).width };
  }
  return null;
}"""


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    with holdem_room(tmp_path_factory, "looks-room", bots_at(TABLE, prefix="lkbot", seed=8)) as r:
        yield r


def _style(page: Any, script: str) -> str:
    """The style the script reads, once its element is on the page (a card back goes when its hand ends,
    and comes back with the next: read at once, it can be gone since the wait for it)."""
    return str(page.wait_for_function(script).json_value())


def _computed(selector: str, prop: str, pseudo: str | None = None) -> str:
    """A script giving the computed ``prop`` of the first element ``selector`` finds (null while none)."""
    element = f"'{pseudo}'" if pseudo else "null"
    return (
        f"() => {{ const e = document.querySelector('{selector}');"
        f" return e ? getComputedStyle(e, {element}).{prop} : null; }}"
    )


FELT = _computed(".tile .felt", "backgroundImage", "::before")
BACK = _computed(".tile .card.back .card-back-inner", "fill")


def test_avatar_theme_and_card_back(room: Room, browser: Any, screenshots: Path) -> None:
    with (
        browser_page(browser, viewport={"width": 1280, "height": 800}) as page,
        browser_page(browser, viewport={"width": 390, "height": 844}) as phone,
    ):
        me = Player(page, room.url)
        me.register()
        page.click("#account-btn")
        form = page.locator("#looks-form")
        form.locator('input[name="avatar"][value="owl"]').check()
        form.locator('select[name="theme"]').select_option("blue")
        form.locator('select[name="card_back"]').select_option("red")
        form.locator(".looks-save").click()
        form.locator("p.hint", has_text="Saved.").wait_for()
        page.locator("dialog.account-dialog .dialog-close").click()
        prefs = page.request.get(room.url + "/api/prefs").json()
        assert (prefs["avatar"], prefs["theme"], prefs["card_back"]) == ("owl", "blue", "red")

        page.click("#lobby-toggle")
        tile = me.open_and_sit(TABLE)
        tile.locator('.seat.mine .plate img.avatar[data-avatar="owl"]').wait_for()
        tile.locator(".seat:not(.mine) .card.back").first.wait_for()
        assert "rgb(47, 111, 174)" in _style(page, FELT)  # the blue felt
        assert _style(page, BACK) == "rgb(156, 31, 43)"  # the red backs
        box = page.wait_for_function(GEOMETRY, arg=[TABLE, me.name]).json_value()
        assert box["name"] == 0 and box["cards"] == 0, box
        tile.screenshot(path=str(screenshots / "looks-1280x800.png"))

        # Another player (on a phone) sees the avatar, but his own green felt and blue backs.
        other = Player(phone, room.url)
        other.register()
        phone.click(f'button.open-table[data-table="{TABLE}"]')
        other_tile = other.tile(TABLE)
        other_tile.locator('.seat .plate img.avatar[data-avatar="owl"]').wait_for()
        other_tile.locator(".card.back").first.wait_for()
        assert "rgb(36, 135, 90)" in _style(phone, FELT)
        assert _style(phone, BACK) == "rgb(30, 78, 140)"
        box = phone.wait_for_function(GEOMETRY, arg=[TABLE, me.name]).json_value()
        assert box["name"] == 0 and box["cards"] == 0, box
        other_tile.screenshot(path=str(screenshots / "looks-390x844.png"))
        assert not me.errors and not other.errors
