"""End-to-end browser tests of the Rush pool (issue 8) and the sit-and-go (issue 9).

One browser user plays against bots in the real room of ``conftest.py``: in a Rush pool he quick-folds
and is moved at once to a new hand at another table (RULES.md §8.5, R200-R202); in a fast 6-player
sit-and-go he plays from the action bar until the tournament is over, then the client shows his place,
the prize pool is paid exactly and the ledger verifies."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

from pokerroom.bots.runner import start_pool_bots
from pokerroom.rooms.tournament import TournamentConfig
from tests.waiting import wait_until
from tests.web.conftest import FAST_REBUY, FAST_SNG, POOL, Room
from tests.web.player import CARD_RE, Player, Seen, page_pause

# The pool of the fixture has 3 bot entries; Quick Fold is offered only while the pool can fill two full
# 6-max tables (R202), so these bots bring it to 3 + 5 * 2 + 1 (the browser user) = 14 entries.
EXTRA_BOTS = 5
EXTRA_ENTRIES = 2


def _start_pool_bots(room: Room, count: int, entries: int) -> None:
    async def start() -> None:
        room.bots += await start_pool_bots(
            room.url, POOL, count, entries=entries, think=(0.05, 0.25), prefix="qfbot", seed=11
        )

    asyncio.run_coroutine_threadsafe(start(), room.loop).result(120)


def _quick_fold_ref(p: Player, since: int) -> Any:
    sent = wait_until(
        lambda: [json.loads(m) for m in p.sent[since:] if '"quick_fold"' in m],
        timeout=5,
        every=0.05,
        pause=page_pause(p.page),
        what="the Quick Fold button sends quick_fold",
    )
    return sent[-1]["ref"]


def _answer(p: Player, ref: Any) -> dict[str, Any]:
    """The server's ack or error for the message ``ref``."""
    answer: dict[str, Any] | None = wait_until(
        lambda: next(
            (f for f in p.frames if f.get("ref") == ref and f.get("type") in ("ack", "error")), None
        ),
        timeout=15,
        every=0.05,
        pause=page_pause(p.page),
        what=f"the server's ack or error for {ref}",
    )
    assert answer is not None
    return answer


def _mine(tile: Any) -> list[str]:
    return list(tile.locator(".seat.mine .card").evaluate_all("els => els.map(e => e.dataset.card)"))


