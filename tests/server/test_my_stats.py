"""Issue 31: lifetime statistics from the stored hands (``GET /api/my/stats``, the session CSV).

The figures are checked against hands played through the engine and stored as a table stores them, with
the expected numbers worked out by hand below (docs/client.md, "Lifetime statistics", defines them):
VPIP counts voluntary money in the first betting round (not a blind, the bring-in or a check of the big
blind; in stud third street, in draw games the round before the first draw), PFR a bet, raise or
completion there, a 3-bet a re-raise of the open (the forced bet is the first bet), WTSD the showdowns of
the hands that saw the second street, W$SD the showdowns won.
"""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import shutil
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, insert

from pokerroom.cards import Card, parse_cards
from pokerroom.engine import (
    BetDecision,
    Betting,
    BringIn,
    Call,
    Check,
    Draw,
    DrawDecision,
    Fold,
    HandState,
    ListDeck,
    RaiseTo,
    SeatSetup,
    Show,
    ShowDecision,
    Stakes,
    Structure,
)
from pokerroom.history import HandContext, TournamentInfo, deck_commitment, write_phh, write_pokerstars
from pokerroom.server.lifetime_figures import hand_figures
from pokerroom.server.room import RoomSettings
from pokerroom.store import Database, HandHistory, PlayerView, SeatRecord, Store
from pokerroom.store.models import (
    PlayerHandFigureRow,
    PlayerRow,
    TournamentHandRow,
    TournamentPlayerHandRow,
)
from pokerroom.store.mystats import FIGURES, MyStats, StatsFilter, graph_of, sessions_of
from pokerroom.variants import VARIANTS
from tests.engine.helpers import default_stakes
from tests.history.helpers import CASES, random_hands

from .conftest import LiveServer, serve_room
from .wire import register

ALL_CARDS = [Card.parse(r + s) for r in "23456789TJQKA" for s in "cdhs"]
T0 = datetime(2026, 3, 1, 23, 0, tzinfo=UTC)


def _deck(front: str) -> ListDeck:
    """The 52 cards with ``front`` first (hold'em deals left of the button, one card a round)."""
    first = list(parse_cards(front))
    return ListDeck(first + [c for c in ALL_CARDS if c not in first])


def _play(
    script: Sequence[tuple[str, int] | tuple[str, int, int]],
    *,
    game: str = "holdem",
    stakes: Stakes | None = None,
    betting: Betting = Betting.NO_LIMIT,
    front: str = "",
    seats: int = 3,
    button: int = 1,
) -> HandState:
    """A hand played by ``script`` (``("r", seat, to)`` raise or bet to, ``("c", seat)`` call, ``("k", seat)``
    check, ``("f", seat)`` fold, ``("b", seat)`` bring-in); afterwards every decision is a check, a stand
    pat or a show."""
    v = VARIANTS[game]
    deck = _deck(front) if front else ListDeck([c for c in ALL_CARDS if c in set(v.deck_for(seats).cards())])
    hand = HandState.start(
        variant=v,
        structure=Structure(betting, stakes or Stakes.blinds(1, 2)),
        seats=[SeatSetup(s, 200 if game == "holdem" else 2000, True) for s in range(1, seats + 1)],
        deck=deck,
        button=None if v.is_stud else button,
    )
    steps = list(script)
    while not hand.is_over:
        p = hand.pending
        if steps and isinstance(p, BetDecision):
            step = steps.pop(0)
            assert step[1] == p.seat, f"{step} but seat {p.seat} is to act"
            what = step[0]
            if what == "r":
                hand.apply(RaiseTo(p.seat, step[2]))  # type: ignore[misc]
            elif what == "c":
                hand.apply(Call(p.seat))
            elif what == "k":
                hand.apply(Check(p.seat))
            elif what == "b":
                hand.apply(BringIn(p.seat))
            else:
                hand.apply(Fold(p.seat))
        elif isinstance(p, BetDecision):
            assert p.check, f"the script ended with seat {p.seat} facing a bet"
            hand.apply(Check(p.seat))
        elif isinstance(p, DrawDecision):
            hand.apply(Draw(p.seat, ()))
        elif isinstance(p, ShowDecision):
            hand.apply(Show(p.seat))
        else:  # pragma: no cover - no other decision in these games
            raise AssertionError(p)
    assert not steps, f"steps left over: {steps}"
    return hand


