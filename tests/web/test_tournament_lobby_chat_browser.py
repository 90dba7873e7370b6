"""A tournament's lobby chat in the browser (issue 35; docs/tournaments.md, "Lobby chat"): in a
sit-and-go whose ``lobby_chat`` is ``players`` (the default), an entrant writes on the tournament page and
the others read it there; a logged-in player who is not in it opens the page from the lobby (he follows it:
``tournament_follow``), reads the next line as it is said, and is offered no line to write in (the server
would refuse him ``not_playing``: tests/server/test_tournament_lobby_chat.py)."""

from __future__ import annotations

import json
from typing import Any

from tests.waiting import wait_until

from .conftest import Room
from .player import PASSWORD, Player, page_pause
from .test_tournament_deal_browser import BROWSER, _start, deal_room, players  # noqa: F401 (fixtures)


def _open_page(p: Player, tid: str) -> Any:
    p.page.locator(f'.tile[data-table^="{tid}-t"] .t-info-btn').first.click()
    dlg = p.page.locator(f'dialog.tournament-dialog[data-tournament="{tid}"]')
    dlg.locator(".t-chat").wait_for()
    return dlg


def test_entrants_chat_on_the_tournament_page_and_a_follower_reads_it(
    deal_room: Room,  # noqa: F811
    players: list[Player],  # noqa: F811
) -> None:
    tid, _ = _start(deal_room, players)
    writer, reader = players[0], players[1]
    dlg = _open_page(writer, tid)
    assert dlg.locator(".t-chat").get_attribute("data-write") == "yes"
    dlg.locator(".t-chat-form input[name=t-chat]").fill("good luck <all>")
    dlg.locator(".t-chat-form button[type=submit]").click()
    dlg.locator(".t-chat-lines li", has_text="good luck <all>").wait_for()
    # Another entrant (his page not open when it was said) reads it on opening the page.
    other = _open_page(reader, tid)
    other.locator(".t-chat-lines li", has_text=f"{writer.name}: good luck <all>").wait_for()
    # A player not in the tournament opens its page from the lobby: he reads, he may not write.
    ctx = BROWSER[0].new_context(locale="en-US")
    try:
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        follower = Player(page, deal_room.url)
        page.goto(f"{deal_room.url}/")
        page.locator("#login-form input[name=name]").fill(follower.name)
        page.locator("#login-form input[name=password]").fill(PASSWORD)
        page.click("#register-btn")
        page.wait_for_selector("#app:not([hidden])")
        page.click('.tab[data-tab="tournaments"]')
        page.select_option('select[name="t-status"]', "running")
        page.locator(f'tr[data-tournament="{tid}"] button.t-info').click()
        mine = page.locator(f'dialog.tournament-dialog[data-tournament="{tid}"] .t-chat')
        mine.wait_for()
        assert mine.get_attribute("data-write") == "no" and not mine.locator(".t-chat-form").is_visible()
        # Opening the page followed the tournament: wait for the server's ack before the next line.
        sent = wait_until(
            lambda: [json.loads(m) for m in follower.sent if '"tournament_follow"' in m],
            timeout=30, what="the follow request", pause=page_pause(page),
        )  # fmt: skip
        assert sent[-1]["tournament"] == tid and sent[-1]["follow"] is True
        ref = sent[-1]["ref"]
        wait_until(
            lambda: any(f.get("type") == "ack" and f.get("ref") == ref for f in follower.frames),
            timeout=30, what="the follow acknowledged", pause=page_pause(page),
        )  # fmt: skip
        other.locator(".t-chat-form input[name=t-chat]").fill("nice hand")
        other.locator(".t-chat-form button[type=submit]").click()
        mine.locator(".t-chat-lines li", has_text=f"{reader.name}: nice hand").wait_for()
        assert mine.locator(".t-chat-lines li", has_text="good luck").count() == 0  # (said before he came)
        assert not follower.errors, follower.errors
    finally:
        ctx.close()
    for p in players:
        assert not p.errors, p.errors
