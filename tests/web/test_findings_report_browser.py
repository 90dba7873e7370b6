"""Issue 30 in chromium: the console's Findings page runs the integrity report and lists a planted finding
(the bots package's machine-timed bot, played on the harness into the room's store) with its notes count
and a link to each supporting hand, which opens in the console's replayer with every card; and a player
reports a hand he played from his cashier's replayer ("Report this hand"), which the operator sees on the
Players' reports page and opens in the same replayer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pokerroom.bots.runner import start_bots
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role
from tests.server.conftest import serve_room
from tests.server.console.planted import TABLE, plant_a_machine
from tests.waiting import wait_until
from tests.web.conftest import TIMING, Room, _need_browser, browser_page, console_at, room_in_thread
from tests.web.player import PASSWORD, Player, Seen, page_pause

ADMIN = "findingsboss"
NOTE = "watched since Monday: always one second"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A room on a store where the timing field (3 honest bots and a machine) played 20 hands within the
    last day; an administrator who wrote a note on the machine; a bot at the hold'em table to play with."""
    _need_browser()
    tmp = tmp_path_factory.mktemp("findings-room")
    machine = asyncio.run(plant_a_machine(tmp / "room.db"))
    manager = serve_room(
        tmp, RoomSettings(tables=tuple(demo_tables(TIMING, games=("holdem",)))), durable=False
    )

    async def setup(r: Room) -> None:
        store = r.live.room.store
        boss = await store.accounts.register(ADMIN, PASSWORD, role=Role.ADMIN)
        plant = await store.accounts.find(machine)
        await store.notes.add(plant.id, boss.id, ADMIN, NOTE)
        r.bots += await start_bots(
            r.url, 1, ["caller"], tables=[TABLE], think=(0.05, 0.2), prefix="fb", seed=3
        )
        r.machine = machine  # type: ignore[attr-defined]

    with room_in_thread("findings-room", manager, setup) as r:
        yield r


def _console(page: Any, room: Room, where: str) -> list[str]:
    return console_at(page, room.url, where, ADMIN)


