"""The per-viewer table snapshot shows no hidden card (R10, R184)."""

from __future__ import annotations

import json
import random

import pytest

from pokerroom.engine import (
    BetDecision,
    Betting,
    Call,
    Check,
    HandState,
    ListDeck,
    SeatSetup,
    Stakes,
    Structure,
)
from pokerroom.engine.events import RoundEnded
from pokerroom.rooms import CashTable, TableConfig
from pokerroom.rooms.view import hand_view, table_view
from pokerroom.variants import VARIANTS
from tests.engine.helpers import default_stakes, random_command

from .helpers import at, holdem_table


def test_viewer_sees_own_cards_only() -> None:
    t = holdem_table()
    for i, name in enumerate(("ann", "bob", "cid"), start=1):
        t.sit(name, name, i, 10000, at(0))
    t.tick(at(1))
    hand = t.hand
    assert hand is not None
    for viewer in ("ann", "bob", "cid", None):
        view = table_view(t, viewer, at(2))
        text = json.dumps(view)
        for seat, p in hand.players.items():
            mine = viewer is not None and t.seat_of(viewer) == seat
            for card in p.hole:
                assert (str(card) in text) == mine
        assert view["hand"]["players"]["1"]["cards"] in (["??", "??"], [str(c) for c in hand.players[1].hole])


def test_stud_up_cards_are_public_down_cards_private() -> None:
    cfg = TableConfig(
        "s",
        "S",
        "stud",
        Betting.FIXED_LIMIT,
        Stakes.fixed_limit(200, 400, ante=40, bring_in=50, blinds=False),
        8,
    )
    t = CashTable(cfg, random.Random(9))
    t.sit("ann", "ann", 1, 4000, at(0))
    t.sit("bob", "bob", 2, 4000, at(0))
    t.tick(at(1))
    hand = t.hand
    assert hand is not None
    view = table_view(t, None, at(1))
    for seat, p in hand.players.items():
        shown = view["hand"]["players"][str(seat)]["cards"]
        assert shown == ["??", "??", str(p.hole[2])]
    # The snapshot says which cards are face up, so a client that reconnects draws the viewer's own
    # down cards as down cards (issue 7).
    mine = table_view(t, "ann", at(1))["hand"]["players"]["1"]
    assert mine["up"] == [False, False, True] and "??" not in mine["cards"]


def test_the_acting_player_gets_his_decision_and_clock() -> None:
    t = holdem_table()
    t.sit("ann", "ann", 1, 10000, at(0))
    t.sit("bob", "bob", 2, 10000, at(0))
    t.tick(at(1))
    hand = t.hand
    assert hand is not None
    d = hand.pending
    assert isinstance(d, BetDecision)
    actor = t.seats[d.seat].player
    view = table_view(t, actor, at(3))
    assert view["hand"]["decision"]["seat"] == d.seat
    assert view["clocks"][str(d.seat)]["action_left"] == 13
    other = table_view(t, "bob" if actor == "ann" else "ann", at(3))
    assert "decision" not in other["hand"] and other["hand"]["to_act"] == d.seat
    t.act(actor, Call(d.seat) if d.call else Check(d.seat), at(4))


@pytest.mark.parametrize("game", ["holdem", "omaha8", "stud", "deuce7_triple", "irish"])
def test_snapshot_pots_are_the_pots_the_last_round_reported(game: str) -> None:
    """A (re)connecting client's pots match what the other clients drew from the events: chips bet in the
    current round are in front of the players, not yet in the main or a side pot (RULES.md §3.8, R83)."""
    v = VARIANTS[game]
    rng = random.Random(game)
    checked = 0
    for _ in range(60):
        n = rng.randint(3, min(6, v.max_players))
        stacks = {s: rng.choice([300, 900, 2500, rng.randint(50, 8000)]) for s in range(1, n + 1)}
        betting = v.structures[0]
        hand = HandState.start(
            variant=v,
            structure=Structure(betting, default_stakes(game, betting)),
            seats=[SeatSetup(s, st) for s, st in stacks.items()],
            deck=ListDeck.shuffled(v.deck_for(n), rng),
            button=1,
        )
        reported: list[int] | None = None
        seen = 0
        while not hand.is_over:
            hand.apply(random_command(hand, rng))
            for e in hand.events[seen:]:
                if isinstance(e, RoundEnded):
                    reported = list(e.pots)
            seen = len(hand.events)
            if reported is not None and not hand.is_over:
                bets = sum(p.bet for p in hand.players.values())
                pots = hand_view(hand, None)["pots"]
                assert pots == reported
                assert sum(pots) + bets == sum(p.paid for p in hand.players.values())
                checked += 1
    assert checked > 30