def _figures(hand: HandState, seat: int) -> dict[str, int]:
    """The figures of ``seat``, read from his own history and from the audit history: both the same."""
    ctx = HandContext(hand_id="h", table="T", players={s: f"p{s}" for s in hand.order})
    own = hand_figures(write_phh(hand, viewer=seat, context=ctx))
    audit = hand_figures(write_phh(hand, viewer=None, context=ctx), seat)
    assert own == audit
    return {"net": own.net, **{k: getattr(own, k) for k in FIGURES}}


def _f(net: int, *flags: str) -> dict[str, int]:
    return {"net": net, **{k: int(k in flags) for k in FIGURES}}


# Five no-limit hold'em hands at 1/2 (the fifth at 2/4), three seats, the button at seat 1 (it acts first
# preflop; seat 2 the small blind, seat 3 the big blind). Cards: seat 2 gets the 1st and 4th card, seat 3
# the 2nd and 5th, seat 1 the 3rd and 6th; the rest of the deck in order gives the board 2h 2s 3c 3h 4c
# (burns 2d, 3d, 3s).
# H1: seat 1 opens to 6, seat 2 3-bets to 18, seat 3 folds, seat 1 calls; checked down; seat 2's aces
#     beat seat 1's kings: seat 1 -18, seat 2 +20 (6 ... 18 + 18 + 2), seat 3 -2.
# H2: seat 1 opens to 6, seat 2 3-bets to 18, both fold: seat 2 +8 (6 + 2), seat 1 -6, seat 3 -2.
# H3: seat 1 limps, seat 2 completes, seat 3 checks; checked down; seat 3's aces win 6: +4.
# H4: seat 1 opens to 6, seat 2 folds, seat 3 calls; on the flop seat 3 checks, seat 1 bets 10, seat 3
#     folds: seat 3 -6, seat 1 +7.
# H5 (2/4): seat 1 and seat 2 fold: the big blind wins the small blind.
AA_KK = "As Ks 9c Ah Kh 8d"  # seat 2 aces, seat 3 kings, seat 1 9c 8d
KK_AA = "Ks As 9c Kh Ah 8d"  # seat 3 aces
HANDS: list[dict[str, Any]] = [
    {"front": "As 9c Ks Ah 8d Kh", "script": [("r", 1, 6), ("r", 2, 18), ("f", 3), ("c", 1)]},
    {"front": AA_KK, "script": [("r", 1, 6), ("r", 2, 18), ("f", 3), ("f", 1)]},
    {"front": KK_AA, "script": [("c", 1), ("c", 2), ("k", 3)]},
    {"front": KK_AA, "script": [("r", 1, 6), ("f", 2), ("c", 3), ("k", 3), ("r", 1, 10), ("f", 3)]},
    {"front": AA_KK, "script": [("f", 1), ("f", 2)], "stakes": Stakes.blinds(2, 4)},
]
# The subject of the HTTP test: hand -> his seat, and the hand's end (H4 and H5 a new session, a new day).
SUBJECT_SEAT = [1, 2, 3, 3, 1]
ENDED = [
    T0,
    T0 + timedelta(minutes=5),
    T0 + timedelta(minutes=10),
    T0 + timedelta(hours=2),
    T0 + timedelta(hours=2, minutes=1),
]
EXPECTED = [
    _f(-18, "vpip", "pfr", "saw_second", "showdown"),
    _f(8, "vpip", "pfr", "three_bet_chance", "three_bet"),
    _f(4, "saw_second", "showdown", "won_showdown"),
    _f(-6, "vpip", "three_bet_chance", "saw_second"),
    _f(0),
]


def _hand(i: int) -> HandState:
    h = HANDS[i]
    return _play(h["script"], front=h["front"], stakes=h.get("stakes"))


@pytest.mark.parametrize("i", range(len(HANDS)))
def test_the_figures_of_known_holdem_hands(i: int) -> None:
    assert _figures(_hand(i), SUBJECT_SEAT[i]) == EXPECTED[i]


