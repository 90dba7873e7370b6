"""The console's Players page (issue 17): search, detail, balances, ledger; adjustments with a reason
booked against the house adjustments account (found in the player's cashier and in the audit log, the
ledger still verified); lock and unlock; a forced password reset; roles."""

from __future__ import annotations

import pytest

from pokerroom.store import PLAY, POINTS, AccountKind

from ..wire import PASSWORD
from .conftest import Console, login


async def audit(c: Console, action: str) -> list[dict]:  # type: ignore[type-arg]
    r = await c.http.get("/api/console/audit", params={"action": action}, headers=c.admin)
    assert r.status_code == 200, r.text
    entries: list[dict] = r.json()["entries"]  # type: ignore[type-arg]
    return entries


@pytest.mark.asyncio
async def test_search_and_detail(console: Console) -> None:
    r = await console.http.get("/api/console/players", params={"q": "ALI"}, headers=console.support)
    assert [p["name"] for p in r.json()["players"]] == ["alice"]
    r = await console.http.get(f"/api/console/players/{console.player_id}", headers=console.support)
    body = r.json()
    assert body["player"]["name"] == "alice" and body["player"]["role"] == "player"
    assert body["balances"][PLAY] == await console.store.ledger.balance(console.player_id, PLAY) > 0
    assert body["seats"] == [] and body["tickets"] == []
    r = await console.http.get("/api/console/players/999999", headers=console.admin)
    assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_player"


@pytest.mark.asyncio
async def test_an_adjustment_is_a_ledger_transaction_the_player_and_the_audit_log_see(
    console: Console,
) -> None:
    pid, ledger = console.player_id, console.store.ledger
    before = await ledger.balance(pid, PLAY)
    body = {"currency": PLAY, "amount": 12_345, "reason": "lost chips in a disconnect"}
    r = await console.http.post(f"/api/console/players/{pid}/adjust", json=body, headers=console.admin)
    assert r.status_code == 200, r.text
    assert r.json()["balance"] == before + 12_345 == await ledger.balance(pid, PLAY)
    tx = r.json()["transaction"]
    # the player's cashier shows it
    mine = (await console.http.get("/api/account/ledger", headers=console.player)).json()["entries"]
    assert mine[0] == {
        **mine[0],
        "id": tx,
        "kind": "adjustment",
        "amount": 12_345,
        "balance": before + 12_345,
    }
    # the house side
    assert await ledger.system_balance(AccountKind.ADJUSTMENTS, PLAY) == -12_345
    # the audit log: who, what, before and after, why
    [entry] = await audit(console, "player.adjust")
    assert entry["actor"]["name"] == "boss" and entry["target"] == "alice"
    assert entry["before"] == {"currency": PLAY, "balance": before}
    assert entry["after"]["balance"] == before + 12_345 and entry["after"]["transaction"] == tx
    assert entry["reason"] == "lost chips in a disconnect"
    report = await console.store.verify()
    assert (
        report.ok and report.totals[PLAY].total == 0 and report.totals[PLAY].by_kind["adjustments"] == -12_345
    )


@pytest.mark.asyncio
async def test_points_are_adjusted_in_the_points_account(console: Console) -> None:
    pid = console.player_id
    body = {"currency": POINTS, "amount": 500, "reason": "promotion missed"}
    r = await console.http.post(f"/api/console/players/{pid}/adjust", json=body, headers=console.admin)
    assert r.status_code == 200, r.text
    assert await console.store.ledger.balance(pid, POINTS) == 500
    assert (await console.store.verify()).ok


@pytest.mark.asyncio
async def test_a_debit_below_zero_or_bad_input_books_nothing(console: Console) -> None:
    pid, ledger = console.player_id, console.store.ledger
    before = await ledger.balance(pid, PLAY)
    url = f"/api/console/players/{pid}/adjust"
    r = await console.http.post(
        url, json={"currency": PLAY, "amount": -(before + 1), "reason": "too much"}, headers=console.admin
    )
    assert r.status_code == 402 and r.json()["code"] == "insufficient_funds"
    for bad in (
        {"currency": PLAY, "amount": 0, "reason": "nothing"},
        {"currency": PLAY, "amount": 1.5, "reason": "a fraction"},
        {"currency": "play", "amount": 5, "reason": "lower case"},
        {"currency": PLAY, "amount": 5, "reason": ""},
        {"currency": PLAY, "amount": 10**13, "reason": "a typo"},
    ):
        r = await console.http.post(url, json=bad, headers=console.admin)
        assert r.status_code in (400, 422), (bad, r.text)
    assert await ledger.balance(pid, PLAY) == before
    assert await ledger.system_balance(AccountKind.ADJUSTMENTS, PLAY) == 0
    assert await audit(console, "player.adjust") == []


