"""The operator API (issue 29, item 3; docs/operator-api.md): every endpoint refuses a call without a key,
with an unknown or revoked key (401) and with a key out of its scope (403), serves one in scope, and
audits each call made with a known key; keys are rate-limited; the sign-on link works once."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from sqlalchemy.exc import OperationalError

from pokerroom.cli.serve import room_settings
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.config import ConfigInvalid, parse_config
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role, Store
from pokerroom.store.api_keys import SCOPES, ApiKeyPolicy

from .conftest import LiveServer, serve_room
from .wire import PASSWORD

pytestmark = pytest.mark.asyncio


@dataclass
class Api:
    s: LiveServer
    http: httpx.AsyncClient
    admin_id: int
    alice: int  # a player with EUR 100.00
    keys: dict[str, str]  # key name -> the whole key: "all" (every scope), "no-<scope>", "revoked"

    @property
    def store(self) -> Store:
        return self.s.room.store

    def auth(self, name: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[name]}"}

    async def call(self, method: str, path: str, key: str | None, body: Any = None) -> httpx.Response:
        headers = self.auth(key) if key else {}
        return await self.http.request(method, path, json=body, headers=headers)

    async def audit(self, action: str) -> list[dict[str, Any]]:
        return [e.to_dict() for e in await self.store.audit.entries(action=action, limit=500)]


@pytest_asyncio.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    cup = TournamentConfig(
        "cup", "Cup", buy_in=1000, fee=100, start_time=datetime.now(UTC) + timedelta(hours=2)
    )
    busy = ApiKeyPolicy(rate=1000, burst=1000)  # (the rate's own test sets a tight one)
    settings = RoomSettings(currencies=("EUR",), tournaments=(cup,), operator_api=busy)
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=30) as http,
    ):
        store = s.room.store
        admin = await store.accounts.register("boss", PASSWORD, role=Role.ADMIN)
        alice = await store.accounts.register("alice", PASSWORD)
        await store.ledger.deposit(alice.id, "EUR", 10_000, admin_id=admin.id, idempotency_key="seed-alice")
        await store.ledger.play_money_top_up(alice.id, idempotency_key="welcome-alice")
        keys = {}
        for name, scopes in [("all", SCOPES), ("revoked", SCOPES)] + [
            (f"no-{scope}", [s for s in SCOPES if s != scope]) for scope in SCOPES
        ]:
            made = await store.api_keys.create(name, scopes, created_by="boss", created_by_id=admin.id)
            keys[name] = made.secret
            if name == "revoked":
                await store.api_keys.revoke(made.key.id, by="boss")
        yield Api(s, http, admin.id, alice.id, keys)


def _endpoints(api: Api, n: int) -> list[tuple[str, str, str, Any, int]]:
    """(method, path, scope, body, status in scope) of every endpoint; ``n`` makes request ids unique."""
    a = api.alice
    return [
        ("POST", "/api/v1/accounts", "accounts", {"name": f"new{n}", "password": PASSWORD}, 201),
        ("GET", f"/api/v1/accounts/{a}", "accounts", None, 200),
        ("GET", "/api/v1/accounts?name=alice", "accounts", None, 200),
        ("GET", f"/api/v1/accounts/{a}/balances", "balances", None, 200),
        ("POST", f"/api/v1/accounts/{a}/deposits", "cashier",
         {"currency": "EUR", "amount": 500, "request_id": f"dep-{n:06d}"}, 200),
        ("POST", f"/api/v1/accounts/{a}/withdrawals", "cashier",
         {"currency": "EUR", "amount": 100, "request_id": f"wd-{n:06d}-a"}, 200),
        ("GET", "/api/v1/cashier/requests?kind=withdrawal", "cashier", None, 200),
        ("POST", f"/api/v1/withdrawals/{{w{n}a}}/approve", "cashier", {"reason": "paid"}, 200),
        ("POST", f"/api/v1/withdrawals/{{w{n}b}}/decline", "cashier", {"reason": "wrong IBAN"}, 200),
        ("GET", "/api/v1/tournaments", "tournaments", None, 200),
        ("POST", "/api/v1/tournaments/cup/registrations", "tournaments", {"account": str(a)}, 200),
        ("POST", f"/api/v1/accounts/{a}/sso", "sso", None, 200),
    ]  # fmt: skip


async def _withdrawal(api: Api, request_id: str) -> int:
    body = {"currency": "EUR", "amount": 100, "request_id": request_id}
    r = await api.call("POST", f"/api/v1/accounts/{api.alice}/withdrawals", "all", body)
    assert r.status_code == 200, r.text
    return int(r.json()["request"]["id"])


async def test_every_endpoint_checks_the_key_and_its_scope_and_audits_the_call(api: Api) -> None:
    """401 without a key, with an unknown one and with a revoked one; 403 out of scope; 200 in scope; an
    audit entry for each call made with a known key (the revoked one too), none without."""
    pending = {"w1a": await _withdrawal(api, "wd-pending-1a"), "w1b": await _withdrawal(api, "wd-pending-1b")}
    for method, path, scope, body, ok in _endpoints(api, 1):
        path = path.format(**pending)
        action_before = len(await api.audit("api."))
        r = await api.call(method, path, None, body)
        assert (r.status_code, r.json()["code"]) == (401, "api_key_required"), path
        r = await api.http.request(method, path, json=body, headers={"Authorization": "Bearer prk_0000_nope"})
        assert (r.status_code, r.json()["code"]) == (401, "bad_api_key"), path
        assert len(await api.audit("api.")) == action_before, "no key, nothing to audit"
        r = await api.call(method, path, "revoked", body)
        assert (r.status_code, r.json()["code"]) == (401, "api_key_revoked"), path
        r = await api.call(method, path, f"no-{scope}", body)
        assert (r.status_code, r.json()["code"], r.json()["details"]) == (
            403,
            "out_of_scope",
            {"scope": scope},
        )
        r = await api.call(method, path, "all", body)
        assert r.status_code == ok, (path, r.text)
        entries = (await api.audit("api."))[:3]  # newest first
        assert [(e["actor"]["name"], e["after"]["outcome"], e["after"]["status"]) for e in entries] == [
            ("api:all", "ok", ok),
            (f"api:no-{scope}", "out_of_scope", 403),
            ("api:revoked", "api_key_revoked", 401),
        ], path
        assert all(e["after"]["endpoint"] == f"{method} {path.split('?')[0]}" for e in entries)
        assert len({e["action"] for e in entries}) == 1 and entries[0]["actor"]["id"] is None
    every = str(await api.audit(""))
    assert not any(secret in every or secret.split("_", 2)[2] in every for secret in api.keys.values())


async def test_the_work_of_each_endpoint(api: Api) -> None:
    a = api.alice
    r = await api.call("POST", "/api/v1/accounts", "all", {"name": "carol", "password": PASSWORD})
    carol = r.json()["account"]
    assert r.status_code == 201 and carol["name"] == "carol" and not carol["locked"]
    r = await api.call("GET", f"/api/v1/accounts/{carol['id']}/balances", "all")
    assert r.json()["balances"] == {"PLAY": 1_000_000, "EUR": 0, "PTS": 0}  # the welcome play money
    r = await api.call("POST", "/api/v1/accounts", "all", {"name": "Carol", "password": PASSWORD})
    assert (r.status_code, r.json()["code"]) == (409, "name_taken")
    r = await api.call("POST", "/api/v1/accounts", "all", {"name": "dave", "password": "short"})
    assert (r.status_code, r.json()["code"]) == (400, "weak_password")
    r = await api.call("GET", f"/api/v1/accounts/{api.admin_id}", "all")  # staff are no API account
    assert (r.status_code, r.json()["code"]) == (404, "unknown_player")
    r = await api.call("GET", "/api/v1/accounts/abc", "all")
    assert (r.status_code, r.json()["code"]) == (404, "unknown_player")
    # a confirmed deposit: credited at once, in the name of the key's administrator
    body = {"currency": "EUR", "amount": 2_500, "request_id": "order-0001", "reference": "SEPA 1"}
    r = await api.call("POST", f"/api/v1/accounts/{a}/deposits", "all", body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert (out["balance"], out["replayed"], out["request"]["state"]) == (12_500, False, "approved")
    assert (
        out["request"]["decided_by"] == str(api.admin_id)
        and "api key all" in out["request"]["reason"].lower()
    )
    r = await api.call("POST", f"/api/v1/accounts/{a}/deposits", "all", body)  # a retry books nothing
    assert (r.json()["balance"], r.json()["replayed"]) == (12_500, True)
    # a withdrawal held, then paid; another held, then declined
    first = await _withdrawal(api, "wd-00000001")
    assert await api.store.ledger.balance(a, "EUR") == 12_400
    r = await api.call("POST", f"/api/v1/withdrawals/{first}/approve", "all")
    assert (r.json()["request"]["state"], r.json()["balance"]) == ("approved", 12_400)
    second = await _withdrawal(api, "wd-00000002")
    r = await api.call("POST", f"/api/v1/withdrawals/{second}/decline", "all", {"reason": "wrong IBAN"})
    assert (r.json()["request"]["state"], r.json()["balance"]) == ("declined", 12_400)
    r = await api.call("POST", f"/api/v1/withdrawals/{second}/approve", "all")
    assert (r.status_code, r.json()["code"]) == (409, "cashier_request_decided")
    deposit_no = out["request"]["id"]
    r = await api.call("POST", f"/api/v1/withdrawals/{deposit_no}/approve", "all")  # not a withdrawal
    assert (r.status_code, r.json()["code"]) == (404, "unknown_cashier_request")
    r = await api.call("POST", f"/api/v1/withdrawals/{second}/decline", "all", {})
    assert (r.status_code, r.json()["code"]) == (422, "invalid_field")
    r = await api.call("GET", f"/api/v1/cashier/requests?account={a}&kind=withdrawal", "all")
    assert [q["id"] for q in r.json()["requests"]] == [second, first]
    r = await api.call("GET", "/api/v1/cashier/requests?state=maybe", "all")
    assert (r.status_code, r.json()["code"]) == (400, "invalid_field")
    # tournaments
    r = await api.call("GET", "/api/v1/tournaments?status=upcoming", "all")
    assert [t["tournament"] for t in r.json()["upcoming"]] == ["cup"]
    r = await api.call("POST", "/api/v1/tournaments/cup/registrations", "all", {"account": str(a)})
    assert r.status_code == 200 and await api.store.ledger.balance(a, "PLAY") == 1_000_000 - 1_100
    r = await api.call("POST", "/api/v1/tournaments/cup/registrations", "all", {"account": str(a)})
    assert (r.status_code, r.json()["code"]) == (409, "already_registered")
    r = await api.call("POST", "/api/v1/tournaments/nope/registrations", "all", {"account": str(a)})
    assert (r.status_code, r.json()["code"]) == (404, "unknown_tournament")
    assert (await api.store.verify()).ok


MONEY = "/api/v1/accounts/{a}/{what}"
BAD_AMOUNTS = [-5, 0, 1.5, 100.0, True, "100", None, 10**13, 2**63, [100]]
BAD_CURRENCIES = ["euro", "eur", "XYZ", "USD", "PLAY", "PTS", 5, "", None]


@pytest.mark.parametrize("what", ["deposits", "withdrawals"])
async def test_bad_money_is_refused_with_a_typed_error_and_books_nothing(api: Api, what: str) -> None:
    a = api.alice
    path = MONEY.format(a=a, what=what)
    before = (await api.store.ledger.balance(a, "EUR"), len(await api.store.cashier.requests()))
    n = 0
    for amount in BAD_AMOUNTS:
        n += 1
        r = await api.call(
            "POST", path, "all", {"currency": "EUR", "amount": amount, "request_id": f"bad-{n:05d}"}
        )
        assert (r.status_code, r.json()["code"]) == (422, "invalid_amount"), amount
    for currency in BAD_CURRENCIES:
        n += 1
        r = await api.call(
            "POST", path, "all", {"currency": currency, "amount": 100, "request_id": f"bad-{n:05d}"}
        )
        assert 400 <= r.status_code < 500 and r.json()["code"] == "invalid_currency", (currency, r.text)
    eur = {"currency": "EUR", "amount": 100}
    for body in [eur, {**eur, "request_id": "x"}, {**eur, "request_id": "ok-000001", "extra": 1}, [], "x"]:
        r = await api.call("POST", path, "all", body)
        assert (r.status_code, r.json()["code"]) == (422, "invalid_field"), body
    r = await api.call("POST", path, "all", {"currency": "EUR", "amount": 10**9, "request_id": "big-000001"})
    if what == "withdrawals":
        assert (r.status_code, r.json()["code"]) == (402, "insufficient_funds")
    else:
        assert r.status_code == 200  # a big deposit within the cashier's bound is a deposit
        before = (before[0] + 10**9, before[1] + 1)
    after = (await api.store.ledger.balance(a, "EUR"), len(await api.store.cashier.requests()))
    assert after == before
    assert (await api.store.verify()).ok


@pytest.mark.parametrize("what", ["deposits", "withdrawals"])
async def test_a_request_id_used_again_with_other_content_is_a_conflict(api: Api, what: str) -> None:
    a = api.alice
    path = MONEY.format(a=a, what=what)
    body = {"currency": "EUR", "amount": 300, "request_id": "same-00001"}
    assert (await api.call("POST", path, "all", body)).status_code == 200
    balance = await api.store.ledger.balance(a, "EUR")
    for other in ({**body, "amount": 301}, {**body, "currency": "PLAY"}):
        r = await api.call("POST", path, "all", other)
        assert r.json()["code"] in ("idempotency_conflict", "invalid_currency"), r.text
        assert 400 <= r.status_code < 500
    r = await api.call("POST", path, "all", {**body, "amount": 299})
    assert (r.status_code, r.json()["code"]) == (409, "idempotency_conflict")
    again = await api.call("POST", path, "all", body)
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert await api.store.ledger.balance(a, "EUR") == balance
    assert len(await api.store.cashier.requests()) == 1


async def test_deposits_need_the_key_maker_to_be_an_administrator_still(api: Api) -> None:
    await api.store.accounts.set_role(api.admin_id, Role.PLAYER)
    body = {"currency": "EUR", "amount": 300, "request_id": "demoted-01"}
    r = await api.call("POST", f"/api/v1/accounts/{api.alice}/deposits", "all", body)
    assert (r.status_code, r.json()["code"]) == (403, "forbidden")
    assert await api.store.ledger.balance(api.alice, "EUR") == 10_000
    assert await api.store.cashier.requests() == []  # nothing left for the console to clear
    wid = await _withdrawal(api, "wd-demoted1")  # a withdrawal request decides nothing yet
    r = await api.call("POST", f"/api/v1/withdrawals/{wid}/approve", "all")
    assert (r.status_code, r.json()["code"]) == (403, "forbidden")
    assert (await api.store.cashier.get(wid)).state == "pending"


async def test_the_sign_on_link_logs_the_browser_in_once(api: Api) -> None:
    r = await api.call("POST", f"/api/v1/accounts/{api.alice}/sso", "all")
    link = r.json()
    assert link["url"] == api.s.url + link["path"] and link["path"].startswith("/sso/")
    async with httpx.AsyncClient(base_url=api.s.url) as browser:
        first = await browser.get(link["path"])
        assert first.status_code == 303 and first.headers["location"] == "/"
        cookie = first.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        me = await browser.get("/api/account")
        assert me.status_code == 200 and me.json()["player"]["name"] == "alice"
    async with httpx.AsyncClient(base_url=api.s.url) as other:
        again = await other.get(link["path"])
        assert (again.status_code, again.json()["code"]) == (401, "sso_link_invalid")
        assert "set-cookie" not in again.headers
        assert (await other.get("/api/account")).status_code == 401
        assert (await other.get("/sso/" + "A" * 43)).json()["code"] == "sso_link_invalid"


async def test_no_link_for_a_locked_account(api: Api) -> None:
    r = await api.call("POST", f"/api/v1/accounts/{api.alice}/sso", "all")
    await api.store.operator.lock(api.alice, "fraud check")
    async with httpx.AsyncClient(base_url=api.s.url) as browser:
        late = await browser.get(r.json()["path"])  # locked after the link was made
        assert (late.status_code, late.json()["code"]) == (423, "account_locked")
        assert (await browser.get("/api/account")).status_code == 401
    r = await api.call("POST", f"/api/v1/accounts/{api.alice}/sso", "all")
    assert (r.status_code, r.json()["code"]) == (423, "account_locked")


async def test_a_key_over_its_rate_gets_429_with_retry_after(api: Api) -> None:
    api.s.room.settings = replace(api.s.room.settings, operator_api=ApiKeyPolicy(rate=0.001, burst=3))
    path = f"/api/v1/accounts/{api.alice}"
    assert [(await api.call("GET", path, "all")).status_code for _ in range(3)] == [200, 200, 200]
    r = await api.call("GET", path, "all")
    assert (r.status_code, r.json()["code"]) == (429, "api_rate_limited")
    assert int(r.headers["retry-after"]) >= 1
    assert (await api.call("GET", path, "no-sso")).status_code == 200  # another key has its own rate
    assert len(await api.audit("api.accounts.get")) == 4  # the refused call is not audited


async def test_the_configuration_sets_the_rate_and_the_links_lifetime() -> None:
    config = parse_config("[operator_api]\nrate = 2.5\nburst = 7\nsso_seconds = 30\n")
    assert config.operator_api == ApiKeyPolicy(rate=2.5, burst=7, sso_seconds=30)
    assert room_settings(config).operator_api == config.operator_api
    assert parse_config("").operator_api == ApiKeyPolicy()
    with pytest.raises(ConfigInvalid) as caught:
        parse_config("[operator_api]\nrate = 0\nsso_seconds = 5000\n")
    assert "operator_api.rate" in str(caught.value) and "operator_api.sso_seconds" in str(caught.value)


async def test_a_sign_on_link_lives_as_long_as_the_room_says(api: Api) -> None:
    api.s.room.settings = replace(api.s.room.settings, operator_api=ApiKeyPolicy(sso_seconds=15))
    r = await api.call("POST", f"/api/v1/accounts/{api.alice}/sso", "all")
    left = datetime.fromisoformat(r.json()["expires_at"]) - datetime.now(UTC)
    assert timedelta(seconds=10) < left <= timedelta(seconds=15)


def _disk_error() -> Exception:
    return OperationalError("SELECT 1", {}, sqlite3.OperationalError("disk I/O error"))


async def test_a_failing_database_is_a_clear_503_never_a_bare_500(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: object, **kwargs: object) -> int:
        raise _disk_error()

    monkeypatch.setattr(api.store.ledger, "balance", broken)  # the work fails: audited as failed
    r = await api.call("GET", f"/api/v1/accounts/{api.alice}/balances", "all")
    assert (r.status_code, r.json()["code"]) == (503, "store_unavailable")
    entry = (await api.audit("api.balances"))[0]
    assert (entry["after"]["outcome"], entry["after"]["status"]) == ("failed", 503)
    monkeypatch.setattr(api.store.api_keys, "authenticate", broken)  # the key cannot even be read
    r = await api.call("GET", f"/api/v1/accounts/{api.alice}", "all")
    assert (r.status_code, r.json()["code"]) == (503, "store_unavailable")
    assert r.headers["retry-after"]


async def test_the_openapi_document_describes_every_endpoint_with_examples(api: Api) -> None:
    spec = (await api.http.get("/openapi.json")).json()
    assert spec["components"]["securitySchemes"]["apiKey"] == {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "prk_<prefix>_<secret>",
        "description": spec["components"]["securitySchemes"]["apiKey"]["description"],
    }
    ops = [
        (m, p, op) for p, item in spec["paths"].items() if p.startswith("/api/v1/") for m, op in item.items()
    ]
    assert len(ops) == len(_endpoints(api, 0)) == 12  # every endpoint the first test calls
    for method, path, op in ops:
        assert op["security"] == [{"apiKey": []}], path
        ok = op["responses"].get("200") or op["responses"]["201"]
        assert ok["content"]["application/json"]["example"], path
        assert {"401", "403", "429"} <= set(op["responses"]), path
        if method == "post" and not path.endswith("/sso"):
            body = op["requestBody"]["content"]["application/json"]
            assert body["examples"]["example"]["value"] and body["schema"]["properties"], path
    assert "/sso/{token}" in spec["paths"]


async def test_a_self_excluded_player_gets_no_link_no_deposit_and_no_registration(api: Api) -> None:
    """Responsible gaming holds through the API too: no sign-on, no deposit, no tournament buy-in."""
    link = (await api.call("POST", f"/api/v1/accounts/{api.alice}/sso", "all")).json()
    await api.store.gaming.exclude(api.alice, "cool_off", password=PASSWORD, days=1)
    r = await api.call("POST", f"/api/v1/accounts/{api.alice}/sso", "all")
    assert (r.status_code, r.json()["code"]) == (403, "self_excluded")
    async with httpx.AsyncClient(base_url=api.s.url) as browser:
        late = await browser.get(link["path"])  # made before the cool-off: refused when opened
        assert (late.status_code, late.json()["code"]) == (403, "self_excluded")
        assert (await browser.get("/api/account")).status_code == 401
    body = {"currency": "EUR", "amount": 500, "request_id": "cooling-01"}
    r = await api.call("POST", f"/api/v1/accounts/{api.alice}/deposits", "all", body)
    assert (r.status_code, r.json()["code"]) == (403, "self_excluded")
    r = await api.call("POST", "/api/v1/tournaments/cup/registrations", "all", {"account": str(api.alice)})
    assert r.status_code == 403 and r.json()["code"] == "self_excluded", r.text
    assert await api.store.ledger.balance(api.alice, "EUR") == 10_000
    assert await api.store.cashier.requests() == []