def test_every_seat_of_the_first_hand() -> None:
    """H1 for the others: seat 2 made the 3-bet facing the open (a chance taken) and won the showdown;
    seat 3, the big blind, folded facing the 3-bet (no chance: the open was re-raised before he acted)."""
    hand = _hand(0)
    assert _figures(hand, 2) == _f(
        20, "vpip", "pfr", "three_bet_chance", "three_bet", "saw_second", "showdown", "won_showdown"
    )
    assert _figures(hand, 3) == _f(-2)
    assert sum(_figures(hand, s)["net"] for s in (1, 2, 3)) == 0  # no rake: chips only move


def test_the_checking_big_blind_and_the_completing_small_blind() -> None:
    """H3: the small blind's completion is voluntary money (VPIP), the big blind's check is not."""
    hand = _hand(2)
    assert _figures(hand, 2)["vpip"] == 1
    assert _figures(hand, 1)["vpip"] == 1
    assert _figures(hand, 3)["vpip"] == 0


def test_stud_counts_third_street_and_the_bring_in_is_not_voluntary() -> None:
    """Seven-card stud (fixed limit 200/400, ante 40, bring-in 50): the bring-in is forced (no VPIP); a
    completion is the open (PFR); a raise of the completion is a 3-bet; the first betting round is third
    street."""
    stakes = default_stakes("stud", Betting.FIXED_LIMIT)
    v = VARIANTS["stud"]
    hand = HandState.start(
        variant=v,
        structure=Structure(Betting.FIXED_LIMIT, stakes),
        seats=[SeatSetup(s, 2000, True) for s in (1, 2, 3)],
        deck=ListDeck(ALL_CARDS),
        button=None,
    )
    order: list[int] = []
    moves = ["bring_in", "complete", "raise", "fold", "call"]
    while not hand.is_over:
        p = hand.pending
        if isinstance(p, BetDecision) and moves:
            move = moves.pop(0)
            order.append(p.seat)
            if move == "bring_in":
                hand.apply(BringIn(p.seat))
            elif move == "complete":
                hand.apply(RaiseTo(p.seat, 200))
            elif move == "raise":
                hand.apply(RaiseTo(p.seat, 400))
            elif move == "fold":
                hand.apply(Fold(p.seat))
            else:
                hand.apply(Call(p.seat))
        elif isinstance(p, BetDecision):
            hand.apply(Check(p.seat))
        elif isinstance(p, ShowDecision):
            hand.apply(Show(p.seat))
        else:  # pragma: no cover
            raise AssertionError(p)
    bringer, completer, raiser = order[0], order[1], order[2]
    assert order[3] == bringer and order[4] == completer
    got = {s: _figures(hand, s) for s in (1, 2, 3)}
    assert got[bringer] == _f(-90)  # ante 40 + bring-in 50, then folded facing the 3-bet
    for k in ("vpip", "pfr", "three_bet_chance", "three_bet", "saw_second", "showdown"):
        assert got[completer][k] == int(k in ("vpip", "pfr", "saw_second", "showdown")), k
        assert got[raiser][k] == int(
            k in ("vpip", "pfr", "three_bet_chance", "three_bet", "saw_second", "showdown")
        ), k
    assert got[completer]["net"] + got[raiser]["net"] == 90


def test_draw_counts_the_round_before_the_first_draw() -> None:
    """Five-card draw (fixed limit 200/400, blinds 100/200): the button calls, the small blind completes,
    the big blind checks: VPIP for the first two only; after the first draw a bet is not PFR."""
    stakes = Stakes.fixed_limit(200, 400)
    hand = _play(
        [("c", 1), ("c", 2), ("k", 3), ("r", 2, 400), ("f", 3), ("f", 1)],
        game="draw5",
        betting=Betting.FIXED_LIMIT,
        stakes=stakes,
    )
    assert _figures(hand, 1) == _f(-200, "vpip", "saw_second")
    assert _figures(hand, 2) == _f(400, "vpip", "saw_second")
    assert _figures(hand, 3) == _f(-200, "saw_second")


# -- over HTTP ------------------------------------------------------------------------------------------


async def _account(s: LiveServer, token: str) -> int:
    async with httpx.AsyncClient(base_url=s.url, headers={"Authorization": f"Bearer {token}"}) as http:
        return int((await http.get("/api/account")).json()["player"]["id"])