def test_rush_quick_fold_moves_to_new_table(room: Room, page: Any, screenshots: Path) -> None:
    """R200-R202: with two full tables' worth of entries in the pool, the browser user's entry window
    offers Quick Fold before his turn; clicking it folds his hand at once and the same window shows a
    new hand, at another table, with new cards — he never gets a turn in the hand he left."""
    _start_pool_bots(room, EXTRA_BOTS, EXTRA_ENTRIES)
    p = Player(page, room.url)
    p.register()
    p.max_call = 80  # four big blinds: a bot's all-in must not end the entry before it quick-folds
    page.click('.tab[data-tab="rush"]')
    page.click(f'button.join-pool[data-pool="{POOL}"]')
    page.locator("dialog.pool-dialog .pool-confirm").click()
    tile = page.locator(f'.tile[data-pool="{POOL}"][data-entry="1"]')
    tile.wait_for()
    button = tile.locator(".quick-fold-btn:enabled")
    deadline = time.monotonic() + 90
    moved = None
    while moved is None:
        assert time.monotonic() < deadline, f"never quick-folded: {p.errors}"
        # Play our decisions (check / call) until the window offers Quick Fold before our turn.
        p.play(
            f"{POOL}#1",
            Seen(),
            until=lambda s, t: (
                t.locator(".quick-fold-btn:enabled").count() > 0
                and t.locator(".actionbar[data-kind]").count() == 0
            ),
            timeout=max(1.0, deadline - time.monotonic()),
            raise_once=False,
        )
        old_hand = tile.get_attribute("data-hand-id") or ""
        old_table = tile.get_attribute("data-rush-table") or ""
        if not old_hand or not old_table or len(_mine(tile)) != 2:
            continue
        sent_before = len(p.sent)
        try:
            button.click(timeout=1000)
        except Exception as exc:  # the hand moved on between reading and clicking
            if "Timeout" not in type(exc).__name__ and "detached" not in str(exc):
                raise
            continue
        ref = _quick_fold_ref(p, sent_before)
        answer = _answer(p, ref)
        if answer.get("type") == "error":
            # Refused (we are the big blind who could check, or the hand moved on): the server says why.
            assert answer.get("code") == "quick_fold_refused", answer
            continue
        # The same window goes on to a new hand without waiting for the old hand to reach our seat.
        page.wait_for_function(
            """([sel, hand]) => { const t = document.querySelector(sel);
                 return t && t.dataset.handId && t.dataset.handId !== hand; }""",
            arg=[f'.tile[data-pool="{POOL}"][data-entry="1"]', old_hand],
            timeout=30_000,
        )
        moved = (old_hand, old_table)
    old_hand, old_table = moved
    new_hand = tile.get_attribute("data-hand-id")
    new_table = tile.get_attribute("data-rush-table")
    assert new_hand and new_hand != old_hand
    assert new_table and new_table != old_table, "every hand is dealt at a freshly formed table"
    # New cards, face up, of the new hand.
    tile.locator(".seat.mine .card").nth(1).wait_for(timeout=10_000)
    cards = tile.locator(".seat.mine .card")
    labels = cards.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) == 2 and all(re.match(CARD_RE, lab or "") for lab in labels), labels
    assert tile.get_attribute("data-hand-id") == new_hand
    tile.screenshot(path=str(screenshots / "rush-quick-fold.png"))
    # The fold was immediate for us: once the server acknowledged Quick Fold the old hand never asked us
    # to act again (the others see our fold only when the action reaches our seat).
    acks = [i for i, f in enumerate(p.frames) if f.get("type") == "ack" and f.get("ref") == ref]
    after = p.frames[acks[0] :]
    assert not [
        f for f in after if f.get("type") == "turn" and f.get("pool") and f.get("hand_id") == old_hand
    ]
    assert not p.errors, p.errors
    tile.locator(".leave-btn").click()


def test_tournament_page_register_and_filters(room: Room, page: Any, screenshots: Path) -> None:
    """Issue 9's client: the Tournaments tab filters by status and kind; a tournament's page shows its
    structure, buy-in, prize pool and entrants, and registers and unregisters (buy-in plus fee leave the
    wallet and come back, R: refund while registration is open)."""
    p = Player(page, room.url)
    p.register()
    page.click('.tab[data-tab="tournaments"]')
    rows = page.locator("tr[data-tournament]")
    rows.first.wait_for()
    total = rows.count()
    page.select_option('select[name="t-status"]', "finished")
    page.wait_for_function(f"document.querySelectorAll('tr[data-tournament]').length < {total}")
    page.select_option('select[name="t-status"]', "upcoming")
    page.select_option('select[name="t-kind"]', "sng")
    turbo = page.locator('tr[data-tournament^="turbo6-"]').first
    turbo.wait_for()
    assert page.locator("tr[data-tournament] td", has_text="finished").count() == 0
    tid = turbo.get_attribute("data-tournament")
    assert tid
    before = _balance(page)
    turbo.locator("button.t-info").click()
    dialog = page.locator(f'dialog.tournament-dialog[data-tournament="{tid}"]')
    dialog.wait_for()
    details = page.request.get(f"{room.url}/api/tournaments/{tid}").json()
    levels = dialog.locator(".t-structure tbody tr")
    assert levels.count() == len(details["structure"]) > 0
    first = details["structure"][0]
    assert f"{first['small_blind']}/{first['big_blind']}" in levels.first.inner_text()
    assert "1,000 + 100" in dialog.locator(".t-facts").inner_text()
    entrants = len(details["entrants"])
    assert dialog.locator(".t-entrants summary").inner_text() == f"Entrants ({entrants})"
    dialog.locator("button.t-register").click()
    dialog.locator(".t-entrants summary", has_text=f"Entrants ({entrants + 1})").wait_for()
    _wait_balance(page, before - 1000 - 100)
    assert p.name in (dialog.locator(".t-entrants").text_content() or "")
    dialog.screenshot(path=str(screenshots / "tournament-page.png"))
    dialog.locator("button.t-unregister").click()
    dialog.locator(".t-entrants summary", has_text=f"Entrants ({entrants})").wait_for()
    _wait_balance(page, before)
    dialog.locator(".dialog-close").click()
    assert not p.errors, p.errors


