"""Deck proofs in a room at play (docs/fairness.md, issue 19): cash tables of several games, a Rush pool
and a sit-and-go played by bots, with observers at the cash tables. On the server's harness
(tests/server/harness.py): every client is a real connection of the room (the frames it writes to a socket),
on a manual clock.

Every frame the server hands to any connection is recorded as it is sent, with a global order number;
the seals of the hands are recorded as they are made and revealed. Then:

- no frame carries a hand's salt or an opened card before the hand is over, and afterwards only to players
  dealt in, and only the openings of cards that player may see (R184: never a card folded by another);
  (never to an observer, never to a player who sat out the hand);
- every ``hand_started`` event carries its hand's commitment, the same for every viewer;
- every player dealt in gets ``deck_revealed`` with his proof, whose leaves and seeds hash to the root;
- every stored history of every hand of each kind (PHH and text) carries the proof, and
  ``verify_hand`` says OK with the commitment published at the start.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pytest

from pokerroom.history import parse_proof, read_phh, verify_hand
from pokerroom.history.deckproof import root_hash
from pokerroom.rooms import Timing
from pokerroom.rooms.rush_rules import RushTiming
from pokerroom.server.connection import Connection, Head
from pokerroom.server.demo import demo_pools, demo_tables, demo_tournaments
from pokerroom.server.fairness import DeckSeal, Seals
from pokerroom.server.room import RoomSettings

from .harness import Client, Harness
from .leakcheck import HandTruth

pytestmark = pytest.mark.asyncio

# On the manual clock a hand takes no time: two seconds between hands keep the tables' pace to the pool's
# (which deals about a hand a second here) what it is live, a few hands each.
CASH = Timing(action=2.0, time_bank=0.5, between_hands=2.0, offer_time=5, disconnect_grace=3)
RUSH = RushTiming(action=2.0, reduced_action=1.0, time_bank=0.5, disconnect_grace=2.0)
SNG = Timing(action=1.0, time_bank=0.5, between_hands=2.0, disconnect_grace=2)
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
    seats: dict[str, int] = field(default_factory=dict)
    events: tuple[Any, ...] = ()


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

        def reveal(seals: Seals, hand_id: str, table_id: str, players: Any, events: Any, notify: Any) -> Any:
            if hand_id in tap.seals and seals.get(hand_id) is not None:
                x = tap.seals[hand_id]
                x.revealed = tap.counter()
                x.players = [p for p, _ in players.values()]
                x.seats = {p: s for s, (p, _) in players.items()}
                x.events = tuple(events)
            return real_reveal(seals, hand_id, table_id, players, events, notify)

        monkeypatch.setattr(Connection, "send", send)
        monkeypatch.setattr(Seals, "of", of)
        monkeypatch.setattr(Seals, "reveal", reveal)


async def test_the_deck_proof_reaches_only_players_dealt_in_and_only_after_the_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tap = Tap()
    tap.install(monkeypatch)
    tables = [t for t in demo_tables(CASH, games=GAMES) if t.betting.value in ("NL", "FL")]
    tables = list({t.variant: t for t in tables}.values())  # one table per game
    # The sit-and-go must last the six hands waited for below: its bots only check and call, and its levels
    # are the turbo's five minutes, so none can lose more than 6 x 30 of his 1,500 chips by then.
    sng = demo_tournaments(SNG)
    settings = RoomSettings(tables=tuple(tables), pools=tuple(demo_pools(RUSH))[:1], tournaments=tuple(sng))
    h = await Harness.open(tmp_path, settings, seed=3)
    try:
        observers: list[Client] = []
        for t in tables:
            watcher = h.connect(f"observer@{t.table_id}", None)
            await h.subscribe(watcher, t.table_id)
            observers.append(watcher)
        bots: list[Client] = []
        for t in tables:
            for i in range(3):
                name = f"f{t.table_id}-{i + 1}"
                bots.append(await h.cash_bot(name, t.table_id, ("random", "caller")[i % 2], seed=i))
        for i in range(4):
            bots.append(
                await h.pool_bot(
                    f"frush{i + 1}", POOL, ("caller", "random")[i % 2], seed=3 + i, quick_fold=0.5
                )
            )
        sng_actor = next(
            a for a in h.room.tournaments.values() if a.director.status in ("announced", "registering")
        )
        for i in range(6):
            bots.append(await h.tournament_bot(f"fsng{i + 1}", sng_actor.tid, "caller", seed=7 + i))
        # four hands at each table, six in the pool and six in the sit-and-go
        await h.run(
            lambda: (
                min(a.hands_played for a in h.room.tables.values()) >= 4
                and h.room.pools[POOL].hands_played >= 6
                and sng_actor.hands_played >= 6
            ),
            seconds=36_000,
        )
        await _verify_over_the_wire(h, tap, bots[0])
        await _contribute_over_the_wire(h, tap, bots[0], tables[0].table_id)
        await _snapshot_mid_hand(h, tables[0].table_id, tap)
        stopping = tap.counter()  # (hands that end after this may find their players gone)
        for bot in bots:
            await h.stop_bot(bot)
        await h.quiet()
        store = h.store
        sealed = {x: y for x, y in tap.seals.items() if y.revealed is not None}
        kinds = {
            "cash": [x for x in sealed if any(x.startswith(t.table_id) for t in tables)],
            "rush": [x for x in sealed if x.startswith(POOL)],
            "sng": [x for x in sealed if x.startswith(sng_actor.tid)],
        }
        assert all(len(v) >= 4 for v in kinds.values()), {k: len(v) for k, v in kinds.items()}

        # 1. No salt or opened card before the end; afterwards only to players dealt in, and only the
        # openings of the cards each may see (R184, R262: checked against leakcheck's own oracle).
        by_salt = {o[2]: x for x in tap.seals.values() for o in x.seal.opening.openings}
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
            text = frame["proof"] if frame["type"] == "deck_revealed" else frame["proof"]["proof"]
            opened = {c for _, c, _ in parse_proof(text).openings}
            truth = HandTruth(frame["hand_id"], list(x.events))
            may = truth.allowed(x.seats[sent.player], len(x.events))
            assert opened <= may, (frame["hand_id"], opened - may)
        assert len(tap.sent) > 1000 and suspicious > 0

        # 2. Every hand_started carries its commitment (players, Rush windows and observers alike).
        starts = [
            f
            for sent in tap.sent
            for f in (orjson.loads(sent.text),)
            if f["type"] == "event" and f["event"]["type"] == "hand_started"
        ]
        starts += [f for w in observers for f in w.events("hand_started")]
        assert len(starts) > 50
        for f in starts:
            assert f["event"]["commitment"] == tap.seals[f["hand_id"]].seal.commitment
        assert not any(w.of("deck_revealed") for w in observers)

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
                proof = parse_proof(frame["proof"])
                assert root_hash(proof.spec, proof.seed, proof.leaves, proof.reshuffle_leaves) == proof.root
                assert proof.root == frame["commitment"] and not proof.full

        # 4. Every stored history of every kind carries the proof and verifies.
        verified: dict[str, int] = dict.fromkeys(kinds, 0)
        players = {p for x in sealed.values() for p in x.players}
        for player in players:
            for own in await store.histories.player_hands(int(player), limit=1000):
                x = tap.seals[own.hand_id]
                verdict = verify_hand(read_phh(own.phh), commitment=x.seal.commitment)
                assert verdict.ok, (own.hand_id, verdict.problems)
                assert f"Deck root (SHA-256): {x.seal.commitment}" in own.pokerstars
                kind = next((k for k, v in kinds.items() if own.hand_id in v), None)
                if kind is None:  # a hand that ended as the bots stopped (after ``sealed`` was taken)
                    assert own.hand_id not in sealed, own.hand_id
                    continue
                verified[kind] += 1
        assert all(n >= 4 for n in verified.values()), verified

        # 5. The auditor: every stored audit history holds the full opening, dealt from the seeds (the
        # server seed committed before the contributions, the bots' contributions in it).
        contributed = 0
        for kind, hands in kinds.items():
            for hand_id in hands:
                audit = read_phh(await store.histories.audit_phh(hand_id))
                verdict = verify_hand(audit, commitment=tap.seals[hand_id].seal.commitment)
                assert verdict.ok, (kind, hand_id, verdict.problems)
                proof = parse_proof(audit.fields["_deck_proof"])
                assert proof.full and proof.seed is not None and proof.seed.server_seed is not None
                contributed += any(o == "player" for _, _, o in proof.seed.contributions)
        assert contributed > 0  # the bots' contributions reached the deal
    finally:
        await h.close()


async def _verify_over_the_wire(h: Harness, tap: Tap, client: Client) -> None:
    """``verify_hand``: the room checks the player's own history of a hand (OK), and refuses a hand he
    was not dealt in (``unknown_hand``: nobody gets another player's history)."""
    done = [x for x in tap.seals.values() if x.revealed is not None]
    assert client.player is not None
    me = str(client.player.id)
    mine = next(x for x in done if me in x.players)
    other = next(x for x in done if me not in x.players)
    await h.send(client, {"type": "verify_hand", "hand_id": mine.seal.hand_id, "ref": "fair-1"})
    await h.send(client, {"type": "verify_hand", "hand_id": other.seal.hand_id, "ref": "fair-2"})

    def answer(ref: str) -> dict[str, Any] | None:
        return next(
            (f for s in tap.sent if ref in s.text for f in (orjson.loads(s.text),) if f.get("ref") == ref),
            None,
        )

    # the answers to both verify_hand requests
    await h.run(lambda: answer("fair-1") is not None and answer("fair-2") is not None, seconds=60)
    ok, refused = answer("fair-1"), answer("fair-2")
    assert ok is not None and refused is not None
    assert ok["type"] == "hand_verified" and ok["ok"] is True and ok["problems"] == [], ok
    assert ok["commitment"] == mine.seal.commitment and ok["checked"] >= 2
    assert refused["type"] == "error" and refused["code"] == "unknown_hand"


async def _contribute_over_the_wire(h: Harness, tap: Tap, client: Client, table: str) -> None:
    """``contribute``: a value for the published next seed is taken (``ack``); one for a seed that is not
    the next hand's is refused (``stale_seed``), a malformed one too (``invalid_field``), and neither is
    kept."""
    dealer = h.room.services.seals.dealer
    assert dealer is not None
    seed = dealer.commitment(table)
    for ref, msg in (
        ("seed-1", {"seed": seed, "value": "ab" * 32}),
        ("seed-2", {"seed": "cd" * 32, "value": "ab" * 32}),
        ("seed-3", {"seed": seed, "value": "AB" * 32}),
    ):
        await h.send(client, {"type": "contribute", "table": table, "ref": ref, **msg})

    def answer(ref: str) -> dict[str, Any] | None:
        return next(
            (f for s in tap.sent if ref in s.text for f in (orjson.loads(s.text),) if f.get("ref") == ref),
            None,
        )

    await h.run(lambda: all(answer(f"seed-{i}") is not None for i in (1, 2, 3)), seconds=60)
    ok, stale, bad = (answer(f"seed-{i}") for i in (1, 2, 3))
    assert ok is not None and ok["type"] == "ack", ok
    assert stale is not None and (stale["type"], stale["code"]) == ("error", "stale_seed")
    assert bad is not None and (bad["type"], bad["code"]) == ("error", "invalid_field")


async def _snapshot_mid_hand(h: Harness, table: str, tap: Tap) -> None:
    """An observer who subscribes during a hand gets its commitment in the snapshot, and nothing else."""
    actor = h.room.tables[table]
    for attempt in range(100):
        await h.run(lambda: actor.table.hand is not None, seconds=600)
        watcher = h.connect(f"late-observer-{attempt}", None)
        snap = await h.subscribe(watcher, table)
        raw = next(x.text for x in tap.sent if x.conn == id(watcher.conn) and '"snapshot"' in x.text)
        await h.drop(watcher)
        hand = snap["state"]["hand"]
        if hand is None:
            continue  # (the hand ended before the subscription was served: try again)
        seal = tap.seals[hand["hand_id"]].seal
        assert hand["commitment"] == seal.commitment
        assert SALT.search(raw) is None and all(o[2] not in raw for o in seal.opening.openings)
        return
    raise AssertionError("no snapshot caught a hand in progress")
