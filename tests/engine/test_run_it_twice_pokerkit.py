"""Run it twice against PokerKit 0.7 (a test-only dependency): the same cards, every player choosing two
runouts, the same finishing stacks.

PokerKit's PHH notation has no runout-count action (the PHH standard has none either), so the hands are
played through PokerKit's state API (`select_runout_count`), not replayed from our PHH text. PokerKit
deals the runouts one after the other, each street with its burn, as we do, and halves each pot with
the remainder to the first board and, inside a board, to the high hand: the same as R-RIT. The hands
are heads-up, where PokerKit's odd chips of a tie go to the same player as ours (RULES.md §3.9; in
three-way ties PokerKit gives a pot's whole remainder to its first winner, test_pokerkit_diff.py).
"""

from __future__ import annotations

import dataclasses
import random
import warnings
from collections import deque
from importlib.metadata import version
from typing import Any

import pytest

from pokerroom.engine import (
    BetDecision,
    Betting,
    Call,
    HandState,
    ListDeck,
    RaiseTo,
    RunTwice,
    RunTwiceDecision,
    SeatSetup,
    Stakes,
    Structure,
)
from pokerroom.engine.events import PotAwarded
from pokerroom.variants import VARIANTS

pk = pytest.importorskip("pokerkit", reason="pokerkit (test extra) is not installed")
if not version("pokerkit").startswith("0.7."):
    pytest.skip(f"written for PokerKit 0.7, not {version('pokerkit')}", allow_module_level=True)

A = pk.Automation
AUTOMATIONS = (
    A.ANTE_POSTING,
    A.BET_COLLECTION,
    A.BLIND_OR_STRADDLE_POSTING,
    A.HOLE_CARDS_SHOWING_OR_MUCKING,
    A.HAND_KILLING,
    A.CHIPS_PUSHING,
    A.CHIPS_PULLING,
)


def _holdem(stacks: tuple[int, ...]) -> Any:
    return pk.NoLimitTexasHoldem.create_state(
        AUTOMATIONS, True, 0, (5, 10), 10, stacks, 2, mode=pk.Mode.CASH_GAME
    )


def _omaha8(stacks: tuple[int, ...]) -> Any:
    """Pot-limit Omaha hi/lo 8-or-better (PokerKit ships it fixed limit only: the same parts, pot limit)."""
    stock = pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter((), True, 0, (5, 10), 10, 20)
    streets = tuple(
        dataclasses.replace(s, min_completion_betting_or_raising_amount=10) for s in stock.streets
    )
    return pk.State(
        AUTOMATIONS,
        pk.Deck.STANDARD,
        tuple(stock.hand_types),
        streets,
        pk.BettingStructure.POT_LIMIT,
        True,
        0,
        (5, 10),
        0,
        stacks,
        2,
        mode=pk.Mode.CASH_GAME,
    )


GAMES = {"holdem": _holdem, "omaha8": _omaha8}


def play(game: str, seed: int) -> tuple[dict[int, int], dict[int, int], HandState]:
    """One heads-up hand, all-in preflop, both players choosing two runs: (ours, PokerKit's, our hand)."""
    rng = random.Random(seed)
    v = VARIANTS[game]
    stacks = {1: rng.randint(20, 400), 2: rng.randint(20, 400)}
    betting = Betting.POT_LIMIT if game == "omaha8" else Betting.NO_LIMIT
    hand = HandState.start(
        variant=v,
        structure=Structure(betting, Stakes.blinds(5, 10)),
        seats=[SeatSetup(s, st) for s, st in stacks.items()],
        deck=ListDeck.shuffled(v.deck, rng),
        button=2,
        run_it_twice=True,
    )
    order = [1, 2]  # PokerKit's players: the first seat left of the button, the button last
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = GAMES[game](tuple(stacks[s] for s in order))
        for s in order:
            state.deal_hole("".join(str(c) for c in hand.hole_cards(s)))
        while state.actor_index is not None:  # everybody puts everything in: raise while one can
            seat = order[state.actor_index]
            d = hand.pending
            assert isinstance(d, BetDecision) and d.seat == seat
            if state.can_complete_bet_or_raise_to() and d.raise_kind:
                target = d.max_to
                assert state.max_completion_betting_or_raising_to_amount == target
                state.complete_bet_or_raise_to(target)
                hand.apply(RaiseTo(seat, target))
            else:
                state.check_or_call()
                hand.apply(Call(seat))
        assert isinstance(hand.pending, RunTwiceDecision)
        for seat in hand.pending.seats:
            hand.apply(RunTwice(seat, True))
        # PokerKit 0.7.7 passes a given player index on as the runout count
        # (select_runout_count -> verify_runout_count_selection(player_index)): let it pick the player.
        while any(state.runout_count_selector_statuses):
            state.select_runout_count(2)
        # all-in preflop: the runs share no card; PokerKit is dealt run 1's board, then run 2's
        cards = deque((*hand.boards[0], *hand.boards[1]))
        while state.status:
            if state.can_burn_card():
                state.burn_card("??")
            elif state.can_deal_board():
                state.deal_board("".join(str(cards.popleft()) for _ in range(state.board_dealing_count)))
            else:
                break
    assert hand.is_over and hand.runs == 2 and not cards
    theirs = dict(zip(order, (int(x) for x in state.stacks), strict=True))
    return hand.stacks(), theirs, hand


@pytest.mark.parametrize("game", sorted(GAMES))
def test_two_runs_pay_as_pokerkit_does(game: str) -> None:
    split = 0
    for seed in range(60):
        ours, theirs, hand = play(game, seed)
        assert ours == theirs, f"seed {seed}: ours {ours}, PokerKit {theirs}, boards {hand.boards}"
        runs = {e.run: e.winners for e in hand.events if isinstance(e, PotAwarded)}
        split += runs.get(1) != runs.get(2)
    assert split, "no hand had different winners on the two boards"