@pytest.mark.asyncio
async def test_a_retried_adjustment_books_once(console: Console) -> None:
    pid = console.player_id
    before = await console.store.ledger.balance(pid, PLAY)
    body = {"currency": PLAY, "amount": 100, "reason": "double click", "request_id": "req-0001-abc"}
    url = f"/api/console/players/{pid}/adjust"
    first = (await console.http.post(url, json=body, headers=console.admin)).json()
    again = (await console.http.post(url, json=body, headers=console.admin)).json()
    assert again["transaction"] == first["transaction"] and again["replayed"] is True
    assert await console.store.ledger.balance(pid, PLAY) == before + 100
    assert len(await audit(console, "player.adjust")) == 1


@pytest.mark.asyncio
async def test_a_locked_account_cannot_log_in_or_play_until_unlocked(console: Console) -> None:
    pid, url = console.player_id, f"/api/console/players/{console.player_id}"
    r = await console.http.post(f"{url}/lock", json={"reason": "chargeback"}, headers=console.support)
    assert r.status_code == 200 and r.json()["player"]["locked_by"] == "chargeback"
    assert (await console.http.get("/api/account", headers=console.player)).status_code == 401  # session gone
    r = await console.http.post("/api/login", json={"name": "alice", "password": PASSWORD})
    assert r.status_code == 423 and r.json()["code"] == "account_locked"
    assert (await console.http.post(f"{url}/unlock", headers=console.support)).status_code == 403
    assert (await console.http.post(f"{url}/unlock", headers=console.admin)).status_code == 200
    await login(console.http, "alice")
    [unlocked, locked] = await audit(console, "player.")
    assert locked["action"] == "player.lock" and locked["actor"]["name"] == "helpdesk"
    assert locked["before"] == {"locked_by": None} and locked["after"] == {"locked_by": "chargeback"}
    assert unlocked["action"] == "player.unlock" and unlocked["after"]["locked_by"] is None
    assert unlocked["actor"]["name"] == "boss" and unlocked["target"] == "alice"
    assert (await console.store.operator.detail(pid)).locked_by is None


@pytest.mark.asyncio
async def test_a_forced_reset_ends_the_password_and_the_code_sets_a_new_one(console: Console) -> None:
    r = await console.http.post(
        f"/api/console/players/{console.player_id}/reset-password", headers=console.admin
    )
    assert r.status_code == 200 and r.json()["player"]["reset_pending"] is True
    code = r.json()["code"]
    assert (await console.http.get("/api/account", headers=console.player)).status_code == 401
    r = await console.http.post("/api/login", json={"name": "alice", "password": PASSWORD})
    assert r.status_code == 400 and r.json()["code"] == "password_reset_required"  # (issue 29)
    new = "a-brand-new-pass-phrase-42"
    bad = await console.http.post(
        "/api/account/reset-password", json={"name": "alice", "code": "wrong", "password": new}
    )
    assert bad.status_code == 401
    ok = await console.http.post(
        "/api/account/reset-password", json={"name": "alice", "code": code, "password": new}
    )
    assert ok.status_code == 200, ok.text
    await login(console.http, "alice", new)
    again = await console.http.post(
        "/api/account/reset-password", json={"name": "alice", "code": code, "password": new + "x"}
    )
    assert again.status_code == 401  # the code worked once
    [entry] = await audit(console, "player.reset_password")
    assert code not in str(entry)


@pytest.mark.asyncio
async def test_roles_are_set_and_audited(console: Console) -> None:
    url = f"/api/console/players/{console.player_id}/role"
    r = await console.http.post(url, json={"role": "support"}, headers=console.admin)
    assert r.status_code == 200 and r.json()["player"]["role"] == "support"
    assert (await console.http.get("/api/console/players", headers=console.player)).status_code == 200
    boss = await console.store.accounts.find("boss")
    r = await console.http.post(
        f"/api/console/players/{boss.id}/role", json={"role": "player"}, headers=console.admin
    )
    assert r.status_code == 409
    [entry] = await audit(console, "player.role")
    assert entry["before"] == {"role": "player"} and entry["after"] == {"role": "support"}


@pytest.mark.asyncio
async def test_support_cannot_lock_staff_and_nobody_locks_himself(console: Console) -> None:
    boss = await console.store.accounts.find("boss")
    helpdesk = await console.store.accounts.find("helpdesk")
    body = {"reason": "a takeover"}
    r = await console.http.post(f"/api/console/players/{boss.id}/lock", json=body, headers=console.support)
    assert r.status_code == 403
    r = await console.http.post(
        f"/api/console/players/{helpdesk.id}/lock", json=body, headers=console.support
    )
    assert r.status_code == 409
    r = await console.http.post(f"/api/console/players/{boss.id}/lock", json=body, headers=console.admin)
    assert r.status_code == 409
    assert (await console.store.operator.detail(boss.id)).locked_by is None
    assert await audit(console, "player.lock") == []
