"""The cashier over HTTP (issue 29, items 1 and 2): balances in every currency of the room, the player's
deposit and withdrawal requests, the console's approvals and declines with the payment provider's check,
audit entries, and bad input refused with typed errors and nothing booked."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from pokerroom.server.config.parse import ConfigInvalid, parse_config
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import AccountKind, Role, Store, StoreUnavailable

from .conftest import FAST, LiveServer, serve_room
from .console.conftest import account as _account

GAME = 'game = "holdem"\nstakes = { small_blind = 1, big_blind = 2 }\n'


@dataclass
class Cashier:
    s: LiveServer
    http: httpx.AsyncClient
    admin: dict[str, str]
    support: dict[str, str]
    alice: dict[str, str]
    alice_id: int

    @property
    def store(self) -> Store:
        return self.s.room.store

    async def post(self, who: dict[str, str], path: str, body: Any) -> httpx.Response:
        return await self.http.post(path, json=body, headers=who)


@pytest_asyncio.fixture
async def cashier(tmp_path: Path) -> AsyncIterator[Cashier]:
    tables = tuple(demo_tables(FAST, games=("holdem",)))
    settings = RoomSettings(tables=tables, currencies=("EUR", "USD"), payments="test")
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=30) as http,
    ):
        admin, _ = await _account(http, s, "boss", Role.ADMIN)
        support, _ = await _account(http, s, "helpdesk", Role.SUPPORT)
        alice, pid = await _account(http, s, "alice", Role.PLAYER)
        http.cookies.clear()
        yield Cashier(s, http, admin, support, alice, pid)


def _deposit(amount: Any = 5_000, **more: Any) -> dict[str, Any]:
    return {
        "currency": "EUR",
        "amount": amount,
        "reference": "SEPA 4411",
        "request_id": "dep-0000001",
        **more,
    }


def _withdrawal(amount: Any = 1_000, **more: Any) -> dict[str, Any]:
    return {
        "currency": "EUR",
        "amount": amount,
        "destination": "BG80 BNBG",
        "request_id": "wd-00000001",
        **more,
    }


async def _booked(c: Cashier) -> tuple[int, int, int]:
    """What would change if something were booked: transactions, requests, audit entries."""
    report = await c.store.verify()
    assert report.ok, report.render()
    return report.transactions, len(await c.store.cashier.requests()), len(await c.store.audit.entries())


# -- wallets in every currency ------------------------------------------------------------------------


def test_room_settings_list_play_first_then_configured_then_table_currencies() -> None:
    tables = tuple(demo_tables(FAST, games=("holdem",)))
    usd = tuple(replace(t, currency="USD") for t in tables)
    settings = RoomSettings(tables=usd, currencies=("EUR", "PLAY", "EUR"))
    assert settings.currencies == ("PLAY", "EUR", "USD")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('[room]\ncurrencies = ["euro"]\n', "room.currencies[0]"),
        ('[room]\ncurrencies = ["EUR", "XYZ"]\n', "room.currencies[1]"),
        ('[room]\ncurrencies = ["eur"]\n', "room.currencies[0]"),
        ('[room]\ncurrencies = "EUR"\n', "room.currencies"),
        ('[room]\npayments = "paypal"\n', "room.payments"),
        (f'[[table]]\nid = "t"\n{GAME}currency = "euro"\n', "table[0].currency"),
        (f'[[pool]]\nid = "p"\n{GAME}currency = "XYZ"\n', "pool[0].currency"),
    ],
)  # fmt: skip
def test_config_check_refuses_currencies_that_are_not_iso_4217(text: str, key: str) -> None:
    with pytest.raises(ConfigInvalid) as err:
        parse_config(text)
    assert [p.path for p in err.value.problems] == [key]


def test_config_takes_iso_codes_and_play() -> None:
    room = parse_config('[room]\ncurrencies = ["EUR", "BGN", "PLAY"]\npayments = "test"\n')
    assert room.currencies == ("PLAY", "EUR", "BGN") and room.payments == "test"


@pytest.mark.asyncio
async def test_the_account_shows_every_currency_of_the_room(cashier: Cashier) -> None:
    r = await cashier.http.get("/api/account", headers=cashier.alice)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["currencies"] == ["PLAY", "EUR", "USD"]
    assert set(got["balances"]) == {"PLAY", "EUR", "USD", "PTS"}  # PLAY and PTS as before
    assert got["balances"]["EUR"] == 0 and got["balances"]["PLAY"] > 0


@pytest.mark.asyncio
async def test_an_adjust_in_a_currency_the_room_does_not_have_is_refused(cashier: Cashier) -> None:
    c = cashier
    before = await _booked(c)
    for currency in ("XYZ", "GBP"):
        body = {"currency": currency, "amount": 500, "reason": "a correction"}
        r = await c.post(c.admin, f"/api/console/players/{c.alice_id}/adjust", body)
        assert r.status_code == 400 and r.json()["code"] == "invalid_currency", r.text
    assert await _booked(c) == before
    body = {"currency": "EUR", "amount": 500, "reason": "a first EUR credit"}
    r = await c.post(c.admin, f"/api/console/players/{c.alice_id}/adjust", body)
    assert r.status_code == 200, r.text
    detail = (await c.http.get(f"/api/console/players/{c.alice_id}", headers=c.admin)).json()
    assert list(detail["balances"]) == ["PLAY", "EUR", "USD", "PTS"] and detail["balances"]["EUR"] == 500


# -- the cashier -----------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_deposit_is_asked_for_approved_in_the_console_and_audited(cashier: Cashier) -> None:
    c = cashier
    r = await c.post(c.alice, "/api/cashier/deposits", _deposit())
    assert r.status_code == 200, r.text
    no = r.json()["request"]["id"]
    assert r.json()["request"]["state"] == "pending" and r.json()["request"]["method"] == "test"
    again = await c.post(c.alice, "/api/cashier/deposits", _deposit())
    assert again.json()["replayed"] is True and again.json()["request"]["id"] == no
    assert (await c.post(c.support, f"/api/console/cashier/{no}/approve", {})).status_code == 403
    assert (await c.post(c.alice, f"/api/console/cashier/{no}/approve", {})).status_code == 403
    pending = (await c.http.get("/api/console/cashier", headers=c.support)).json()
    assert [(p["id"], p["player"]) for p in pending["requests"]] == [(no, "alice")]
    r = await c.post(c.admin, f"/api/console/cashier/{no}/approve", {"reason": "arrived"})
    assert r.status_code == 200 and r.json()["request"]["state"] == "approved", r.text
    assert (await c.http.get("/api/account", headers=c.alice)).json()["balances"]["EUR"] == 5_000
    [asked] = await c.store.audit.entries(action="cashier.deposit_request")
    [approved] = await c.store.audit.entries(action="cashier.approve")
    assert asked.actor_name == "alice" and approved.actor_name == "boss" and approved.reason == "arrived"
    assert approved.after["amount"] == 5_000 and approved.target == f"cashier:{no}"
    r = await c.post(c.admin, f"/api/console/cashier/{no}/decline", {"reason": "too late now"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "cashier_request_decided"
    assert (await c.store.verify()).ok


@pytest.mark.asyncio
async def test_a_withdrawal_is_held_then_paid_or_declined(cashier: Cashier) -> None:
    c = cashier
    await c.store.operator.adjust(
        c.alice_id, "EUR", 10_000, admin_id=0, reason="seed", idempotency_key="seed"
    )
    r = await c.post(c.alice, "/api/cashier/withdrawals", _withdrawal(3_000))
    assert r.status_code == 200, r.text
    paid = r.json()["request"]["id"]
    r = await c.post(c.alice, "/api/cashier/withdrawals", _withdrawal(2_000, request_id="wd-00000002"))
    back = r.json()["request"]["id"]
    mine = (await c.http.get("/api/cashier", headers=c.alice)).json()
    assert mine["balances"]["EUR"] == 5_000 and mine["pending"]["EUR"] == 5_000
    assert [q["id"] for q in mine["requests"]] == [back, paid]
    r = await c.post(c.admin, f"/api/console/cashier/{paid}/approve", {})
    assert r.status_code == 200, r.text
    r = await c.post(c.admin, f"/api/console/cashier/{back}/decline", {"reason": "wrong IBAN"})
    assert r.status_code == 200, r.text
    mine = (await c.http.get("/api/cashier", headers=c.alice)).json()
    assert mine["balances"]["EUR"] == 7_000 and mine["pending"]["EUR"] == 0
    assert await c.store.ledger.system_balance(AccountKind.CASHIER, "EUR") == 3_000
    assert [e.reason for e in await c.store.audit.entries(action="cashier.decline")] == ["wrong IBAN"]
    assert (await c.store.verify()).ok


@pytest.mark.asyncio
async def test_a_failing_provider_leaves_the_request_pending_and_books_nothing(cashier: Cashier) -> None:
    c = cashier
    r = await c.post(c.alice, "/api/cashier/deposits", _deposit(reference="please fail"))
    no = r.json()["request"]["id"]
    before = await _booked(c)
    r = await c.post(c.admin, f"/api/console/cashier/{no}/approve", {})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "payment_failed", r.text
    assert await _booked(c) == before and (await c.store.cashier.get(no)).state == "pending"


NOT_INTEGERS: list[Any] = [True, False, "5000", 50.0, 1.5, None, [5], {"a": 1}]


@pytest.mark.asyncio
async def test_bad_input_is_refused_with_typed_errors_and_nothing_is_booked(cashier: Cashier) -> None:
    c = cashier
    await c.store.operator.adjust(c.alice_id, "EUR", 1_000, admin_id=0, reason="seed", idempotency_key="seed")
    r = await c.post(c.alice, "/api/cashier/deposits", _deposit(request_id="first-one"))
    assert r.status_code == 200
    before = await _booked(c)
    for path, body in (("/api/cashier/deposits", _deposit), ("/api/cashier/withdrawals", _withdrawal)):
        for amount in NOT_INTEGERS:
            r = await c.post(c.alice, path, body(amount))
            assert r.status_code == 422, (path, amount, r.text)
        for amount, code in ((0, "invalid_amount"), (-500, "invalid_amount"), (10**10 + 1, "invalid_amount"),
                             (2**63, "invalid_amount")):  # fmt: skip
            r = await c.post(c.alice, path, body(amount))
            assert (r.status_code, r.json()["detail"]["code"]) == (400, code), (path, amount, r.text)
        for currency in ("XYZ", "euro", "eur", "GBP", "PLAY", "PTS"):
            r = await c.post(c.alice, path, body(currency=currency))
            assert (r.status_code, r.json()["detail"]["code"]) == (400, "invalid_currency"), (
                currency,
                r.text,
            )
        for rid in ("short", "has spaces in it", 12345678):
            r = await c.post(c.alice, path, body(request_id=rid))
            assert r.status_code == 422, (rid, r.text)
        r = await c.post(c.alice, path, {**body(), "extra": 1})
        assert r.status_code == 422
        r = await c.http.post(path, json=body())
        assert r.status_code == 401
    r = await c.post(c.alice, "/api/cashier/deposits", _deposit(request_id="first-one", amount=6_000))
    assert (r.status_code, r.json()["detail"]["code"]) == (409, "idempotency_conflict")
    r = await c.post(c.alice, "/api/cashier/deposits", _deposit(reference="   "))
    assert (r.status_code, r.json()["detail"]["code"]) == (400, "invalid_cashier_request")
    r = await c.post(c.alice, "/api/cashier/withdrawals", _withdrawal(1_001))
    assert (r.status_code, r.json()["detail"]["code"]) == (402, "insufficient_funds")
    assert await _booked(c) == before
    for no, body2, status in ((999, {"reason": "no such"}, 404), (1, {"reason": True}, 422), (1, {}, 422)):
        r = await c.post(c.admin, f"/api/console/cashier/{no}/decline", body2)
        assert r.status_code == status, r.text
    r = await c.post(c.admin, "/api/console/cashier/999/approve", {})
    assert (r.status_code, r.json()["detail"]["code"]) == (404, "unknown_cashier_request")
    assert await _booked(c) == before


@pytest.mark.asyncio
@pytest.mark.allow_errors("pokerroom", reason="the store fails on purpose")
async def test_a_failing_database_is_503_not_a_bare_500(
    cashier: Cashier, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = cashier

    async def down(*args: Any, **kwargs: Any) -> None:
        raise StoreUnavailable("the database is gone")

    monkeypatch.setattr(c.store.cashier, "request_deposit", down)
    monkeypatch.setattr(c.store.cashier, "decline", down)
    r = await c.post(c.alice, "/api/cashier/deposits", _deposit())
    assert (r.status_code, r.json()["code"]) == (503, "store_unavailable"), r.text
    r = await c.post(c.admin, "/api/console/cashier/1/decline", {"reason": "no money"})
    assert (r.status_code, r.json()["code"]) == (503, "store_unavailable"), r.text
