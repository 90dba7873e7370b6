"""Issue 31, "Auto top-up", in chromium: the seat's "Top up to" setting brings the player's stack to his
chosen amount from his balance (the header's balance goes down by as much), a target outside the buy-in
limits is refused on the page; when the balance cannot pay, the server stops it and the page unticks the
setting and says why."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pokerroom.store import PLAY, Role
from tests.web.conftest import Room, browser_page, holdem_room
from tests.web.player import PASSWORD, Player

TABLE = "holdem-nl"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    # (no bots: the player is alone, so no hand changes his stack)
    with holdem_room(tmp_path_factory, "autotopup-room") as r:
        yield r


def _run(room: Room, job: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(job, room.loop).result(30)


def _sit_with(me: Player, table: str, buy_in: int) -> Any:
    page = me.page
    page.click(f'button.open-table[data-table="{table}"]')
    tile = me.tile(table)
    tile.locator(".sit-btn").first.click()
    dialog = page.locator("dialog.sit-dialog")
    dialog.locator("input[name=buy_in]").fill(str(buy_in))
    dialog.locator(".sit-confirm").click()
    page.wait_for_selector(f'.tile[data-table="{table}"][data-seated="yes"]')
    return tile


def test_auto_top_up_at_the_seat(room: Room, browser: Any, screenshots: Path) -> None:
    lo, hi = room.live.room.tables[TABLE].table.config.buy_in_range
    with browser_page(browser, viewport={"width": 1280, "height": 800}) as page:
        me = Player(page, room.url)
        me.register()
        tile = _sit_with(me, TABLE, lo)
        mine = tile.locator(".seat.mine .stack")
        page.wait_for_function(
            "([sel, v]) => document.querySelector(sel)?.dataset.amount === v",
            arg=[f'.tile[data-table="{TABLE}"] .seat.mine .stack', str(lo)],
        )
        balance = int(page.locator("#balance").get_attribute("data-amount") or 0)

        # Out of the limits: refused on the page, nothing sent that would change the seat.
        box = tile.locator(".auto-top-up-amount")
        box.fill(str(hi + 1))
        tile.locator("input.auto-top-up").click()  # (the page unticks it at once)
        tile.locator('.notice[data-code="buy_in_out_of_range"]').wait_for()
        assert not tile.locator("input.auto-top-up").is_checked()
        assert mine.get_attribute("data-amount") == str(lo)

        # Within them: the stack becomes the target, paid from the balance.
        tile.locator(".auto-top-up-amount").fill(str(hi))
        tile.locator("input.auto-top-up").check()
        page.wait_for_function(
            "([sel, v]) => document.querySelector(sel)?.dataset.amount === v",
            arg=[f'.tile[data-table="{TABLE}"] .seat.mine .stack', str(hi)],
        )
        page.wait_for_function(
            "(v) => document.querySelector('#balance').dataset.amount === v", arg=str(balance - (hi - lo))
        )
        assert tile.locator("input.auto-top-up").is_checked()

        # A reload: the setting comes back from the server.
        page.reload()
        me.tile(TABLE).locator("input.auto-top-up:checked").wait_for()
        assert me.tile(TABLE).locator(".auto-top-up-amount").input_value() == str(hi)

        # The balance cannot pay: the player leaves, sits again with the minimum and has nothing left in
        # his wallet (the table's actor booked the cash-out before it took the new seat); he asks for more,
        # the server stops the setting, and the page unticks it and says why.
        tile = me.tile(TABLE)
        tile.locator(".leave-btn").click()
        page.wait_for_selector(f'.tile[data-table="{TABLE}"][data-seated="no"]')
        tile.locator(".sit-btn").first.click()
        dialog = page.locator("dialog.sit-dialog")
        dialog.locator("input[name=buy_in]").fill(str(lo))
        dialog.locator(".sit-confirm").click()
        page.wait_for_selector(f'.tile[data-table="{TABLE}"][data-seated="yes"]')
        assert not tile.locator("input.auto-top-up").is_checked(), "a new seat starts without it"
        assert _run(room, _empty_wallet(room, me.name)) == 0
        tile.locator(".auto-top-up-amount").fill(str(hi))
        tile.locator("input.auto-top-up").click()  # (the server unticks it)
        tile.locator('.notice[data-code="auto_top_up_stopped"]').wait_for()
        said = tile.locator(".notice").inner_text()
        assert said == "auto top-up stopped: your balance is too low", said  # (no ledger account named)
        page.wait_for_function("() => !document.querySelector('input.auto-top-up').checked")
        page.wait_for_function(  # the chips that could not be paid for are gone again
            "([sel, v]) => document.querySelector(sel)?.dataset.amount === v",
            arg=[f'.tile[data-table="{TABLE}"] .seat.mine .stack', str(lo)],
        )
        # On a phone the setting stays on the screen and covers none of the seat's other controls.
        page.set_viewport_size({"width": 390, "height": 844})
        boxes = page.evaluate(CONTROLS, TABLE)
        setting = boxes.pop("setting")
        assert setting["left"] >= 0 and setting["right"] <= 390, setting
        assert all(_overlap(setting, b) == 0 for b in boxes.values()), (setting, boxes)
        me.tile(TABLE).screenshot(path=str(screenshots / "autotopup-390x844.png"))
        assert not me.errors


CONTROLS = """(table) => {
  const tile = document.querySelector(`.tile[data-table="${table}"]`);
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  const out = {setting: box(tile.querySelector(".auto-top-up-setting"))};
  const others = tile.querySelectorAll(".controls > *:not(.auto-top-up-setting)");
  [...others].forEach((e, i) => { out[`c${i}`] = box(e); });
  return out;
}"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, w) * max(0.0, h)


async def _empty_wallet(room: Room, name: str) -> int:
    """Take the player's whole PLAY balance away (an operator's adjustment); his balance after."""
    store = room.live.room.store
    player = await store.accounts.find(name)
    admin = await store.accounts.register("boss-autotopup", PASSWORD, role=Role.ADMIN)
    left = await store.ledger.balance(player.id, PLAY)
    await store.operator.adjust(
        player.id, PLAY, -left, admin_id=admin.id, reason="test: an empty wallet", idempotency_key="empty"
    )
    return await store.ledger.balance(player.id, PLAY)
