"""Deck proofs over a live server (docs/fairness.md, issue 19): cash tables of several games, a Rush pool
and a sit-and-go played by bots over WebSockets, with observers at the cash tables.

Every frame the server hands to any connection is recorded as it is sent, with a global order number;
the seals of the hands are recorded as they are made and revealed. Then:

- no frame carries a hand's salt or deck before the hand is over, and afterwards only to players dealt in
  (never to an observer, never to a player who sat out the hand);
- every ``hand_started`` event carries its hand's commitment, the same for every viewer;
- every player dealt in gets ``deck_revealed`` with the salt and deck that hash to the commitment;
- every stored history of every hand of each kind (PHH and text) carries the proof, and
  ``verify_hand`` says OK with the commitment published at the start.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pytest
import websockets

from pokerroom.bots.runner import start_bots, start_pool_bots, start_tournament_bots
from pokerroom.history import deck_commitment, read_phh, verify_hand
from pokerroom.rooms import Timing
from pokerroom.rooms.rush_rules import RushTiming
from pokerroom.server.connection import Connection, Head
from pokerroom.server.demo import demo_pools, demo_tables, demo_tournaments
from pokerroom.server.fairness import DeckSeal, Seals
from pokerroom.server.room import RoomSettings
from tests.waiting import until, within

from .conftest import serve_room

pytestmark = pytest.mark.asyncio

CASH = Timing(action=2.0, time_bank=0.5, between_hands=0.02, offer_time=5, disconnect_grace=3)
RUSH = RushTiming(action=2.0, reduced_action=1.0, time_bank=0.5, disconnect_grace=2.0)
SNG = Timing(action=1.0, time_bank=0.5, between_hands=0.02, disconnect_grace=2)
GAMES = ("holdem", "stud", "deuce7_triple", "irish")
POOL = "rush-holdem-nl-6max"
SALT = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")  # a salt: 32 hex digits alone
DECK = re.compile(r"(?:(?:10|[2-9TJQKA])[cdhs] ){8}")  # eight cards in a row: a deck's order


@dataclass
class Sent:
    order: int
    player: str | None
    text: str
    conn: int


@dataclass
class Sealed:
    seal: DeckSeal
    made: int
    revealed: int | None = None
    players: list[str] = field(default_factory=list)


@dataclass
class Tap:
    """What the server sent, and the seals it made and revealed, in one order."""

    counter: Callable[[], int] = field(default_factory=lambda: itertools.count(1).__next__)
    sent: list[Sent] = field(default_factory=list)
    seals: dict[str, Sealed] = field(default_factory=dict)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        tap = self
        real_send = Connection.send

        def send(conn: Connection, text: str, head: Head | None = None) -> None:
            tap.sent.append(Sent(tap.counter(), conn.player, text, id(conn)))
            real_send(conn, text, head)

        real_of, real_reveal = Seals.of, Seals.reveal

        def of(seals: Seals, hand: Any) -> DeckSeal:
            seal = real_of(seals, hand)
            tap.seals.setdefault(seal.hand_id, Sealed(seal, tap.counter()))
            return seal

        def reveal(seals: Seals, hand_id: str, table_id: str, players: Any, notify: Any) -> Any:
            players = list(players)
            if hand_id in tap.seals and seals.get(hand_id) is not None:
                tap.seals[hand_id].revealed = tap.counter()
                tap.seals[hand_id].players = players
            return real_reveal(seals, hand_id, table_id, players, notify)

        monkeypatch.setattr(Connection, "send", send)
        monkeypatch.setattr(Seals, "of", of)
        monkeypatch.setattr(Seals, "reveal", reveal)


async def _observe(url: str, table: str, frames: list[dict[str, Any]]) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(orjson.dumps({"type": "subscribe", "table": table}).decode())
        async for raw in ws:
            frames.append(orjson.loads(raw))


async def _stop(bots: list[Any]) -> None:
    for bot, task in bots:
        await bot.stop()
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


async def test_the_deck_proof_reaches_only_players_dealt_in_and_only_after_the_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tap = Tap()
    tap.install(monkeypatch)
    tables = [t for t in demo_tables(CASH, games=GAMES) if t.betting.value in ("NL", "FL")]
    tables = list({t.variant: t for t in tables}.values())  # one table per game
    # The sit-and-go must last the six hands waited for below: its bots only check and call, and its levels
    # are the turbo's five minutes, so none can lose more than 6 x 30 of his 1,500 chips by then (with
    # random bots and 1.8 s levels it once ended after five hands, and the wait never ended).
    sng = demo_tournaments(SNG)
    settings = RoomSettings(tables=tuple(tables), pools=tuple(demo_pools(RUSH))[:1], tournaments=tuple(sng))
    async with serve_room(tmp_path, settings, durable=False) as s:
        observed: list[list[dict[str, Any]]] = []
        watchers = []
        for t in tables:
            frames: list[dict[str, Any]] = []
            observed.append(frames)
            watchers.append(asyncio.create_task(_observe(s.ws, t.table_id, frames)))
        bots: list[Any] = []
        for t in tables:
            bots += await start_bots(
                s.url, 3, ["random", "caller"], tables=[t.table_id], think=(0, 0), prefix=f"f{t.table_id}-"
            )
        bots += await start_pool_bots(
            s.url, POOL, 4, ["caller", "random"], think=(0, 0.01), quick_fold=0.5, seed=3, prefix="frush"
        )
        sng_actor = next(
            a for a in s.room.tournaments.values() if a.director.status in ("announced", "registering")
        )
        bots += await start_tournament_bots(
            s.url, sng_actor.tid, 6, ["caller"], think=(0, 0.01), seed=7, prefix="fsng"
        )
        try:
            await until(
                lambda: (
                    min(a.hands_played for a in s.room.tables.values()) >= 4
                    and s.room.pools[POOL].hands_played >= 6
                    and sng_actor.hands_played >= 6
                ),
                timeout=300,
                what="four hands at each table, six in the pool and six in the sit-and-go",
                show=lambda: {
                    "tables": {t: a.hands_played for t, a in s.room.tables.items()},
                    "pool": s.room.pools[POOL].hands_played,
                    "sng": (sng_actor.hands_played, sng_actor.director.status),
                },
            )
            await _verify_over_the_wire(tap, bots[0][0])
            await _snapshot_mid_hand(s.ws, tables[0].table_id, tap)
        finally:
            stopping = tap.counter()  # (hands that end after this may find their players gone)
            await _stop(bots)
            for w in watchers:
                w.cancel()
        await asyncio.sleep(0)
        store = s.room.store
        sealed = {h: x for h, x in tap.seals.items() if x.revealed is not None}
        kinds = {
            "cash": [h for h in sealed if any(h.startswith(t.table_id) for t in tables)],
            "rush": [h for h in sealed if h.startswith(POOL)],
            "sng": [h for h in sealed if h.startswith(sng_actor.tid)],
        }
        assert all(len(v) >= 4 for v in kinds.values()), {k: len(v) for k, v in kinds.items()}

        # 1. No salt or deck before the end; afterwards only to players dealt in.
        by_salt = {x.seal.salt: x for x in tap.seals.values()}
        suspicious = 0
        for sent in tap.sent:
            salts = SALT.findall(sent.text)
            if not salts and not DECK.search(sent.text):
                continue
            suspicious += 1
            frame = orjson.loads(sent.text)
            assert frame["type"] in ("deck_revealed", "last_hand"), sent.text[:300]
            x = tap.seals[frame["hand_id"]]
            assert x.revealed is not None and sent.order > x.revealed, frame["hand_id"]
            assert sent.player in x.players, (frame["hand_id"], sent.player, x.players)
            assert all(by_salt.get(salt) is x for salt in salts)
        assert len(tap.sent) > 1000 and suspicious > 0

        # 2. Every hand_started carries its commitment (players, Rush windows and observers alike).
        starts = [
            f
            for sent in tap.sent
            for f in (orjson.loads(sent.text),)
            if f["type"] == "event" and f["event"]["type"] == "hand_started"
        ]
        starts += [
            f
            for frames in observed
            for f in frames
            if f["type"] == "event" and f["event"]["type"] == "hand_started"
        ]
        assert len(starts) > 50
        for f in starts:
            assert f["event"]["commitment"] == tap.seals[f["hand_id"]].seal.commitment
        assert not any(f["type"] == "deck_revealed" for frames in observed for f in frames)

        # 3. Each player dealt in got the proof, and it holds.
        revealed: dict[str, list[tuple[int, str | None, dict[str, Any]]]] = {}
        for sent in tap.sent:
            if '"deck_revealed"' in sent.text:
                frame = orjson.loads(sent.text)
                revealed.setdefault(frame["hand_id"], []).append((sent.order, sent.player, frame))
        assert set(revealed) <= set(sealed)
        for hand_id, x in sealed.items():
            got = revealed.get(hand_id, [])
            assert {p for _, p, _ in got} <= set(x.players), hand_id
            if (x.revealed or 0) < stopping:
                assert {p for _, p, _ in got} == set(x.players), hand_id
            for order, _, frame in got:
                assert order > (x.revealed or 0)
                assert frame["commitment"] == x.seal.commitment
                assert deck_commitment(frame["deck"], frame["salt"]) == frame["commitment"]

        # 4. Every stored history of every kind carries the proof and verifies.
        verified: dict[str, int] = dict.fromkeys(kinds, 0)
        players = {p for x in sealed.values() for p in x.players}
        for player in players:
            for own in await store.histories.player_hands(int(player), limit=1000):
                x = tap.seals[own.hand_id]
                verdict = verify_hand(read_phh(own.phh), commitment=x.seal.commitment)
                assert verdict.ok, (own.hand_id, verdict.problems)
                assert f"Deck salt: {x.seal.salt}" in own.pokerstars
                kind = next((k for k, v in kinds.items() if own.hand_id in v), None)
                if kind is None:  # a hand that ended as the bots stopped (after ``sealed`` was taken)
                    assert own.hand_id not in sealed, own.hand_id
                    continue
                verified[kind] += 1
        assert all(n >= 4 for n in verified.values()), verified


async def _verify_over_the_wire(tap: Tap, bot: Any) -> None:
    """``verify_hand``: the room checks the player's own history of a hand (OK), and refuses a hand he
    was not dealt in (``unknown_hand``: nobody gets another player's history)."""
    done = [x for x in tap.seals.values() if x.revealed is not None]
    mine = next(x for x in done if bot.player_id in x.players)
    other = next(x for x in done if bot.player_id not in x.players)
    await bot._send({"type": "verify_hand", "hand_id": mine.seal.hand_id, "ref": "fair-1"})
    await bot._send({"type": "verify_hand", "hand_id": other.seal.hand_id, "ref": "fair-2"})

    def answer(ref: str) -> dict[str, Any] | None:
        return next(
            (f for s in tap.sent if ref in s.text for f in (orjson.loads(s.text),) if f.get("ref") == ref),
            None,
        )

    await until(
        lambda: answer("fair-1") is not None and answer("fair-2") is not None,
        timeout=60,
        what="the answers to both verify_hand requests",
    )
    ok, refused = answer("fair-1"), answer("fair-2")
    assert ok is not None and refused is not None
    assert ok["type"] == "hand_verified" and ok["ok"] is True and ok["problems"] == [], ok
    assert ok["commitment"] == mine.seal.commitment and ok["checked"] >= 2
    assert refused["type"] == "error" and refused["code"] == "unknown_hand"


async def _snapshot_mid_hand(url: str, table: str, tap: Tap) -> None:
    """An observer who subscribes during a hand gets its commitment in the snapshot, and nothing else."""

    async def snapshot(ws: Any) -> tuple[str, dict[str, Any]]:
        while True:
            raw = str(await ws.recv())
            snap: dict[str, Any] = orjson.loads(raw)
            if snap["type"] == "snapshot":
                return raw, snap

    async def caught() -> bool:
        """Subscribe once; True when the snapshot came during a hand (and showed its commitment only)."""
        async with websockets.connect(url, max_size=2**22) as ws:
            await ws.send(orjson.dumps({"type": "subscribe", "table": table}).decode())
            raw, snap = await within(snapshot(ws), timeout=20, what=f"a snapshot of {table}")
        hand = snap["state"]["hand"]
        if hand is None:
            return False
        seal = tap.seals[hand["hand_id"]].seal
        assert hand["commitment"] == seal.commitment
        assert seal.salt not in raw and SALT.search(raw) is None
        return True

    await until(caught, timeout=60, every=0.01, what="a snapshot that catches a hand in progress")
