"""Property-based tests of the hand engine on malformed commands and corrupt snapshots, and the
regressions the properties found (the machinery: properties.py; whole hands of each family of games:
test_properties_board.py, test_properties_stud.py, test_properties_draw.py)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.engine import (
    Betting,
    Blinds,
    Call,
    Command,
    DiscardDecision,
    DrawDecision,
    EngineError,
    Fold,
    HandState,
    ListDeck,
    QuickFold,
    RestoreError,
    SeatSetup,
    Stakes,
    Structure,
    TimeOut,
    command_from_dict,
)
from pokerroom.engine.events import ActionTaken, CardsShown, PotAwarded
from pokerroom.variants import VARIANTS

from .helpers import random_command
from .properties import (
    CHEAP,
    CODES,
    FL,
    GAMES,
    NL,
    PL,
    PROFILE,
    TOKENS,
    Config,
    check_payout,
    check_showdown,
    check_step,
    fingerprint,
    tables,
)
from .referee import Referee

# ------------------------------------------------------------------------------ malformed data

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)
KINDS = ["fold", "check", "call", "raise_to", "bring_in", "draw", "discard", "show", "muck", "timeout"]
CARD_TEXT = st.text(alphabet="AKQJT98765432cdhs ?10,[]x", max_size=14)
COMMANDISH = st.fixed_dictionaries(
    {"type": st.sampled_from(KINDS) | st.text(max_size=12) | JSON},
    optional={
        "seat": st.integers(-3, 12) | JSON,
        "amount": st.integers(-5, 10**7) | JSON,
        "cards": CARD_TEXT | st.lists(CARD_TEXT, max_size=6) | JSON,
    },
)


@CHEAP
@given(raw=st.one_of(JSON, COMMANDISH), seed=st.integers(0, 2**16))
def test_malformed_commands_are_refused_cleanly(raw: Any, seed: int) -> None:
    """command_from_dict either builds a command that round-trips or raises BadCommand; applying what it
    builds to a hand either works or raises an EngineError that changes nothing."""
    try:
        command = command_from_dict(raw)
    except EngineError as exc:
        assert exc.code == "bad_command"
        return
    assert command_from_dict(json.loads(json.dumps(command.to_dict()))) == command
    rng = random.Random(seed)
    game = rng.choice(GAMES)
    v = VARIANTS[game]
    betting = rng.choice(v.structures)
    stakes = Stakes.blinds(5, 10) if betting is not FL else Stakes.fixed_limit(10)
    if v.is_stud:
        stakes = Stakes.fixed_limit(10, 20, ante=2, bring_in=5, blinds=False)
    seats = [SeatSetup(s, 500) for s in (2, 5, 7)]
    deck = ListDeck.shuffled(v.deck_for(3), rng)
    hand = HandState.start(variant=v, structure=Structure(betting, stakes), seats=seats, deck=deck)
    before = fingerprint(hand)
    try:
        hand.apply(command)
    except EngineError as exc:
        assert exc.code in CODES
        assert fingerprint(hand) == before


@PROFILE
@given(data=st.data())
def test_corrupt_snapshots_are_refused_cleanly(data: st.DataObject) -> None:
    """HandState.restore of damaged data raises RestoreError (or restores a valid hand), nothing else."""
    cfg = data.draw(tables(data.draw(st.sampled_from(GAMES))))
    hand = cfg.start()
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    for _ in range(data.draw(st.integers(0, 12))):
        if hand.is_over:
            break
        hand.apply(random_command(hand, rng))
    snapshot = json.loads(json.dumps(hand.snapshot()))
    damages: list[Any] = [data.draw(JSON)]
    wrongs: tuple[Any, ...] = (None, [], {}, "x", -1)
    field: str
    for field in snapshot:  # every field: removed, or of a wrong type
        for wrong in wrongs:
            damaged = json.loads(json.dumps(snapshot))
            damaged[field] = wrong
            damages.append(damaged)
        damaged = json.loads(json.dumps(snapshot))
        del damaged[field]
        damages.append(damaged)
    # and one place at a random depth replaced by any JSON
    pick = data.draw(st.randoms(use_true_random=False))
    damaged = json.loads(json.dumps(snapshot))
    node: Any = damaged
    parent: Any = None
    key: Any = None
    for _ in range(pick.randint(1, 4)):
        if not isinstance(node, dict | list) or not node:
            break
        parent, key = node, pick.choice(list(node) if isinstance(node, dict) else range(len(node)))
        node = node[key]
    if parent is not None:
        parent[key] = data.draw(st.sampled_from([None, [], {}, "x", -1, 1.5, True]) | JSON)
        damages.append(damaged)
    for damaged in damages:
        check_restore(damaged, hand)


def check_restore(damaged: Any, hand: HandState) -> None:
    try:
        restored = HandState.restore(damaged)
    except RestoreError as exc:
        assert exc.code == "bad_snapshot"
        assert not any(TOKENS[c].search(str(exc)) for c in hand.deck_spec.cards())  # no deck in errors
        return
    assert isinstance(restored, HandState)


# ------------------------------------------------------------------- regressions found by these properties


def test_stud_no_bring_in_when_the_others_are_all_in_on_the_ante() -> None:
    """RULES §3.1 / §4.5: with every other player all-in for the ante there is nobody to bet against, so
    no bring-in is asked for (it could only come back uncalled) and the hand runs out by itself."""
    hand = HandState.start(
        variant=VARIANTS["stud"],
        structure=Structure(FL, Stakes.fixed_limit(2, 4, ante=2, bring_in=1, blinds=False)),
        seats=[SeatSetup(1, 50), SeatSetup(2, 2), SeatSetup(3, 2)],
        deck=ListDeck.from_text("2c 3c 4c  5c 6c 7c  8c 9c 2d"),
    )
    assert hand.is_over
    assert not any(isinstance(e, ActionTaken) for e in hand.events)
    assert sum(hand.stacks().values()) == 54


def test_restore_refuses_snapshots_with_wrong_types() -> None:
    """A snapshot with a field of the wrong type (the deck, the phh codes, ...) is refused with
    RestoreError (code "bad_snapshot"), never another exception."""
    hand = HandState.start(
        variant=VARIANTS["holdem"],
        structure=Structure(Betting.NO_LIMIT, Stakes.blinds(5, 10)),
        seats=[SeatSetup(1, 100), SeatSetup(2, 100), SeatSetup(3, 100)],
        deck=ListDeck.from_text(""),
    )
    hand.apply(Call(3))
    snapshot = hand.snapshot()
    wrongs: tuple[Any, ...] = (None, True, -1, 1.5, "x", [], [1], {})
    for top, sub in [(k, None) for k in snapshot] + [("variant", k) for k in snapshot["variant"]]:
        for wrong in wrongs:
            damaged = json.loads(json.dumps(snapshot))
            if sub is None:
                damaged[top] = wrong
            else:
                damaged[top][sub] = wrong
            try:
                HandState.restore(damaged)
            except RestoreError as exc:
                assert exc.code == "bad_snapshot"


# A Rush quick fold against a bet that is then folded (found by test_hand_properties on omaha5: PL, ante
# 12 > big blind 10, seat 3 posting a live big blind, stacks {1: 16, 2: 1, 3: 204}).

BLIND_GAMES = [g for g in GAMES if not VARIANTS[g].is_stud]


def _live_blind_table(game: str, stacks: dict[int, int], sb: int, ante: int) -> Config:
    """Button 3: seat 1 small blind, seat 2 big blind, seat 3 a live big blind, acting first preflop."""
    v = VARIANTS[game]
    betting = next(b for b in (PL, NL, FL) if b in v.structures)
    small, big = (10, 20) if betting is FL else (0, 0)
    structure = Structure(betting, Stakes(sb, 10, small, big, ante, 0, 1))
    cards = list(v.deck_for(len(stacks)).cards())
    blinds = Blinds(small=(1, sb), big=(2, 10), live=((3, 10),))
    return Config(game, structure, stacks, dict.fromkeys(stacks, True), 3, blinds, None, cards, cards)


def _drive(cfg: Config, commands: Sequence[Command]) -> tuple[HandState, Referee]:
    """Apply ``commands`` checking the engine against the referee at every step, as ``play`` does."""
    hand, ref = cfg.start(), cfg.referee()
    ref.feed(hand.events)
    check_step(hand, ref, cfg)
    for command in commands:
        new = hand.apply(command)
        if isinstance(command, QuickFold) and not new:
            ref.quick.add(command.seat)
        ref.feed(new)
        check_step(hand, ref, cfg)
    return hand, ref


@pytest.mark.parametrize("game", BLIND_GAMES)
@pytest.mark.parametrize(
    ("stacks", "sb", "ante"),
    [
        ({1: 16, 2: 1, 3: 204}, 0, 12),  # the big blind all-in on an ante larger than the blinds
        ({1: 16, 2: 1, 3: 204}, 2, 12),  # the same with a small blind posted
        ({1: 200, 2: 3, 3: 200}, 5, 0),  # no ante: a big blind all-in for less than the small blind
    ],
)
def test_a_quick_fold_stands_when_the_bet_it_faced_is_folded(
    game: str, stacks: dict[int, int], sb: int, ante: int
) -> None:
    """Seat 1 quick-folds facing seat 3's live blind (R201); seat 3 then folds at his option. Every other
    active player is all-in for no more than seat 1 has in, so an ordinary seat 1 would not be asked to
    act (nobody left to bet against, §3.1, §3.6). But a quick fold is final (R203, §8.5; decisions.md:
    the entry's result is booked at once): the action passes to his seat and his fold is shown there
    (R204), and the all-in big blind wins the hand without a showdown (§3.7)."""
    cfg = _live_blind_table(game, stacks, sb, ante)
    hand, ref = _drive(cfg, [QuickFold(1), Fold(3)])
    folds = [e.seat for e in hand.events if isinstance(e, ActionTaken) and e.action == "fold"]
    assert folds == [3, 1]
    assert hand.is_over and ref.expect().kind == "done"
    assert not any(isinstance(e, CardsShown) for e in hand.events)
    check_payout(hand, ref, cfg)
    check_showdown(hand, ref, cfg)
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert {w for a in awards for w in a.winners} == {2}


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_without_a_quick_fold_the_bet_folded_leaves_nothing_to_act_on(game: str) -> None:
    """The same hand without the quick fold: seat 1 is not asked to call a bet whose maker folded when
    the only other player is all-in for less (§3.1, §3.6); the hand runs out with both hands face up
    (§6.5)."""
    cfg = _live_blind_table(game, {1: 16, 2: 1, 3: 204}, 0, 12)
    hand, ref = _drive(cfg, [Fold(3)])
    while not hand.is_over:  # draws stand pat, Irish discards are the server's choice
        p = hand.pending
        assert isinstance(p, DrawDecision | DiscardDecision), p
        seat = p.seat if isinstance(p, DrawDecision) else p.seats[0]
        ref.feed(hand.apply(TimeOut(seat)))
        check_step(hand, ref, cfg)
    assert not any(isinstance(e, ActionTaken) and e.seat == 1 for e in hand.events)
    assert {e.seat for e in hand.events if isinstance(e, CardsShown) and e.reason == "all_in"} == {1, 2}
    check_payout(hand, ref, cfg)
    check_showdown(hand, ref, cfg)
