"""The cashier in chromium (issue 29, items 1 and 2): a player asks for a EUR deposit in the cashier
dialog; the operator approves it on the console's Cashier page; the balance appears in the player's
header and cashier; a withdrawal is held at once (out of the balance), then paid; another is declined
with a reason and comes back. Bad amounts are refused in the form and nothing is asked for."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role
from tests.server.conftest import serve_room
from tests.web.conftest import TIMING, Room, _need_browser, room_in_thread
from tests.web.player import PASSWORD, Player
from tests.web.test_console import ADMIN, console, status


def run(room: Room, coro: Any, limit: float = 60) -> Any:
    return asyncio.run_coroutine_threadsafe(coro, room.loop).result(limit)


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A room with EUR besides play money, the manual payment provider, and an administrator."""
    _need_browser()
    tmp = tmp_path_factory.mktemp("cashier-room")
    settings = RoomSettings(tables=tuple(demo_tables(TIMING, games=("holdem",))), currencies=("EUR",))
    manager = serve_room(tmp, settings, durable=False)

    async def setup(r: Room) -> None:
        await r.live.room.store.accounts.register(ADMIN, PASSWORD, role=Role.ADMIN)

    with room_in_thread("cashier-room", manager, setup) as r:
        yield r


def _ask(p: Any, kind: str, amount: str, extra: str) -> None:
    """Fill and send the cashier dialog's deposit or withdrawal form (the dialog is open)."""
    form = p.locator(f"dialog.cashier form.cashier-{kind}")
    form.locator("select[name=currency]").select_option("EUR")
    form.locator("input[name=amount]").fill(amount)
    form.locator("input[name=reference]" if kind == "deposit" else "input[name=destination]").fill(extra)
    form.locator("button[type=submit]").click()


def _decide(page: Any, room: Room, request_no: int, what: str, reason: str) -> None:
    page.goto(f"{room.url}/static/console.html#cashier/pending")
    page.reload()  # (the same address: drawn afresh)
    row = page.locator(f'#cashier-requests tr[data-request="{request_no}"]')
    row.wait_for()
    row.locator("input[name=reason]").fill(reason)
    row.locator(f"button.{what}").click()
    page.locator("#console-status", has_text=f"request {request_no}").wait_for()
    assert what in status(page)


def _wallet(p: Any) -> Any:
    return p.locator('#wallets .wallet[data-currency="EUR"]')


def _open_cashier(p: Any) -> Any:
    p.keyboard.press("Escape")  # (a dialog left open from before)
    p.click("#cashier-btn")
    money = p.locator('dialog.cashier .money tr[data-currency="EUR"] .wallet-balance')
    money.wait_for()
    return money


def test_deposit_approved_then_withdrawals_held_paid_and_declined(room: Room, page: Any) -> None:
    errors = console(page, room, "cashier")
    assert page.locator("#cashier-empty").is_visible()
    other = page.context.browser.new_context(
        viewport={"width": 1280, "height": 900}, locale="en-US"
    ).new_page()
    other.set_default_timeout(15_000)
    p = Player(other, room.url)
    p.register()
    store = room.live.room.store
    pid = run(room, store.accounts.find(p.name)).id
    assert _wallet(other).inner_text() == "0.00 EUR"  # every currency of the room, 0 without a wallet

    # A bad amount is refused in the form; nothing is asked for.
    _open_cashier(other)
    _ask(other, "deposit", "12.345", "SEPA 4411")
    other.locator("dialog.cashier form.cashier-deposit .error", has_text="Enter an amount").wait_for()
    assert run(room, store.cashier.requests(player_id=pid)) == []

    # The deposit: asked for, pending, approved in the console, in the header and the cashier.
    _ask(other, "deposit", "50", "SEPA 4411")
    other.locator('dialog.cashier .cashier-requests tr[data-state="pending"]').wait_for()
    [dep] = run(room, store.cashier.requests(player_id=pid))
    assert (dep.amount, dep.reference, dep.state) == (5_000, "SEPA 4411", "pending")
    assert _wallet(other).inner_text() == "0.00 EUR"
    _decide(page, room, dep.id, "approve", "arrived on the club's account")
    other.reload()
    _wallet(other).filter(has_text="50.00 EUR").wait_for()
    assert _open_cashier(other).inner_text() == "50.00 EUR"
    other.locator('dialog.cashier .cashier-requests tr[data-state="approved"]').wait_for()

    # A withdrawal leaves the balance at once (held), then the operator pays it.
    _ask(other, "withdrawal", "20.00", "BG80 BNBG 9661")
    other.locator(
        'dialog.cashier .money tr[data-currency="EUR"] .wallet-balance', has_text="30.00 EUR"
    ).wait_for()
    assert (
        "20.00 EUR"
        in other.locator('dialog.cashier .money tr[data-currency="EUR"] .wallet-pending').inner_text()
    )
    _wallet(other).filter(has_text="30.00 EUR").wait_for()
    paid = max(r.id for r in run(room, store.cashier.requests(player_id=pid)))
    _decide(page, room, paid, "approve", "paid by bank transfer")

    # Another is declined with a reason: its amount comes back to the balance.
    _open_cashier(other)
    _ask(other, "withdrawal", "10", "BG80 BNBG 9661")
    _wallet(other).filter(has_text="20.00 EUR").wait_for()
    back = max(r.id for r in run(room, store.cashier.requests(player_id=pid)))
    _decide(page, room, back, "decline", "the account is not the player's")
    other.reload()
    _wallet(other).filter(has_text="30.00 EUR").wait_for()
    _open_cashier(other)
    declined = other.locator('dialog.cashier .cashier-requests tr[data-state="declined"]')
    assert "the account is not the player's" in declined.inner_text()
    assert other.locator('dialog.cashier .money tr[data-currency="EUR"] .wallet-pending').inner_text() == ""

    # The console's history and the ledger agree.
    page.goto(f"{room.url}/static/console.html#cashier/all")
    page.locator("#cashier-requests tr[data-request]").nth(2).wait_for()
    assert page.locator('#cashier-requests tr[data-state="approved"]').count() == 2
    report = run(room, store.verify())
    assert report.ok, report.render()
    assert run(room, store.ledger.balance(pid, "EUR")) == 3_000
    assert errors == [] and p.errors == []
    other.context.close()