async def store_hand(
    store: Store, hand_id: str, hand: HandState, players: dict[int, int], ended: datetime, *, later: bool
) -> None:
    """The hand through the journal as a table stores it, with each player's own history (``later``: his
    copies written when first asked for, as the server does)."""
    seats = []
    for seat, pid in players.items():
        stack = hand.players[seat].starting_stack
        buy = await store.ledger.buy_in(
            pid, f"t-{hand_id}", "PLAY", stack, idempotency_key=f"{hand_id}-{pid}"
        )
        seats.append(SeatRecord(seat, pid, buy.session_id, stack))
    deck, salt = f"deck of {hand_id}", f"salt of {hand_id}"
    await store.journal.start_hand(
        hand_id,
        table_id=f"t-{hand_id}",
        game=hand.variant.code,
        currency="PLAY",
        seats=seats,
        deck_commitment=deck_commitment(deck, salt),
        now=ended - timedelta(seconds=30),
    )
    names = {seat: f"n{pid}" for seat, pid in players.items()}
    ctx = HandContext(hand_id=hand_id, table="Table X", players=names, seat_count=6, time=ended)
    full = write_phh(hand, viewer=None, context=ctx)
    if later:
        history = HandHistory(full, {}, seats={pid: seat for seat, pid in players.items()})
    else:
        views = {
            pid: PlayerView(
                write_phh(hand, viewer=seat, context=ctx), write_pokerstars(hand, ctx, viewer=seat)
            )
            for seat, pid in players.items()
        }
        history = HandHistory(full, views)
    stacks = hand.stacks()
    await store.journal.end_hand(
        hand_id,
        deck_text=deck,
        salt=salt,
        deltas={r.session_id: stacks[r.seat] - r.stack for r in seats},
        rake=0,
        points={},
        history=history,
        now=ended,
    )


async def store_tournament_hand(
    store: Store, hand_id: str, hand: HandState, players: dict[int, int], ended: datetime
) -> None:
    """A tournament hand as the tournament store keeps it (the audit PHH and each player's own copy)."""
    ctx = HandContext(
        hand_id=hand_id,
        table="Final",
        players={seat: f"n{pid}" for seat, pid in players.items()},
        time=ended,
        tournament=TournamentInfo("cup-1", "Cup"),
    )
    async with store.db.write() as conn:
        await conn.execute(
            insert(TournamentHandRow),
            {
                "id": hand_id,
                "tournament_id": "cup-1",
                "table_id": "cup-1/1",
                "game": hand.variant.code,
                "ended_at": ended,
                "full_phh": write_phh(hand, viewer=None, context=ctx),
            },
        )
        await conn.execute(
            insert(TournamentPlayerHandRow),
            [
                {
                    "player_id": pid,
                    "hand_id": hand_id,
                    "ended_at": ended,
                    "seat": None,
                    "phh": write_phh(hand, viewer=seat, context=ctx),
                    "pokerstars": "",
                }
                for seat, pid in players.items()
            ],
        )


def _seating(subject: int, others: list[int], seat: int) -> dict[int, int]:
    """Seat -> player: the subject at ``seat``, the others in the remaining seats."""
    rest = iter(others)
    return {s: (subject if s == seat else next(rest)) for s in (1, 2, 3)}


async def _known_room(s: LiveServer) -> dict[str, Any]:
    tokens = {n: await register(s, n) for n in ("alice", "bobby", "carol")}
    ids = {n: await _account(s, t) for n, t in tokens.items()}
    store = s.room.store
    for i in range(len(HANDS)):
        players = _seating(ids["alice"], [ids["bobby"], ids["carol"]], SUBJECT_SEAT[i])
        await store_hand(store, f"h{i + 1}", _hand(i), players, ENDED[i], later=i >= 3)
    # a tournament hand (chips): alice at seat 2 wins H2's pot again
    await store_tournament_hand(
        store,
        "cup-1-h1",
        _hand(1),
        {1: ids["bobby"], 2: ids["alice"], 3: ids["carol"]},
        T0 + timedelta(days=3),
    )
    return {"tokens": tokens, "ids": ids}


async def _get(s: LiveServer, token: str | None, path: str, **params: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=s.url, headers=headers, timeout=60) as http:
        return await http.get(path, params={k: v for k, v in params.items() if v is not None})


