"""Issue 31, "Reads on opponents", in chromium: a note and a colour tag on another player, made from his
seat's notes button, shown on his seat (the tag's colour, the note as the plate's title) at the table, after
a reload and in the replayer of a stored hand; the colours renamed; another player sees none of it. The
notes button does not cover the name it belongs to (checked on the page, not by eye)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Room, bots_at, browser_page, holdem_room, overlap
from tests.web.player import Player, Seen

TABLE = "holdem-nl"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """The hold'em tables with two bots at TABLE."""
    with holdem_room(tmp_path_factory, "reads-room", bots_at(TABLE, prefix="rdbot", seed=31)) as r:
        yield r


def _seat_of(tile: Any, name: str) -> Any:
    return tile.locator(".seat", has=tile.page.locator(".plate .name", has_text=name))


def test_a_note_and_a_tag_on_an_opponent_follow_him_and_stay_private(
    room: Room, browser: Any, screenshots: Path
) -> None:
    with (
        browser_page(browser, viewport={"width": 1280, "height": 800}) as page,
        browser_page(browser, viewport={"width": 1280, "height": 800}) as other_page,
    ):
        me = Player(page, room.url)
        me.register()
        tile = me.open_and_sit(TABLE)
        bot_plate = tile.locator(".seat:not(.mine):not(.empty) .plate").first
        bot_plate.wait_for()
        bot = bot_plate.locator(".name").inner_text()
        assert tile.locator(".seat.mine .read-btn").count() == 0, "no notes on oneself"
        seat = _seat_of(tile, bot)

        seat.locator(".read-btn").click()
        dialog = page.locator("dialog.reads-dialog")
        dialog.locator("textarea.read-text").fill("  limps every button, folds to 3-bets  ")
        dialog.locator('.read-tags label[data-color="red"] input').check()
        dialog.locator(".read-save").click()
        page.wait_for_function("() => !document.querySelector('dialog.reads-dialog').open")
        seat = _seat_of(tile, bot)
        seat.locator("xpath=self::*[@data-tag='red']").wait_for()
        title = seat.locator(".plate").get_attribute("title") or ""
        assert title == f"{bot} \u00b7 Red: limps every button, folds to 3-bets", title
        assert "has-note" in (seat.locator(".read-btn").get_attribute("class") or "")
        notes = page.request.get(room.url + "/api/notes").json()["notes"]
        assert [(n["name"], n["text"], n["tag"]) for n in notes] == [
            (bot, "limps every button, folds to 3-bets", "red")
        ]

        # The notes button covers neither the name nor the stack of the plate (1280x800, one table).
        boxes = page.wait_for_function(
            """([name]) => {
              for (const plate of document.querySelectorAll('.tile .seat .plate[data-reads]')) {
                const n = plate.querySelector('.name'), st = plate.querySelector('.stack');
                const b = plate.querySelector('.read-btn');
                if (!n || n.textContent !== name || !st || !b) continue;
                const r = (e) => {
                  const x = e.getBoundingClientRect();
                  return {x: x.x, y: x.y, width: x.width, height: x.height};
                };
                if (!b.getBoundingClientRect().width) continue;
                return {button: r(b), name: r(n), stack: r(st)};
              }
              return null;
            }""",
            arg=[bot],
        ).json_value()
        for part in ("name", "stack"):
            assert overlap(boxes["button"], boxes[part]) == 0, (part, boxes)
        tile.screenshot(path=str(screenshots / "reads-tag-1280x800.png"))

        # The colours' names are the player's: "Red" becomes "maniac" on the seat.
        seat.locator(".read-btn").click()
        dialog.locator("details.tag-names summary").click()
        dialog.locator('.tag-names-form input[name="red"]').fill("maniac")
        dialog.locator(".tag-names-save").click()
        dialog.locator('.read-tags label[data-color="red"] .tag-name', has_text="maniac").wait_for()
        dialog.locator(".dialog-close").click()
        page.wait_for_function(
            "([name]) => [...document.querySelectorAll('.seat[data-tag=red] .plate')]"
            ".some((p) => p.title.startsWith(name + ' \u00b7 maniac:'))",
            arg=[bot],
        )

        # Another player at the same table sees no tag and no note of ours.
        other = Player(other_page, room.url)
        other.register()
        other_page.click(f'button.open-table[data-table="{TABLE}"]')
        other_seat = _seat_of(other.tile(TABLE), bot)
        other_seat.locator(".read-btn").wait_for()
        assert other_seat.get_attribute("data-tag") is None
        assert other_seat.locator(".plate").get_attribute("title") is None
        assert other_page.request.get(room.url + "/api/notes").json()["notes"] == []

        # Play a hand, then find the tag in the replayer of the stored hand.
        me.play(
            TABLE,
            Seen(),
            until=lambda seen, t: len(page.request.get(room.url + "/api/hands").json()["hands"]) >= 1,
        )
        page.click("#cashier-btn")
        cashier = page.locator("dialog.cashier")
        cashier.locator("table.hand-list tbody tr button.replay-btn").first.click()
        rp = cashier.locator(".tile.replay")
        rp.wait_for()
        replay_seat = _seat_of(rp, bot)
        assert replay_seat.get_attribute("data-tag") == "red"
        assert (replay_seat.locator(".plate").get_attribute("title") or "").endswith("folds to 3-bets")
        cashier.locator(".dialog-close").click()

        # Kept on the server: after a reload the seat is tagged again; removing the read clears it.
        page.reload()
        tile = me.tile(TABLE)
        seat = _seat_of(tile, bot)
        seat.locator("xpath=self::*[@data-tag='red']").wait_for()
        seat.locator(".read-btn").click()
        assert dialog.locator("textarea.read-text").input_value() == "limps every button, folds to 3-bets"
        dialog.locator(".read-remove").click()
        page.wait_for_function("() => !document.querySelector('dialog.reads-dialog').open")
        page.wait_for_function(
            "([name]) => ![...document.querySelectorAll('.seat[data-tag]')]"
            ".some((s) => s.textContent.includes(name))",
            arg=[bot],
        )
        assert page.request.get(room.url + "/api/notes").json()["notes"] == []
        assert not me.errors and not other.errors
