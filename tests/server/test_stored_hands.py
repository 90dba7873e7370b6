"""Issue 20, item 6: the cashier's stored hands over HTTP (game, stakes, date, result) and one of them for the
replayer, made from the player's own history only and projected for him as the "Last hands" window does
(RULES.md §6.6: R182 hands that reached the showdown, shown or mucked; R184 folded hands and discards never;
never the deck); another player's hand is refused."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from pokerroom.engine import (
    BetDecision,
    Betting,
    Call,
    Check,
    Fold,
    HandState,
    ListDeck,
    Muck,
    SeatSetup,
    ShowDecision,
    Stakes,
    Structure,
)
from pokerroom.engine.events import CardsShown, Mucked
from pokerroom.history import HandContext, deck_commitment, write_phh, write_pokerstars
from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.room import RoomSettings
from pokerroom.server.stored_hands import stored_hand
from pokerroom.store import HandHistory, PlayerView, SeatRecord
from pokerroom.variants import VARIANTS
from tests.history.helpers import CASE_IDS, CASES, random_hands
from tests.history.test_viewer import _secret

from .conftest import LiveServer, serve_room
from .wire import register

SLOW = Timing(action=60.0, time_bank=0.0, between_hands=0.02, disconnect_grace=60)
NAMES = {s: f"player{s}" for s in range(1, 11)}


def _live_view(hand: HandState, seat: int) -> list[dict[str, Any]]:
    """The hand as the "Last hands" window shows it to ``seat`` (rooms/record.py's projection)."""
    return [v.to_dict() for e in hand.events if (v := e.view_for(seat, True)) is not None]


def _own_phh(hand: HandState, seat: int, **context: Any) -> str:
    ctx = HandContext(hand_id="h1", table="Table 1", players=NAMES, **context)
    return write_phh(hand, viewer=seat, context=ctx)


@pytest.mark.parametrize(("game", "betting"), CASES, ids=CASE_IDS)
def test_the_replay_of_a_players_own_history_is_the_hand_as_he_saw_it(game: str, betting: Betting) -> None:
    """Every game and structure: replaying the player's own stored history gives exactly the events the
    "Last hands" window gave him at the table, and none of the cards he may not see (R184)."""
    for hand in random_hands(game, betting, 4, seed="stored"):
        for seat in hand.order:
            got = stored_hand(_own_phh(hand, seat)).replay()
            assert got["seat"] == seat
            assert got["events"] == _live_view(hand, seat)
            assert got["players"] == {str(s): NAMES[s] for s in hand.order}
            text = repr(got)
            for card in _secret(hand, seat):
                assert f"'{card}'" not in text, f"seat {seat} must never see {card}"


def _folded_and_showdown() -> HandState:
    """Three-handed hold'em: the button (seat 1) folds, the blinds check it down; the loser mucks."""
    v = VARIANTS["holdem"]
    deck = ListDeck.shuffled(v.deck_for(3), random.Random(5))
    hand = HandState.start(
        variant=v,
        structure=Structure(Betting.NO_LIMIT, Stakes.blinds(1, 2)),
        seats=[SeatSetup(1, 200, True), SeatSetup(2, 200, True), SeatSetup(3, 200, True)],
        deck=deck,
        button=1,
    )
    while not hand.is_over:
        p = hand.pending
        if isinstance(p, BetDecision):
            hand.apply(Fold(p.seat) if p.seat == 1 else Check(p.seat) if p.check else Call(p.seat))
        elif isinstance(p, ShowDecision):
            hand.apply(Muck(p.seat))
        else:  # pragma: no cover - hold'em asks nothing else
            raise AssertionError(p)
    return hand


DECK = "the deck of h-1, in order"
SALT = "salt-of-h-1"


async def _account(s: LiveServer, token: str) -> int:
    async with httpx.AsyncClient(base_url=s.url, headers={"Authorization": f"Bearer {token}"}) as http:
        return int((await http.get("/api/account")).json()["player"]["id"])


async def _store_hand(s: LiveServer, hand: HandState, players: dict[int, int]) -> None:
    """The hand through the store as a table stores it: journaled, with each player's own history."""
    store = s.room.store
    seats = []
    for seat, pid in players.items():
        stack = hand.players[seat].starting_stack
        buy = await store.ledger.buy_in(pid, "t-x", "PLAY", stack, idempotency_key=f"t-x-{pid}")
        seats.append(SeatRecord(seat, pid, buy.session_id, stack))
    await store.journal.start_hand(
        "h-1",
        table_id="t-x",
        game="holdem",
        currency="PLAY",
        seats=seats,
        deck_commitment=deck_commitment(DECK, SALT),
    )
    names = {seat: f"n{pid}" for seat, pid in players.items()}
    ctx = HandContext(hand_id="h-1", table="Table X", players=names, seat_count=6, time=datetime.now(UTC))
    views = {
        pid: PlayerView(write_phh(hand, viewer=seat, context=ctx), write_pokerstars(hand, ctx, viewer=seat))
        for seat, pid in players.items()
    }
    stacks = hand.stacks()
    await store.journal.end_hand(
        "h-1",
        deck_text=DECK,
        salt=SALT,
        deltas={r.session_id: stacks[r.seat] - r.stack for r in seats},
        rake=0,
        points={},
        history=HandHistory(write_phh(hand, viewer=None, context=ctx), views),
    )


def _hole(hand: HandState, seat: int) -> set[str]:
    return {str(c) for c in hand.hole_cards(seat)}


@pytest.mark.asyncio
async def test_the_cashier_lists_stakes_and_result_and_replays_only_what_the_player_saw(
    tmp_path: Any,
) -> None:
    hand = _folded_and_showdown()
    shown = {e.seat for e in hand.events if isinstance(e, CardsShown)}
    mucked = {e.seat for e in hand.events if isinstance(e, Mucked)}
    assert shown and mucked and 1 not in shown | mucked  # seat 1 folded; 2 and 3 reached the showdown
    net = dict(
        zip(hand.order, (hand.stacks()[s] - hand.players[s].starting_stack for s in hand.order), strict=True)
    )
    async with serve_room(tmp_path, RoomSettings(), durable=False) as s:
        tokens = {name: await register(s, name) for name in ("alice", "bobby", "carol", "dave")}
        ids = {name: await _account(s, t) for name, t in tokens.items()}
        seat_of = {"alice": 1, "bobby": 2, "carol": 3}
        await _store_hand(s, hand, {seat: ids[name] for name, seat in seat_of.items()})
        for name, seat in seat_of.items():
            async with httpx.AsyncClient(
                base_url=s.url, headers={"Authorization": f"Bearer {tokens[name]}"}
            ) as http:
                [row] = (await http.get("/api/hands")).json()["hands"]
                assert row["hand_id"] == "h-1" and row["table_name"] == "Table X"
                assert row["game"] == "holdem" and row["variant_name"] == "Texas Hold'em"
                assert row["stakes_label"] == "1/2" and row["stakes"]["big_blind"] == 2
                assert row["net"] == net[seat] and row["currency"] == "PLAY" and row["ended_at"]
                r = await http.get("/api/hands/h-1/replay")
                assert r.status_code == 200, r.text
                got = r.json()
                assert got["seat"] == seat and got["events"] == _live_view(hand, seat)
                assert got["players"] == {
                    "1": f"n{ids['alice']}",
                    "2": f"n{ids['bobby']}",
                    "3": f"n{ids['carol']}",
                }
                text = r.text
                assert all(c in text for c in _hole(hand, seat)), "his own cards"
                for other in (2, 3):  # R182: the hands that reached the showdown, shown or mucked
                    assert all(c in text for c in _hole(hand, other))
                if seat != 1:  # R184: the folded hand, never
                    assert not any(c in text for c in _hole(hand, 1))
                assert DECK not in text and SALT not in text and "deck" not in got  # never the deck
        async with httpx.AsyncClient(
            base_url=s.url, headers={"Authorization": f"Bearer {tokens['dave']}"}
        ) as http:
            assert (await http.get("/api/hands")).json()["hands"] == []
            r = await http.get("/api/hands/h-1/replay")  # another player's hand is refused
            assert r.status_code == 404 and r.json()["code"] == "unknown_hand"
            assert not any(c in r.text for seat in (1, 2, 3) for c in _hole(hand, seat))
        async with httpx.AsyncClient(base_url=s.url) as http:
            assert (await http.get("/api/hands/h-1/replay")).status_code == 401


@pytest.mark.asyncio
async def test_tournament_rows_say_whether_the_player_is_registered(tmp_path: Any) -> None:
    """Issue 20, item 7: the lobby's tournament rows tell a logged-in player whether he is registered, so
    that the client offers only Register or Unregister."""
    sng = TournamentConfig("trio", "Trio", kind="sng", max_players=3, buy_in=100, fee=10, timing=SLOW)
    async with serve_room(tmp_path, RoomSettings(tournaments=(sng,)), durable=False) as s:
        alice, bobby = await register(s, "alice"), await register(s, "bobby")

        async def registered(token: str | None) -> list[Any]:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            async with httpx.AsyncClient(base_url=s.url, headers=headers) as http:
                rows = (await http.get("/api/tournaments")).json()["upcoming"]
                lobby = (await http.get("/api/lobby")).json()["tournaments"]["upcoming"]
            assert [r.get("registered") for r in rows] == [r.get("registered") for r in lobby]
            return [r.get("registered") for r in rows if r["name"] == "Trio"]

        assert await registered(alice) == [False] and await registered(None) == [None]
        [tid] = [r["tournament"] for r in s.room.tournament_lobby()["upcoming"]]
        async with httpx.AsyncClient(base_url=s.url, headers={"Authorization": f"Bearer {alice}"}) as http:
            assert (await http.post(f"/api/tournaments/{tid}/register", json={})).status_code == 200
            assert await registered(alice) == [True]
            assert await registered(bobby) == [False], "another player's registration is his own"
            assert await registered(None) == [None]
            assert await registered("not-a-token") == [None]
            assert (await http.post(f"/api/tournaments/{tid}/unregister")).status_code == 200
            assert await registered(alice) == [False]
