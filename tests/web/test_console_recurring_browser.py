"""Recurring series from the console's tournaments page in chromium (issue 35): an admin adds a weekly
series from the fields of a ``[[recurring]]``; a wrong field is refused with the configuration file's
message (nothing added); the page lists the series with its next occurrences at the local time of day in
the series' zone, the next one is open in the lobby, and the audit log has ``recurring.add``. (The
endpoint: tests/server/test_console_recurring.py.)"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from .conftest import Room, console_at
from .test_tournament_deal_browser import ADMIN, BROWSER, deal_room, players  # noqa: F401 (fixtures)

WEEKLY = {
    "id": "sunday-major",
    "name": "Sunday Major",
    "kind": "mtt",
    "variant": "holdem",
    "betting": "NL",
    "buy_in": 500,
    "fee": 50,
    "currency": "PLAY",
    "repeat": "weekly",
    "days": ["sun", "wed"],
    "at": "18:30",
    "timezone": "America/New_York",
}


def test_an_admin_adds_a_weekly_series_from_the_console(deal_room: Room, players: list[Any]) -> None:  # noqa: F811
    ctx = BROWSER[0].new_context(locale="en-US")
    try:
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        errors = console_at(page, deal_room.url, "tournaments", ADMIN)
        page.locator("#recurring-series").wait_for()
        assert page.locator("#recurring-series tr[data-series]").count() == 0
        area = page.locator("#recurring-form textarea[name=recurring-fields]")
        area.fill(json.dumps({**WEEKLY, "days": ["someday"]}))
        page.click("#recurring-form button[type=submit]")
        page.locator("#console-status.error", has_text="bad_config").wait_for()
        assert "days" in page.locator("#console-status").inner_text()
        assert page.locator("#recurring-series tr[data-series]").count() == 0
        page.locator("#recurring-form textarea[name=recurring-fields]").fill(json.dumps(WEEKLY))
        page.click("#recurring-form button[type=submit]")
        page.locator("#console-status", has_text="Series sunday-major added").wait_for()
        row = page.locator('#recurring-series tr[data-series="sunday-major"]')
        row.wait_for()
        assert "weekly on sun, wed at 18:30 (America/New_York)" in row.inner_text()
        starts = row.locator("ul.next time").evaluate_all("ts => ts.map(t => t.getAttribute('datetime'))")
        assert len(starts) == 3
        local = [datetime.fromisoformat(s).astimezone(ZoneInfo("America/New_York")) for s in starts]
        assert all((t.hour, t.minute) == (18, 30) and t.strftime("%a") in ("Sun", "Wed") for t in local)
        first = row.locator("ul.next li").first.get_attribute("data-tournament")
        lobby = page.request.get(f"{deal_room.url}/api/tournaments").json()
        assert first in [t["tournament"] for t in lobby["upcoming"]]  # open for registration
        page.goto(f"{deal_room.url}/static/console.html#audit")
        page.locator('#audit-log tr[data-action="recurring.add"]').first.wait_for()
        assert errors == []
    finally:
        ctx.close()


MIDWEEK = {**WEEKLY, "id": "midweek", "name": "Midweek", "days": ["tue", "thu"], "at": "19:00"}


def test_an_admin_edits_and_removes_a_series_from_the_console(deal_room: Room, players: list[Any]) -> None:  # noqa: F811
    """The series added in the console gets Edit and Remove: Edit fills the form with its stored fields
    and saves them (the row shows the new rule and its next occurrences at the new time); Remove (after
    the confirmation) takes it off the list and no occurrence of it stays open (nobody registered); the
    audit log has ``recurring.edit`` and ``recurring.remove``. (The endpoints:
    tests/server/test_tournament_recurring_console.py.)"""
    ctx = BROWSER[0].new_context(locale="en-US")
    try:
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        page.on("dialog", lambda dialog: dialog.accept())  # (the removal's confirmation)
        errors = console_at(page, deal_room.url, "tournaments", ADMIN)
        page.locator("#recurring-form textarea[name=recurring-fields]").fill(json.dumps(MIDWEEK))
        page.click("#recurring-form button[type=submit]")
        page.locator("#console-status", has_text="Series midweek added").wait_for()
        row = page.locator('#recurring-series tr[data-series="midweek"]')
        row.wait_for()
        row.locator("button[data-edit-series=midweek]").click()
        area = page.locator("#recurring-form textarea[name=recurring-fields]")
        assert json.loads(area.input_value()) == MIDWEEK  # the stored fields, to edit
        assert page.locator("#recurring-form button[type=submit]").inner_text() == "Save midweek"
        area.fill(json.dumps({**MIDWEEK, "name": "Midweek Turbo", "days": ["fri"], "at": "21:15"}))
        page.click("#recurring-form button[type=submit]")
        page.locator("#console-status", has_text="Series midweek edited").wait_for()
        row = page.locator('#recurring-series tr[data-series="midweek"]')
        row.locator("td", has_text="weekly on fri at 21:15 (America/New_York)").wait_for()
        assert "Midweek Turbo" in row.inner_text()
        starts = row.locator("ul.next time").evaluate_all("ts => ts.map(t => t.getAttribute('datetime'))")
        local = [datetime.fromisoformat(s).astimezone(ZoneInfo("America/New_York")) for s in starts]
        assert len(local) == 3 and all(t.strftime("%a %H:%M") == "Fri 21:15" for t in local)
        lobby = page.request.get(f"{deal_room.url}/api/tournaments").json()
        open_ids = [t["tournament"] for t in lobby["upcoming"] if t["tournament"].startswith("midweek-")]
        assert open_ids and all(
            datetime.fromisoformat(t["start_time"]).astimezone(ZoneInfo("America/New_York")).strftime("%a")
            == "Fri"
            for t in lobby["upcoming"]
            if t["tournament"] in open_ids
        )  # (the Tuesday and Thursday ones, nobody registered, were withdrawn)
        row.locator("button[data-remove-series=midweek]").click()
        page.locator("#console-status", has_text="Series midweek removed").wait_for()
        page.locator('#recurring-series tr[data-series="midweek"]').wait_for(state="detached")
        lobby = page.request.get(f"{deal_room.url}/api/tournaments").json()
        assert not [t for t in lobby["upcoming"] if t["tournament"].startswith("midweek-")]
        page.goto(f"{deal_room.url}/static/console.html#audit")
        page.locator('#audit-log tr[data-action="recurring.edit"]').first.wait_for()
        page.locator('#audit-log tr[data-action="recurring.remove"]').first.wait_for()
        assert errors == []
    finally:
        ctx.close()
