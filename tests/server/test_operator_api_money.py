"""Money through the operator API (issue 29, item 3) as a property: any sequence of deposits, withdrawals
(some with request ids used again, with the same or other content, some over the balance) and decisions
moves exactly what a simple model says, never creates or loses a cent, and ``ledger verify`` holds."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.server.room import RoomSettings
from pokerroom.store import AccountKind, Role, Store
from pokerroom.store.api_keys import SCOPES, ApiKeyPolicy

from .conftest import LiveServer, serve_room
from .wire import PASSWORD

pytestmark = pytest.mark.asyncio
RUNS = itertools.count()


@dataclass
class Room:
    s: LiveServer
    http: httpx.AsyncClient
    headers: dict[str, str]
    alice: int

    @property
    def store(self) -> Store:
        return self.s.room.store


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[Room]:
    settings = RoomSettings(currencies=("EUR",), operator_api=ApiKeyPolicy(rate=10_000, burst=10_000))
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=30) as http,
    ):
        admin = await s.room.store.accounts.register("boss", PASSWORD, role=Role.ADMIN)
        alice = await s.room.store.accounts.register("alice", PASSWORD)
        made = await s.room.store.api_keys.create("site", SCOPES, created_by="boss", created_by_id=admin.id)
        yield Room(s, http, {"Authorization": f"Bearer {made.secret}"}, alice.id)


@dataclass
class Model:
    wallet: int = 0  # changes in this example (the wallet keeps what earlier examples left)
    pending: int = 0
    paid_in: int = 0
    paid_out: int = 0
    deposits: dict[str, int] = field(default_factory=dict)  # request id -> amount
    withdrawals: dict[str, int] = field(default_factory=dict)
    numbers: list[tuple[int, int]] = field(default_factory=list)  # withdrawals: (request no, amount)
    decided: dict[int, str] = field(default_factory=dict)


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("deposit"), st.integers(0, 3), st.integers(1, 5_000)),
        st.tuples(st.just("withdraw"), st.integers(0, 3), st.integers(1, 8_000)),
        st.tuples(st.just("decide"), st.integers(0, 5), st.booleans()),
    ),
    max_size=12,
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
async def test_api_money_moves_as_the_model_says(room: Room, ops: list[tuple[str, int, object]]) -> None:
    run = next(RUNS)
    m = Model()
    base = f"/api/v1/accounts/{room.alice}"
    start = await room.store.ledger.balance(room.alice, "EUR")
    for op, n, arg in ops:
        if op in ("deposit", "withdraw"):
            assert isinstance(arg, int)
            rid = f"r{run}-{op}-{n}"
            seen = m.deposits if op == "deposit" else m.withdrawals
            what = "deposits" if op == "deposit" else "withdrawals"
            body = {"currency": "EUR", "amount": arg, "request_id": rid}
            r = await room.http.post(f"{base}/{what}", json=body, headers=room.headers)
            if rid in seen:
                expected = (200, True) if seen[rid] == arg else (409, None)
                got = (r.status_code, r.json().get("replayed"))
                assert got == expected, r.text
            elif op == "withdraw" and arg > start + m.wallet:
                assert (r.status_code, r.json()["code"]) == (402, "insufficient_funds")
            else:
                assert r.status_code == 200, r.text
                seen[rid] = arg
                if op == "deposit":
                    m.wallet += arg
                    m.paid_in += arg
                else:
                    m.wallet -= arg
                    m.pending += arg
                    m.numbers.append((r.json()["request"]["id"], arg))
        elif m.numbers:
            no, amount = m.numbers[n % len(m.numbers)]
            state = "approved" if arg else "declined"
            verb = "approve" if arg else "decline"
            r = await room.http.post(
                f"/api/v1/withdrawals/{no}/{verb}", json={"reason": "checked"}, headers=room.headers
            )
            if no in m.decided:
                assert r.status_code == (200 if m.decided[no] == state else 409), r.text
                continue
            assert r.status_code == 200, r.text
            m.decided[no] = state
            m.pending -= amount
            if arg:
                m.paid_out += amount
            else:
                m.wallet += amount
        assert await room.store.ledger.balance(room.alice, "EUR") == start + m.wallet
    assert m.wallet + m.pending == m.paid_in - m.paid_out  # nothing made or lost
    hold = await room.store.ledger.account(AccountKind.WITHDRAWAL, "EUR", ref=str(room.alice))
    assert (await room.store.verify()).ok
    assert hold > 0