@pytest.mark.asyncio
async def test_lifetime_stats_of_known_hands(tmp_path: Path) -> None:
    async with serve_room(tmp_path, RoomSettings(), durable=False) as s:
        known = await _known_room(s)
        alice = known["tokens"]["alice"]
        r = await _get(s, alice, "/api/my/stats")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["pending"] == 0 and body["unreadable"] == 0
        assert body["currencies"] == {"PLAY": 5, "CHIPS": 1}
        assert body["currency"] == "PLAY"
        t = body["totals"]
        # by hand: hands 5, net -18 + 8 + 4 - 6 + 0 = -12; VPIP H1 H2 H4 = 3/5; PFR H1 H2 = 2/5; 3-bet
        # chances H2 H4, taken in H2 = 1/2; saw the flop H1 H3 H4, showdowns H1 H3 = 2/3; won H3 = 1/2
        assert (t["hands"], t["net"]) == (5, -12)
        assert t["rates"] == {"vpip": 60.0, "pfr": 40.0, "three_bet": 50.0, "wtsd": 66.7, "wsd": 50.0}
        rows = {(row["game"], row["betting"], row["stakes"]): row for row in body["rows"]}
        assert set(rows) == {("holdem", "NL", "1/2"), ("holdem", "NL", "2/4")}
        assert (rows["holdem", "NL", "1/2"]["hands"], rows["holdem", "NL", "1/2"]["net"]) == (4, -12)
        assert rows["holdem", "NL", "1/2"]["rates"]["vpip"] == 75.0
        assert (rows["holdem", "NL", "2/4"]["hands"], rows["holdem", "NL", "2/4"]["rates"]["pfr"]) == (1, 0.0)
        # the graph: the cumulative result after each hand, in order
        assert [(p["n"], p["net"]) for p in body["graph"]] == [
            (1, -18),
            (2, -10),
            (3, -6),
            (4, -12),
            (5, -12),
        ]
        # sessions split by 30 minutes without a hand: H1-H3 (10 minutes), then H4-H5 (1 minute)
        assert body["session_count"] == 2
        assert [(x["hands"], x["net"], x["minutes"]) for x in body["sessions"]] == [(3, -6, 10), (2, -6, 1)]

        # filters change the figures
        day2 = (await _get(s, alice, "/api/my/stats", **{"from": "2026-03-02"})).json()
        assert (day2["totals"]["hands"], day2["totals"]["net"]) == (2, -6)
        day1 = (await _get(s, alice, "/api/my/stats", to="2026-03-01")).json()
        assert (day1["totals"]["hands"], day1["totals"]["net"]) == (3, -6)
        small = (await _get(s, alice, "/api/my/stats", stakes="1/2")).json()
        assert small["totals"]["hands"] == 4
        cup = (await _get(s, alice, "/api/my/stats", kind="tournament")).json()
        assert cup["currency"] == "CHIPS" and cup["currencies"] == {"CHIPS": 1}
        assert (cup["totals"]["hands"], cup["totals"]["net"], cup["totals"]["three_bet"]) == (1, 8, 1)
        none = (await _get(s, alice, "/api/my/stats", game="stud")).json()
        assert none["totals"]["hands"] == 0 and none["currency"] is None and none["graph"] == []

        # the others see their own hands only
        bobby = (await _get(s, known["tokens"]["bobby"], "/api/my/stats")).json()
        assert bobby["totals"]["hands"] == 5
        assert bobby["totals"]["net"] != t["net"]

        # the session summary
        r = await _get(s, alice, "/api/my/stats/sessions.csv")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
        lines = list(csv.reader(io.StringIO(r.text)))
        assert lines == [
            ["start", "end", "minutes", "hands", "profit", "currency"],
            ["2026-03-01T23:00:00+00:00", "2026-03-01T23:10:00+00:00", "10", "3", "-6", "PLAY"],
            ["2026-03-02T01:00:00+00:00", "2026-03-02T01:01:00+00:00", "1", "2", "-6", "PLAY"],
        ]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"game": "chess"}, "game"),
        ({"kind": "rush"}, "kind"),
        ({"currency": "euro"}, "currency"),
        ({"stakes": "1/2 OR 1=1"}, "stakes"),
        ({"from": "yesterday"}, "from"),
        ({"from": "2026-03-05", "to": "2026-03-01"}, "to"),
    ],
)
@pytest.mark.asyncio
async def test_bad_filters_are_typed_errors_and_anonymous_callers_are_refused(
    tmp_path: Path, params: dict[str, str], field: str
) -> None:
    async with serve_room(tmp_path, RoomSettings(), durable=False) as s:
        token = await register(s, "alice")
        for path in ("/api/my/stats", "/api/my/stats/sessions.csv"):
            r = await _get(s, token, path, **params)
            assert r.status_code == 400, r.text
            assert r.json()["code"] == "invalid_filter"
            assert r.json()["details"]["field"] == field
            anon = await _get(s, None, path)
            assert anon.status_code == 401 and anon.json()["detail"]["code"] == "login_required"