def _ranked(places: list[int]) -> bool:
    """Every entrant has a place, from 1st; players out in one hand with equal stacks share one (ties
    split), and the next place skips as many as shared: 1, 2, 3, 4, 4, 4."""
    return len(places) == FAST_SNG.max_players and all(p == places.index(p) + 1 for p in places)


def _balance(page: Any) -> int:
    return int(page.get_attribute("#balance", "data-amount") or 0)


def _wait_balance(page: Any, amount: int) -> None:
    page.wait_for_function(f"Number(document.querySelector('#balance').dataset.amount) === {amount}")


def _register_new_player(room: Room, page: Any, cfg: TournamentConfig) -> tuple[Player, str, int]:
    """A new user registers for the open sit-and-go of ``cfg`` from the Tournaments tab; buy-in and fee
    leave his wallet. Returns the player, the tournament id and the wallet before the buy-in."""
    p = Player(page, room.url)
    p.register()
    page.click('.tab[data-tab="tournaments"]')
    row = page.locator(f'tr[data-tournament^="{cfg.tournament_id}-"]:has(button.t-register)').first
    tid = row.get_attribute("data-tournament")
    assert tid
    row = page.locator(f'tr[data-tournament="{tid}"]')  # (once registered it offers Unregister instead)
    before = _balance(page)
    row.locator("button.t-register").click()
    row.get_by_text("Registered").wait_for()
    _wait_balance(page, before - cfg.buy_in - cfg.fee)
    return p, tid, before


def test_sit_and_go_played_to_the_end(room: Room, page: Any, screenshots: Path) -> None:
    """A 6-player sit-and-go (hyper levels, 15 big blinds) with one browser user and five bots, played to
    the end: the buy-in and fee leave the wallet, the user checks / calls from the action bar until he is
    out or has won, the Tournaments tab shows the tournament finished with his place, the prizes add up to
    exactly the prize pool (R: payouts paid from the pool), his wallet rose by his prize, and the ledger
    verifies."""
    p, tid, before = _register_new_player(room, page, FAST_SNG)
    after_buy_in = before - FAST_SNG.buy_in - FAST_SNG.fee
    room.start_tournament_bots(tid, 5)
    tile = page.locator(f'.tile[data-table^="{tid}-t"]').first
    tile.wait_for(timeout=60_000)
    table = tile.get_attribute("data-table")
    assert table
    # The table shows the tournament's level and counts down to the next one (hyper: 15 s levels).
    tile.locator(".tile-head .stakes", has_text="Level ").wait_for()
    assert re.match(r"(Next level in|On break)", tile.locator(".next-level").inner_text(timeout=10_000))
    you = page.locator(f'tr[data-results-for="{tid}"] .t-you')
    seen = Seen()
    p.shot = screenshots / "sit-and-go.png"
    p.shot.unlink(missing_ok=True)
    p.play(table, seen, until=lambda s, t: you.count() > 0, timeout=240, raise_once=False)
    assert seen.decisions > 0, "the browser user played from the action bar"
    # The Tournaments tab shows the tournament finished and the user's place (the lobby is a view of its
    # own: issue 20).
    page.click("#lobby-toggle")
    page.locator(f'tr[data-tournament="{tid}"] td', has_text="finished").wait_for()
    place = int(you.get_attribute("data-place") or 0)
    shown_prize = int(you.get_attribute("data-prize") or -1)
    assert you.inner_text().startswith("You finished ")
    standings = page.locator(f'tr[data-results-for="{tid}"] .t-standings li')
    assert standings.count() == FAST_SNG.max_players
    assert _ranked(standings.evaluate_all("els => els.map(e => Number(e.dataset.place))"))
    page.screenshot(path=str(screenshots / "sit-and-go-finished.png"))
    # Its table closed with the tournament (table_closed): the tile goes, and the session storage no longer
    # opens it again after a reload.
    page.locator(f'.tile[data-table="{table}"]').wait_for(state="detached", timeout=30_000)
    assert table not in page.evaluate("sessionStorage.getItem('pokerroom.open-tables') || ''")
    # The server's account of it: every place ranked, prizes paid exactly the prize pool.
    details = page.request.get(f"{room.url}/api/tournaments/{tid}").json()
    summary = details["summary"]
    assert summary["status"] == "finished"
    pool = summary["prize_pool"]
    assert pool == FAST_SNG.buy_in * FAST_SNG.max_players
    prizes = {str(x["player"]): x["amount"] for x in details["prizes"]}
    assert sum(prizes.values()) == pool, (prizes, pool)
    assert sum(x["amount"] for x in details["payouts"]) == pool
    assert _ranked(sorted(s["place"] for s in details["standings"]))
    me = next(e["player"] for e in details["entrants"] if e["name"] == p.name)
    assert next(s["place"] for s in details["standings"] if s["player"] == me) == place
    prize = prizes.get(str(me), 0)
    assert shown_prize == prize
    # The wallet rose by exactly the prize (nothing if the user finished out of the money).
    _wait_balance(page, after_buy_in + prize)
    report = asyncio.run_coroutine_threadsafe(room.live.room.store.verify(), room.loop).result(60)
    assert report.ok, report
    assert not p.errors, p.errors