def _every_card_shown(page: Any, hand_id: str) -> list[str]:
    """The console's replayer of ``hand_id``: each seat's cards, which are all face up (the audit copy)."""
    page.wait_for_selector(f'#console-hand[data-hand-id="{hand_id}"] .tile.replay')
    cards: list[str] = page.locator("#console-hand .tile.replay .seat .card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return cards


def test_the_findings_page_lists_a_planted_machine_with_its_notes_and_hands(
    room: Room, page: Any, screenshots: Path
) -> None:
    machine: str = room.machine  # type: ignore[attr-defined]
    errors = _console(page, room, "findings")
    page.locator("#findings-form select[name=days]").select_option("1")
    page.locator("#findings-form button[type=submit]").click()
    page.wait_for_selector('#findings-run[data-state="done"]', timeout=120_000)
    timing = page.locator('.findings-section[data-key="bots_by_timing"]')
    assert "Bots by timing: 1 flagged of 4" in timing.locator("h3").inner_text()
    flagged = timing.locator('tr.finding[data-flagged="yes"]')
    assert flagged.count() == 1
    assert flagged.locator(".who a").first.inner_text() == machine
    assert flagged.locator(".notes-count").inner_text() == "1 note"
    assert "median seconds" in flagged.locator(".figures").inner_text()
    for key in ("chip_dumping", "soft_play", "collusive_betting"):  # every section is drawn
        assert page.locator(f'.findings-section[data-key="{key}"] h3').count() == 1
    page.screenshot(path=str(screenshots / "console-findings.png"), full_page=True)
    links = flagged.locator("a.hand-link")
    assert links.count() == 10
    hand_id = links.first.inner_text()
    links.first.click()
    cards = _every_card_shown(page, hand_id)
    assert len(cards) == 8 and "??" not in cards  # four seats, two hole cards each, every one face up
    assert machine in page.locator("#hand-nets").inner_text()
    page.screenshot(path=str(screenshots / "console-hand-replay.png"), full_page=True)
    # back to the findings: the run is shown again, not run again
    page.locator("#console-hand button.back").click()
    page.wait_for_selector('#findings-run[data-state="done"]')
    flagged.locator(".notes-count").click()
    page.wait_for_selector(f"#player-notes li >> text={NOTE}")
    assert errors == []


def test_a_player_named_like_an_objects_member_is_just_a_name(room: Room, page: Any) -> None:
    """The page looks a row's names up in the report's accounts by own key only: a player named
    ``constructor`` or ``__proto__`` (no account in the map) is shown by his name, not as a member every
    object has."""
    errors = _console(page, room, "findings")
    found = page.evaluate(
        """async () => {
            const m = await import("/static/js/console/findings.js");
            const accounts = JSON.parse('{"alice": {"id": 7, "name": "alice", "notes": 2, "linked": 0}}');
            const row = {players: ["constructor", "__proto__", "toString", "alice"], flagged: true};
            return m.whoOf(row, accounts).map((a) => [a.name, a.id === undefined ? null : a.id]);
        }"""
    )
    assert found == [["constructor", None], ["__proto__", None], ["toString", None], ["alice", 7]]
    assert errors == []


def test_a_player_reports_a_hand_and_the_operator_opens_it(
    room: Room, page: Any, browser: Any, screenshots: Path
) -> None:
    p = Player(page, room.url)
    p.register()
    p.open_and_sit(TABLE)
    p.play(
        TABLE,
        Seen(),
        until=lambda s, t: int(t.get_attribute("data-hands-played") or 0) >= 1,
        raise_once=False,
    )
    p.leave(TABLE)
    wait_until(
        lambda: page.request.get(room.url + "/api/hands").json()["hands"],
        timeout=30,
        pause=page_pause(page),
        what="the hand we played is stored",
    )
    hand_id = page.request.get(room.url + "/api/hands").json()["hands"][0]["hand_id"]
    page.click("#cashier-btn")
    cashier = page.locator("dialog.cashier")
    cashier.locator(f'table.hand-list tr[data-hand-id="{hand_id}"] button.replay-btn').click()
    box = cashier.locator(f'.report-hand[data-hand-id="{hand_id}"]')
    box.locator("button.report-hand-btn").click()
    form = box.locator("form.report-hand-form")
    form.locator("textarea[name=reason]").fill(" x ")
    form.locator("button.report-send").click()
    assert (
        form.locator('.error[data-code="too_short"]').inner_text()
        == "Please say why in at least 3 characters."
    )
    form.locator("textarea[name=reason]").fill("he showed his cards to his friend in the chat")
    form.locator("button.report-send").click()
    sent = box.locator(".report-sent")
    sent.wait_for()
    assert sent.inner_text() == "Thank you: the room's staff will look at this hand."
    cashier.screenshot(path=str(screenshots / "report-a-hand.png"))
    assert not p.errors

    with browser_page(browser, viewport={"width": 1280, "height": 900}) as op:
        errors = _console(op, room, "player-reports")
        row = op.locator("#player-reports tr", has_text="he showed his cards to his friend")
        row.wait_for()
        assert p.name in row.inner_text() and "hand" in row.inner_text()
        row.locator(f'a.hand-link:text-is("{hand_id}")').click()
        cards = _every_card_shown(op, hand_id)
        assert len(cards) == 4 and "??" not in cards  # the player and the bot, every hole card
        assert p.name in op.locator("#hand-nets").inner_text()
        assert errors == []


def test_the_report_button_speaks_the_players_language(room: Room, browser: Any) -> None:
    """In Russian: the button, the too-short reason and the server's refusal (a hand he was not dealt in:
    ``unknown_hand``) are worded in the player's language; nothing is filed."""

    async def reports() -> int:
        return len(await room.live.room.store.chat.reports())

    before = asyncio.run_coroutine_threadsafe(reports(), room.loop).result(30)
    with browser_page(browser, locale="ru-RU") as pg:
        p = Player(pg, room.url)
        p.register()
        pg.evaluate(
            """async () => {
                const { reportHandBox } = await import('/static/js/reporthand.js');
                document.body.append(reportHandBox('holdem-nl-999999'));
            }"""
        )
        box = pg.locator('.report-hand[data-hand-id="holdem-nl-999999"]')
        button = box.locator("button.report-hand-btn")
        assert button.inner_text() == "Пожаловаться на эту раздачу"
        button.click()
        box.locator("textarea[name=reason]").fill("ok")
        box.locator("button.report-send").click()
        assert box.locator(".error").inner_text() == "Объясните причину хотя бы в 3 символах."
        box.locator("textarea[name=reason]").fill("он играл вместе с другом")
        box.locator("button.report-send").click()
        box.locator('.error[data-code="unknown_hand"]').wait_for()
        assert box.locator(".error").inner_text() == "Этой раздачи нет среди ваших последних."
        assert box.locator(".report-sent").count() == 0
        assert not p.errors
    assert asyncio.run_coroutine_threadsafe(reports(), room.loop).result(30) == before  # nothing filed