@pytest.mark.asyncio
async def test_the_openapi_document_lists_the_filters_of_both_endpoints(tmp_path: Path) -> None:
    """The filters are one dependency of both endpoints: /openapi.json still describes each of them on
    both, with ``gap``'s bounds (docs/protocol.md: 5-1440 minutes, 30 by default)."""
    async with serve_room(tmp_path, RoomSettings(), durable=False) as s:
        spec = (await _get(s, None, "/openapi.json")).json()
    for path in ("/api/my/stats", "/api/my/stats/sessions.csv"):
        query = {q["name"]: q for q in spec["paths"][path]["get"]["parameters"] if q["in"] == "query"}
        assert list(query) == ["game", "stakes", "kind", "currency", "from", "to", "gap"], path
        assert all(q["description"] and not q["required"] for q in query.values()), path
        gap = query["gap"]["schema"]
        assert (gap["minimum"], gap["maximum"], gap["default"]) == (5, 1440, 30), path


@pytest.mark.asyncio
async def test_the_figures_are_written_a_bounded_batch_at_a_time_and_the_query_count_is_fixed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each request reads at most FILL_BATCH histories and says how many wait; once every hand has its
    figures the number of SQL statements of a request does not grow with the number of hands."""
    from pokerroom.server import http_mystats

    monkeypatch.setattr(http_mystats, "FILL_BATCH", 2)
    async with serve_room(tmp_path, RoomSettings(), durable=False) as s:
        known = await _known_room(s)
        alice = known["tokens"]["alice"]
        pending = [(await _get(s, alice, "/api/my/stats")).json()["pending"] for _ in range(4)]
        assert pending == [4, 2, 0, 0]  # 6 hands (5 cash, 1 tournament), 2 a request

        statements: list[str] = []
        db = s.room.store.db
        engines = [db.engine.sync_engine] + ([db.sync_engine] if db.sync_engine is not None else [])

        def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            statements.append(statement)

        for e in engines:
            event.listen(e, "before_cursor_execute", count)
        try:
            await _get(s, alice, "/api/my/stats")
            few = len([x for x in statements if "player_hand_figures" in x or "player_hands" in x])
            # ten times the hands for alice, figured, and the same request again
            async with db.write() as conn:
                await conn.execute(
                    insert(PlayerHandFigureRow),
                    [
                        _row(known["ids"]["alice"], f"x{i}", int(T0.timestamp()) + 60 * i, 10 * (i % 7) - 30)
                        for i in range(500)
                    ],
                )
            statements.clear()
            body = (await _get(s, alice, "/api/my/stats")).json()
            many = len([x for x in statements if "player_hand_figures" in x or "player_hands" in x])
        finally:
            for e in engines:
                event.remove(e, "before_cursor_execute", count)
        assert body["totals"]["hands"] == 505
        assert len(body["graph"]) <= 402
        assert few == many and many <= 8


def _row(player_id: int, hand_id: str, ended_s: int, net: int, **extra: Any) -> dict[str, Any]:
    return {
        "player_id": player_id,
        "hand_id": hand_id,
        "kind": "cash",
        "ended_s": ended_s,
        "game": "holdem",
        "betting": "NL",
        "currency": "PLAY",
        "stakes": "1/2",
        "readable": 1,
        "net": net,
        **dict.fromkeys(FIGURES, 0),
        **extra,
    }


# -- sessions: the profit of all sessions is the sum of the results --------------------------------------


@pytest.fixture(scope="module")
def figures_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite database with one player (id 1), copied for each example."""
    path = tmp_path_factory.mktemp("mystats") / "template.db"

    async def make() -> None:
        db = Database(f"sqlite+aiosqlite:///{path}", sqlite_synchronous="OFF")
        await db.upgrade()
        async with db.write() as conn:
            await conn.execute(
                insert(PlayerRow),
                {
                    "id": 1,
                    "name": "alice",
                    "name_key": "alice",
                    "password_hash": "x",
                    "role": "player",
                    "failed_logins": 0,
                    "created_at": T0,
                },
            )
        await db.dispose()

    asyncio.run(make())
    return path


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    hands=st.lists(st.tuples(st.integers(0, 4 * 3600), st.integers(-10_000, 10_000)), max_size=60),
    gap_min=st.integers(5, 90),
    points=st.integers(1, 20),
)
def test_the_sessions_add_up_to_the_results(
    figures_template: Path,
    tmp_path_factory: pytest.TempPathFactory,
    hands: list[tuple[int, int]],
    gap_min: int,
    points: int,
) -> None:
    """Whatever the hands' times and results: every hand is in exactly one session, the sessions' profits
    add up to the sum of the results, a session has no pause longer than the gap and two sessions are
    more than the gap apart; the graph ends on the same sum after the last hand, with at most about
    ``points`` points."""
    path = tmp_path_factory.mktemp("ex") / "p.db"
    shutil.copy(figures_template, path)
    sessions, graph = asyncio.run(_sessions_of(path, hands, gap_min * 60, points))
    gap = gap_min * 60
    assert sum(x["net"] for x in sessions) == sum(net for _, net in hands)
    assert sum(x["hands"] for x in sessions) == len(hands)
    times = sorted(t for t, _ in hands)
    for x in sessions:
        inside = [t for t in times if x["start"] - T0S <= t <= x["end"] - T0S]
        assert len(inside) >= x["hands"]
        assert all(b - a <= gap for a, b in itertools.pairwise(inside))
    for a, b in itertools.pairwise(sessions):
        assert b["start"] - a["end"] > gap
    if hands:
        assert graph[-1][0] == len(hands) and graph[-1][2] == sum(net for _, net in hands)
        assert len(graph) <= points + 2
    else:
        assert graph == []