def _buy(p: Player, tile: Any, button: str, done: str) -> None:
    """Click Rebuy or Add-on when the table shows it (between hands). Meanwhile fold every hand (check when
    free), so that the stack drops to the starting stack or below, where a rebuy is allowed. The server may
    still refuse a click that races the next deal ("between hands"): then wait and retry."""
    notice = tile.locator(".notice")
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, f"never managed to {button}: {notice.inner_text()}"
        try:
            if tile.locator(button).count() == 0:
                bar = tile.locator(".actionbar[data-kind]")
                if bar.count():
                    check = bar.locator('button[data-action="check"]')
                    (check if check.count() else bar.locator('button[data-action="fold"]')).click(
                        timeout=1000
                    )
                p.page.wait_for_timeout(80)
                continue
            p.page.evaluate("(el) => { el.textContent = ''; }", notice.element_handle())
            tile.locator(button).click(timeout=1000)
        except Exception as exc:  # the hand moved on between reading and clicking
            if "Timeout" not in type(exc).__name__ and "detached" not in str(exc):
                raise
            continue
        p.page.wait_for_function("(el) => el.textContent !== ''", arg=notice.element_handle(), timeout=10_000)
        if notice.inner_text() == done:
            return
        assert "between hands" in notice.inner_text(), notice.inner_text()


def test_rebuy_and_add_on_from_the_table(room: Room, page: Any) -> None:
    """R232: in the rebuy period a player at or below the starting stack rebuys between hands, and takes the
    add-on once at the end of the period; each books buy-in + fee from the wallet and adds the buy-in to
    the prize pool. The table shows the buttons in their period and the server's answer."""
    p, tid, before = _register_new_player(room, page, FAST_REBUY)
    cost = FAST_REBUY.buy_in + FAST_REBUY.fee
    room.start_tournament_bots(tid, 1, prefix="rbot")
    tile = page.locator(f'.tile[data-table^="{tid}-t"]').first
    tile.wait_for(timeout=60_000)
    _buy(p, tile, ".rebuy-btn", "Rebought")
    _wait_balance(page, before - 2 * cost)
    _buy(p, tile, ".add-on-btn", "Add-on taken")
    _wait_balance(page, before - 3 * cost)
    summary = page.request.get(f"{room.url}/api/tournaments/{tid}").json()["summary"]
    assert summary["prize_pool"] == 4 * FAST_REBUY.buy_in  # two buy-ins, a rebuy and an add-on
    # The add-on is taken once: the table stops offering it (the standings say it was taken).
    me = next(
        s
        for s in page.request.get(f"{room.url}/api/tournaments/{tid}").json()["standings"]
        if s["name"] == p.name
    )
    assert me["add_on"] is True and me["rebuys"] == 1
    # Between hands (where the buttons show) the table no longer offers the add-on.
    p.play(
        tile.get_attribute("data-table"),
        Seen(),
        until=lambda s, t: t.get_attribute("data-hand-over") == "yes" or not t.get_attribute("data-hand-id"),
        timeout=60,
        raise_once=False,
    )
    assert tile.locator(".add-on-btn").count() == 0
    report = asyncio.run_coroutine_threadsafe(room.live.room.store.verify(), room.loop).result(60)
    assert report.ok, report
