"""Issue 31, "Bet sizing of one's own", in chromium: the player changes his presets in the action bar's
editor; the bar's size buttons become his (before the flop a multiple of the bet to match, at least the big
blind; after it a share of the pot after the call), each setting the raise box to its amount within the
legal bounds; they are kept on the server (a new page has them) and absent in fixed limit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from pokerroom.bots.runner import start_bots
from tests.web.conftest import Room, browser_page, holdem_room, painted
from tests.web.player import Player

NL = "holdem-nl"
FL = "holdem-fl"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    async def setup(r: Room) -> None:
        r.bots += await start_bots(
            r.url, 1, strategies=("caller",), tables=[NL], think=(0.05, 0.2), prefix="psnl", seed=5
        )
        r.bots += await start_bots(
            r.url, 1, strategies=("caller",), tables=[FL], think=(0.05, 0.2), prefix="psfl", seed=6
        )

    with holdem_room(tmp_path_factory, "presets-room", setup) as r:
        yield r


def _clamp(value: float, d: dict[str, Any], unit: int) -> int:
    """The action bar's clampAmount (actionbar.js)."""
    v = round(value)
    if v >= d["max_to"]:
        return int(d["max_to"])
    if v <= d["min_to"]:
        return int(d["min_to"])
    return int(d["min_to"]) if (v // unit) * unit < d["min_to"] else (v // unit) * unit


CLICK_PRESET = """([id, first, later]) => {
  const tile = window.pokerroom.tiles.get(id);
  const dec = tile && tile.model.decision;
  const bar = tile && tile.barHost.querySelector(".actionbar[data-kind=bet]");
  const box = bar && bar.querySelector(".raise-amount");
  if (!dec || !box || bar.dataset.actionNo !== String(dec.action_no)) return null;
  const street = tile.model.state.hand.street;
  const presets = [...bar.querySelectorAll(".presets .preset[data-preset]")].map((e) => e.dataset.preset);
  const button = bar.querySelector(`button[data-preset="${street ? later : first}"]`);
  if (button) button.click();
  return { d: dec.decision, street, presets, pot: tile.model.totalPot(), value: Number(box.value) };
}"""


def _act_passively(bar: Any) -> None:
    """Check, call or fold, if the bar is still there (the hand may have moved on meanwhile)."""
    for action in ("check", "call", "fold"):
        button = bar.locator(f'button[data-action="{action}"]')
        if button.count():
            try:
                button.click(timeout=2000)
            except Exception as exc:
                if "Timeout" not in type(exc).__name__ and "detached" not in str(exc):
                    raise
            return


def test_the_players_presets_size_his_bets(room: Room, browser: Any) -> None:
    with browser_page(browser, viewport={"width": 1280, "height": 800}) as page:
        me = Player(page, room.url)
        me.register()
        tile = me.open_and_sit(NL)
        stakes = page.evaluate("(id) => window.pokerroom.tiles.get(id).model.state.stakes", NL)
        big_blind, unit = int(stakes["big_blind"]), int(stakes.get("chip_unit") or 1)
        # The editor, from the action bar's sizes when the first decision with a raise box comes.
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "no decision with a raise box"
            edit = tile.locator(".actionbar[data-kind=bet] .preset-edit")
            try:
                edit.click(timeout=1000)
                break
            except Exception as exc:  # no raise box yet: play on passively
                if "Timeout" not in type(exc).__name__ and "detached" not in str(exc):
                    raise
                _act_passively(tile.locator(".actionbar[data-kind=bet]"))
        form = page.locator("dialog.presets-dialog form")
        for kind, values in (("preflop", ["2.2", "3.5", "", ""]), ("postflop", ["40", "60", "", ""])):
            for i, v in enumerate(values):
                form.locator(f'input[name="{kind}{i}"]').fill(v)
        form.locator(".presets-save").click()
        page.wait_for_function("() => !document.querySelector('dialog.presets-dialog').open")
        checked: set[str] = set()
        deadline = time.monotonic() + 120
        while checked != {"preflop", "postflop"}:
            assert time.monotonic() < deadline, f"gave up: checked {checked}"
            bar = tile.locator(".actionbar[data-kind=bet]")
            if bar.count() == 0 or bar.locator(".raise-amount").count() == 0:
                _act_passively(bar)
                painted(page)
                continue
            # One look at the page, in one task of its event loop: the decision the bar shows, its street
            # and pot, the size buttons, and the raise box after a click on one of them.
            got = page.evaluate(CLICK_PRESET, [NL, "x3.5", "p60"])
            if got is None:
                _act_passively(bar)
                continue
            # (a live hand's first round has no street name: the engine announces the later streets only)
            d, street = got["d"], ("preflop" if got["street"] in ("", "preflop") else "postflop")
            level = d["bet"] + d["to_call"]
            after = got["pot"] + d["to_call"]
            if street == "preflop":
                assert got["presets"] == ["x2.2", "x3.5", "Pot", "max"], got
                want = _clamp(3.5 * max(level, big_blind), d, unit)
            else:
                assert got["presets"] == ["p40", "p60", "Pot", "max"], got
                want = _clamp(level + (after * 60) // 100, d, unit)
            assert got["value"] == want, (got, want)
            checked.add(street)
            _act_passively(bar)
            painted(page)
        assert page.request.get(room.url + "/api/prefs").json()["presets"] == {
            "preflop": [2.2, 3.5],
            "postflop": [40, 60],
        }
        me.leave(NL)
        assert not me.errors

        # Fixed limit: the fixed sizes only, no presets.
        page.click("#lobby-toggle")
        fl = me.open_and_sit(FL)
        bar = fl.locator(".actionbar[data-kind=bet]")
        bar.locator('button[data-action="raise"]').first.wait_for(timeout=60_000)
        assert bar.locator(".preset").count() == 0
        assert not me.errors