T0S = int(T0.timestamp())


async def _sessions_of(
    path: Path, hands: list[tuple[int, int]], gap: int, points: int
) -> tuple[list[dict[str, int]], list[tuple[int, int, int]]]:
    db = Database(f"sqlite+aiosqlite:///{path}", sqlite_synchronous="OFF")
    try:
        stats = MyStats(db)
        await stats.save(1, [_row(1, f"h{i}", T0S + t, net) for i, (t, net) in enumerate(hands)])
        series = await stats.series(1, StatsFilter())
        return sessions_of(series, gap), graph_of(series, points)
    finally:
        await db.dispose()


# -- every game: the figures are consistent and the results are the chips that moved ----------------------


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6))
def test_every_games_figures_add_up(case: tuple[str, Betting], seed: int) -> None:
    """A random hand of any game and structure: each player's result is his stack's change, the results
    of all the players add up to minus the rake (chips are neither made nor lost), and the counts are
    consistent: PFR only with VPIP, a 3-bet only with its chance, a won showdown only with a showdown, a
    showdown only after the second street."""
    game, betting = case
    hand = next(random_hands(game, betting, 1, seed=str(seed)))
    ctx = HandContext(hand_id="h", table="T", players={s: f"p{s}" for s in hand.order})
    audit = write_phh(hand, viewer=None, context=ctx)
    stacks = hand.stacks()
    total = 0
    for seat in hand.order:
        f = hand_figures(audit, seat)
        assert f == hand_figures(write_phh(hand, viewer=seat, context=ctx))
        assert f.net == stacks[seat] - hand.players[seat].starting_stack
        assert f.game == game and f.betting == betting.value
        assert f.pfr <= f.vpip and f.three_bet <= f.three_bet_chance and f.won_showdown <= f.showdown
        assert f.showdown <= f.saw_second
        total += f.net
    assert total == -hand.rake
